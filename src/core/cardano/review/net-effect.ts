/**
 * Per own wallet, what leaves it: its inputs minus the outputs paid back to it, per asset — when every input is
 * resolved. Otherwise what each side holds, unnetted: a net over unknown inputs would be wrong, even inverted.
 */
import type { ReviewEnv } from './env'
import type { InputView, OutputView, WalletEffectView, WithdrawalView } from './types'
import { ValueBag } from './value-view'

/** What the wallet's resolved inputs hold, what the outputs pay it, and the difference. */
interface Sides {
  readonly spent: ValueBag
  readonly received: ValueBag
  readonly net: ValueBag
}

export function netEffect(
  env: ReviewEnv,
  inputs: readonly InputView[],
  outputs: readonly OutputView[],
  withdrawals: readonly WithdrawalView[]
): WalletEffectView[] {
  const sides = new Map<string, Sides>()
  const side = (wallet: string): Sides => {
    const existing = sides.get(wallet)
    if (existing !== undefined) return existing
    const created = { spent: new ValueBag(), received: new ValueBag(), net: new ValueBag() }
    sides.set(wallet, created)
    return created
  }
  for (const input of inputs) {
    if (input.wallet === undefined || input.value === undefined) continue
    side(input.wallet).spent.add(input.value, 1n)
    side(input.wallet).net.add(input.value, 1n)
  }
  for (const output of outputs) {
    if (output.address.wallet === undefined) continue
    side(output.address.wallet).received.add(output.value, 1n)
    side(output.address.wallet).net.add(output.value, -1n)
  }
  const withdrawn = new Map<string, bigint>()
  for (const w of withdrawals) {
    if (w.address.wallet !== undefined) {
      side(w.address.wallet)
      withdrawn.set(w.address.wallet, (withdrawn.get(w.address.wallet) ?? 0n) + w.amount)
    }
  }
  const unresolved = inputs.some((i) => !i.resolved)
  return [...sides].map(([wallet, { spent, received, net }]) => {
    const common = { wallet, withdrawn: withdrawn.get(wallet) ?? 0n }
    if (unresolved) {
      return {
        ...common,
        complete: false,
        received: { lovelace: received.lovelace, assets: received.assets(env) },
        spentKnown: { lovelace: spent.lovelace, assets: spent.assets(env) }
      }
    }
    return { ...common, complete: true, lovelace: net.lovelace, assets: net.assets(env) }
  })
}
