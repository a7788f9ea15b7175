/** Reduction without inputs: `reduceContractStep` and `reduceContractUntilQuiescent`. */
import { addMoneyToAccount, moneyInAccount, refundOne, updateMoneyInAccount } from './accounts'
import { append, indexOfKey, replaceValueAt } from './assoc-list'
import { evalObservation, evalValue, valueIdEquals, type Environment } from './evaluate'
import type { Contract, Payment, State, TransactionWarning } from './types'

export type ReduceWarning = Extract<
  TransactionWarning,
  { readonly type: 'NonPositivePay' | 'PartialPay' | 'Shadowing' | 'AssertionFailed' }
>

export interface Reduced {
  readonly type: 'Reduced'
  readonly warning: ReduceWarning | undefined
  readonly payment: Payment | undefined
  readonly state: State
  readonly contract: Contract
}

export type ReduceStepResult =
  Reduced | { readonly type: 'NotReduced' } | { readonly type: 'AmbiguousTimeIntervalReductionError' }

export interface ContractQuiescent {
  readonly type: 'ContractQuiescent'
  /** Whether at least one step happened. */
  readonly reduced: boolean
  readonly warnings: readonly ReduceWarning[]
  readonly payments: readonly Payment[]
  readonly state: State
  readonly contract: Contract
}

export type ReduceResult = ContractQuiescent | { readonly type: 'RRAmbiguousTimeIntervalError' }

const NOT_REDUCED: ReduceStepResult = { type: 'NotReduced' }
const AMBIGUOUS_STEP: ReduceStepResult = { type: 'AmbiguousTimeIntervalReductionError' }
const AMBIGUOUS_RESULT: ReduceResult = { type: 'RRAmbiguousTimeIntervalError' }

function reduced(
  warning: ReduceWarning | undefined,
  payment: Payment | undefined,
  state: State,
  contract: Contract
): Reduced {
  return { type: 'Reduced', warning, payment, state, contract }
}

function withAccounts(state: State, accounts: State['accounts']): State {
  if (accounts === state.accounts) return state
  return { accounts, choices: state.choices, boundValues: state.boundValues, minTime: state.minTime }
}

export function reduceContractStep(env: Environment, state: State, contract: Contract): ReduceStepResult {
  switch (contract.type) {
    case 'Close': {
      const refund = refundOne(state.accounts)
      if (refund === undefined) return NOT_REDUCED
      const payment: Payment = {
        from: refund.account,
        to: { type: 'Party', party: refund.account },
        token: refund.token,
        amount: refund.amount
      }
      return reduced(undefined, payment, withAccounts(state, refund.rest), contract)
    }
    case 'Pay': {
      const { from, to, token } = contract
      const expected = evalValue(env, state, contract.value)
      if (expected <= 0n) {
        return reduced(
          { type: 'NonPositivePay', account: from, payee: to, token, amount: expected },
          undefined,
          state,
          contract.then
        )
      }
      const balance = moneyInAccount(state.accounts, from, token)
      const paid = balance < expected ? balance : expected
      let accounts = updateMoneyInAccount(state.accounts, from, token, balance - paid)
      if (to.type === 'Account') accounts = addMoneyToAccount(accounts, to.account, token, paid)
      // `paid` can be 0 (or less, from a malformed state): the payment is still reported, as on chain.
      const warning: ReduceWarning | undefined =
        paid < expected ? { type: 'PartialPay', account: from, payee: to, token, paid, expected } : undefined
      return reduced(warning, { from, to, token, amount: paid }, withAccounts(state, accounts), contract.then)
    }
    case 'If':
      return reduced(
        undefined,
        undefined,
        state,
        evalObservation(env, state, contract.observation) ? contract.then : contract.else
      )
    case 'When': {
      const { from, to } = env.timeInterval
      if (to < contract.timeout) return NOT_REDUCED
      if (contract.timeout <= from) return reduced(undefined, undefined, state, contract.timeoutContinuation)
      return AMBIGUOUS_STEP
    }
    case 'Let': {
      const value = evalValue(env, state, contract.value)
      const bound = state.boundValues
      const i = indexOfKey(bound, contract.id, valueIdEquals)
      const boundValues = i < 0 ? append(bound, contract.id, value) : replaceValueAt(bound, i, value)
      const hadValue = i < 0 ? undefined : (bound[i] as readonly [string, bigint])[1]
      const warning: ReduceWarning | undefined =
        hadValue === undefined ? undefined : { type: 'Shadowing', id: contract.id, hadValue, isNowAssigned: value }
      const newState: State =
        boundValues === bound
          ? state
          : { accounts: state.accounts, choices: state.choices, boundValues, minTime: state.minTime }
      return reduced(warning, undefined, newState, contract.then)
    }
    case 'Assert':
      return reduced(
        evalObservation(env, state, contract.observation) ? undefined : { type: 'AssertionFailed' },
        undefined,
        state,
        contract.then
      )
  }
}

export interface Quiescent {
  readonly reduced: boolean
  readonly state: State
  readonly contract: Contract
}

/**
 * The reduction loop, appending warnings and payments to the caller's arrays so that `applyAllInputs`
 * accumulates without copying. Returns undefined on an ambiguous time interval.
 */
export function reduceUntilQuiescentInto(
  env: Environment,
  state: State,
  contract: Contract,
  warnings: { push(warning: ReduceWarning): unknown },
  payments: Payment[]
): Quiescent | undefined {
  let anyStep = false
  for (;;) {
    const step = reduceContractStep(env, state, contract)
    if (step.type === 'NotReduced') return { reduced: anyStep, state, contract }
    if (step.type === 'AmbiguousTimeIntervalReductionError') return undefined
    if (step.warning !== undefined) warnings.push(step.warning)
    if (step.payment !== undefined) payments.push(step.payment)
    anyStep = true
    state = step.state
    contract = step.contract
  }
}

export function reduceContractUntilQuiescent(env: Environment, state: State, contract: Contract): ReduceResult {
  const warnings: ReduceWarning[] = []
  const payments: Payment[] = []
  const quiescent = reduceUntilQuiescentInto(env, state, contract, warnings, payments)
  if (quiescent === undefined) return AMBIGUOUS_RESULT
  return { type: 'ContractQuiescent', ...quiescent, warnings, payments }
}
