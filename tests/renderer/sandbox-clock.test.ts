// @vitest-environment happy-dom
/** The sandbox's time in the header: the ledger's clock, counted on between answers, moved with the clock. */
import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, test, vi } from 'vitest'
import AppHeader from '../../src/renderer/src/components/layout/AppHeader.vue'
import { formatTime } from '../../src/renderer/src/format/time'
import { useAppStore } from '../../src/renderer/src/stores/app'
import { FakeDesk, mountWithDesk } from './support/desk'
import { status } from './support/desk-answers'

/** A sandbox moved a year ahead of this computer's clock. */
const AHEAD = BigInt(Date.now()) + 365n * 86_400_000n

afterEach(() => vi.useRealTimers())

describe('the sandbox time in the header', () => {
  test('shows the ledger’s time, not this computer’s, and keeps counting', async () => {
    // Only the tick and the wall clock are faked: the test helpers still flush promises on real time.
    vi.useFakeTimers({ toFake: ['setInterval', 'Date'] })
    const { wrapper, pinia } = await mountWithDesk(AppHeader, new FakeDesk({ 'app.status': () => status(AHEAD) }))
    await useAppStore(pinia).refreshStatus()
    await flushPromises()
    expect(wrapper.get('[data-testid=sandbox-time]').text()).toBe(formatTime(AHEAD))
    vi.advanceTimersByTime(120_000)
    await flushPromises()
    expect(wrapper.get('[data-testid=sandbox-time]').text()).toBe(formatTime(AHEAD + 120_000n))
  })

  test('follows the clock when it is moved', async () => {
    const later = AHEAD + 30n * 86_400_000n
    const desk = new FakeDesk({ 'app.status': () => status(AHEAD), 'sandbox.advance': ({ toTime }) => status(toTime) })
    const { wrapper, pinia } = await mountWithDesk(AppHeader, desk)
    await useAppStore(pinia).refreshStatus()
    await useAppStore(pinia).advanceClock(later)
    await flushPromises()
    expect(wrapper.get('[data-testid=sandbox-time]').text()).toBe(formatTime(later))
  })

  test('is not shown on a real network, whose time is the wall clock', async () => {
    const { wrapper, pinia } = await mountWithDesk(
      AppHeader,
      new FakeDesk({ 'app.status': () => status(AHEAD, 'preprod') })
    )
    await useAppStore(pinia).refreshStatus()
    await flushPromises()
    expect(wrapper.get('[data-testid=network-badge]').text()).toBe('preprod')
    expect(wrapper.find('[data-testid=sandbox-time]').exists()).toBe(false)
  })
})
