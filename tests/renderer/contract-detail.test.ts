// @vitest-environment happy-dom
/**
 * A contract's detail and the act forms: the tree in words with exact amounts, a deposit fixed by the contract,
 * choices within their bounds, the timeout once its deadline passed, the sandbox clock, payouts.
 */
import { flushPromises } from '@vue/test-utils'
import { describe, expect, test, vi } from 'vitest'
import { DeskError, type PayoutInfo } from '../../src/api/contract'
import { onChoiceBetween, onDeposit, when } from '../../src/core/marlowe/examples/dsl'
import { CLOSE, emptyState, type Contract, type Party, type Token } from '../../src/core/marlowe/types'
import { formatTime } from '../../src/renderer/src/format/time'
import { useWalletsStore } from '../../src/renderer/src/stores/wallets'
import ContractDetailView from '../../src/renderer/src/views/ContractDetailView.vue'
import { FakeDesk, mountWithDesk, type FakeHandlers } from './support/desk'
import { CONTRACT_ID, ROLES, WALLET, contractDetail, nextSteps, status } from './support/desk-answers'

const NOW = 1_900_000_000_000n
const DEADLINE = NOW + 3_600_000n
const HUGE = 2n ** 64n + 1n
const TOKEN: Token = { currencySymbol: 'ab'.repeat(28), tokenName: 'Gold' }
const lender: Party = { type: 'Role', role: 'Lender' }
const borrower: Party = { type: 'Role', role: 'Borrower' }

/** Lender deposits 2^64+1 Gold or Borrower picks a rate in [1,10] or [20,30], before DEADLINE. */
const CONTRACT: Contract = when(
  [
    onDeposit(lender, lender, TOKEN, HUGE, CLOSE),
    onChoiceBetween('rate', borrower, 1n, 10n, CLOSE),
    {
      type: 'Case',
      action: { type: 'Choice', choice: { name: 'rate', owner: borrower }, bounds: [{ from: 20n, to: 30n }] },
      then: CLOSE
    }
  ],
  DEADLINE
)
const STATE = emptyState(NOW - 60_000n)

/** The builds fail here (the review screen has its own tests): what matters is what was asked, and the error. */
const tooPoor = (): never => {
  throw new DeskError('insufficient-funds', 'The wallet has too little ada to build this transaction.', {
    needed: 2_000_000n
  })
}

async function detail(chainTime: bigint, handlers: FakeHandlers = {}) {
  const desk = new FakeDesk({
    'app.status': () => status(chainTime),
    'wallets.list': () => [WALLET],
    'contracts.get': () => contractDetail(CONTRACT, STATE, DEADLINE),
    'contracts.next': () => nextSteps(CONTRACT, STATE, chainTime, [lender, borrower]),
    'payouts.list': () => [],
    'contracts.apply': tooPoor,
    ...handlers
  })
  const mounted = await mountWithDesk(ContractDetailView, desk, {
    props: { contractId: CONTRACT_ID },
    path: `/contracts/${encodeURIComponent(CONTRACT_ID)}`
  })
  await useWalletsStore(mounted.pinia).load()
  await flushPromises()
  return { ...mounted, desk }
}

