/**
 * Multi-asset value arithmetic on plain bigints (`core/cardano/value` holds the type). Results are normalised:
 * zero quantities and empty policies are dropped, so two equal values have the same entries.
 */
import type { Value } from '../../core/cardano/value'
import { bytesToHex, utf8Encode } from '../../core/bytes'
import type { Token } from '../../core/marlowe/types'

export const ZERO: Value = { lovelace: 0n, assets: {} }

export interface AssetQuantity {
  readonly policyId: string
  /** hex */
  readonly assetName: string
  readonly quantity: bigint
}

export function assetList(value: Value): AssetQuantity[] {
  const out: AssetQuantity[] = []
  for (const policyId of Object.keys(value.assets).sort()) {
    const names = value.assets[policyId] ?? {}
    for (const assetName of Object.keys(names).sort()) {
      const quantity = names[assetName] ?? 0n
      if (quantity !== 0n) out.push({ policyId, assetName, quantity })
    }
  }
  return out
}

export function fromAssetList(lovelace: bigint, assets: readonly AssetQuantity[]): Value {
  const out: Record<string, Record<string, bigint>> = {}
  for (const { policyId, assetName, quantity } of assets) {
    if (quantity === 0n) continue
    const names = (out[policyId] ??= {})
    const sum = (names[assetName] ?? 0n) + quantity
    if (sum === 0n) delete names[assetName]
    else names[assetName] = sum
    if (Object.keys(names).length === 0) delete out[policyId]
  }
  return { lovelace, assets: out }
}

export function addValues(a: Value, b: Value): Value {
  return fromAssetList(a.lovelace + b.lovelace, [...assetList(a), ...assetList(b)])
}

export function sumValues(values: readonly Value[]): Value {
  return fromAssetList(
    values.reduce((s, v) => s + v.lovelace, 0n),
    values.flatMap((v) => assetList(v))
  )
}

export function negateValue(a: Value): Value {
  return fromAssetList(
    -a.lovelace,
    assetList(a).map((q) => ({ ...q, quantity: -q.quantity }))
  )
}

export function subtractValues(a: Value, b: Value): Value {
  return addValues(a, negateValue(b))
}

/** Keeps only the positive quantities (lovelace included). */
export function positivePart(a: Value): Value {
  return fromAssetList(
    a.lovelace > 0n ? a.lovelace : 0n,
    assetList(a).filter((q) => q.quantity > 0n)
  )
}

export function hasAssets(a: Value): boolean {
  return assetList(a).length > 0
}

export function isZero(a: Value): boolean {
  return a.lovelace === 0n && !hasAssets(a)
}

/** Every quantity of `a` is at least the one in `b` (lovelace included). */
export function covers(a: Value, b: Value): boolean {
  return isZero(positivePart(subtractValues(b, a)))
}

export function valuesEqual(a: Value, b: Value): boolean {
  return isZero(subtractValues(a, b))
}

export function withLovelace(a: Value, lovelace: bigint): Value {
  return { lovelace, assets: a.assets }
}

/** Token (or role) name as the hex asset name of the ledger; undefined for a name with no UTF-8 form. */
export function assetNameHex(name: string): string | undefined {
  const bytes = utf8Encode(name)
  return bytes === undefined ? undefined : bytesToHex(bytes)
}

/** The ledger value of `amount` of a Marlowe token. */
export function tokenValue(token: Token, amount: bigint): Value {
  if (token.currencySymbol === '') return { lovelace: amount, assets: {} }
  return fromAssetList(0n, [
    { policyId: token.currencySymbol, assetName: assetNameHex(token.tokenName) ?? '', quantity: amount }
  ])
}

/** Whether a value holds at least one unit of an asset. */
export function holdsAsset(value: Value, policyId: string, assetName: string): boolean {
  return (value.assets[policyId]?.[assetName] ?? 0n) > 0n
}
