/** Applying one input to a `When`: `applyAction`, `getContinuation`, `applyCases`, `applyInput`. */
import { addMoneyToAccount } from './accounts'
import { insert } from './assoc-list'
import { choiceIdEquals, partyEquals, tokenEquals } from './equality'
import { evalObservation, evalValue, type Environment } from './evaluate'
import type { Action, Bound, Case, Contract, Input, InputContent, State, TransactionWarning } from './types'

export type ApplyWarning = Extract<TransactionWarning, { readonly type: 'NonPositiveDeposit' }>

export type ApplyActionResult =
  | { readonly type: 'AppliedAction'; readonly warning: ApplyWarning | undefined; readonly state: State }
  | { readonly type: 'NotAppliedAction' }

export type ApplyResult =
  | {
      readonly type: 'Applied'
      readonly warning: ApplyWarning | undefined
      readonly state: State
      readonly contract: Contract
    }
  | { readonly type: 'ApplyNoMatchError' }
  | { readonly type: 'ApplyHashMismatch' }

const NOT_APPLIED: ApplyActionResult = { type: 'NotAppliedAction' }
const NO_MATCH: ApplyResult = { type: 'ApplyNoMatchError' }
const HASH_MISMATCH: ApplyResult = { type: 'ApplyHashMismatch' }

export function inBounds(n: bigint, bounds: readonly Bound[]): boolean {
  for (const bound of bounds) if (bound.from <= n && n <= bound.to) return true
  return false
}

export function applyAction(env: Environment, state: State, content: InputContent, action: Action): ApplyActionResult {
  switch (content.type) {
    case 'IDeposit': {
      if (
        action.type !== 'Deposit' ||
        !partyEquals(content.account, action.account) ||
        !partyEquals(content.party, action.party) ||
        !tokenEquals(content.token, action.token) ||
        content.amount !== evalValue(env, state, action.value)
      ) {
        return NOT_APPLIED
      }
      const amount = content.amount
      const warning: ApplyWarning | undefined =
        amount > 0n
          ? undefined
          : { type: 'NonPositiveDeposit', party: action.party, account: action.account, token: action.token, amount }
      const accounts = addMoneyToAccount(state.accounts, content.account, content.token, amount)
      const newState: State =
        accounts === state.accounts
          ? state
          : { accounts, choices: state.choices, boundValues: state.boundValues, minTime: state.minTime }
      return { type: 'AppliedAction', warning, state: newState }
    }
    case 'IChoice': {
      if (
        action.type !== 'Choice' ||
        !choiceIdEquals(content.choice, action.choice) ||
        !inBounds(content.chosen, action.bounds)
      ) {
        return NOT_APPLIED
      }
      const choices = insert(state.choices, content.choice, content.chosen, choiceIdEquals)
      const newState: State =
        choices === state.choices
          ? state
          : { accounts: state.accounts, choices, boundValues: state.boundValues, minTime: state.minTime }
      return { type: 'AppliedAction', warning: undefined, state: newState }
    }
    case 'INotify':
      if (action.type !== 'Notify' || !evalObservation(env, state, action.observation)) return NOT_APPLIED
      return { type: 'AppliedAction', warning: undefined, state }
  }
}

/** A normal input continues a normal case; a merkleized input continues a merkleized case with the same hash. */
export function getContinuation(input: Input, aCase: Case): Contract | undefined {
  const merkleized = input.merkleized
  if (merkleized === undefined) return aCase.type === 'Case' ? aCase.then : undefined
  return aCase.type === 'MerkleizedCase' && aCase.hash === merkleized.hash ? merkleized.continuation : undefined
}

/** The first case whose action accepts the input decides: later cases are not tried even on a hash mismatch. */
export function applyCases(env: Environment, state: State, input: Input, cases: readonly Case[]): ApplyResult {
  for (const aCase of cases) {
    const applied = applyAction(env, state, input.content, aCase.action)
    if (applied.type === 'NotAppliedAction') continue
    const continuation = getContinuation(input, aCase)
    if (continuation === undefined) return HASH_MISMATCH
    return { type: 'Applied', warning: applied.warning, state: applied.state, contract: continuation }
  }
  return NO_MATCH
}

export function applyInput(env: Environment, state: State, input: Input, contract: Contract): ApplyResult {
  return contract.type === 'When' ? applyCases(env, state, input, contract.cases) : NO_MATCH
}
