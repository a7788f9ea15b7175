/**
 * Coupon bond, after the Haskell generator `Marlowe.Contracts.UTC.CouponBond` with a fixed interval instead of a
 * calendar cycle:
 *
 * 1. the investor deposits the principal into its own account before `investmentDeadline`, and it is paid to the
 *    issuer;
 * 2. for k = 1 … numberOfCoupons the issuer deposits into its own account before
 *    `investmentDeadline + k × couponInterval`, and it is paid to the investor: the coupon, and with the last
 *    coupon the principal too (`AddValue(coupon, principal)`, as the references write it).
 *
 * Every step is a deposit-then-pay transfer, as in the zero-coupon bond; with one coupon the two contracts are
 * identical. A missed payment closes the contract with nothing held. The Haskell generator also lets the
 * investor pay a discounted price and receive a different face value; here both are the principal.
 *
 * Compared with `coupon-bond-guaranteed.contract` (Playground's "Coupon bond guaranteed"): that contract adds a
 * guarantor who first deposits principal plus all interest into the lender's account as collateral, which is
 * released to the guarantor step by step as the borrower pays and kept by the lender on default; the borrower's
 * payments go into the lender's account rather than the borrower's own. Without a guarantor there is no
 * collateral, so this contract is not a restriction of that one.
 */
import { CLOSE, type Contract, type Party, type Token, type Value } from '../types'
import { transfer, withRoles, type ExampleContract } from './dsl'
import {
  requireCount,
  requireDistinctParties,
  requireParty,
  requirePositive,
  requireTime,
  requireToken
} from './parameters'

export interface CouponBondParameters {
  readonly investor: Party
  readonly issuer: Party
  readonly token: Token
  /** Amount invested, returned with the last coupon. */
  readonly principal: bigint
  /** Amount of each coupon. */
  readonly coupon: bigint
  /** At least 1, at most `MAX_COUPONS`. */
  readonly numberOfCoupons: bigint
  /** POSIX ms; the investor must deposit before it. */
  readonly investmentDeadline: bigint
  /** Milliseconds between payment deadlines, the first one being `investmentDeadline + couponInterval`. */
  readonly couponInterval: bigint
}

/**
 * Each coupon nests the datum seven CBOR levels deeper (a When, its cases, the Case, the Pay); this keeps the
 * deepest bond (address parties) within what a transaction may carry and still be read back
 * (core/depth-limits.ts), with room to spare. Unmerkleized, far fewer steps fit in a datum anyway.
 */
export const MAX_COUPONS = 160n

/** The issuer's payment deadlines, in order; the last one is maturity. */
export function couponDeadlines(params: CouponBondParameters): bigint[] {
  validate(params)
  const deadlines: bigint[] = []
  const { investmentDeadline, couponInterval, numberOfCoupons } = params
  for (let k = 1n; k <= numberOfCoupons; k++) deadlines.push(investmentDeadline + k * couponInterval)
  return deadlines
}

export function couponBond(params: CouponBondParameters): ExampleContract {
  const { investor, issuer, token, principal, coupon } = params
  const deadlines = couponDeadlines(params)
  const redemption: Value = { type: 'AddValue', left: coupon, right: principal }
  // Built from maturity backwards: each coupon's continuation is the rest of the schedule.
  const payments = deadlines.reduceRight<Contract>(
    (rest, deadline, i) =>
      transfer(issuer, investor, token, i === deadlines.length - 1 ? redemption : coupon, deadline, rest),
    CLOSE
  )
  const contract = transfer(investor, issuer, token, principal, params.investmentDeadline, payments)
  return withRoles(contract, [investor, issuer])
}

function validate(p: CouponBondParameters): void {
  requireParty('investor', p.investor)
  requireParty('issuer', p.issuer)
  requireDistinctParties({ investor: p.investor, issuer: p.issuer })
  requireToken('token', p.token)
  requirePositive('principal', p.principal)
  requirePositive('coupon', p.coupon)
  requireCount('numberOfCoupons', p.numberOfCoupons, MAX_COUPONS)
  requireTime('investmentDeadline', p.investmentDeadline)
  requirePositive('couponInterval', p.couponInterval)
}
