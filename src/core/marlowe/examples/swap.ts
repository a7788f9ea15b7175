/**
 * Swap of two tokens between two parties, the shape of Playground's "Swap of Ada and dollar token"
 * (`swap-of-ada-and-dollar-token.contract`) and of the Haskell generator `Marlowe.Contracts.Swap`:
 *
 * 1. the first party deposits its side into its own account before its deadline;
 * 2. the second party deposits its side into its own account before its (same or later) deadline;
 * 3. each side is paid out of its depositor's account to the other party.
 *
 * A missed deadline closes the contract, which refunds whatever was deposited. The Haskell generator uses one
 * deadline for both deposits; the Playground contract, like this one, gives each side its own.
 */
import { CLOSE, type Party, type Token } from '../types'
import { onDeposit, payToParty, when, withRoles, type ExampleContract } from './dsl'
import {
  requireDistinctParties,
  requireNotBefore,
  requireParty,
  requirePositive,
  requireTime,
  requireToken
} from './parameters'

export interface SwapSide {
  readonly party: Party
  /** What this party gives. */
  readonly token: Token
  readonly amount: bigint
  /** POSIX ms; this party must deposit before it. */
  readonly depositDeadline: bigint
}

export interface SwapParameters {
  /** Deposits first. */
  readonly first: SwapSide
  /** Deposits once the first side is in; its deadline must not be earlier than the first's. */
  readonly second: SwapSide
}

export function swap(params: SwapParameters): ExampleContract {
  validate(params)
  const { first, second } = params
  const exchange = payToParty(
    first.party,
    second.party,
    first.token,
    first.amount,
    payToParty(second.party, first.party, second.token, second.amount, CLOSE)
  )
  const secondDeposit = when(
    [onDeposit(second.party, second.party, second.token, second.amount, exchange)],
    second.depositDeadline
  )
  const contract = when(
    [onDeposit(first.party, first.party, first.token, first.amount, secondDeposit)],
    first.depositDeadline
  )
  return withRoles(contract, [first.party, second.party])
}

function validate({ first, second }: SwapParameters): void {
  for (const [name, side] of [
    ['first', first],
    ['second', second]
  ] as const) {
    requireParty(`${name}.party`, side.party)
    requireToken(`${name}.token`, side.token)
    requirePositive(`${name}.amount`, side.amount)
    requireTime(`${name}.depositDeadline`, side.depositDeadline)
  }
  requireDistinctParties({ 'first.party': first.party, 'second.party': second.party })
  // An earlier second deadline would already have passed when the first deposit arrives.
  requireNotBefore('second.depositDeadline', second.depositDeadline, 'first.depositDeadline', first.depositDeadline)
}