describe('contract detail', () => {
  test('the contract reads as a tree, amounts above 2^53 exact, deadline as local time', async () => {
    const { wrapper } = await detail(NOW)
    const tree = wrapper.get('[data-testid=contract-tree]').text()
    expect(tree).toContain('Lender deposits 18,446,744,073,709,551,617 Gold into Lender’s account')
    expect(tree).toContain('Borrower chooses “rate”: 1 to 10')
    expect(tree).toContain('otherwise, at the deadline')
    expect(wrapper.get('[data-testid=contract-id]').text()).toBe(CONTRACT_ID)
    expect(wrapper.text()).toContain(ROLES)
    expect(wrapper.get('[data-testid=next-deadline]').text()).toBe(
      new Intl.DateTimeFormat(undefined, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
        timeZoneName: 'short'
      }).format(new Date(Number(DEADLINE)))
    )
  })

  test('the role token policy id is shown whole and copies whole, like the contract id', async () => {
    const writeText = vi.fn(async (_text: string) => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    const { wrapper } = await detail(NOW)
    expect(wrapper.get('[data-testid=roles-currency]').text()).toBe(ROLES)
    await wrapper.get('button[aria-label="Copy role token policy id"]').trigger('click')
    await flushPromises()
    expect(writeText).toHaveBeenLastCalledWith(ROLES)
    await wrapper.get('button[aria-label="Copy transaction id"]').trigger('click')
    await flushPromises()
    expect(writeText).toHaveBeenLastCalledWith(CONTRACT_ID)
  })

  test('a deposit is one button for the amount the contract fixes, sent exactly', async () => {
    const { wrapper, desk, router } = await detail(NOW)
    const deposit = wrapper.get('[data-testid=deposit-action]')
    expect(deposit.text()).toContain('Lender deposits 18,446,744,073,709,551,617 Gold into Lender’s account.')
    await deposit.get('[data-testid=deposit-apply]').trigger('click')
    await flushPromises()
    const [request] = desk.requests('contracts.apply')
    expect(request?.walletId).toBe(WALLET.id)
    expect(request?.inputsJson).toBe(
      '[{"input_from_party":{"role_token":"Lender"},"into_account":{"role_token":"Lender"},' +
        `"of_token":{"currency_symbol":"${TOKEN.currencySymbol}","token_name":"Gold"},"that_deposits":${HUGE}}]`
    )
    const error = wrapper.get('[data-testid=act-panel] [data-testid=error]')
    expect(error.text()).toContain('The wallet has too little ada to build this transaction.')
    expect(error.get('details').text()).toContain('code: insufficient-funds')
    expect(error.get('details').text()).toContain('"needed": 2000000')
    expect(router.currentRoute.value.path).toBe(`/contracts/${encodeURIComponent(CONTRACT_ID)}`)
  })

  test('a choice accepts only numbers within its bounds', async () => {
    const { wrapper, desk } = await detail(NOW)
    const [choice] = wrapper.findAll('[data-testid=choice-action]')
    expect(choice?.text()).toContain('Number (1 to 10, or 20 to 30)')
    const input = choice!.get('[data-testid=choice-value]')
    const button = choice!.get('[data-testid=choice-apply]')
    for (const outside of ['0', '11', '19', '31', '-5']) {
      await input.setValue(outside)
      expect(choice!.get('[data-testid=choice-error]').text()).toBe('The contract accepts only 1 to 10, or 20 to 30.')
      expect(button.attributes('disabled')).toBeDefined()
    }
    await input.setValue('2.5')
    expect(choice!.get('[data-testid=choice-error]').text()).toBe('Enter a whole number.')
    await input.setValue('25')
    expect(choice!.get('[data-testid=choice-error]').text()).toBe('')
    await choice!.trigger('submit')
    await flushPromises()
    expect(desk.requests('contracts.apply').map((r) => r.inputsJson)).toEqual([
      '[{"for_choice_id":{"choice_name":"rate","choice_owner":{"role_token":"Borrower"}},"input_that_chooses_num":25}]'
    ])
  })

  test('before the deadline the sandbox clock can be moved past it, once confirmed', async () => {
    let chainTime = NOW
    const { wrapper, desk } = await detail(NOW, {
      'app.status': () => status(chainTime),
      'sandbox.advance': ({ toTime }) => {
        chainTime = toTime
        return status(toTime)
      }
    })
    expect(wrapper.find('[data-testid=apply-timeout]').exists()).toBe(false)
    await wrapper.get('[data-testid=sandbox-advance]').trigger('click')
    await flushPromises()
    expect(desk.requests('sandbox.advance')).toEqual([])
    const confirm = wrapper.get('[data-testid=sandbox-advance-confirm]')
    expect(confirm.text()).toContain(`from ${formatTime(NOW)} to ${formatTime(DEADLINE + 1000n)}?`)
    expect(confirm.text()).toContain('the clock never goes back')
    await wrapper.get('[data-testid=sandbox-advance-yes]').trigger('click')
    await flushPromises()
    expect(desk.requests('sandbox.advance')).toEqual([{ toTime: DEADLINE + 1000n }])
    expect(wrapper.find('[data-testid=sandbox-advance]').exists()).toBe(false)
    expect(wrapper.find('[data-testid=apply-timeout]').exists()).toBe(true)
  })

  test('cancelled, the clock stays where it is', async () => {
    const { wrapper, desk } = await detail(NOW, { 'sandbox.advance': ({ toTime }) => status(toTime) })
    await wrapper.get('[data-testid=sandbox-advance]').trigger('click')
    await wrapper.get('[data-testid=sandbox-advance-cancel]').trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid=sandbox-advance-confirm]').exists()).toBe(false)
    expect(wrapper.find('[data-testid=sandbox-advance]').exists()).toBe(true)
    expect(desk.requests('sandbox.advance')).toEqual([])
  })

  test('once the deadline has passed, the timeout is applied with no inputs', async () => {
    const { wrapper, desk } = await detail(DEADLINE + 5_000n, {
      'contracts.next': () => nextSteps(CONTRACT, STATE, DEADLINE + 5_000n, [lender, borrower])
    })
    expect(wrapper.find('[data-testid=sandbox-advance]').exists()).toBe(false)
    await wrapper.get('[data-testid=apply-timeout]').trigger('click')
    await flushPromises()
    expect(desk.requests('contracts.apply').map((r) => r.inputsJson)).toEqual(['[]'])
  })

  test('the wallet’s part and whose turn it is, with what and before when', async () => {
    const { wrapper, desk } = await detail(NOW, {
      'contracts.get': () => ({ ...contractDetail(CONTRACT, STATE, DEADLINE), parties: ['role:Lender'] }),
      // Asked for no wallet, every party's steps; for the wallet, its own.
      'contracts.next': ({ walletId }) =>
        nextSteps(CONTRACT, STATE, NOW, walletId === undefined ? [lender, borrower] : [lender])
    })
    expect(desk.requests('contracts.get').at(-1)).toEqual({ contractId: CONTRACT_ID, walletId: WALLET.id })
    expect(wrapper.get('[data-testid=contract-holding]').text()).toBe('You hold: Lender.')
    expect(wrapper.findAll('[data-testid=contract-turn]').map((p) => p.text())).toEqual([
      `Waiting for you (Lender) to deposit 18,446,744,073,709,551,617 Gold or Borrower to choose “rate” before ` +
        `${formatTime(DEADLINE)}.`
    ])
    // Only the wallet's own step is offered to act on.
    expect(wrapper.findAll('[data-testid=deposit-action]')).toHaveLength(1)
    expect(wrapper.findAll('[data-testid=choice-action]')).toHaveLength(0)
  })

  test('a wallet by its address; past the deadline the timeout is to do, never "nothing to do"', async () => {
    const after = DEADLINE + 5_000n
    const { wrapper } = await detail(after, {
      'contracts.get': () => ({ ...contractDetail(CONTRACT, STATE, DEADLINE), parties: [WALLET.address] }),
      'contracts.next': () => nextSteps(CONTRACT, STATE, after, [lender, borrower])
    })
    expect(wrapper.get('[data-testid=contract-holding]').text()).toBe('You take part by your address (no role token).')
    expect(wrapper.findAll('[data-testid=contract-turn]').map((p) => p.text())).toEqual([
      `Its deadline, ${formatTime(DEADLINE)}, has passed: anyone, you too, can apply the timeout.`
    ])
    expect(wrapper.find('[data-testid=nothing-to-do]').exists()).toBe(false)
    expect(wrapper.find('[data-testid=apply-timeout]').exists()).toBe(true)
  })

  test('the wallet’s payouts of this contract can be withdrawn', async () => {
    const gold = { policyId: TOKEN.currencySymbol, assetName: '476f6c64', displayName: 'Gold', quantity: HUGE }
    const payout = (payoutId: string, contractId: string, assets: PayoutInfo['assets']['assets']): PayoutInfo => ({
      payoutId,
      contractId,
      transactionId: 'd0'.repeat(32),
      rolesCurrency: ROLES,
      role: 'Lender',
      status: 'available',
      assets: { lovelace: 7_500_000n, assets }
    })
    const unclaimed = payout(`${'d1'.repeat(32)}#1`, CONTRACT_ID, [])
    const { wrapper, desk } = await detail(NOW, {
      'contracts.get': () => contractDetail(CONTRACT, STATE, DEADLINE, [unclaimed]),
      'payouts.list': () => [
        payout(`${'d1'.repeat(32)}#1`, CONTRACT_ID, [gold]),
        payout(`${'d2'.repeat(32)}#1`, `${'e0'.repeat(32)}#0`, [gold])
      ],
      'payouts.withdraw': tooPoor
    })
    const items = wrapper.findAll('[data-testid=payout-item]')
    expect(items.map((i) => i.text())).toEqual(['Role “Lender”: 7.5 ada, 18,446,744,073,709,551,617 Gold'])
    expect(wrapper.get('[data-testid=unclaimed-payouts] li').text()).toBe('Role “Lender”: 7.5 ada')
    await wrapper.get('[data-testid=payouts-panel] form').trigger('submit')
    await flushPromises()
    expect(desk.requests('payouts.withdraw')).toEqual([{ walletId: WALLET.id, payoutIds: [`${'d1'.repeat(32)}#1`] }])
  })
})
