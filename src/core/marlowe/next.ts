/**
 * Next-step discovery, as Runtime's `GET /contracts/{id}/next` (`Language.Marlowe.Core.V1.Next`): whether the
 * contract can reduce in the given interval, and which inputs its `When` accepts.
 */
import { choiceIdEquals, partyEquals, tokenEquals } from './equality'
import { evalObservation, evalValue, type Environment } from './evaluate'
import { ValueTooLargeError } from './limits'
import { reduceContractUntilQuiescent } from './reduce'
import { fixInterval } from './semantics'
import type { AccountId, Bound, Case, ChoiceId, Contract, IntervalError, Party, State, Token } from './types'

export interface CanNotify {
  readonly caseIndex: number
  readonly isMerkleizedContinuation: boolean
}

export interface CanDeposit {
  readonly party: Party
  readonly account: AccountId
  readonly token: Token
  /** The Deposit's value, evaluated now. */
  readonly canDeposit: bigint
  readonly caseIndex: number
  readonly isMerkleizedContinuation: boolean
}

export interface CanChoose {
  readonly choice: ChoiceId
  /** Sorted, disjoint, and without what earlier cases for the same choice already accept. */
  readonly canChooseBetween: readonly Bound[]
  readonly caseIndex: number
  readonly isMerkleizedContinuation: boolean
}

export interface ApplicableInputs {
  /** The first Notify whose observation holds; absent when there is none. */
  readonly notify?: CanNotify
  readonly deposits: readonly CanDeposit[]
  readonly choices: readonly CanChoose[]
}

export interface NextSteps {
  readonly type: 'Next'
  /** Whether a transaction without inputs would do something (reduction steps happen in this interval). */
  readonly canReduce: boolean
  readonly applicableInputs: ApplicableInputs
}

export type NextResult = NextSteps | { readonly type: 'IntervalError'; readonly error: IntervalError }

const NO_INPUTS: ApplicableInputs = { deposits: [], choices: [] }

/**
 * Fixes the interval, reduces to quiescence (an ambiguous interval is reported as `InvalidInterval` of the
 * original interval) and lists the inputs the resulting `When` accepts. As in Haskell, the applicable inputs
 * are evaluated with the original, untrimmed interval but the reduced state. `parties`, when given and not
 * empty, keeps only the deposits and choices one of them performs (Runtime's `party` query parameter). Throws
 * a `ValueTooLargeError`, with its path in `contract`, when a value goes beyond `MAX_VALUE_BITS`.
 */
export function next(
  environment: Environment,
  state: State,
  contract: Contract,
  parties?: readonly Party[]
): NextResult {
  try {
    return nextSteps(environment, state, contract, parties)
  } catch (e) {
    throw e instanceof ValueTooLargeError ? e.in(contract) : e
  }
}

function nextSteps(
  environment: Environment,
  state: State,
  contract: Contract,
  parties: readonly Party[] | undefined
): NextResult {
  const fixed = fixInterval(environment.timeInterval, state)
  if (fixed.type === 'IntervalError') return fixed
  const reduced = reduceContractUntilQuiescent(fixed.environment, fixed.state, contract)
  if (reduced.type === 'RRAmbiguousTimeIntervalError') {
    return { type: 'IntervalError', error: { type: 'InvalidInterval', interval: environment.timeInterval } }
  }
  const inputs = applicableInputs(environment, reduced.state, reduced.contract)
  return {
    type: 'Next',
    canReduce: reduced.reduced,
    applicableInputs: parties === undefined || parties.length === 0 ? inputs : filterByParties(inputs, parties)
  }
}

/**
 * The inputs a quiescent contract accepts, case by case: a deposit identical to an earlier one (account,
 * party, token, amount, merkleization) is dropped, a choice keeps only the bounds earlier cases for the same
 * choice do not cover (and is dropped when none are left), and only the first true Notify counts.
 */
