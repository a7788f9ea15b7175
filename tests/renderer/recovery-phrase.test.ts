// @vitest-environment happy-dom
/**
 * A new wallet's recovery phrase is a step the flow cannot skip: while it is on screen the first-run heading stays,
 * there is no navigation or wallet picker, leaving is refused with a reason, and the words live only in the screen's
 * state — gone once confirmed. It is confirmed by typing back three of its words, picked at random, with the words
 * hidden; a wrong word is named and holds the flow.
 */
import { flushPromises, type VueWrapper } from '@vue/test-utils'
import type { Pinia } from 'pinia'
import { describe, expect, test } from 'vitest'
import type { WalletSummary } from '../../src/api/contract'
import App from '../../src/renderer/src/App.vue'
import { FakeDesk, mountWithDesk } from './support/desk'
import { NOTHING_HELD } from './support/balance'
import { confirmPhrase, startPhraseCheck, typeCheckedWords } from './support/recovery'
import { WALLET, status } from './support/desk-answers'

const NOW = 1_900_000_000_000n
const WORDS = Array.from({ length: 24 }, (_, i) => `secretword${i + 1}`)
const CREATED: WalletSummary = {
  id: 'e0'.repeat(20),
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
      utxos: [],
      ...NOTHING_HELD
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

    await confirmPhrase(wrapper, WORDS)
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

    await confirmPhrase(wrapper, WORDS)
    expect(router.currentRoute.value.name).toBe('wallet')
    expect(heading(wrapper)).toBe('Sam')
    const picker = wrapper.get('[data-testid=wallet-picker]')
    expect(picker.findAll('option').map((o) => o.text())).toEqual([WALLET.name, 'Sam'])
  })

  test('the check asks for three words with the phrase hidden, names a wrong one, and can go back to the words', async () => {
    const { wrapper, router } = await app([])
    await createWallet(wrapper)
    const numbers = await startPhraseCheck(wrapper)
    expect(numbers).toHaveLength(3)
    expect(new Set(numbers).size).toBe(3)
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b))
    expect(numbers.every((n) => Number.isInteger(n) && n >= 1 && n <= 24)).toBe(true)
    expect(wrapper.findAll('[data-testid=recovery-word]')).toHaveLength(0)
    const prompt = wrapper.get('[data-testid=recovery-check-form]').text()
    expect(prompt).toContain(`type words ${numbers[0]}, ${numbers[1]} and ${numbers[2]} of the phrase`)

    // Continue waits for all three words.
    const done = () => wrapper.get('[data-testid=recovery-done]')
    expect(done().attributes('disabled')).toBeDefined()
    const inputs = wrapper.findAll('[data-testid=recovery-check]')
    const [first, second, third] = numbers as [number, number, number]
    await inputs[0]!.setValue(` ${WORDS[first - 1]!.toUpperCase()} `)
    await inputs[1]!.setValue('wrong')
    expect(done().attributes('disabled')).toBeDefined()
    await inputs[2]!.setValue(WORDS[third - 1]!)
    expect(done().attributes('disabled')).toBeUndefined()

    // A wrong word is named, and the flow stays.
    await done().trigger('submit')
    await flushPromises()
    expect(wrapper.get('[data-testid=recovery-check-wrong]').text()).toContain(`Word ${second} does not match`)
    expect(inputs[1]!.attributes('aria-invalid')).toBe('true')
    expect(inputs[0]!.attributes('aria-invalid')).toBe('false')
    expect(router.currentRoute.value.name).toBe('welcome')

    // Back to the words to correct the paper, then the check again.
    await wrapper.get('[data-testid=recovery-back]').trigger('click')
    expect(wrapper.findAll('[data-testid=recovery-word]').map((w) => w.text())).toEqual(WORDS)
    expect(await startPhraseCheck(wrapper)).toEqual(numbers)
    await typeCheckedWords(wrapper, WORDS)
    expect(router.currentRoute.value.name).toBe('wallet')
    expect(heading(wrapper)).toBe('Sam')
  })
})
