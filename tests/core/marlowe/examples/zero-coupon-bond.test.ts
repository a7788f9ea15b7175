import { describe, expect, it } from 'vitest'
import { zeroCouponBond, type ZeroCouponBondParameters } from '../../../../src/core/marlowe/examples'
import { stringifyContract } from '../../../../src/core/marlowe/json'
import { haveVectors } from '../../../support/vectors'
import {
  ADA,
  ADDRESS,
  HUGE,
  canonicalJson,
  deposit,
  expectParameterError,
  expectRoundTrips,
  firstInputs,
  playToClose,
  readReference,
  referencePathContract,
  role,
  toParty,
  tx
} from './support'

const lender = role('Lender')
const borrower = role('Borrower')
const principal = 100_000_000n
const interest = 5_000_000n

/** The parameters of Playground's "Zero coupon bond" (`zero-coupon-bond.contract`). */
const P: ZeroCouponBondParameters = {
  lender,
  borrower,
  token: ADA,
  principal,
  interest,
  lendingDeadline: 1678288209541n,
  repaymentDeadline: 1678288509541n
}
const { contract } = zeroCouponBond(P)

describe.skipIf(!haveVectors)('zero-coupon bond against the Playground reference', () => {
  it('writes exactly zero-coupon-bond.contract, and the contract Aeson wrote in its paths', () => {
    const text = stringifyContract(contract)
    expect(text).toBe(canonicalJson(readReference('zero-coupon-bond.contract')))
    expect(text).toBe(referencePathContract('zero-coupon-bond.paths'))
  })
})

describe('zero-coupon bond', () => {
  it('uses both roles', () => {
    expect(zeroCouponBond(P).roles).toEqual(['Lender', 'Borrower'])
  })

  it('first accepts only the lender’s deposit of the principal', () => {
    expect(firstInputs(contract, 0n)).toEqual({
      deposits: [
        {
          party: lender,
          account: lender,
          token: ADA,
          canDeposit: principal,
          caseIndex: 0,
          isMerkleizedContinuation: false
        }
      ],
      choices: []
    })
  })

  it('lends the principal and repays it with interest', () => {
    const out = playToClose(contract, [
      tx(0n, deposit(lender, lender, ADA, principal)),
      tx(1n, deposit(borrower, borrower, ADA, principal + interest))
    ])
    expect(out.payments).toEqual([
      toParty(lender, borrower, ADA, principal),
      toParty(borrower, lender, ADA, principal + interest)
    ])
  })

  it('closes with nothing more paid when the borrower defaults', () => {
    const out = playToClose(contract, [tx(0n, deposit(lender, lender, ADA, principal)), tx(P.repaymentDeadline)])
    expect(out.payments).toEqual([toParty(lender, borrower, ADA, principal)])
  })

  it('closes with nothing paid when the lender never lends', () => {
    expect(playToClose(contract, [tx(P.lendingDeadline)]).payments).toEqual([])
  })

  it('lends amounts above 2^53, and accepts zero interest', () => {
    const huge = zeroCouponBond({ ...P, borrower: ADDRESS, principal: HUGE, interest: 0n })
    const out = playToClose(huge.contract, [
      tx(0n, deposit(lender, lender, ADA, HUGE)),
      tx(1n, deposit(ADDRESS, ADDRESS, ADA, HUGE))
    ])
    expect(out.payments).toEqual([toParty(lender, ADDRESS, ADA, HUGE), toParty(ADDRESS, lender, ADA, HUGE)])
    expectRoundTrips(huge.contract)
  })

  it('round-trips through JSON and Plutus Data', () => {
    expectRoundTrips(contract)
  })

  it('rejects nonsense parameters, naming them', () => {
    expectParameterError(() => zeroCouponBond({ ...P, principal: 0n }), 'principal', 'must be positive')
    expectParameterError(() => zeroCouponBond({ ...P, interest: -1n }), 'interest', 'must not be negative')
    expectParameterError(
      () => zeroCouponBond({ ...P, repaymentDeadline: P.lendingDeadline }),
      'repaymentDeadline',
      'must be after lendingDeadline'
    )
    expectParameterError(() => zeroCouponBond({ ...P, borrower: lender }), 'borrower', 'must differ from lender')
  })
})