export function applicableInputs(environment: Environment, state: State, contract: Contract): ApplicableInputs {
  if (contract.type !== 'When') return NO_INPUTS
  let notify: CanNotify | undefined
  const deposits: CanDeposit[] = []
  const choices: CanChoose[] = []
  const cases = contract.cases
  for (let caseIndex = 0; caseIndex < cases.length; caseIndex++) {
    const aCase = cases[caseIndex] as Case
    const isMerkleizedContinuation = aCase.type === 'MerkleizedCase'
    const action = aCase.action
    switch (action.type) {
      case 'Deposit': {
        const deposit: CanDeposit = {
          party: action.party,
          account: action.account,
          token: action.token,
          canDeposit: evalValue(environment, state, action.value),
          caseIndex,
          isMerkleizedContinuation
        }
        if (!deposits.some((earlier) => sameDeposit(earlier, deposit))) deposits.push(deposit)
        break
      }
      case 'Choice': {
        const covered: Bound[] = []
        for (const earlier of choices) {
          if (choiceIdEquals(earlier.choice, action.choice)) covered.push(...earlier.canChooseBetween)
        }
        const canChooseBetween = subtractBounds(normalizeBounds(action.bounds), normalizeBounds(covered))
        if (canChooseBetween.length > 0) {
          choices.push({ choice: action.choice, canChooseBetween, caseIndex, isMerkleizedContinuation })
        }
        break
      }
      case 'Notify':
        if (notify === undefined && evalObservation(environment, state, action.observation)) {
          notify = { caseIndex, isMerkleizedContinuation }
        }
        break
    }
  }
  return notify === undefined ? { deposits, choices } : { notify, deposits, choices }
}

/** Keeps the deposits made by, and the choices owned by, one of `parties`; a Notify needs no party. */
export function filterByParties(inputs: ApplicableInputs, parties: readonly Party[]): ApplicableInputs {
  const isListed = (party: Party): boolean => parties.some((listed) => partyEquals(listed, party))
  const deposits = inputs.deposits.filter((deposit) => isListed(deposit.party))
  const choices = inputs.choices.filter((choice) => isListed(choice.choice.owner))
  return inputs.notify === undefined ? { deposits, choices } : { notify: inputs.notify, deposits, choices }
}

function sameDeposit(a: CanDeposit, b: CanDeposit): boolean {
  return (
    a.canDeposit === b.canDeposit &&
    a.isMerkleizedContinuation === b.isMerkleizedContinuation &&
    partyEquals(a.account, b.account) &&
    partyEquals(a.party, b.party) &&
    tokenEquals(a.token, b.token)
  )
}

/**
 * Bounds as Haskell's range library stores them: an inverted bound is swapped, bounds sharing at least one
 * point are merged, the result is sorted. Bounds that are merely adjacent ([1,2] and [3,4]) stay apart.
 */
function normalizeBounds(bounds: readonly Bound[]): Bound[] {
  const sorted = bounds
    .map((bound) => (bound.from <= bound.to ? bound : { from: bound.to, to: bound.from }))
    .sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0))
  const merged: Bound[] = []
  for (const bound of sorted) {
    const last = merged[merged.length - 1]
    if (last === undefined || bound.from > last.to) merged.push(bound)
    else if (bound.to > last.to) merged[merged.length - 1] = { from: last.from, to: bound.to }
  }
  return merged
}

/**
 * The integers of `xs` outside `ys` (both normalized), one bound per piece of the real-line difference, so
 * pieces separated by a removed point stay apart even when no integer lies between them.
 */
function subtractBounds(xs: readonly Bound[], ys: readonly Bound[]): readonly Bound[] {
  if (ys.length === 0) return xs
  const pieces: Bound[] = []
  for (const x of xs) {
    let from = x.from
    for (const y of ys) {
      if (y.to < x.from || y.from > x.to) continue
      if (from < y.from) pieces.push({ from, to: y.from - 1n })
      from = y.to + 1n
    }
    if (from <= x.to) pieces.push({ from, to: x.to })
  }
  return pieces
}
