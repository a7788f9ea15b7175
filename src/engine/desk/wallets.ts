/**
 * The wallets as the desk shows and uses them: summaries, the addresses funds may sit at (what a build spends
 * from and a balance counts), the role tokens a wallet holds, and the wallets a review marks as "own".
 */
import type {
  AssetBalance,
  Funds,
  HeldFunds,
  WalletBalance,
  WalletKind,
  WalletSummary,
  WalletUtxo
} from '../../api/contract'
import type { ChainProvider, Utxo } from '../../chain/provider'
import { hexToBytes, utf8DecodeStrict } from '../../core/bytes'
import { assetNameText } from '../../core/cardano/asset-name'
import { formatRef } from '../../core/cardano/refs'
import type { Value } from '../../core/cardano/value'
import type { OwnWallet } from '../../core/cardano/review'
import type { HeldBy } from '../../store/service-store'
import type { WalletRequest } from '../build'
import type { Keystore, WalletInfo } from '../keys'

/** Payment and change indices 0..GAP-1 are where the desk looks for a wallet's funds. */
const ADDRESS_GAP = 5
/** How many addresses a review recognises as the wallet's own (the keystore's signing gap). */
const REVIEW_GAP = 20

const KIND: Readonly<Record<WalletInfo['kind'], WalletKind>> = {
  hd: 'mnemonic',
  'watch-only': 'watch-only',
  'single-key': 'signing-key',
  hardware: 'hardware'
}

type AssetTotals = Map<string, { policyId: string; assetName: string; quantity: bigint }>

/** Adds a value's tokens to the totals per (policy, name). */
function addAssets(totals: AssetTotals, value: Value): AssetTotals {
  for (const [policyId, names] of Object.entries(value.assets)) {
    for (const [assetName, quantity] of Object.entries(names)) {
      const key = `${policyId}.${assetName}`
      const entry = totals.get(key) ?? { policyId, assetName, quantity: 0n }
      totals.set(key, { ...entry, quantity: entry.quantity + quantity })
    }
  }
  return totals
}

/** Non-zero totals, ordered by policy then name, with display names. */
function assetBalances(totals: AssetTotals): AssetBalance[] {
  return [...totals.values()]
    .filter((a) => a.quantity !== 0n)
    .sort((a, b) => a.policyId.localeCompare(b.policyId) || a.assetName.localeCompare(b.assetName))
    .map((a) => ({ ...a, displayName: assetNameText(a.assetName) ?? a.assetName }))
}

function fundsOf(utxos: readonly Utxo[]): Funds {
  return {
    lovelace: utxos.reduce((sum, u) => sum + u.value.lovelace, 0n),
    assets: assetBalances(utxos.reduce((totals, u) => addAssets(totals, u.value), new Map() as AssetTotals))
  }
}

/** A value as funds: ada, and its tokens with display names. */
export const valueFunds = (value: Value): Funds => ({
  lovelace: value.lovelace,
  assets: assetBalances(addAssets(new Map(), value))
})

/**
 * What pending transactions hold of the wallet's outputs, and what is left for a new build. Superseded builds
 * are left out: they can never be submitted, and a new build takes their outputs when it needs them.
 */
function heldFunds(
  utxos: readonly Utxo[],
  held: readonly HeldBy[]
): { available: Funds; held: { unsigned: HeldFunds; submitted: HeldFunds } } {
  const pending = held.filter((b) => !b.superseded && b.status !== 'confirmed')
  const byRef = new Map(utxos.map((u) => [formatRef(u.ref), u]))
  const of = (status: 'unsigned' | 'submitted'): HeldFunds => {
    const builds = pending.filter((b) => b.status === status)
    const outputs = builds.flatMap((b) => b.refs.flatMap((ref) => byRef.get(ref) ?? []))
    return { count: builds.length, ...fundsOf(outputs) }
  }
  const heldRefs = new Set(pending.flatMap((b) => b.refs))
  return {
    available: fundsOf(utxos.filter((u) => !heldRefs.has(formatRef(u.ref)))),
    held: { unsigned: of('unsigned'), submitted: of('submitted') }
  }
}

/** "txid#index" by tx id, then numerically by index. */
function compareRefs(a: string, b: string): number {
  const [ta = '', ia = '0'] = a.split('#')
  const [tb = '', ib = '0'] = b.split('#')
  return ta.localeCompare(tb) || Number(ia) - Number(ib)
}

export interface WalletParties {
  readonly addresses: readonly string[]
  readonly roles: readonly { readonly policyId: string; readonly role: string }[]
  /** The outputs it holds now, "txid#index": a build that spends one of them is the wallet's. */
  readonly utxoRefs: ReadonlySet<string>
}

function roleTokensIn(utxos: readonly Utxo[]): { policyId: string; role: string }[] {
  const held = new Map<string, { policyId: string; role: string }>()
  for (const u of utxos) {
    for (const [policyId, names] of Object.entries(u.value.assets)) {
      for (const [assetName, quantity] of Object.entries(names)) {
        const role = utf8DecodeStrict(hexToBytes(assetName))
        if (quantity > 0n && role !== undefined) held.set(`${policyId}.${assetName}`, { policyId, role })
      }
    }
  }
  return [...held.values()]
}

