/**
 * Coin selection, Runtime's greedy algorithm (`Constraints.hs: selectCoins`): repeatedly take the UTxO that
 * misses the fewest still-needed tokens, then brings the fewest unneeded ones, then is pure ada, then has
 * enough lovelace, until the outputs, a fee allowance and a valid change output are covered.
 *
 * Runtime takes the first best candidate in the wallet's order, so concurrent builds by one wallet all reach for
 * the same coin and all but one lose the race to reserve it. The request's `pick` (the builder's is random) chooses
 * instead among the candidates that hold exactly that first one's value: any of them makes the same transaction but
 * for the input's reference — the same fee, the same change, the same next step of the selection.
 */
import type { Utxo } from '../../chain/provider'
import type { Value } from '../../core/cardano/value'
import type { CoinSelectionFailure } from './build-errors'
import {
  addValues,
  assetList,
  hasAssets,
  isZero,
  negateValue,
  positivePart,
  subtractValues,
  sumValues,
  valuesEqual,
  ZERO
} from './values'

export interface SelectionRequest {
  /** Wallet-independent balance: forced inputs + mint − outputs (negative where the wallet must pay). */
  readonly balance: Value
  readonly fee: bigint
  readonly candidates: readonly Utxo[]
  /** Lovelace a change output holding `change` needs. */
  readonly changeMinLovelace: (change: Value) => bigint
  /** Which of `count` equally good candidates to take: an index below `count`. */
  readonly pick: (count: number) => number
}

export type SelectionResult =
  | { readonly ok: true; readonly selected: readonly Utxo[]; readonly change: Value }
  | { readonly ok: false; readonly failure: CoinSelectionFailure }

function withoutLovelace(v: Value): Value {
  return { lovelace: 0n, assets: v.assets }
}

function better(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return a[i]! < b[i]!
  return false
}

function priority(required: Value, candidate: Value): readonly number[] {
  let excess = 0
  let deficit = 0
  for (const q of assetList(subtractValues(withoutLovelace(candidate), withoutLovelace(required)))) {
    if (q.quantity > 0n) excess += 1
    else deficit += 1
  }
  return [deficit, excess, hasAssets(candidate) ? 1 : 0, candidate.lovelace < required.lovelace ? 1 : 0]
}

/** The indices in `candidates` of the best by `priority` that hold exactly the first best one's value. */
function bestAlike(need: Value, candidates: readonly Utxo[]): number[] {
  let first: Utxo | undefined
  let firstRank: readonly number[] = []
  for (const candidate of candidates) {
    const rank = priority(need, candidate.value)
    if (first === undefined || better(rank, firstRank)) {
      first = candidate
      firstRank = rank
    }
  }
  if (first === undefined) return []
  const value = first.value
  return candidates.flatMap((c, i) => (valuesEqual(c.value, value) ? [i] : []))
}

/** What is still missing after `selected`, change rule included; zero when the selection is complete. */
function shortfall(request: SelectionRequest, selected: Value): Value {
  const change = subtractValues(addValues(request.balance, selected), { lovelace: request.fee, assets: {} })
  const missing = positivePart(negateValue(change))
  if (!isZero(missing) || isZero(change)) return missing
  const min = request.changeMinLovelace(change)
  return change.lovelace >= min ? ZERO : { lovelace: min - change.lovelace, assets: {} }
}

export function selectCoins(request: SelectionRequest): SelectionResult {
  const universe = sumValues(request.candidates.map((u) => u.value))
  const selected: Utxo[] = []
  let total: Value = ZERO
  let remaining = [...request.candidates]
  for (let need = shortfall(request, total); !isZero(need); need = shortfall(request, total)) {
    const best = bestAlike(need, remaining)
    if (best.length === 0) return { ok: false, failure: failureFor(request, universe, need) }
    const chosenIndex = best[request.pick(best.length)]!
    const chosen = remaining[chosenIndex]!
    remaining = remaining.filter((_, i) => i !== chosenIndex)
    selected.push(chosen)
    total = addValues(total, chosen.value)
  }
  const change = subtractValues(addValues(request.balance, total), { lovelace: request.fee, assets: {} })
  return { ok: true, selected, change }
}

function failureFor(request: SelectionRequest, universe: Value, need: Value): CoinSelectionFailure {
  const tokensMissing = positivePart(withoutLovelace(negateValue(addValues(request.balance, universe))))
  if (hasAssets(tokensMissing)) return { tag: 'InsufficientTokens', tokens: tokensMissing }
  return {
    tag: 'InsufficientLovelace',
    required: universe.lovelace + need.lovelace,
    available: universe.lovelace
  }
}
