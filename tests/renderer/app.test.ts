// @vitest-environment happy-dom
/**
 * The app from its first call: over the HTTP transport (with a fake fetch) when the engine cannot be reached,
 * then the first run — a wallet created, its phrase shown once, test ada from the faucet, the balance exact.
 */
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia } from 'pinia'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { createMemoryHistory, createWebHashHistory } from 'vue-router'
import type { WalletBalance, WalletSummary } from '../../src/api/contract'
import { encodeWire } from '../../src/api/wire'
import { createDesk, deskKey } from '../../src/renderer/src/api/desk'
import { httpTransport } from '../../src/renderer/src/api/transport'
import App from '../../src/renderer/src/App.vue'
import { STATUS_POLL_MS } from '../../src/renderer/src/composables/status-poll'
import { createDeskRouter } from '../../src/renderer/src/router'
import { FakeDesk, mountWithDesk } from './support/desk'
import { NOTHING_HELD } from './support/balance'
import { confirmPhrase } from './support/recovery'
import { CLOSE, emptyState } from '../../src/core/marlowe/types'
import { CONTRACT_ID, WALLET, contractDetail, status } from './support/desk-answers'

const NOW = 1_900_000_000_000n
const TWO_53 = 2n ** 53n

/** What an engine whose preprod node cannot be reached answers to app.status. */
const OFFLINE = {
  version: '0.1.0',
  network: 'preprod',
  chainTime: NOW,
  offline: 'no preprod node can be reached (connection refused)'
} as const

/** The app over the HTTP transport, its requests answered by `fetchFn`. */
function mountOverHttp(fetchFn: (url: string | URL | Request) => Promise<Response>) {
  const router = createDeskRouter(createMemoryHistory())
  const wrapper = mount(App, {
    global: {
      plugins: [createPinia(), router],
      provide: { [deskKey as symbol]: createDesk(httpTransport('http://127.0.0.1:1', fetchFn as typeof fetch)) }
    }
  })
  return { wrapper, router }
}

describe('engine connection', () => {
  test('an engine that cannot be reached is said so, and trying again connects', async () => {
    let up = false
    const fetchFn = async (url: string | URL | Request): Promise<Response> => {
      if (!up) throw new TypeError('Failed to fetch')
      const call = String(url).split('/api/')[1]
      const value = call === 'app.status' ? status(NOW) : []
      return new Response(encodeWire({ ok: true, value }), { status: 200 })
    }
    const { wrapper, router } = mountOverHttp(fetchFn)
    await flushPromises()
    const notice = wrapper.get('[data-testid=engine-unreachable]')
    expect(notice.text()).toContain('Cannot reach the engine')
    expect(notice.get('[data-testid=error]').text()).toContain('Cannot reach the engine: the connection failed.')
    expect(wrapper.find('nav').exists()).toBe(false)

    up = true
    await wrapper.get('[data-testid=engine-retry]').trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid=engine-unreachable]').exists()).toBe(false)
    expect(router.currentRoute.value.name).toBe('welcome')
    expect(wrapper.get('[data-testid=network-badge]').text()).toBe('sandbox')
  })

  test('an engine whose node cannot be reached opens the app in its offline state, saying so', async () => {
    const fetchFn = async (url: string | URL | Request): Promise<Response> => {
      const value = String(url).endsWith('/api/app.status') ? OFFLINE : []
      return new Response(encodeWire({ ok: true, value }), { status: 200 })
    }
    const { wrapper, router } = mountOverHttp(fetchFn)
    await flushPromises()
    expect(wrapper.find('[data-testid=engine-unreachable]').exists()).toBe(false)
    expect(wrapper.get('[data-testid=node-offline]').text()).toContain(
      'Offline — no preprod node can be reached (connection refused). Transaction files can still be imported, reviewed and signed'
    )
    expect(wrapper.get('[data-testid=network-badge]').text()).toBe('preprod')
    expect(router.currentRoute.value.name).toBe('welcome')
  })

  test('a page without a session is told to open the address serve printed', async () => {
    const fetchFn = async (): Promise<Response> => new Response('{}', { status: 401 })
    const { wrapper } = mountOverHttp(fetchFn)
    await flushPromises()
    const notice = wrapper.get('[data-testid=engine-unreachable]')
    expect(notice.get('[data-testid=needs-session]').text()).toBe('Open the address marlowe-desk serve printed')
    expect(notice.text()).not.toContain('Cannot reach the engine')
    expect(notice.get('[data-testid=error]').text()).toContain('no session with the engine')
    expect(wrapper.find('nav').exists()).toBe(false)
  })
})

