/**
 * Coin selection, Runtime's greedy algorithm (`Constraints.hs: selectCoins`): repeatedly take the UTxO that
 * misses the fewest still-needed tokens, then brings the fewest unneeded ones, then is pure ada, then has
 * enough lovelace, until the outputs, a fee allowance and a valid change output are covered.
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
  ZERO
} from './values'

export interface SelectionRequest {
  /** Wallet-independent balance: forced inputs + mint − outputs (negative where the wallet must pay). */
  readonly balance: Value
  readonly fee: bigint
  readonly candidates: readonly Utxo[]
  /** Lovelace a change output holding `change` needs. */
  readonly changeMinLovelace: (change: Value) => bigint
}

export type SelectionResult =
  | { readonly ok: true; readonly selected: readonly Utxo[]; readonly change: Value }
  | { readonly ok: false; readonly failure: CoinSelectionFailure }

function withoutLovelace(v: Value): Value {
  return { lovelace: 0n, assets: v.assets }
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

function better(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return a[i]! < b[i]!
  return false
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
    let bestIndex = -1
    let bestRank: readonly number[] = []
    for (let i = 0; i < remaining.length; i += 1) {
      const rank = priority(need, remaining[i]!.value)
      if (bestIndex < 0 || better(rank, bestRank)) {
        bestIndex = i
        bestRank = rank
      }
    }
    const chosen = remaining[bestIndex]
    if (chosen === undefined) return { ok: false, failure: failureFor(request, universe, need) }
    remaining = remaining.filter((_, i) => i !== bestIndex)
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
