/** Plain data (hex, bigint, bech32, metadata) → CSL objects, every object owned by the caller's scope. */
import type { TxOutRef } from '../../chain/provider'
import type { Value } from '../../core/cardano/value'
import { hexToBytes } from '../../core/bytes'
import { CSL, type CslScope } from '../../csl'
import { engineFailure } from './build-errors'
import type { Metadatum, TransactionMetadata } from './metadata'
import { assetList, type AssetQuantity } from './values'

const MAX_U64 = 2n ** 64n - 1n

/** Ledger quantities are 64-bit: a larger one (an amount plus a deposit, say) is the request's fault. */
export function checkLedgerQuantity(n: bigint | number): void {
  if (BigInt(n) > MAX_U64 || BigInt(n) < 0n) {
    throw engineFailure('BadRequest', 'BalancingError', `The amount ${n} does not fit the ledger's 64-bit quantities`, {
      tag: 'BalancingError',
      msg: `quantity out of range: ${n}`
    })
  }
}

export function bigNum(scope: CslScope, n: bigint | number): CSL.BigNum {
  checkLedgerQuantity(n)
  return scope.own(CSL.BigNum.from_str(String(n)))
}

export function cslAddress(scope: CslScope, bech32: string): CSL.Address {
  return scope.own(CSL.Address.from_bech32(bech32))
}

export function cslInput(scope: CslScope, ref: TxOutRef): CSL.TransactionInput {
  return scope.own(CSL.TransactionInput.new(scope.own(CSL.TransactionHash.from_hex(ref.txId)), ref.index))
}

function cslMultiAsset(scope: CslScope, assets: readonly AssetQuantity[]): CSL.MultiAsset {
  const multi = scope.own(CSL.MultiAsset.new())
  for (const q of assets) {
    const policy = scope.own(CSL.ScriptHash.from_hex(q.policyId))
    const name = scope.own(CSL.AssetName.new(hexToBytes(q.assetName)))
    const previous = multi.set_asset(policy, name, bigNum(scope, q.quantity))
    if (previous !== undefined) scope.own(previous)
  }
  return multi
}

export function cslValue(scope: CslScope, value: Value): CSL.Value {
  const v = scope.own(CSL.Value.new(bigNum(scope, value.lovelace)))
  const assets = assetList(value)
  if (assets.length > 0) v.set_multiasset(cslMultiAsset(scope, assets))
  return v
}

function metadatum(scope: CslScope, m: Metadatum): CSL.TransactionMetadatum {
  if (typeof m === 'bigint') return scope.own(CSL.TransactionMetadatum.new_int(scope.own(CSL.Int.from_str(String(m)))))
  if (typeof m === 'string') return scope.own(CSL.TransactionMetadatum.new_text(m))
  if (m instanceof Uint8Array) return scope.own(CSL.TransactionMetadatum.new_bytes(m))
  if (Array.isArray(m)) {
    const list = scope.own(CSL.MetadataList.new())
    for (const item of m as readonly Metadatum[]) list.add(metadatum(scope, item))
    return scope.own(CSL.TransactionMetadatum.new_list(list))
  }
  const map = scope.own(CSL.MetadataMap.new())
  for (const [k, v] of (m as { readonly map: ReadonlyArray<readonly [Metadatum, Metadatum]> }).map) {
    const previous = map.insert(metadatum(scope, k), metadatum(scope, v))
    if (previous !== undefined) scope.own(previous)
  }
  return scope.own(CSL.TransactionMetadatum.new_map(map))
}

export function auxiliaryData(scope: CslScope, metadata: TransactionMetadata): CSL.AuxiliaryData {
  const general = scope.own(CSL.GeneralTransactionMetadata.new())
  for (const label of [...metadata.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    const previous = general.insert(bigNum(scope, label), metadatum(scope, metadata.get(label)!))
    if (previous !== undefined) scope.own(previous)
  }
  const aux = scope.own(CSL.AuxiliaryData.new())
  aux.set_metadata(general)
  return aux
}
