/**
 * Vesting (token plan), following `Vesting.mkContract` of `@marlowe.io/language-examples` (the
 * marlowe-token-plans contract). With vesting dates `startTime + k × periodLength` for k = 1 … numberOfPeriods:
 *
 * 1. the provider deposits `totalAmount` into its own account before the first vesting date;
 * 2. until each vesting date the provider may cancel (choice "cancel" = 1): the contract closes, returning the
 *    unvested funds to the provider and paying the claimer what already vested into its account;
 * 3. at each vesting date that period's tranche moves from the provider's account into the claimer's, and until
 *    the next vesting date the claimer may withdraw once (choice "withdraw" = amount, at most everything vested
 *    so far; asking for more than the account holds pays what it holds) and the provider may still cancel —
 *    except in the last period, when nothing is left to cancel;
 * 4. one period after the last vesting date the contract closes and the claimer receives what is left.
 *
 * The tree has the SDK's shape, case order and choice names. Differences: the tranche is
 * `totalAmount / numberOfPeriods` rounded down and the last tranche also carries the remainder, which the SDK
 * leaves in the provider's account (so the last withdrawal bound is the total); periods are a length in
 * milliseconds rather than a named frequency, and the start a POSIX time rather than a `Date`.
 *
 * Size: both the withdrawal and the end of a claim window continue with the next period, so the contract tree
 * doubles with every period. The returned object shares those subtrees, but serialising it does not; hence
 * `MAX_VESTING_PERIODS`. (The SDK notes that beyond 3 periods it no longer fits on chain without merkleization.)
 */
import { CLOSE, type Contract, type Party, type Token, type Value } from '../types'
import {
  onChoice,
  onChoiceBetween,
  onDeposit,
  payToAccount,
  payToParty,
  when,
  withRoles,
  type ExampleContract
} from './dsl'
import {
  ExampleParameterError,
  requireCount,
  requireDistinctParties,
  requireParty,
  requirePositive,
  requireTime,
  requireToken
} from './parameters'

export interface VestingParameters {
  readonly provider: Party
  readonly claimer: Party
  readonly token: Token
  /** Amount deposited and vested in full by the end; at least `numberOfPeriods` so every tranche is positive. */
  readonly totalAmount: bigint
  /** POSIX ms; the first vesting date (and the deposit deadline) is one period later. */
  readonly startTime: bigint
  /** Milliseconds per period. */
  readonly periodLength: bigint
  /** At least 1, at most `MAX_VESTING_PERIODS`. */
  readonly numberOfPeriods: bigint
}

export interface VestingPeriod {
  /** POSIX ms at which this tranche vests. */
  readonly vestingDate: bigint
  /** Moved from the provider's account to the claimer's at `vestingDate`. */
  readonly tranche: bigint
  /** Total vested once this period's tranche has moved. */
  readonly vested: bigint
}

/** Keeps the serialised contract in the low megabytes (it has about 2^numberOfPeriods nodes). */
export const MAX_VESTING_PERIODS = 12n

export const VESTING_CHOICES = {
  cancel: { name: 'cancel', chosen: 1n },
  withdraw: { name: 'withdraw' }
} as const

export function vestingSchedule(params: VestingParameters): VestingPeriod[] {
  validate(params)
  const { totalAmount, numberOfPeriods, startTime, periodLength } = params
  const tranche = totalAmount / numberOfPeriods
  const periods: VestingPeriod[] = []
  for (let k = 1n; k <= numberOfPeriods; k++) {
    const last = k === numberOfPeriods
    periods.push({
      vestingDate: startTime + k * periodLength,
      tranche: last ? totalAmount - (numberOfPeriods - 1n) * tranche : tranche,
      vested: last ? totalAmount : k * tranche
    })
  }
  return periods
}

export function vesting(params: VestingParameters): ExampleContract {
  const { provider, claimer, token, periodLength } = params
  const schedule = vestingSchedule(params)
  const cancel = onChoice(VESTING_CHOICES.cancel.name, provider, VESTING_CHOICES.cancel.chosen, CLOSE)
  const withdrawn: Value = { type: 'ChoiceValue', choice: { name: VESTING_CHOICES.withdraw.name, owner: claimer } }
  const periods = schedule.reduceRight<Contract>((next, period, i) => {
    const withdraw = onChoiceBetween(
      VESTING_CHOICES.withdraw.name,
      claimer,
      1n,
      period.vested,
      payToParty(claimer, claimer, token, withdrawn, next)
    )
    const isLast = i === schedule.length - 1
    const claimWindow = when(isLast ? [withdraw] : [withdraw, cancel], period.vestingDate + periodLength, next)
    return when([cancel], period.vestingDate, payToAccount(provider, claimer, token, period.tranche, claimWindow))
  }, CLOSE)
  const contract = when(
    [onDeposit(provider, provider, token, params.totalAmount, periods)],
    params.startTime + periodLength
  )
  return withRoles(contract, [provider, claimer])
}

function validate(p: VestingParameters): void {
  requireParty('provider', p.provider)
  requireParty('claimer', p.claimer)
  requireDistinctParties({ provider: p.provider, claimer: p.claimer })
  requireToken('token', p.token)
  requireCount('numberOfPeriods', p.numberOfPeriods, MAX_VESTING_PERIODS)
  requirePositive('totalAmount', p.totalAmount)
  if (p.totalAmount < p.numberOfPeriods) {
    const reason = `must be at least numberOfPeriods (${p.numberOfPeriods}) so every tranche is positive`
    throw new ExampleParameterError('totalAmount', reason)
  }
  requireTime('startTime', p.startTime)
  requirePositive('periodLength', p.periodLength)
}
