import { describe, expect, it } from 'vitest'
import {
  ExampleParameterError,
  templates,
  zeroCouponBond,
  type ZeroCouponBondParameters
} from '../../../../src/core/marlowe/examples'
import { ADA, ADDRESS, ADDRESS_TEXT, DOLLAR, expectParameterError, role } from './support'

const P: ZeroCouponBondParameters = {
  lender: role('Lender'),
  borrower: ADDRESS,
  token: DOLLAR,
  principal: 10n,
  interest: 1n,
  lendingDeadline: 1n,
  repaymentDeadline: 2n
}

describe('parameter checks shared by the examples', () => {
  it('is an Error carrying the parameter name', () => {
    try {
      zeroCouponBond({ ...P, principal: -1n })
      expect.unreachable()
    } catch (e) {
      expect(e).toBeInstanceOf(Error)
      expect(e).toMatchObject({ name: 'ExampleParameterError', parameter: 'principal' })
      expect((e as ExampleParameterError).message).toBe('principal: must be positive, got -1')
    }
  })

  it('accepts role, address, ada and native-token parties and tokens', () => {
    expect(zeroCouponBond(P).roles).toEqual(['Lender'])
    expect(zeroCouponBond({ ...P, token: ADA }).roles).toEqual(['Lender'])
  })

  it('rejects malformed parties', () => {
    expectParameterError(() => zeroCouponBond({ ...P, lender: role('') }), 'lender', 'must not be empty')
    expectParameterError(() => zeroCouponBond({ ...P, lender: role('é'.repeat(17)) }), 'lender', '34 bytes of UTF-8')
    expect(zeroCouponBond({ ...P, lender: role('x'.repeat(32)) }).roles).toEqual(['x'.repeat(32)])
    const upper = { type: 'Address', address: ADDRESS_TEXT.toUpperCase() } as const
    expectParameterError(
      () => zeroCouponBond({ ...P, borrower: upper }),
      'borrower',
      `must be written as ${ADDRESS_TEXT}`
    )
    const garbled = { type: 'Address', address: 'addr_test1qqqq' } as const
    expectParameterError(() => zeroCouponBond({ ...P, borrower: garbled }), 'borrower', 'not a bech32 string')
  })

  it('rejects malformed tokens', () => {
    const namedAda = { currencySymbol: '', tokenName: 'ada' }
    expectParameterError(() => zeroCouponBond({ ...P, token: namedAda }), 'token', 'empty token name')
    expectParameterError(
      () => zeroCouponBond({ ...P, token: { ...DOLLAR, currencySymbol: DOLLAR.currencySymbol.toUpperCase() } }),
      'token',
      '56 lowercase hex digits'
    )
    expectParameterError(
      () => zeroCouponBond({ ...P, token: { ...DOLLAR, currencySymbol: DOLLAR.currencySymbol.slice(2) } }),
      'token',
      '56 lowercase hex digits'
    )
    expectParameterError(
      () => zeroCouponBond({ ...P, token: { ...DOLLAR, tokenName: 't'.repeat(33) } }),
      'token',
      'token name is 33 bytes'
    )
  })
})

describe('templates', () => {
  it('lists every example once, each with a title and a one-line description', () => {
    expect(templates.map((t) => t.id)).toEqual(['escrow', 'swap', 'zero-coupon-bond', 'coupon-bond', 'vesting'])
    for (const t of templates) {
      expect(t.title).not.toBe('')
      expect(t.description).toMatch(/^[^\n]+\.$/)
    }
  })
})
