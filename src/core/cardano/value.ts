/** Multi-asset values as plain data: lovelace plus policy id → asset name (hex) → quantity. */
export type Assets = Readonly<Record<string, Readonly<Record<string, bigint>>>>

export interface Value {
  readonly lovelace: bigint
  readonly assets: Assets
}

export function lovelaceValue(lovelace: bigint): Value {
  return { lovelace, assets: {} }
}

/** Quantity of one asset (`policyId` hex, `assetName` hex; both empty for ada). */
export function quantityOf(value: Value, policyId: string, assetName: string): bigint {
  if (policyId === '' && assetName === '') return value.lovelace
  return value.assets[policyId]?.[assetName] ?? 0n
}