export class Wallets {
  constructor(
    private readonly keystore: Keystore,
    private readonly provider: ChainProvider,
    /** The pending builds spending any of these outputs (`txid#ix`). */
    private readonly heldBy: (refs: readonly string[]) => Promise<readonly HeldBy[]>
  ) {}

  async list(): Promise<WalletSummary[]> {
    const { wallets } = await this.keystore.list()
    return Promise.all(wallets.map((w) => this.summaryOf(w)))
  }

  async summary(walletId: string): Promise<WalletSummary> {
    return this.summaryOf(await this.keystore.get(walletId))
  }

  /** The first payment address (receive and change) first, then the rest of the gap. */
  async fundAddresses(walletId: string): Promise<string[]> {
    const network = this.provider.network
    const [payment, change] = await Promise.all([
      this.keystore.addresses(walletId, network, { role: 'payment', count: ADDRESS_GAP }),
      this.keystore.addresses(walletId, network, { role: 'change', count: ADDRESS_GAP })
    ])
    return [...payment, ...change].map((a) => a.base ?? a.enterprise)
  }

  /** Runtime's wallet headers for a build: change to the first address, funds from every address. */
  async walletRequest(walletId: string): Promise<WalletRequest> {
    const [changeAddress, ...extraAddresses] = await this.fundAddresses(walletId)
    return { changeAddress: changeAddress!, extraAddresses }
  }

  async utxos(walletId: string): Promise<Utxo[]> {
    return this.provider.utxosAt(await this.fundAddresses(walletId))
  }

  async balance(walletId: string): Promise<WalletBalance> {
    const [summary, utxos] = await Promise.all([this.summary(walletId), this.utxos(walletId)])
    const list = utxos
      .map((u): WalletUtxo => ({
        ref: formatRef(u.ref),
        address: u.address,
        lovelace: u.value.lovelace,
        assets: valueFunds(u.value).assets,
        hasDatum: u.datumHash !== undefined || u.datum !== undefined
      }))
      .sort((a, b) => compareRefs(a.ref, b.ref))
    const { lovelace, assets } = fundsOf(utxos)
    const pending = heldFunds(utxos, await this.heldBy(list.map((u) => u.ref)))
    return { walletId, address: summary.address, lovelace, assets, utxoCount: utxos.length, utxos: list, ...pending }
  }

  /** The role names of `rolesCurrency` the wallet holds at least one token of. */
  async rolesHeld(walletId: string, rolesCurrency: string): Promise<string[]> {
    return (await this.heldTokens(walletId)).filter((t) => t.policyId === rolesCurrency).map((t) => t.role)
  }

  /** Every token the wallet holds whose name is text, as a (policy, role) pair: the role tokens it may hold. */
  async heldTokens(walletId: string): Promise<{ policyId: string; role: string }[]> {
    return roleTokensIn(await this.utxos(walletId))
  }

  /** Where the wallet stands in contracts, read from one look at its outputs: its addresses, role tokens, outputs. */
  async parties(walletId: string): Promise<WalletParties> {
    const addresses = await this.fundAddresses(walletId)
    const utxos = await this.provider.utxosAt(addresses)
    return {
      addresses,
      roles: roleTokensIn(utxos),
      utxoRefs: new Set(utxos.map((u) => formatRef(u.ref)))
    }
  }

  /** Every wallet, as a review recognises it: its addresses and keys, named by its id. */
  async ownWallets(): Promise<OwnWallet[]> {
    const { wallets } = await this.keystore.list()
    const network = this.provider.network
    return Promise.all(
      wallets.map(async (w) => {
        const [payment, change, keys] = await Promise.all([
          this.keystore.addresses(w.id, network, { role: 'payment', count: REVIEW_GAP }),
          this.keystore.addresses(w.id, network, { role: 'change', count: REVIEW_GAP }),
          this.keystore.ownedKeyHashes(w.id)
        ])
        const addresses = [...payment, ...change].flatMap((a) =>
          a.base === undefined ? [a.enterprise] : [a.base, a.enterprise]
        )
        return { id: w.id, addresses, keyHashes: [...keys.keys()] }
      })
    )
  }

  private async summaryOf(info: WalletInfo): Promise<WalletSummary> {
    const [first] = await this.keystore.addresses(info.id, this.provider.network, { role: 'payment', count: 1 })
    const locksAt = this.keystore.locksAt(info.id)
    return {
      id: info.id,
      name: info.name,
      kind: KIND[info.kind],
      ...(info.kind === 'hardware' ? { vendor: info.vendor } : {}),
      locked: locksAt === undefined,
      ...(locksAt === undefined ? {} : { locksAt: BigInt(locksAt) }),
      address: first!.base ?? first!.enterprise
    }
  }
}
