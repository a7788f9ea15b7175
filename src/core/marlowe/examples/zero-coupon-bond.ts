/**
 * Zero-coupon bond (a loan repaid in one go), the shape of Playground's "Zero coupon bond"
 * (`zero-coupon-bond.contract`):
 *
 * 1. the lender deposits the principal into its own account before `lendingDeadline`, and it is paid to the borrower;
 * 2. the borrower deposits principal + interest into its own account before `repaymentDeadline`, and it is paid to
 *    the lender.
 *
 * The repayment is written `AddValue(interest, principal)`, operands in the reference's order. If the borrower
 * defaults the contract just closes: nothing is held, so the lender has no recourse on chain. The Haskell
 * generator `Marlowe.Contracts.ZeroCouponBond` has the same two transfers, phrased as a discounted price and a
 * face value.
 */
import { CLOSE, type Party, type Token, type Value } from '../types'
import { transfer, withRoles, type ExampleContract } from './dsl'
import {
  requireAfter,
  requireDistinctParties,
  requireNonNegative,
  requireParty,
  requirePositive,
  requireTime,
  requireToken
} from './parameters'

export interface ZeroCouponBondParameters {
  readonly lender: Party
  readonly borrower: Party
  readonly token: Token
  /** Amount lent. */
  readonly principal: bigint
  /** Paid on top of the principal at repayment; may be zero. */
  readonly interest: bigint
  /** POSIX ms; the lender must deposit before it. */
  readonly lendingDeadline: bigint
  /** POSIX ms, after `lendingDeadline`; the borrower must repay before it. */
  readonly repaymentDeadline: bigint
}

export function zeroCouponBond(params: ZeroCouponBondParameters): ExampleContract {
  validate(params)
  const { lender, borrower, token, principal } = params
  const repayment: Value = { type: 'AddValue', left: params.interest, right: principal }
  const repay = transfer(borrower, lender, token, repayment, params.repaymentDeadline, CLOSE)
  return withRoles(transfer(lender, borrower, token, principal, params.lendingDeadline, repay), [lender, borrower])
}

function validate(p: ZeroCouponBondParameters): void {
  requireParty('lender', p.lender)
  requireParty('borrower', p.borrower)
  requireDistinctParties({ lender: p.lender, borrower: p.borrower })
  requireToken('token', p.token)
  requirePositive('principal', p.principal)
  requireNonNegative('interest', p.interest)
  requireTime('lendingDeadline', p.lendingDeadline)
  requireAfter('repaymentDeadline', p.repaymentDeadline, 'lendingDeadline', p.lendingDeadline)
}
