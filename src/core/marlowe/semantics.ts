/**
 * Marlowe core v1 semantics as run on chain (`Language.Marlowe.Core.V1.Semantics`): interval fixing, applying
 * all inputs, `computeTransaction` and `playTrace`. This module is also the entry point for the rest of the
 * semantics API.
 */
import { applyInput } from './apply'
import type { Environment } from './evaluate'
import { ValueTooLargeError } from './limits'
import { reduceUntilQuiescentInto } from './reduce'
import {
  emptyState,
  type Contract,
  type Input,
  type IntervalError,
  type Payment,
  type State,
  type TimeInterval,
  type TransactionFailure,
  type TransactionInput,
  type TransactionOutput,
  type TransactionWarning
} from './types'

export { evalObservation, evalValue, type Environment } from './evaluate'
export {
  reduceContractStep,
  reduceContractUntilQuiescent,
  type ContractQuiescent,
  type Reduced,
  type ReduceResult,
  type ReduceStepResult,
  type ReduceWarning
} from './reduce'
export {
  applyAction,
  applyCases,
  applyInput,
  getContinuation,
  inBounds,
  type ApplyActionResult,
  type ApplyResult,
  type ApplyWarning
} from './apply'
export { contractLifespanUpperBound, nextTimeout } from './timeouts'
export { MAX_VALUE_BITS, ValueTooLargeError } from './limits'

export type IntervalResult =
  | { readonly type: 'IntervalTrimmed'; readonly environment: Environment; readonly state: State }
  | { readonly type: 'IntervalError'; readonly error: IntervalError }

/**
 * Rejects an inverted interval or one that ends before `minTime`, otherwise raises its start to `minTime`
 * and records the new start as the state's `minTime`. Errors carry the original interval.
 */
export function fixInterval(interval: TimeInterval, state: State): IntervalResult {
  const { from: low, to: high } = interval
  if (high < low) return { type: 'IntervalError', error: { type: 'InvalidInterval', interval } }
  const minTime = state.minTime
  if (high < minTime) return { type: 'IntervalError', error: { type: 'IntervalInPastError', minTime, interval } }
  const newLow = low > minTime ? low : minTime
  const timeInterval = newLow === low ? interval : { from: newLow, to: high }
  const newState: State =
    newLow === minTime
      ? state
      : { accounts: state.accounts, choices: state.choices, boundValues: state.boundValues, minTime: newLow }
  return { type: 'IntervalTrimmed', environment: { timeInterval }, state: newState }
}

export type ApplyAllResult =
  | {
      readonly type: 'ApplyAllSuccess'
      /** Whether any reduction step or input happened. */
      readonly changed: boolean
      readonly warnings: readonly TransactionWarning[]
      readonly payments: readonly Payment[]
      readonly state: State
      readonly contract: Contract
    }
  | { readonly type: 'ApplyAllNoMatchError' }
  | { readonly type: 'ApplyAllAmbiguousTimeIntervalError' }
  | { readonly type: 'ApplyAllHashMismatch' }

const APPLY_ALL_NO_MATCH: ApplyAllResult = { type: 'ApplyAllNoMatchError' }
const APPLY_ALL_AMBIGUOUS: ApplyAllResult = { type: 'ApplyAllAmbiguousTimeIntervalError' }
const APPLY_ALL_HASH_MISMATCH: ApplyAllResult = { type: 'ApplyAllHashMismatch' }

/** Reduces to quiescence before each input and after the last one. */
export function applyAllInputs(
  env: Environment,
  state: State,
  contract: Contract,
  inputs: readonly Input[]
): ApplyAllResult {
  const warnings: TransactionWarning[] = []
  const payments: Payment[] = []
  let changed = false
  for (let i = 0; ; i++) {
    const quiescent = reduceUntilQuiescentInto(env, state, contract, warnings, payments)
    if (quiescent === undefined) return APPLY_ALL_AMBIGUOUS
    const input = inputs[i]
    if (input === undefined) {
      return {
        type: 'ApplyAllSuccess',
        changed: changed || quiescent.reduced,
        warnings,
        payments,
        state: quiescent.state,
        contract: quiescent.contract
      }
    }
    const applied = applyInput(env, quiescent.state, input, quiescent.contract)
    if (applied.type === 'ApplyNoMatchError') return APPLY_ALL_NO_MATCH
    if (applied.type === 'ApplyHashMismatch') return APPLY_ALL_HASH_MISMATCH
    if (applied.warning !== undefined) warnings.push(applied.warning)
    changed = true
    state = applied.state
    contract = applied.contract
  }
}

function failure(error: TransactionFailure['error']): TransactionFailure {
  return { type: 'Error', error }
}

const AMBIGUOUS_FAILURE = failure({ type: 'TEAmbiguousTimeIntervalError' })
const NO_MATCH_FAILURE = failure({ type: 'TEApplyNoMatchError' })
const USELESS_FAILURE = failure({ type: 'TEUselessTransaction' })
const HASH_MISMATCH_FAILURE = failure({ type: 'TEHashMismatch' })

/**
 * One transaction, as the validator runs it. Throws a `ValueTooLargeError`, with its path in `contract` (or in an
 * input's merkleized continuation), when a value goes beyond `MAX_VALUE_BITS`.
 */
export function computeTransaction(tx: TransactionInput, state: State, contract: Contract): TransactionOutput {
  try {
    return compute(tx, state, contract)
  } catch (e) {
    throw e instanceof ValueTooLargeError ? e.in(contract, tx.inputs) : e
  }
}

function compute(tx: TransactionInput, state: State, contract: Contract): TransactionOutput {
  const fixed = fixInterval(tx.interval, state)
  if (fixed.type === 'IntervalError') return failure({ type: 'TEIntervalError', error: fixed.error })
  const result = applyAllInputs(fixed.environment, fixed.state, contract, tx.inputs)
  switch (result.type) {
    case 'ApplyAllNoMatchError':
      return NO_MATCH_FAILURE
    case 'ApplyAllAmbiguousTimeIntervalError':
      return AMBIGUOUS_FAILURE
    case 'ApplyAllHashMismatch':
      return HASH_MISMATCH_FAILURE
    case 'ApplyAllSuccess':
      // Nothing happened: useless, unless it is a Close holding only non-positive balances (then only minTime moves).
      if (!result.changed && (contract.type !== 'Close' || state.accounts.length === 0)) return USELESS_FAILURE
      return {
        type: 'Success',
        warnings: result.warnings,
        payments: result.payments,
        state: result.state,
        contract: result.contract
      }
  }
}

/**
 * Runs transactions one after another from the empty state with `minTime`, accumulating warnings and payments
 * (Haskell `playTrace`, the marlowe-spec-test shape). The first error is the result.
 */
export function playTrace(minTime: bigint, contract: Contract, txs: readonly TransactionInput[]): TransactionOutput {
  return playTraceFrom(emptyState(minTime), contract, txs)
}

/** `playTrace` from a given state: replays a contract's history from its creation state (e.g. initial accounts). */
export function playTraceFrom(state: State, contract: Contract, txs: readonly TransactionInput[]): TransactionOutput {
  let current = contract
  let currentState = state
  const warnings: TransactionWarning[] = []
  const payments: Payment[] = []
  for (const tx of txs) {
    const output = computeTransaction(tx, currentState, current)
    if (output.type === 'Error') return output
    for (const warning of output.warnings) warnings.push(warning)
    for (const payment of output.payments) payments.push(payment)
    currentState = output.state
    current = output.contract
  }
  return { type: 'Success', warnings, payments, state: currentState, contract: current }
}
