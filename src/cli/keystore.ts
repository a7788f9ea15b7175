/** Where the CLI keeps wallets: --keystore, else $MARLOWE_DESK_HOME/keys, else ~/.marlowe-desk/keys. */
import { join } from 'node:path'
import { EngineError } from '../engine/errors'
import { VENDOR_NAME } from '../engine/hardware'
import { Keystore, type WalletInfo } from '../engine/keys'
import { desktopHome } from './chain'
import { CliError } from './errors'

export const keystoreOption = { keystore: { type: 'string' } } as const

const WALLET_ID = /^[0-9a-fA-F]{40}$/

export function keystoreDir(option: string | undefined): string {
  if (option !== undefined) return option
  return join(desktopHome(), 'keys')
}

export function openKeystore(option: string | undefined): Promise<Keystore> {
  return Keystore.open({ dir: keystoreDir(option) })
}

const sameName = (a: string, b: string): boolean =>
  a.normalize('NFC').toLowerCase() === b.normalize('NFC').toLowerCase()

/**
 * The wallet a person named: by its id, or by its whole name in any case. Names need not be unique, so a name
 * several wallets share is refused with their ids, rather than one of them being picked.
 */
export async function findWallet(keys: Keystore, text: string): Promise<WalletInfo> {
  let idError: EngineError | undefined
  if (WALLET_ID.test(text)) {
    try {
      return await keys.get(text.toLowerCase())
    } catch (e) {
      if (!(e instanceof EngineError && e.code === 'WalletNotFound')) throw e
      idError = e
    }
  }
  const named = (await keys.list()).wallets.filter((w) => sameName(w.name, text))
  if (named.length === 1) return named[0]!
  if (named.length > 1) {
    throw new CliError(
      `${named.length} wallets are named "${text}": ${named.map((w) => w.id).join(', ')}; give the id of the one you mean`
    )
  }
  if (idError !== undefined) throw idError
  throw new CliError(`no wallet has the id or name "${text}" ("marlowe-desk keys list" shows them)`)
}

/**
 * The wallet `tx sign` signs with: one whose keys are in the keystore. A hardware or watch-only wallet is refused
 * before any password is asked for, with where its signature can be made instead.
 */
export async function signingWallet(keys: Keystore, text: string): Promise<WalletInfo> {
  const wallet = await findWallet(keys, text)
  if (wallet.kind === 'hardware') {
    const vendor = VENDOR_NAME[wallet.vendor]
    throw new CliError(
      `wallet "${wallet.name}" keeps its keys on a ${vendor}, and the CLI does not reach devices: import the file in the Desk app and sign it there ("Sign on the ${vendor} and save the witness")`
    )
  }
  if (wallet.kind === 'watch-only') {
    throw new CliError(`wallet "${wallet.name}" is watch-only: it holds no keys; sign the file where its keys are`)
  }
  return wallet
}