describe('the node coming back, or going away, while the app is open', () => {
  const online = status(NOW, 'preprod')
  let visibility: DocumentVisibilityState = 'visible'
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility })
  afterEach(() => {
    vi.useRealTimers()
    visibility = 'visible'
  })

  /** The app over an engine whose status is `answer()`, each status call counted (and held while `hold` is set). */
  async function openApp(answer: () => unknown) {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    const calls = { status: 0, hold: undefined as Promise<void> | undefined }
    const fetchFn = async (url: string | URL | Request): Promise<Response> => {
      const isStatus = String(url).endsWith('/api/app.status')
      if (isStatus) {
        calls.status += 1
        await calls.hold
      }
      return new Response(encodeWire({ ok: true, value: isStatus ? answer() : [] }), { status: 200 })
    }
    const { wrapper } = mountOverHttp(fetchFn)
    await flushPromises()
    const tick = async (): Promise<void> => {
      vi.advanceTimersByTime(STATUS_POLL_MS)
      await flushPromises()
    }
    return { wrapper, calls, tick }
  }

  test('a Desk opened offline drops its notice when the node answers again, and shows it when the node goes', async () => {
    let node: unknown = OFFLINE
    const { wrapper, tick } = await openApp(() => node)
    expect(wrapper.get('[data-testid=node-offline]').text()).toContain('no preprod node can be reached')
    await tick()
    expect(wrapper.find('[data-testid=node-offline]').exists()).toBe(true)

    node = online
    await tick()
    expect(wrapper.find('[data-testid=node-offline]').exists()).toBe(false)
    expect(wrapper.get('[data-testid=network-badge]').text()).toBe('preprod')

    node = OFFLINE
    await tick()
    expect(wrapper.get('[data-testid=node-offline]').text()).toContain('no preprod node can be reached')
    wrapper.unmount()
  })

  test('a slow answer is waited for, not asked again over; a hidden window is not polled; unmounted, none', async () => {
    const { wrapper, calls, tick } = await openApp(() => OFFLINE)
    expect(calls.status).toBe(1)
    let answer = (): void => undefined
    calls.hold = new Promise((resolve) => (answer = resolve))
    await tick()
    await tick()
    await tick()
    expect(calls.status).toBe(2)
    answer()
    calls.hold = undefined
    await flushPromises()
    await tick()
    expect(calls.status).toBe(3)

    visibility = 'hidden'
    document.dispatchEvent(new Event('visibilitychange'))
    await tick()
    await tick()
    expect(calls.status).toBe(3)
    // Visible again: asked at once, then on the interval.
    visibility = 'visible'
    document.dispatchEvent(new Event('visibilitychange'))
    await flushPromises()
    expect(calls.status).toBe(4)
    await tick()
    expect(calls.status).toBe(5)

    wrapper.unmount()
    await tick()
    await tick()
    expect(calls.status).toBe(5)
  })
})

