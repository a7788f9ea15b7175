/** Per own wallet, what leaves it: its resolved inputs minus the outputs paid back to it, per asset. */
import type { ReviewEnv } from './env'
import type { InputView, OutputView, WalletEffectView, WithdrawalView } from './types'
import { ValueBag } from './value-view'

export function netEffect(
  env: ReviewEnv,
  inputs: readonly InputView[],
  outputs: readonly OutputView[],
  withdrawals: readonly WithdrawalView[]
): WalletEffectView[] {
  const bags = new Map<string, ValueBag>()
  const bag = (wallet: string): ValueBag => {
    const existing = bags.get(wallet)
    if (existing !== undefined) return existing
    const created = new ValueBag()
    bags.set(wallet, created)
    return created
  }
  for (const input of inputs)
    if (input.wallet !== undefined && input.value !== undefined) bag(input.wallet).add(input.value, 1n)
  for (const output of outputs)
    if (output.address.wallet !== undefined) bag(output.address.wallet).add(output.value, -1n)
  const withdrawn = new Map<string, bigint>()
  for (const w of withdrawals) {
    if (w.address.wallet !== undefined) {
      bag(w.address.wallet)
      withdrawn.set(w.address.wallet, (withdrawn.get(w.address.wallet) ?? 0n) + w.amount)
    }
  }
  const complete = inputs.every((i) => i.resolved)
  return [...bags].map(([wallet, b]) => ({
    wallet,
    lovelace: b.lovelace,
    assets: b.assets(env),
    withdrawn: withdrawn.get(wallet) ?? 0n,
    complete
  }))
}
