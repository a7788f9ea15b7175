/**
 * Escrow with a mediator, as Marlowe Playground and Runtime ship it (`marlowe-test/reference/data/escrow.contract`):
 *
 * 1. the buyer deposits the price into the seller's account before `paymentDeadline`;
 * 2. before `complaintDeadline` the buyer says everything is alright (the seller is paid on close) or reports a
 *    problem, which moves the price into the buyer's account;
 * 3. before `disputeDeadline` the seller confirms the problem (the buyer is refunded) or disputes it;
 * 4. before `mediationDeadline` the mediator dismisses the claim (the seller is paid) or confirms the problem
 *    (the buyer is refunded).
 *
 * Every timeout closes the contract, so the money goes to whoever's account holds it at that point. This follows
 * the Runtime reference, which differs from the Haskell generator `Marlowe.Contracts.Escrow` in two places: the
 * dismissed claim pays the seller as a party (not into the seller's account), and the mediator's confirming
 * choice is named "Confirm problem" (not "Confirm claim").
 */
import { CLOSE, type Party, type Token } from '../types'
import { onChoice, onDeposit, payToAccount, payToParty, when, withRoles, type ExampleContract } from './dsl'
import {
  requireAfter,
  requireDistinctParties,
  requireParty,
  requirePositive,
  requireTime,
  requireToken
} from './parameters'

export interface EscrowParameters {
  readonly seller: Party
  readonly buyer: Party
  readonly mediator: Party
  /** Amount of `token` the buyer pays. */
  readonly price: bigint
  readonly token: Token
  /** POSIX ms; the buyer must pay before it. */
  readonly paymentDeadline: bigint
  /** POSIX ms, after `paymentDeadline`; the buyer must confirm or complain before it. */
  readonly complaintDeadline: bigint
  /** POSIX ms, after `complaintDeadline`; the seller must answer a complaint before it. */
  readonly disputeDeadline: bigint
  /** POSIX ms, after `disputeDeadline`; the mediator must decide before it. */
  readonly mediationDeadline: bigint
}

/** Choice names as they appear on chain; each choice accepts exactly the number given. */
export const ESCROW_CHOICES = {
  everythingIsAlright: { name: 'Everything is alright', chosen: 0n },
  reportProblem: { name: 'Report problem', chosen: 1n },
  confirmProblem: { name: 'Confirm problem', chosen: 1n },
  disputeProblem: { name: 'Dispute problem', chosen: 0n },
  dismissClaim: { name: 'Dismiss claim', chosen: 0n }
} as const

export function escrow(params: EscrowParameters): ExampleContract {
  validate(params)
  const { seller, buyer, mediator, price, token } = params
  const c = ESCROW_CHOICES
  const mediation = when(
    [
      onChoice(c.dismissClaim.name, mediator, c.dismissClaim.chosen, payToParty(buyer, seller, token, price, CLOSE)),
      onChoice(c.confirmProblem.name, mediator, c.confirmProblem.chosen, CLOSE)
    ],
    params.mediationDeadline
  )
  const dispute = when(
    [
      onChoice(c.confirmProblem.name, seller, c.confirmProblem.chosen, CLOSE),
      onChoice(c.disputeProblem.name, seller, c.disputeProblem.chosen, mediation)
    ],
    params.disputeDeadline
  )
  const complaint = when(
    [
      onChoice(c.everythingIsAlright.name, buyer, c.everythingIsAlright.chosen, CLOSE),
      onChoice(c.reportProblem.name, buyer, c.reportProblem.chosen, payToAccount(seller, buyer, token, price, dispute))
    ],
    params.complaintDeadline
  )
  const contract = when([onDeposit(seller, buyer, token, price, complaint)], params.paymentDeadline)
  return withRoles(contract, [seller, buyer, mediator])
}

function validate(p: EscrowParameters): void {
  requireParty('seller', p.seller)
  requireParty('buyer', p.buyer)
  requireParty('mediator', p.mediator)
  requireDistinctParties({ seller: p.seller, buyer: p.buyer, mediator: p.mediator })
  requirePositive('price', p.price)
  requireToken('token', p.token)
  requireTime('paymentDeadline', p.paymentDeadline)
  requireAfter('complaintDeadline', p.complaintDeadline, 'paymentDeadline', p.paymentDeadline)
  requireAfter('disputeDeadline', p.disputeDeadline, 'complaintDeadline', p.complaintDeadline)
  requireAfter('mediationDeadline', p.mediationDeadline, 'disputeDeadline', p.disputeDeadline)
}
