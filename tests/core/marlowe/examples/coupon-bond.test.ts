import { describe, expect, it } from 'vitest'
import {
  MAX_COUPONS,
  couponBond,
  couponDeadlines,
  zeroCouponBond,
  type CouponBondParameters
} from '../../../../src/core/marlowe/examples'
import { parseContract, stringifyContract } from '../../../../src/core/marlowe/json'
import { evalValue } from '../../../../src/core/marlowe/semantics'
import { partyEquals } from '../../../../src/core/marlowe/equality'
import { emptyState, type Contract, type Party } from '../../../../src/core/marlowe/types'
import { haveVectors } from '../../../support/vectors'
import {
  ADA,
  DOLLAR,
  HUGE,
  deposit,
  expectParameterError,
  expectRoundTrips,
  firstInputs,
  playToClose,
  readReference,
  role,
  toParty,
  tx
} from './support'

const investor = role('Lender')
const issuer = role('Borrower')
const principal = 100_000_000n
const coupon = 5_000_000n

/** Three coupons on the timetable of `coupon-bond-guaranteed.contract`. */
const P: CouponBondParameters = {
  investor,
  issuer,
  token: ADA,
  principal,
  coupon,
  numberOfCoupons: 3n,
  investmentDeadline: 600_000n,
  couponInterval: 300_000n
}
const { contract } = couponBond(P)

/** Deposits `party` makes along the contract's first-case path, with their deadlines and constant amounts. */
function depositsAlongFirstPath(c: Contract, party: Party): Array<[bigint, bigint]> {
  const found: Array<[bigint, bigint]> = []
  const env = { timeInterval: { from: 0n, to: 0n } }
  for (let at: Contract = c; at.type !== 'Close';) {
    if (at.type === 'When') {
      const first = at.cases[0]
      if (first === undefined || first.type !== 'Case') break
      const { action } = first
      if (action.type === 'Deposit' && partyEquals(action.party, party)) {
        found.push([evalValue(env, emptyState(0n), action.value), at.timeout])
      }
      at = first.then
    } else {
      at = at.then
    }
  }
  return found
}

describe('coupon bond', () => {
  it('with one coupon is the zero-coupon bond', () => {
    const one = { ...P, numberOfCoupons: 1n }
    expect(couponBond(one)).toEqual(
      zeroCouponBond({
        lender: investor,
        borrower: issuer,
        token: ADA,
        principal,
        interest: coupon,
        lendingDeadline: P.investmentDeadline,
        repaymentDeadline: P.investmentDeadline + P.couponInterval
      })
    )
  })

  it.skipIf(!haveVectors)(
    'follows the lender/borrower payment schedule of coupon-bond-guaranteed, without the guarantor',
    () => {
      const reference = parseContract(readReference('coupon-bond-guaranteed.contract'))
      const borrowerPays = depositsAlongFirstPath(reference, role('Borrower'))
      expect(depositsAlongFirstPath(contract, issuer)).toEqual(borrowerPays)
      expect(borrowerPays).toEqual([
        [coupon, 900_000n],
        [coupon, 1_200_000n],
        [principal + coupon, 1_500_000n]
      ])
      expect(depositsAlongFirstPath(contract, investor)).toEqual(depositsAlongFirstPath(reference, role('Lender')))
      // The reference starts with the guarantor's collateral, which this contract does not have.
      expect(depositsAlongFirstPath(reference, role('Guarantor'))).toEqual([[principal + 3n * coupon, 300_000n]])
      expect(stringifyContract(contract)).not.toContain('Guarantor')
    }
  )

  it('lists the payment deadlines', () => {
    expect(couponDeadlines(P)).toEqual([900_000n, 1_200_000n, 1_500_000n])
  })

  it('uses both roles', () => {
    expect(couponBond(P).roles).toEqual(['Lender', 'Borrower'])
  })

  it('first accepts only the investor’s deposit of the principal', () => {
    expect(firstInputs(contract, 0n)).toEqual({
      deposits: [
        {
          party: investor,
          account: investor,
          token: ADA,
          canDeposit: principal,
          caseIndex: 0,
          isMerkleizedContinuation: false
        }
      ],
      choices: []
    })
  })

  it('pays every coupon, then the principal with the last one', () => {
    const out = playToClose(contract, [
      tx(0n, deposit(investor, investor, ADA, principal)),
      tx(900_000n - 1n, deposit(issuer, issuer, ADA, coupon)),
      tx(1_000_000n, deposit(issuer, issuer, ADA, coupon)),
      tx(1_500_000n - 1n, deposit(issuer, issuer, ADA, principal + coupon))
    ])
    expect(out.payments).toEqual([
      toParty(investor, issuer, ADA, principal),
      toParty(issuer, investor, ADA, coupon),
      toParty(issuer, investor, ADA, coupon),
      toParty(issuer, investor, ADA, principal + coupon)
    ])
  })

  it('closes when the issuer misses a coupon', () => {
    const out = playToClose(contract, [
      tx(0n, deposit(investor, investor, ADA, principal)),
      tx(1n, deposit(issuer, issuer, ADA, coupon)),
      tx(1_200_000n)
    ])
    expect(out.payments).toEqual([toParty(investor, issuer, ADA, principal), toParty(issuer, investor, ADA, coupon)])
  })

  it('closes with nothing paid when the investor never invests', () => {
    expect(playToClose(contract, [tx(P.investmentDeadline)]).payments).toEqual([])
  })

  it('handles amounts above 2^53', () => {
    const huge = couponBond({ ...P, token: DOLLAR, principal: HUGE, coupon: HUGE, numberOfCoupons: 2n })
    const out = playToClose(huge.contract, [
      tx(0n, deposit(investor, investor, DOLLAR, HUGE)),
      tx(1n, deposit(issuer, issuer, DOLLAR, HUGE)),
      tx(2n, deposit(issuer, issuer, DOLLAR, 2n * HUGE))
    ])
    expect(out.payments.map((p) => p.amount)).toEqual([HUGE, HUGE, 2n * HUGE])
    expectRoundTrips(huge.contract)
  })

  it('round-trips through JSON and Plutus Data, up to the maximum number of coupons', () => {
    expectRoundTrips(contract)
    expectRoundTrips(couponBond({ ...P, numberOfCoupons: MAX_COUPONS }).contract)
  })

  it('rejects nonsense parameters, naming them', () => {
    expectParameterError(() => couponBond({ ...P, numberOfCoupons: 0n }), 'numberOfCoupons', 'between 1 and')
    expectParameterError(
      () => couponBond({ ...P, numberOfCoupons: MAX_COUPONS + 1n }),
      'numberOfCoupons',
      'between 1 and'
    )
    expectParameterError(() => couponBond({ ...P, principal: 0n }), 'principal', 'must be positive')
    expectParameterError(() => couponBond({ ...P, coupon: 0n }), 'coupon', 'must be positive')
    expectParameterError(() => couponBond({ ...P, couponInterval: 0n }), 'couponInterval', 'must be positive')
    expectParameterError(() => couponBond({ ...P, investmentDeadline: -1n }), 'investmentDeadline', 'POSIX time')
    expectParameterError(() => couponBond({ ...P, issuer: investor }), 'issuer', 'must differ from investor')
    expectParameterError(() => couponDeadlines({ ...P, numberOfCoupons: -3n }), 'numberOfCoupons', 'between 1 and')
  })
})
