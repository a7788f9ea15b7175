// @vitest-environment happy-dom
/**
 * A new wallet's recovery phrase is a step the flow cannot skip: while it is on screen the first-run heading stays,
 * there is no navigation or wallet picker, leaving is refused with a reason, and the words live only in the screen's
 * state — gone once confirmed.
 */
import { flushPromises, type VueWrapper } from '@vue/test-utils'
import type { Pinia } from 'pinia'
import { describe, expect, test } from 'vitest'
import type { WalletSummary } from '../../src/api/contract'
import App from '../../src/renderer/src/App.vue'
import { FakeDesk, mountWithDesk } from './support/desk'
import { WALLET, status } from './support/runtime-json'

const NOW = 1_900_000_000_000n
const WORDS = Array.from({ length: 24 }, (_, i) => `secretword${i + 1}`)
const CREATED: WalletSummary = {
  id: 'w-new',
  name: 'Sam',
  kind: 'mnemonic',
  locked: false,
  address: 'addr_test1vz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzerspjrlsz'
}

/** The app on the welcome screen, with `existing` wallets already there; `wallets.create` adds CREATED. */
async function app(existing: readonly WalletSummary[]) {
  const wallets = [...existing]
  const desk = new FakeDesk({
    'app.status': () => status(NOW),
    'wallets.list': () => wallets,
    'wallets.create': () => {
      wallets.push(CREATED)
      return { wallet: CREATED, mnemonic: WORDS }
    },
    'wallets.balance': ({ walletId }) => ({
      walletId,
      address: CREATED.address,
      lovelace: 0n,
      assets: [],
      utxoCount: 0,
      utxos: []
    })
  })
  const mounted = await mountWithDesk(App, desk, { path: '/welcome' })
  await flushPromises()
  return mounted
}

async function createWallet(wrapper: VueWrapper): Promise<void> {
  await wrapper.get('[data-testid=wallet-name]').setValue('Sam')
  await wrapper.get('[data-testid=wallet-password]').setValue('a long password')
  await wrapper.get('[data-testid=wallet-password-again]').setValue('a long password')
  await wrapper.get('[data-testid=wallet-create]').trigger('submit')
  await flushPromises()
  expect(wrapper.findAll('[data-testid=recovery-word]').map((w) => w.text())).toEqual(WORDS)
}

const heading = (wrapper: VueWrapper) => wrapper.get('h1').text()
const navShown = (wrapper: VueWrapper) => wrapper.find('nav').exists()
const pickerShown = (wrapper: VueWrapper) => wrapper.find('[data-testid=wallet-picker]').exists()

/** Every store's state as text, and both web storages: where the phrase must not be. */
function kept(pinia: Pinia): string {
  const state = JSON.stringify(pinia.state.value, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
  const storage = (s: Storage) => Array.from({ length: s.length }, (_, i) => `${s.key(i)}=${s.getItem(s.key(i)!)}`)
  return [state, ...storage(localStorage), ...storage(sessionStorage)].join('\n')
}

describe('the recovery phrase step', () => {
  test('on a first run, the phrase holds the flow until it is confirmed, then it is gone', async () => {
    const { wrapper, router, pinia } = await app([])
    expect(heading(wrapper)).toBe('Welcome to Marlowe Desk')
    await createWallet(wrapper)

    // The wallet exists, but the flow has not moved on.
    expect(heading(wrapper)).toBe('Welcome to Marlowe Desk')
    expect(navShown(wrapper)).toBe(false)
    expect(pickerShown(wrapper)).toBe(false)
    expect(wrapper.find('[data-testid=recovery-leave-refused]').exists()).toBe(false)
    for (const word of WORDS) expect(kept(pinia)).not.toContain(word)

    // Leaving is refused, with the reason, and the words stay on screen.
    await router.push('/contracts')
    await flushPromises()
    expect(router.currentRoute.value.name).toBe('welcome')
    expect(wrapper.get('[data-testid=recovery-leave-refused]').text()).toContain(
      'Confirm that you have written down the recovery phrase before leaving this screen'
    )
    expect(wrapper.get('[data-testid=recovery-leave-refused]').attributes('role')).toBe('alert')
    expect(wrapper.findAll('[data-testid=recovery-word]')).toHaveLength(24)
    await router.push('/wallet')
    await flushPromises()
    expect(router.currentRoute.value.name).toBe('welcome')

    await wrapper.get('[data-testid=recovery-confirm]').setValue(true)
    await wrapper.get('[data-testid=recovery-done]').trigger('click')
    await flushPromises()
    expect(router.currentRoute.value.name).toBe('wallet')
    expect(wrapper.find('[data-testid=recovery-phrase]').exists()).toBe(false)
    expect(heading(wrapper)).toBe('Sam')
    expect(navShown(wrapper)).toBe(true)
    expect(pickerShown(wrapper)).toBe(true)

    // Adding another wallet starts clean: no phrase from before.
    await router.push('/welcome')
    await flushPromises()
    expect(heading(wrapper)).toBe('Add a wallet')
    expect(wrapper.find('[data-testid=recovery-phrase]').exists()).toBe(false)
    expect(wrapper.find('[data-testid=wallet-create]').exists()).toBe(true)
    for (const word of WORDS) expect(kept(pinia)).not.toContain(word)
  })

  test('adding a wallet: the heading stays "Add a wallet", and the nav and picker wait for the phrase', async () => {
    const { wrapper, router } = await app([WALLET])
    expect(heading(wrapper)).toBe('Add a wallet')
    expect(navShown(wrapper)).toBe(true)
    expect(pickerShown(wrapper)).toBe(true)
    await createWallet(wrapper)

    expect(heading(wrapper)).toBe('Add a wallet')
    expect(navShown(wrapper)).toBe(false)
    expect(pickerShown(wrapper)).toBe(false)
    await router.push('/settings')
    await flushPromises()
    expect(router.currentRoute.value.name).toBe('welcome')
    expect(wrapper.find('[data-testid=recovery-leave-refused]').exists()).toBe(true)

    // Continue stays disabled until the box is ticked.
    expect(wrapper.get('[data-testid=recovery-done]').attributes('disabled')).toBeDefined()
    await wrapper.get('[data-testid=recovery-confirm]').setValue(true)
    await wrapper.get('[data-testid=recovery-done]').trigger('click')
    await flushPromises()
    expect(router.currentRoute.value.name).toBe('wallet')
    expect(heading(wrapper)).toBe('Sam')
    const picker = wrapper.get('[data-testid=wallet-picker]')
    expect(picker.findAll('option').map((o) => o.text())).toEqual([WALLET.name, 'Sam'])
  })
})
