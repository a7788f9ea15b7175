/**
 * A Desk open in Chromium while its node goes away and comes back: the offline notice appears and goes with no
 * reload (the app asks the engine's status again while it is open). The node is the sandbox behind a switch that
 * makes every chain call fail as an unreachable node does. Screenshots in out/e2e-screenshots/node-return-*.
 */
import { describe, expect, test } from 'vitest'
import { ChainError, type ChainProvider } from '../../src/chain/provider'
import { SandboxProvider } from '../../src/chain/sandbox'
import { SCREENSHOT_DIR, STEP_TIMEOUT_MS, screenshots, startUiHost, suiteChromium, waitForText } from './support'

const chromium = suiteChromium()

/** `chain` while `down()` is false; otherwise each of its calls fails as a node that cannot be reached. */
function switchable(chain: ChainProvider, down: () => boolean): ChainProvider {
  return new Proxy(chain, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver)
      if (typeof value !== 'function') return value
      return (...args: unknown[]) =>
        down()
          ? Promise.reject(new ChainError('Unavailable', 'connection refused'))
          : (value as (...a: unknown[]) => unknown).apply(target, args)
    }
  })
}

describe('the node going away and coming back while the app is open', () => {
  test('the offline notice appears when the node goes and leaves when it answers again, with no reload', async () => {
    const sandbox = SandboxProvider.open({ clockTickMs: false })
    let down = false
    const server = await startUiHost({
      provider: switchable(sandbox, () => down),
      network: 'sandbox',
      close: async () => undefined
    })
    const context = await chromium().newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' })
    // The app asks every 10 s (STATUS_POLL_MS, status-poll.ts): a step's 30 s see each change within two asks.
    context.setDefaultTimeout(STEP_TIMEOUT_MS)
    const page = await context.newPage()
    const shot = screenshots(page, SCREENSHOT_DIR, 'node-return')
    const notice = page.getByTestId('node-offline')
    try {
      await page.goto(await server.nextLink())
      await page.getByTestId('first-run').waitFor()
      expect(await notice.count()).toBe(0)

      down = true
      await waitForText(notice, 'Offline — no sandbox node can be reached (connection refused).')
      await shot('node-gone')

      down = false
      await notice.waitFor({ state: 'detached' })
      await page.getByTestId('first-run').waitFor()
      await shot('node-back')
    } finally {
      await context.close()
      await server.stop()
      await sandbox.close()
    }
  }, 120_000)
})
