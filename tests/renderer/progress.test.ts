// @vitest-environment happy-dom
/**
 * The progress line: while a call is pending for a while, the app polls `app.progress` and shows the stage in a
 * status line; when nothing is pending, polling stops and the line empties.
 */
import { flushPromises } from '@vue/test-utils'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type { ProgressReport } from '../../src/api/contract'
import ProgressLine from '../../src/renderer/src/components/layout/ProgressLine.vue'
import { progressText } from '../../src/renderer/src/composables/progress'
import { FakeDesk, mountWithDesk } from './support/desk'

const TX = 'ab'.repeat(32)

const report = (stage: string, step: number, steps?: number): ProgressReport => ({
  id: 'a1',
  call: 'tx.signAndSubmit',
  stage,
  startedAt: 1_900_000_000_000n,
  step,
  ...(steps === undefined ? {} : { steps })
})

beforeEach(() => {
  // Only the poll's interval is faked: the test helpers still flush promises on real time.
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
})
afterEach(() => {
  vi.useRealTimers()
})

describe('progress line', () => {
  test('a pending call shows its stage, and it goes when the call is done', async () => {
    let finish = (): void => undefined
    let stage = report('Signing', 3, 4)
    const desk = new FakeDesk({
      'tx.signAndSubmit': () => new Promise((resolve) => (finish = () => resolve({ txId: TX, status: 'submitted' }))),
      'app.progress': () => [stage]
    })
    const { wrapper, client } = await mountWithDesk(ProgressLine, desk)
    const line = wrapper.get('[data-testid=progress]')
    expect(line.attributes('role')).toBe('status')
    expect(line.text()).toBe('')

    const pending = client['tx.signAndSubmit']({ txId: TX, walletId: '11'.repeat(20) })
    await flushPromises()
    // A quick call never polls.
    await vi.advanceTimersByTimeAsync(200)
    expect(desk.requests('app.progress')).toHaveLength(0)
    expect(line.text()).toBe('')

    await vi.advanceTimersByTimeAsync(150)
    await flushPromises()
    expect(desk.requests('app.progress')).toHaveLength(1)
    expect(line.text()).toBe('Signing (3 of 4)…')

    stage = report('Submitting to the node', 4, 4)
    await vi.advanceTimersByTimeAsync(300)
    await flushPromises()
    expect(line.text()).toBe('Submitting to the node (4 of 4)…')

    finish()
    await pending
    await flushPromises()
    expect(line.text()).toBe('')
    const polls = desk.requests('app.progress').length
    await vi.advanceTimersByTimeAsync(1_000)
    expect(desk.requests('app.progress')).toHaveLength(polls)
  })

  test('a failing poll shows nothing and the call still settles', async () => {
    let finish = (): void => undefined
    const desk = new FakeDesk({
      'tx.exportBundle': () => new Promise((resolve) => (finish = () => resolve({ fileName: 'f', text: 't' })))
    })
    const { wrapper, client } = await mountWithDesk(ProgressLine, desk)
    const pending = client['tx.exportBundle']({ txId: TX })
    await vi.advanceTimersByTimeAsync(700)
    await flushPromises()
    expect(desk.requests('app.progress').length).toBeGreaterThan(0)
    expect(wrapper.get('[data-testid=progress]').text()).toBe('')
    finish()
    expect(await pending).toEqual({ fileName: 'f', text: 't' })
  })

  test('the text: one stage, a step count when there are several, several calls side by side', () => {
    expect(progressText([])).toBe('')
    expect(progressText([report('Submitting to the node', 1, 1)])).toBe('Submitting to the node…')
    expect(progressText([report('Connecting to the node', 1)])).toBe('Connecting to the node…')
    expect(progressText([report('Building the transaction', 2, 3), report('Asking the faucet', 1, 1)])).toBe(
      'Building the transaction (2 of 3)…; Asking the faucet…'
    )
  })
})