describe('first run', () => {
  test('create a wallet, write down its phrase, get test ada, see the balance exactly', async () => {
    const words = Array.from({ length: 24 }, (_, i) => `word${i + 1}`)
    const created: WalletSummary = {
      id: '11'.repeat(20),
      name: 'Savings',
      kind: 'mnemonic',
      locked: false,
      address: 'addr_test1vqg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygxrcya6'
    }
    const wallets: WalletSummary[] = []
    let balance: WalletBalance = {
      walletId: '11'.repeat(20),
      address: created.address,
      lovelace: 0n,
      assets: [],
      utxoCount: 0,
      utxos: [],
      ...NOTHING_HELD
    }
    const desk = new FakeDesk({
      'app.status': () => status(NOW),
      'wallets.list': () => wallets,
      'wallets.create': () => {
        wallets.push(created)
        return { wallet: created, mnemonic: words }
      },
      'wallets.balance': () => balance,
      'sandbox.fund': ({ ada }) => {
        balance = {
          ...balance,
          lovelace: TWO_53 + 1n,
          utxoCount: 2,
          assets: [{ policyId: 'ab'.repeat(28), assetName: '476f6c64', displayName: 'Gold', quantity: 2n ** 64n + 1n }]
        }
        return { txId: `${String(ada)}`.padStart(64, 'f') }
      }
    })
    const { wrapper, router } = await mountWithDesk(App, desk, { path: '/wallet' })
    expect(router.currentRoute.value.name).toBe('welcome')
    expect(wrapper.get('[data-testid=first-run]').text()).toContain('You are on the sandbox')

    await wrapper.get('[data-testid=wallet-name]').setValue('Savings')
    await wrapper.get('[data-testid=wallet-password]').setValue('a long password')
    await wrapper.get('[data-testid=wallet-password-again]').setValue('a long passwore')
    expect(wrapper.get('[data-testid=wallet-create]').attributes('disabled')).toBeDefined()
    await wrapper.get('[data-testid=wallet-password-again]').setValue('a long password')
    await wrapper.get('[data-testid=wallet-create]').trigger('submit')
    await flushPromises()
    expect(desk.requests('wallets.create')).toEqual([{ name: 'Savings', password: 'a long password', words: 24 }])

    expect(wrapper.findAll('[data-testid=recovery-word]').map((w) => w.text())).toEqual(words)
    await confirmPhrase(wrapper, words)
    expect(router.currentRoute.value.name).toBe('wallet')
    expect(wrapper.find('[data-testid=recovery-phrase]').exists()).toBe(false)

    expect(wrapper.get('[data-testid=wallet-address]').text()).toBe(created.address)
    expect(wrapper.get('[data-testid=wallet-qr]').attributes('aria-label')).toBe(`QR code of ${created.address}`)
    expect(wrapper.get('[data-testid=wallet-ada]').text()).toBe('0 ada')
    await wrapper.get('[data-testid=faucet]').trigger('click')
    await flushPromises()
    expect(desk.requests('sandbox.fund')).toEqual([{ walletId: '11'.repeat(20), ada: 1000n }])
    expect(wrapper.get('[data-testid=wallet-ada]').text()).toBe('9,007,199,254.740993 ada')
    expect(wrapper.get('[data-testid=wallet-utxos]').text()).toBe('in 2 unspent outputs')
    expect(wrapper.get('[data-testid=wallet-token]').text()).toContain('18,446,744,073,709,551,617')
    expect(wrapper.get('[data-testid=wallet-token]').text()).toContain('Gold')
  })
})

describe('keyboard focus', () => {
  test('“Skip to content” moves the focus into the screen without changing screens or losing what was typed', async () => {
    const desk = new FakeDesk({ 'app.status': () => status(NOW), 'wallets.list': () => [WALLET] })
    // The app's own history, which reads the address's hash as the screen.
    window.location.hash = '#/contracts/new'
    const router = createDeskRouter(createWebHashHistory())
    const wrapper = mount(App, {
      attachTo: document.body,
      global: { plugins: [createPinia(), router], provide: { [deskKey as symbol]: createDesk(desk) } }
    })
    await router.isReady()
    await flushPromises()
    try {
      await wrapper.get('[data-testid=field-escrow-price]').setValue('250')
      const skip = wrapper.get('[data-testid=skip-link]')
      expect(skip.attributes('href')).toBe('#main')
      await skip.trigger('click')
      await flushPromises()
      // Following the link would put "#main" in the address, which the router reads as a screen.
      expect(window.location.hash).toBe('#/contracts/new')
      expect(router.currentRoute.value.path).toBe('/contracts/new')
      expect(document.activeElement).toBe(wrapper.get('main').element)
      expect((wrapper.get('[data-testid=field-escrow-price]').element as HTMLInputElement).value).toBe('250')
    } finally {
      wrapper.unmount()
      window.location.hash = ''
    }
  })

  test('each new screen puts the focus on its heading, once the heading is there', async () => {
    let contractArrives: () => void = () => undefined
    const desk = new FakeDesk({
      'app.status': () => status(NOW),
      'wallets.list': () => [WALLET],
      'contracts.list': () => [],
      'contracts.get': async () => {
        await new Promise<void>((resolve) => (contractArrives = resolve))
        return contractDetail(CLOSE, emptyState(NOW))
      },
      'contracts.next': () => ({ type: 'Next', canReduce: false, applicableInputs: { deposits: [], choices: [] } }),
      'payouts.list': () => []
    })
    const { wrapper, router } = await mountWithDesk(App, desk, { path: '/contracts/new', attachTo: document.body })
    try {
      await wrapper.get('[data-testid=nav-contracts]').trigger('click')
      await flushPromises()
      expect(router.currentRoute.value.path).toBe('/contracts')
      expect(document.activeElement?.tagName).toBe('H1')
      expect(document.activeElement?.textContent).toBe('Contracts')

      await router.push(`/contracts/${encodeURIComponent(CONTRACT_ID)}`)
      await flushPromises()
      // Still reading the contract: the screen's region holds the focus until its heading appears.
      expect(document.activeElement).toBe(wrapper.get('main').element)
      contractArrives()
      await flushPromises()
      expect(document.activeElement?.tagName).toBe('H1')
      expect(document.activeElement?.textContent).toBe('Contract')
    } finally {
      wrapper.unmount()
    }
  })
})
