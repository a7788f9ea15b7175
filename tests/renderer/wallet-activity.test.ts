// @vitest-environment happy-dom
/** The wallet's activity on its screen: newest first as the engine answers, what each did, a page at a time. */
import { flushPromises } from '@vue/test-utils'
import { describe, expect, test } from 'vitest'
import type { WalletActivityItem, WalletSummary } from '../../src/api/contract'
import WalletActivity from '../../src/renderer/src/components/wallet/WalletActivity.vue'
import { formatTime } from '../../src/renderer/src/format/time'
import { useWalletsStore } from '../../src/renderer/src/stores/wallets'
import { FakeDesk, mountWithDesk } from './support/desk'
import { WALLET } from './support/desk-answers'

const T = 1_800_000_000_000n
const OTHER: WalletSummary = { ...WALLET, id: '22'.repeat(20), name: 'Other' }

/** 23 transactions, newest first: creations, then one application, one withdrawal, one paid by others. */
const ITEMS: WalletActivityItem[] = Array.from({ length: 23 }, (_, i) => {
  const txId = i.toString(16).padStart(64, '0')
  const at = T - BigInt(i) * 60_000n
  if (i === 1) return { txId, kind: 'apply', contractId: `${txId}#0`, status: 'submitted', origin: 'built', at }
  if (i === 2) return { txId, kind: 'withdraw', status: 'confirmed', origin: 'built', at }
  if (i === 3) return { txId, kind: 'apply', contractId: `${txId}#1`, status: 'confirmed', origin: 'chain', at }
  return {
    txId,
    kind: 'create',
    contractId: `${txId}#0`,
    status: i === 0 ? 'unsigned' : 'confirmed',
    origin: 'built',
    at
  }
})

async function activity(items: readonly WalletActivityItem[]) {
  const desk = new FakeDesk({
    'wallets.list': () => [WALLET, OTHER],
    'wallets.activity': ({ walletId, offset, limit }) =>
      walletId === WALLET.id
        ? { items: items.slice(offset, offset + limit), total: items.length }
        : { items: [], total: 0 }
  })
  const mounted = await mountWithDesk(WalletActivity, desk)
  await useWalletsStore(mounted.pinia).load()
  await flushPromises()
  return { ...mounted, desk }
}

describe('wallet activity', () => {
  test('each transaction: when, what it did, its contract, its status and id', async () => {
    const { wrapper } = await activity(ITEMS)
    const rows = wrapper.findAll('[data-testid=activity-item]')
    expect(rows).toHaveLength(10)
    expect(rows[0]!.text()).toContain(formatTime(T))
    expect(rows[0]!.text()).toContain('Opened a contract — open the contract')
    expect(rows[0]!.text()).toContain('unsigned')
    expect(rows[0]!.get('a').attributes('href')).toBe(`/contracts/${encodeURIComponent(`${ITEMS[0]!.txId}#0`)}`)
    expect(rows[1]!.text()).toContain('Acted in a contract')
    expect(rows[2]!.text()).toContain('Withdrew payouts')
    expect(rows[2]!.find('a').exists()).toBe(false)
    expect(rows[3]!.text()).toContain('Paid this wallet (a transaction made elsewhere)')
    expect(rows[0]!.find('button[aria-label="Copy transaction id"]').exists()).toBe(true)
  })

  test('a page at a time, older and back', async () => {
    const { wrapper, desk } = await activity(ITEMS)
    const range = () => wrapper.get('[data-testid=activity-range]').text()
    const first = () => wrapper.findAll('[data-testid=activity-item]')[0]!.text()
    expect(range()).toBe('1–10 of 23')
    expect(wrapper.get('[data-testid=activity-newer]').attributes('disabled')).toBeDefined()
    await wrapper.get('[data-testid=activity-older]').trigger('click')
    await flushPromises()
    await wrapper.get('[data-testid=activity-older]').trigger('click')
    await flushPromises()
    expect(range()).toBe('21–23 of 23')
    expect(wrapper.findAll('[data-testid=activity-item]')).toHaveLength(3)
    expect(first()).toContain(formatTime(ITEMS[20]!.at))
    expect(wrapper.get('[data-testid=activity-older]').attributes('disabled')).toBeDefined()
    await wrapper.get('[data-testid=activity-newer]').trigger('click')
    await flushPromises()
    expect(range()).toBe('11–20 of 23')
    expect(desk.requests('wallets.activity').map((r) => [r.walletId, r.offset, r.limit])).toEqual([
      [WALLET.id, 0, 10],
      [WALLET.id, 10, 10],
      [WALLET.id, 20, 10],
      [WALLET.id, 10, 10]
    ])
  })

  test('another wallet starts again from its newest; none yet is said so', async () => {
    const { wrapper, pinia, desk } = await activity(ITEMS)
    await wrapper.get('[data-testid=activity-older]').trigger('click')
    await flushPromises()
    useWalletsStore(pinia).select(OTHER.id)
    await flushPromises()
    expect(desk.requests('wallets.activity').at(-1)).toEqual({ walletId: OTHER.id, offset: 0, limit: 10 })
    expect(wrapper.get('[data-testid=activity-empty]').text()).toContain('No transactions of this wallet yet')
    expect(wrapper.find('[data-testid=activity-range]').exists()).toBe(false)
  })
})
