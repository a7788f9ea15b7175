/**
 * Links to a public block explorer (Cardanoscan) for a transaction or an address on the networks it indexes;
 * none for the sandbox, a ledger only this computer knows. The same table decides which URLs the desktop app
 * lets out to the system browser (`isExplorerUrl`), so a page can never open anything else.
 */
import { parseRef } from './refs'

const HOSTS: Readonly<Record<string, string>> = {
  mainnet: 'cardanoscan.io',
  preprod: 'preprod.cardanoscan.io',
  preview: 'preview.cardanoscan.io'
}

const TX_ID = /^[0-9a-f]{64}$/
/** A Shelley bech32 address (`addr…`/`addr_test…`) or a Byron base58 one; nothing that could change the path. */
const ADDRESS = /^(addr(_test)?1[02-9ac-hj-np-z]{20,200}|[1-9A-HJ-NP-Za-km-z]{20,200})$/

export type ExplorerTarget =
  { readonly kind: 'tx'; readonly txId: string } | { readonly kind: 'address'; readonly address: string }

/**
 * The explorer's page of `target` on `network`, or undefined when the network has no public explorer or the
 * target is not a transaction id or an address. A contract id or payout (`txid#ix`) links to its transaction.
 */
export function explorerUrl(network: string, target: ExplorerTarget): string | undefined {
  const host = Object.hasOwn(HOSTS, network) ? HOSTS[network] : undefined
  if (host === undefined) return undefined
  if (target.kind === 'address') {
    return ADDRESS.test(target.address) ? `https://${host}/address/${target.address}` : undefined
  }
  const txId = (parseRef(target.txId)?.txId ?? target.txId).toLowerCase()
  return TX_ID.test(txId) ? `https://${host}/transaction/${txId}` : undefined
}

/** Whether `url` is exactly a page `explorerUrl` makes: the allow-list of what may open outside the app. */
export function isExplorerUrl(url: string): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  if (parsed.protocol !== 'https:' || parsed.username !== '' || parsed.password !== '' || parsed.port !== '') {
    return false
  }
  if (parsed.search !== '' || parsed.hash !== '') return false
  const network = Object.keys(HOSTS).find((n) => HOSTS[n] === parsed.hostname)
  if (network === undefined) return false
  const [, kind, value, ...rest] = parsed.pathname.split('/')
  if (rest.length > 0 || value === undefined) return false
  const target: ExplorerTarget | undefined =
    kind === 'transaction'
      ? { kind: 'tx', txId: value }
      : kind === 'address'
        ? { kind: 'address', address: value }
        : undefined
  return target !== undefined && explorerUrl(network, target) === url
}
