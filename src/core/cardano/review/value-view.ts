/** Values for display (asset names as hex and text) and the sums and differences the net effect needs. */
import { assetNameText } from '../asset-name'
import type { DecodedValue } from '../tx'
import type { Value } from '../value'
import type { ReviewEnv } from './env'
import type { AssetView, ValueView } from './types'

function assetView(env: ReviewEnv, policyId: string, assetName: string, quantity: bigint): AssetView {
  const text = assetNameText(assetName)
  const policyName = env.policyName(policyId)
  return {
    policyId,
    assetName,
    ...(text === undefined ? {} : { assetNameText: text }),
    quantity,
    ...(policyName === undefined ? {} : { policyName })
  }
}

export function decodedValueView(env: ReviewEnv, value: DecodedValue): ValueView {
  const assets: AssetView[] = []
  for (const policy of value.multiAsset) {
    for (const asset of policy.assets) assets.push(assetView(env, policy.policyId, asset.assetName, asset.quantity))
  }
  return { lovelace: value.coin, assets }
}

export function contextValueView(env: ReviewEnv, value: Value): ValueView {
  const assets: AssetView[] = []
  for (const [policyId, names] of Object.entries(value.assets)) {
    for (const [assetName, quantity] of Object.entries(names))
      assets.push(assetView(env, policyId, assetName, quantity))
  }
  return { lovelace: value.lovelace, assets }
}

/** Asset quantities keyed `policy.name` (the empty key is lovelace), for sums and differences. */
export class ValueBag {
  private readonly amounts = new Map<string, bigint>()

  add(view: ValueView, sign: 1n | -1n): void {
    this.bump('', view.lovelace * sign)
    for (const a of view.assets) this.bump(`${a.policyId}.${a.assetName}`, a.quantity * sign)
  }

  get lovelace(): bigint {
    return this.amounts.get('') ?? 0n
  }

  /** Non-zero asset quantities, in first-seen order. */
  assets(env: ReviewEnv): AssetView[] {
    const out: AssetView[] = []
    for (const [key, quantity] of this.amounts) {
      if (key === '' || quantity === 0n) continue
      const [policyId = '', assetName = ''] = key.split('.')
      out.push(assetView(env, policyId, assetName, quantity))
    }
    return out
  }

  private bump(key: string, delta: bigint): void {
    this.amounts.set(key, (this.amounts.get(key) ?? 0n) + delta)
  }
}
