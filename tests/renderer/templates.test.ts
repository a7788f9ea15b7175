// @vitest-environment happy-dom
/** The template forms build exactly what the core's example builders build from the same parameters. */
import { mount } from '@vue/test-utils'
import { describe, expect, test } from 'vitest'
import type { Component } from 'vue'
import { formatShelleyAddress } from '../../src/core/cardano/address'
import {
  couponBond,
  escrow,
  swap,
  vesting,
  zeroCouponBond,
  type ExampleContract
} from '../../src/core/marlowe/examples'
import type { Party, Token } from '../../src/core/marlowe/types'
import CouponBondForm from '../../src/renderer/src/components/new-contract/CouponBondForm.vue'
import EscrowForm from '../../src/renderer/src/components/new-contract/EscrowForm.vue'
import SwapForm from '../../src/renderer/src/components/new-contract/SwapForm.vue'
import VestingForm from '../../src/renderer/src/components/new-contract/VestingForm.vue'
import ZeroCouponBondForm from '../../src/renderer/src/components/new-contract/ZeroCouponBondForm.vue'
import { formatTime, fromDateTimeLocal, toDateTimeLocal } from '../../src/renderer/src/format/time'

/** The chain's clock the forms start from: their default deadlines are relative to it. */
const NOW = BigInt(Date.UTC(2030, 0, 15, 9, 30))
const HOUR = 3_600_000n
const DAY = 24n * HOUR
const ADA: Token = { currencySymbol: '', tokenName: '' }
const role = (name: string): Party => ({ type: 'Role', role: name })
/** What a datetime-local default reads back as (to the minute, in local time). */
const at = (offset: bigint): bigint => fromDateTimeLocal(toDateTimeLocal(NOW + offset))!
const ADDRESS = formatShelleyAddress({ mainnet: false, payment: { type: 'key', hash: '11'.repeat(28) } })
const POLICY = 'ab'.repeat(28)

/** The coupon bond the form builds from its defaults, but for its coupon interval. */
const couponBondWithInterval = (couponInterval: bigint): ExampleContract =>
  couponBond({
    investor: role('Investor'),
    issuer: role('Issuer'),
    token: ADA,
    principal: 100_000_000n,
    coupon: 2_000_000n,
    numberOfCoupons: 3n,
    investmentDeadline: at(DAY),
    couponInterval
  })

function mountForm(form: Component) {
  const wrapper = mount(form, { props: { now: NOW } })
  const last = (): ExampleContract | undefined => {
    const events = wrapper.emitted<[ExampleContract | undefined]>('built') ?? []
    return events[events.length - 1]?.[0]
  }
  return { wrapper, last }
}

