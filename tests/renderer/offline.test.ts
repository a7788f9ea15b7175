// @vitest-environment happy-dom
/**
 * Offline signing: a built transaction exported as files; a file imported (by file input) and reviewed, signed
 * offline into a witness file; a witness brought back and submitted.
 */
import { flushPromises } from '@vue/test-utils'
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import type { WalletSummary } from '../../src/api/contract'
import App from '../../src/renderer/src/App.vue'
import { useTxStore } from '../../src/renderer/src/stores/tx'
import { FakeDesk, mountWithDesk, type FakeHandlers } from './support/desk'
import { engineReviews, type EngineReviews } from './support/engine-review'
import { status } from './support/desk-answers'

let real: EngineReviews
beforeAll(async () => {
  real = await engineReviews()
}, 120_000)
afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

/** Every download the page starts: its file name and text. */
function captureDownloads(): Array<{ name: string; text: Promise<string> }> {
  const saved: Array<{ name: string; text: Promise<string> }> = []
  const blobs = new Map<string, Blob>()
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:test/${blobs.size}`
    blobs.set(url, blob as Blob)
    return url
  })
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined)
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, text: blobs.get(this.href)!.text() })
  })
  return saved
}

function chooseFile(input: HTMLInputElement, name: string, text: string): void {
  Object.defineProperty(input, 'files', { value: [new File([text], name)], configurable: true })
  input.dispatchEvent(new Event('change'))
}

const alice = (): WalletSummary => ({
  id: real.wallets.alice.id,
  name: 'Alice’s wallet',
  kind: 'mnemonic',
  locked: true,
  address: real.wallets.alice.address
})

/** A desk answering an import of another Desk's deposit that the chain already holds. */
function importedElsewhere(chainStatus: 'submitted' | 'confirmed'): FakeHandlers {
  return {
    'app.status': () => status(1_900_000_000_000n),
    'wallets.list': () => [alice()],
    'tx.import': () => ({ txId: real.deposit.txId, known: false, chainStatus, review: real.deposit, cborHex: '84a0' })
  }
}

describe('offline', () => {
  test('an imported file is reviewed, then signed offline into a witness file', async () => {
    const downloads = captureDownloads()
    const desk = new FakeDesk({
      'app.status': () => status(1_900_000_000_000n),
      'wallets.list': () => [alice()],
      'tx.import': () => ({ txId: real.deposit.txId, known: false, review: real.deposit, cborHex: '84a0' }),
      'tx.signOffline': () => ({ fileName: 'deposit.witness', text: '{"type":"TxWitness ConwayEra"}' })
    })
    const { wrapper, router } = await mountWithDesk(App, desk, { path: '/offline' })
    chooseFile(wrapper.get('[data-testid=import-tx]').element as HTMLInputElement, 'deposit.bundle', 'BUNDLE TEXT')
    await flushPromises()
    expect(desk.requests('tx.import')).toEqual([{ text: 'BUNDLE TEXT' }])
    expect(router.currentRoute.value.name).toBe('review')
    expect(wrapper.get('h1').text()).toBe('Review: Imported transaction')
    expect(wrapper.get('[data-testid=review-summary]').text()).toContain('Buyer deposits 100 ada')
    // Not built here: no submit, no export, only the offline signature.
    expect(wrapper.find('[data-testid=sign-submit]').exists()).toBe(false)
    expect(wrapper.find('[data-testid=export-unsigned]').exists()).toBe(false)
    await wrapper.get('[data-testid=sign-password]').setValue('pw')
    await wrapper.get('[data-testid=sign-offline]').trigger('click')
    await flushPromises()
    expect(desk.requests('tx.signOffline')).toEqual([
      { text: 'BUNDLE TEXT', walletId: real.wallets.alice.id, password: 'pw' }
    ])
    expect(downloads.map((d) => d.name)).toEqual(['deposit.witness'])
    expect(await downloads[0]!.text).toBe('{"type":"TxWitness ConwayEra"}')
    expect(wrapper.get('[data-testid=witness-saved]').text()).toContain('deposit.witness')
  })

  test('a build of this Desk imported again once confirmed shows that, and offers no second signature', async () => {
    const desk = new FakeDesk({
      'app.status': () => status(1_900_000_000_000n),
      'wallets.list': () => [alice()],
      'tx.import': () => ({ txId: real.deposit.txId, known: true, review: real.deposit, cborHex: '84a0' }),
      'tx.status': ({ txId }) => ({ txId, status: 'confirmed' })
    })
    const { wrapper } = await mountWithDesk(App, desk, { path: '/offline' })
    chooseFile(wrapper.get('[data-testid=import-tx]').element as HTMLInputElement, 'deposit.bundle', 'BUNDLE TEXT')
    await flushPromises()
    expect(desk.requests('tx.status')).toEqual([{ txId: real.deposit.txId }])
    expect(wrapper.get('[data-testid=review-summary]').text()).toContain('Buyer deposits 100 ada')
    expect(wrapper.get('[data-testid=tx-confirmed]').text()).toContain('Confirmed on chain')
    expect(wrapper.find('[data-testid=sign-submit]').exists()).toBe(false)
    expect(wrapper.find('[data-testid=sign-offline]').exists()).toBe(false)
  })

  test('another Desk’s transaction imported once the chain has it shows that, and offers no signature', async () => {
    const desk = new FakeDesk(importedElsewhere('confirmed'))
    const { wrapper } = await mountWithDesk(App, desk, { path: '/offline' })
    chooseFile(wrapper.get('[data-testid=import-tx]').element as HTMLInputElement, 'deposit.bundle', 'BUNDLE TEXT')
    await flushPromises()
    expect(wrapper.get('[data-testid=review-summary]').text()).toContain('Buyer deposits 100 ada')
    expect(wrapper.get('[data-testid=tx-confirmed]').text()).toContain('Confirmed on chain')
    expect(wrapper.find('[data-testid=sign-submit]').exists()).toBe(false)
    expect(wrapper.find('[data-testid=sign-offline]').exists()).toBe(false)
    // Confirmed is final: nothing to follow.
    expect(desk.requests('tx.status')).toEqual([])
  })

  test('another Desk’s transaction the chain holds unconfirmed is followed by the chain’s word until confirmed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] })
    const desk = new FakeDesk({
      ...importedElsewhere('submitted'),
      'tx.status': ({ txId }) => ({ txId, status: 'confirmed' })
    })
    const { wrapper } = await mountWithDesk(App, desk, { path: '/offline' })
    chooseFile(wrapper.get('[data-testid=import-tx]').element as HTMLInputElement, 'deposit.bundle', 'BUNDLE TEXT')
    await flushPromises()
    expect(wrapper.get('[data-testid=tx-status]').text()).toBe('submitted')
    expect(wrapper.find('[data-testid=sign-offline]').exists()).toBe(false)
    await vi.runOnlyPendingTimersAsync()
    await flushPromises()
    expect(desk.requests('tx.status')).toEqual([{ txId: real.deposit.txId }])
    expect(wrapper.get('[data-testid=tx-confirmed]').text()).toContain('Confirmed on chain')
  })

  test('another Desk’s transaction the chain has not seen (or an offline Desk) may be signed into a witness', async () => {
    const desk = new FakeDesk({
      'app.status': () => status(1_900_000_000_000n),
      'wallets.list': () => [alice()],
      'tx.import': () => ({ txId: real.deposit.txId, known: false, review: real.deposit, cborHex: '84a0' })
    })
    const { wrapper } = await mountWithDesk(App, desk, { path: '/offline' })
    chooseFile(wrapper.get('[data-testid=import-tx]').element as HTMLInputElement, 'deposit.bundle', 'BUNDLE TEXT')
    await flushPromises()
    expect(wrapper.find('[data-testid=tx-confirmed]').exists()).toBe(false)
    expect(wrapper.find('[data-testid=sign-offline]').exists()).toBe(true)
  })

  test('a build is exported, and its witness submitted from the Offline screen until confirmed', async () => {
    const downloads = captureDownloads()
    const desk = new FakeDesk({
      'app.status': () => status(1_900_000_000_000n),
      'wallets.list': () => [{ ...alice(), kind: 'watch-only' }],
      'tx.exportUnsigned': ({ txId }) => ({ fileName: `${txId}.unsigned`, text: 'UNSIGNED' }),
      'tx.exportBundle': ({ txId }) => ({ fileName: `${txId}.bundle`, text: 'BUNDLE' }),
      'tx.submitWitness': ({ txId }) => ({ txId, status: 'confirmed' })
    })
    const { wrapper, router, pinia } = await mountWithDesk(App, desk, { path: '/review' })
    useTxStore(pinia).showPrepared({
      kind: 'apply',
      txId: real.deposit.txId,
      contractId: real.contractId,
      review: real.deposit,
      cborHex: '84a0',
      safetyErrors: []
    })
    await flushPromises()
    expect(wrapper.get('[data-testid=sign-panel]').text()).toContain('is watch-only')
    expect(wrapper.find('[data-testid=export-saved]').exists()).toBe(false)
    const savedText = (): string => wrapper.get('[data-testid=export-saved]').text().replace(/\s+/g, ' ')
    await wrapper.get('[data-testid=export-unsigned]').trigger('click')
    await flushPromises()
    expect(savedText()).toContain(`Saved the unsigned transaction as ${real.deposit.txId}.unsigned. Next: sign it`)
    await wrapper.get('[data-testid=export-bundle]').trigger('click')
    await flushPromises()
    // The file's name and the way on: where the offline Desk takes it, and how the witness comes back.
    expect(savedText()).toMatch(
      new RegExp(
        `^Saved the review bundle as ${real.deposit.txId}\\.bundle\\. Next: on the offline Desk, Offline → Review a transaction file;.* Offline → Submit a witness\\.$`
      )
    )
    expect(downloads.map((d) => d.name)).toEqual([`${real.deposit.txId}.unsigned`, `${real.deposit.txId}.bundle`])
    expect(await downloads[1]!.text).toBe('BUNDLE')

    await router.push('/offline')
    await flushPromises()
    expect((wrapper.get('[data-testid=witness-txid]').element as HTMLInputElement).value).toBe(real.deposit.txId)
    chooseFile(wrapper.get('[data-testid=import-witness]').element as HTMLInputElement, 'w.witness', 'WITNESS')
    await flushPromises()
    await wrapper.get('[data-testid=witness-submit]').trigger('submit')
    await flushPromises()
    expect(desk.requests('tx.submitWitness')).toEqual([{ txId: real.deposit.txId, text: 'WITNESS' }])
    expect(wrapper.get('[data-testid=tx-confirmed]').text()).toContain('Confirmed on chain')
  })
})
