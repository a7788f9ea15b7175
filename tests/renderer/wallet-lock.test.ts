// @vitest-environment happy-dom
/**
 * The wallet's lock as the engine keeps it: an unlocked wallet counts down to its lock time, shows itself locked
 * when that comes (the engine locks it without telling anyone) and asks the engine again.
 */
import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, test, vi } from 'vitest'
import type { WalletSummary } from '../../src/api/contract'
import { useWalletsStore } from '../../src/renderer/src/stores/wallets'
import WalletView from '../../src/renderer/src/views/WalletView.vue'
import { FakeDesk, mountWithDesk } from './support/desk'
import { NOTHING_HELD } from './support/balance'
import { WALLET } from './support/desk-answers'

const START = Date.UTC(2030, 0, 15, 9, 30)
const MINUTE = 60_000

afterEach(() => vi.useRealTimers())

function walletScreen(summaries: () => readonly WalletSummary[]) {
  const desk = new FakeDesk({
    'wallets.list': summaries,
    'wallets.balance': () => ({
      walletId: WALLET.id,
      address: WALLET.address,
      lovelace: 0n,
      assets: [],
      utxoCount: 0,
      utxos: [],
      ...NOTHING_HELD
    })
  })
  return { desk, mounted: mountWithDesk(WalletView, desk) }
}

describe('auto-lock on the wallet screen', () => {
  test('an unlocked wallet counts down to its lock, then shows itself locked as the engine has it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: START })
    let engine: WalletSummary = { ...WALLET, locked: false, locksAt: BigInt(START + 5 * MINUTE) }
    const { desk, mounted } = walletScreen(() => [engine])
    const { wrapper, pinia } = await mounted
    await useWalletsStore(pinia).load()
    await flushPromises()
    expect(wrapper.get('[data-testid=wallet-unlocked]').text()).toContain('until it locks again, in 5 min')
    expect(wrapper.get('[data-testid=wallet-locks-in]').text()).toBe('in 5 min')

    await vi.advanceTimersByTimeAsync(MINUTE + 1)
    expect(wrapper.get('[data-testid=wallet-locks-in]').text()).toBe('in 4 min')
    await vi.advanceTimersByTimeAsync(3 * MINUTE)
    expect(wrapper.get('[data-testid=wallet-locks-in]').text()).toBe('in 1 min')
    const listed = desk.requests('wallets.list').length

    // The engine locks it at that time, and says so when asked.
    engine = { ...WALLET, locked: true }
    await vi.advanceTimersByTimeAsync(MINUTE)
    await flushPromises()
    expect(wrapper.find('[data-testid=wallet-unlocked]').exists()).toBe(false)
    expect(wrapper.get('[data-testid=wallet-locked]').text()).toContain('Locked')
    expect(wrapper.find('[data-testid=unlock-password]').exists()).toBe(true)
    expect(desk.requests('wallets.list').length).toBe(listed + 1)
    // Nothing left to count down: no more calls.
    await vi.advanceTimersByTimeAsync(10 * MINUTE)
    expect(desk.requests('wallets.list').length).toBe(listed + 1)
  })

  test('a use that moved the lock on is believed: the countdown goes on from the engine’s new time', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: START })
    let engine: WalletSummary = { ...WALLET, locked: false, locksAt: BigInt(START + 2 * MINUTE) }
    const { mounted } = walletScreen(() => [engine])
    const { wrapper, pinia } = await mounted
    await useWalletsStore(pinia).load()
    await flushPromises()
    engine = { ...WALLET, locked: false, locksAt: BigInt(START + 12 * MINUTE) }
    await vi.advanceTimersByTimeAsync(2 * MINUTE)
    await flushPromises()
    expect(wrapper.get('[data-testid=wallet-locks-in]').text()).toBe('in 10 min')
  })
})
