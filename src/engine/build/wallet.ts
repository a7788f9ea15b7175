/**
 * The wallet a build draws on (Runtime's `loadWalletContext`): every UTxO at the change address and the extra
 * addresses, the explicit collateral among them, and the addresses' networks checked against the chain's.
 */
import type { ChainProvider, Utxo } from '../../chain/provider'
import { AddressError, parseShelleyAddress, type ShelleyAddress } from '../../core/cardano/address'
import { badRequest } from './build-errors'
import { formatRef } from '../../core/cardano/refs'
import type { WalletRequest } from './types'

export interface Wallet {
  readonly changeAddress: string
  readonly change: ShelleyAddress
  readonly addresses: readonly string[]
  /** UTxOs the wallet can spend with a key, oldest reference first; none carries a reference script. */
  readonly utxos: readonly Utxo[]
  /** The requested collateral that is in the wallet; empty means any wallet UTxO may serve. */
  readonly collateral: readonly Utxo[]
}

export function checkAddress(text: string, mainnet: boolean, field: string): ShelleyAddress {
  let parsed: ShelleyAddress
  try {
    parsed = parseShelleyAddress(text)
  } catch (e) {
    if (e instanceof AddressError) throw badRequest(`Invalid ${field} value: ${e.message}`, { field, address: text })
    throw e
  }
  if (parsed.mainnet !== mainnet) {
    const expected = mainnet ? 'a mainnet' : 'a testnet'
    throw badRequest(`Invalid ${field} value: ${text} is not ${expected} address`, { field, address: text })
  }
  return parsed
}

function byRef(a: Utxo, b: Utxo): number {
  if (a.ref.txId !== b.ref.txId) return a.ref.txId < b.ref.txId ? -1 : 1
  return a.ref.index - b.ref.index
}

export async function loadWallet(provider: ChainProvider, request: WalletRequest): Promise<Wallet> {
  const mainnet = provider.networkId === 1
  const change = checkAddress(request.changeAddress, mainnet, 'change address')
  const extra = request.extraAddresses ?? []
  for (const a of extra) checkAddress(a, mainnet, 'addresses header')
  const addresses = [...new Set([request.changeAddress, ...extra])]
  const keyAddresses = addresses.filter((a) => parseShelleyAddress(a).payment.type === 'key')
  const found = keyAddresses.length === 0 ? [] : await provider.utxosAt(keyAddresses)
  const utxos = found.filter((u) => u.scriptRef === undefined).sort(byRef)
  const wanted = new Set((request.collateral ?? []).map(formatRef))
  return {
    changeAddress: request.changeAddress,
    change,
    addresses,
    utxos,
    collateral: utxos.filter((u) => wanted.has(formatRef(u.ref)))
  }
}