describe('template forms', () => {
  test('escrow with its defaults is the core escrow of the same parameters', () => {
    const { last } = mountForm(EscrowForm)
    expect(last()).toEqual(
      escrow({
        seller: role('Seller'),
        buyer: role('Buyer'),
        mediator: role('Mediator'),
        price: 10_000_000n,
        token: ADA,
        paymentDeadline: at(DAY),
        complaintDeadline: at(2n * DAY),
        disputeDeadline: at(3n * DAY),
        mediationDeadline: at(4n * DAY)
      })
    )
  })

  test('escrow as edited: an address party, a price in ada with decimals, a new deadline', async () => {
    const { wrapper, last } = mountForm(EscrowForm)
    await wrapper.get('#escrow-seller-kind').setValue('address')
    await wrapper.get('[data-testid=field-escrow-seller]').setValue(ADDRESS)
    await wrapper.get('[data-testid=field-escrow-price]').setValue('1234.567891')
    await wrapper.get('[data-testid=field-escrow-payment]').setValue(toDateTimeLocal(NOW + 6n * HOUR))
    expect(last()).toEqual(
      escrow({
        seller: { type: 'Address', address: ADDRESS },
        buyer: role('Buyer'),
        mediator: role('Mediator'),
        price: 1_234_567_891n,
        token: ADA,
        paymentDeadline: at(6n * HOUR),
        complaintDeadline: at(2n * DAY),
        disputeDeadline: at(3n * DAY),
        mediationDeadline: at(4n * DAY)
      })
    )
    expect(last()?.roles).toEqual(['Buyer', 'Mediator'])
  })

  test('a parameter the core rejects is shown beside its field, in the form’s words, and nothing is built', async () => {
    const { wrapper, last } = mountForm(EscrowForm)
    await wrapper.get('[data-testid=field-escrow-complaint]').setValue(toDateTimeLocal(NOW + HOUR))
    expect(last()).toBeUndefined()
    // The other field by its label and its deadline as local time, not the core's parameter names and milliseconds.
    expect(wrapper.get('#escrow-complaint-note').text()).toBe(
      `Must be after “Buyer pays before” (${formatTime(at(DAY))}).`
    )
    expect(wrapper.get('[data-testid=template-error]').text()).toBe(
      `Check “Buyer confirms or complains before”: Must be after “Buyer pays before” (${formatTime(at(DAY))}).`
    )
    expect(wrapper.text()).not.toMatch(/complaintDeadline|paymentDeadline|\d{13}/)

    await wrapper.get('[data-testid=field-escrow-complaint]').setValue(toDateTimeLocal(NOW + 2n * DAY))
    await wrapper.get('[data-testid=field-escrow-price]').setValue('0')
    expect(wrapper.get('#escrow-price-note').text()).toBe('Must be more than zero.')

    await wrapper.get('[data-testid=field-escrow-complaint]').setValue(toDateTimeLocal(NOW + 2n * DAY))
    await wrapper.get('[data-testid=field-escrow-price]').setValue('1.2345678')
    expect(last()).toBeUndefined()
    expect(wrapper.get('#escrow-price-note').text()).toBe('Ada has at most six decimals.')
  })

  test('the core’s other reasons read in plain words: parties by their label, no base units', async () => {
    const escrowForm = mountForm(EscrowForm)
    const mediator = escrowForm.wrapper.get('[data-testid=field-escrow-mediator]')
    await mediator.setValue('Seller')
    expect(escrowForm.wrapper.get('[data-testid=template-error]').text()).toBe(
      'Check “Mediator”: Must differ from “Seller”.'
    )
    await mediator.setValue('')
    expect(escrowForm.wrapper.get('[data-testid=template-error]').text()).toBe(
      'Check “Mediator”: Enter the role’s name.'
    )

    const vestingForm = mountForm(VestingForm)
    await vestingForm.wrapper.get('[data-testid=field-vesting-periods]').setValue('12')
    await vestingForm.wrapper.get('[data-testid=field-vesting-total]').setValue('0.000011')
    expect(vestingForm.wrapper.get('[data-testid=template-error]').text()).toBe(
      'Check “Total amount”: Must be large enough to vest some in each of the 12 periods.'
    )

    const swapForm = mountForm(SwapForm)
    await swapForm.wrapper.get('[data-testid=field-swap-second-token-policy]').setValue(POLICY)
    await swapForm.wrapper.get('[data-testid=field-swap-second-deadline]').setValue(toDateTimeLocal(NOW))
    expect(swapForm.wrapper.get('[data-testid=template-error]').text()).toBe(
      `Check “Deposits before (second side)”: Must not be before “Deposits before (first side)” (${formatTime(at(DAY))}).`
    )
  })

  test('swap of ada for a native token', async () => {
    const { wrapper, last } = mountForm(SwapForm)
    await wrapper.get('[data-testid=field-swap-second-token-policy]').setValue(POLICY)
    await wrapper.get('[data-testid=field-swap-second-token-name]').setValue('DJED')
    await wrapper.get('[data-testid=field-swap-second-amount]').setValue('18446744073709551617')
    expect(last()).toEqual(
      swap({
        first: { party: role('Ada provider'), token: ADA, amount: 10_000_000n, depositDeadline: at(DAY) },
        second: {
          party: role('Token provider'),
          token: { currencySymbol: POLICY, tokenName: 'DJED' },
          amount: 2n ** 64n + 1n,
          depositDeadline: at(2n * DAY)
        }
      })
    )
  })

  test('a swap whose other token is left blank is refused beside the field, not read as ada', async () => {
    const { wrapper, last } = mountForm(SwapForm)
    expect(last()).toBeUndefined()
    expect(wrapper.get('#swap-second-token-note').text()).toBe('Enter the token’s policy id, or choose Ada.')
    expect(wrapper.get('[data-testid=template-error]').text()).toBe(
      'Check “Gives (second side)”: Enter the token’s policy id, or choose Ada.'
    )
    // A name alone is not a token either.
    await wrapper.get('[data-testid=field-swap-second-token-name]').setValue('DJED')
    expect(last()).toBeUndefined()
    expect(wrapper.get('#swap-second-token-note').text()).toBe('Enter the token’s policy id, or choose Ada.')

    await wrapper.get('[data-testid=field-swap-second-token-policy]').setValue(`  ${POLICY} `)
    expect(last()?.contract).toEqual(
      swap({
        first: { party: role('Ada provider'), token: ADA, amount: 10_000_000n, depositDeadline: at(DAY) },
        second: {
          party: role('Token provider'),
          token: { currencySymbol: POLICY, tokenName: 'DJED' },
          amount: 10n,
          depositDeadline: at(2n * DAY)
        }
      }).contract
    )
    expect(wrapper.get('#swap-second-token-note').text()).toBe('')

    // The same on the side that gives ada by default, once it is switched to another token.
    await wrapper.get('[data-testid=field-swap-first-token-token]').setValue(true)
    expect(last()).toBeUndefined()
    expect(wrapper.get('#swap-first-token-note').text()).toBe('Enter the token’s policy id, or choose Ada.')
  })

  test('a deadline already past is built, but warned of beside the field and under the form', async () => {
    const { wrapper, last } = mountForm(EscrowForm)
    expect(wrapper.find('[data-testid=template-deadline-warning]').exists()).toBe(false)
    expect(wrapper.get('#escrow-payment-note').classes()).not.toContain('field-warning')

    const epoch = toDateTimeLocal(0n)
    await wrapper.get('[data-testid=field-escrow-payment]').setValue(epoch)
    const note = wrapper.get('#escrow-payment-note')
    expect(note.text()).toBe('This time has already passed: nothing can be done before it.')
    expect(note.classes()).toContain('field-warning')
    expect(wrapper.get('#escrow-complaint-note').text()).toBe('')
    expect(last()).toBeDefined()
    expect(wrapper.get('[data-testid=template-deadline-warning]').text()).toBe(
      `Warning: A deadline of this contract has already passed (${formatTime(fromDateTimeLocal(epoch)!)}): what ` +
        'is due before it can no longer be done.'
    )

    // Exactly the chain's "now" has passed too: a deposit must come before the deadline.
    await wrapper.get('[data-testid=field-escrow-complaint]').setValue(toDateTimeLocal(NOW))
    expect(wrapper.get('#escrow-complaint-note').text()).toBe(
      'This time has already passed: nothing can be done before it.'
    )
    expect(wrapper.get('[data-testid=template-deadline-warning]').text()).toContain(
      '2 deadlines of this contract have already passed, the first'
    )
  })

  test('a vesting plan started long ago is warned of: its vesting dates have passed', async () => {
    const { wrapper, last } = mountForm(VestingForm)
    expect(wrapper.find('[data-testid=template-deadline-warning]').exists()).toBe(false)
    await wrapper.get('[data-testid=field-vesting-start]').setValue(toDateTimeLocal(NOW - 365n * DAY))
    expect(last()).toBeDefined()
    expect(wrapper.get('[data-testid=template-deadline-warning]').text()).toMatch(
      /^Warning: \d+ deadlines of this contract have already passed, the first /
    )
  })

  test('zero-coupon bond, coupon bond and vesting with their defaults', () => {
    expect(mountForm(ZeroCouponBondForm).last()).toEqual(
      zeroCouponBond({
        lender: role('Lender'),
        borrower: role('Borrower'),
        token: ADA,
        principal: 100_000_000n,
        interest: 5_000_000n,
        lendingDeadline: at(DAY),
        repaymentDeadline: at(30n * DAY)
      })
    )
    expect(mountForm(CouponBondForm).last()).toEqual(couponBondWithInterval(30n * DAY))
    expect(mountForm(VestingForm).last()).toEqual(
      vesting({
        provider: role('Provider'),
        claimer: role('Claimer'),
        token: ADA,
        totalAmount: 120_000_000n,
        startTime: at(0n),
        periodLength: 30n * DAY,
        numberOfPeriods: 3n
      })
    )
  })

  test('durations take their unit: a coupon every 90 minutes', async () => {
    const { wrapper, last } = mountForm(CouponBondForm)
    await wrapper.get('[data-testid=field-cb-interval]').setValue('1.5')
    await wrapper.get('#cb-interval-unit').setValue('hours')
    expect(last()).toEqual(couponBondWithInterval(90n * 60_000n))
  })
})
