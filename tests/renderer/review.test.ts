// @vitest-environment happy-dom
/**
 * The review screen on real reviews: transactions the engine's builder made on a sandbox, reviewed by the core,
 * carried through the wire codec as the app receives them. The node side is not the subject here, so a fake
 * transport answers the calls.
 */
import { flushPromises } from '@vue/test-utils'
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { DeskError, type PreparedTx, type WalletSummary } from '../../src/api/contract'
import type { KnownWalletEffect, TxReview } from '../../src/core/cardano/review/types'
import { formatAda } from '../../src/renderer/src/format/amounts'
import { shorten } from '../../src/renderer/src/format/text'
import { formatTime } from '../../src/renderer/src/format/time'
import { useAppStore } from '../../src/renderer/src/stores/app'
import { useTxStore } from '../../src/renderer/src/stores/tx'
import { useWalletsStore } from '../../src/renderer/src/stores/wallets'
import ReviewView from '../../src/renderer/src/views/ReviewView.vue'
import { FakeDesk, mountWithDesk, type FakeHandlers, type Mounted } from './support/desk'
import { NOTHING_HELD } from './support/balance'
import { engineReviews, type EngineReviews } from './support/engine-review'
import { status } from './support/desk-answers'

let real: EngineReviews
beforeAll(async () => {
  real = await engineReviews()
}, 120_000)
afterEach(() => vi.useRealTimers())

/** The first wallet's net effect, which these reviews (every input resolved) know whole. */
function knownEffect(review: TxReview): KnownWalletEffect {
  const [effect] = review.netEffect
  if (effect?.complete !== true) throw new Error('expected a net effect over resolved inputs')
  return effect
}

function wallet(name: 'alice' | 'carol', locked = true): WalletSummary {
  const label = name === 'alice' ? 'Alice’s wallet' : 'Carol’s wallet'
  return { id: real.wallets[name].id, name: label, kind: 'mnemonic', locked, address: real.wallets[name].address }
}

/** Mounts the review screen for `review` as the engine would hand it over after a build. */
async function reviewScreen(
  review: TxReview,
  kind: PreparedTx['kind'],
  signer: WalletSummary,
  handlers: FakeHandlers = {},
  cborHex = '84a0'
): Promise<Mounted & { desk: FakeDesk }> {
  const prepared: PreparedTx = {
    kind,
    txId: review.txId,
    contractId: real.contractId,
    review,
    cborHex,
    safetyErrors: []
  }
  const desk = new FakeDesk({ 'wallets.list': () => [signer], 'tx.review': () => review, ...handlers })
  const mounted = await mountWithDesk(ReviewView, desk, { path: '/review' })
  await useWalletsStore(mounted.pinia).load()
  // Through the client, so the review crosses the wire codec like the real one.
  useTxStore(mounted.pinia).showPrepared({
    ...prepared,
    review: await mounted.client['tx.review']({ txId: review.txId })
  })
  await flushPromises()
  return { ...mounted, desk }
}

describe('review of an escrow the engine opened', () => {
  test('the summary says what it does, what it costs and where the role tokens go', async () => {
    const { wrapper } = await reviewScreen(real.create, 'create', wallet('carol'))
    const summary = wrapper.get('[data-testid=review-summary]').text()
    const contractOutput = real.create.outputs[Number(real.create.marlowe.created[0]?.output)]
    expect(contractOutput).toBeDefined()
    expect(summary).toContain('Opens a Marlowe contract.')
    // Every lovelace that leaves the wallet is named: the ada that goes with Buyer's and Seller's tokens too.
    const withTokens = real.create.outputs
      .filter((o) => o.address.wallet === undefined && o.value.assets.some((a) => a.policyId === real.rolesCurrency))
      .reduce((sum, o) => sum + o.value.lovelace, 0n)
    const effect = knownEffect(real.create)
    expect(withTokens).toBeGreaterThan(0n)
    expect(real.create.fee.fee + contractOutput!.value.lovelace + withTokens).toBe(effect.lovelace)
    expect(summary).toContain(
      `You pay a ${formatAda(real.create.fee.fee)} fee and deposit ${formatAda(contractOutput!.value.lovelace)} ` +
        `into the contract (returned when it closes), and send ${formatAda(withTokens)} with the role tokens to ` +
        `their holders: ${formatAda(effect.lovelace)} leaves your wallet in all.`
    )
    const { alice, bob } = real.wallets
    expect(summary).toContain('Mints 3 role tokens:')
    expect(summary).toContain(`“Buyer” to ${shorten(alice.address, 16, 6)}`)
    expect(summary).toContain(`“Seller” to ${shorten(bob.address, 16, 6)}`)
    expect(summary).toContain('“Mediator” to your wallet “Carol’s wallet”')
    expect(wrapper.get('h1').text()).toBe('Review: Open a contract')
  })

  test('the net effect is the wallet’s change, fee included, with the role token it receives', async () => {
    const { wrapper } = await reviewScreen(real.create, 'create', wallet('carol'))
    const effect = knownEffect(real.create)
    const text = wrapper.get('[data-testid=net-effect]').text()
    expect(text).toContain('Carol’s wallet')
    expect(text).toContain(formatAda(-effect.lovelace))
    expect(text).toContain('+1 Mediator')
  })

  test('each tab shows its part: outputs, mint, scripts, the contract opened, tags, the id', async () => {
    const { wrapper } = await reviewScreen(real.create, 'create', wallet('carol'))
    const panel = () => wrapper.get('[data-testid=review-panel]')
    expect(wrapper.findAll('[data-testid=review-output]')).toHaveLength(real.create.outputs.length)
    expect(panel().text()).toContain('Marlowe contract script')

    await wrapper.get('[data-testid=tab-mint]').trigger('click')
    const minted = wrapper.findAll('[data-testid=review-mint] li').map((li) => li.text())
    expect(minted.sort()).toEqual(['+1 Buyer', '+1 Mediator', '+1 Seller'])
    expect(panel().text()).toContain(real.rolesCurrency)

    await wrapper.get('[data-testid=tab-scripts]').trigger('click')
    expect(panel().text()).toContain('declared and recomputed: they match')
    expect(wrapper.findAll('[data-testid=review-redeemer]')).toHaveLength(real.create.redeemers.length)

    await wrapper.get('[data-testid=tab-marlowe]').trigger('click')
    expect(panel().text()).toContain('Buyer deposits 100 ada into Seller’s account')
    expect(panel().text()).toContain('Buyer chooses “Everything is alright”: 0')

    await wrapper.get('[data-testid=tab-metadata]').trigger('click')
    expect(wrapper.get('[data-testid=review-tag]').text()).toBe('desk.renderer-test')

    await wrapper.get('[data-testid=tab-raw]').trigger('click')
    expect(wrapper.get('[data-testid=review-txid]').text()).toBe(real.create.txId)
  })

  test('the Raw tab shows the whole CBOR, selectable in a scrollable block, with a copy button', async () => {
    const cborHex = `84a4${'0123456789abcdef'.repeat(400)}f5f6`
    const { wrapper } = await reviewScreen(real.create, 'create', wallet('carol'), {}, cborHex)
    expect(wrapper.find('[data-testid=review-cbor]').exists()).toBe(false)
    await wrapper.get('[data-testid=tab-raw]').trigger('click')
    const block = wrapper.get('[data-testid=review-cbor]')
    expect(block.element.tagName).toBe('PRE')
    expect(block.classes()).toContain('mono')
    expect(block.attributes('tabindex')).toBe('0')
    expect(block.text()).toBe(cborHex)
    expect(wrapper.get('[data-testid=review-panel]').text()).toContain('CBOR (3,204 bytes, hex)')
    const writeText = vi.fn(async () => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    const copy = wrapper.findAll('button').find((b) => b.text() === 'Copy CBOR')
    expect(copy).toBeDefined()
    await copy!.trigger('click')
    await flushPromises()
    expect(writeText).toHaveBeenCalledWith(cborHex)
    expect(copy!.text()).toBe('Copied')
  })

  test('signing a locked wallet asks for its password, then follows the status to confirmed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] })
    let status: 'submitted' | 'confirmed' = 'submitted'
    const { wrapper, desk } = await reviewScreen(real.create, 'create', wallet('carol'), {
      'tx.signAndSubmit': ({ txId }) => ({ txId, status }),
      'tx.status': ({ txId }) => ({ txId, status }),
      'wallets.balance': () => ({
        walletId: real.wallets.carol.id,
        address: real.wallets.carol.address,
        lovelace: 0n,
        assets: [],
        utxoCount: 0,
        utxos: [],
        ...NOTHING_HELD
      })
    })
    const submit = wrapper.get('[data-testid=sign-submit]')
    expect(submit.attributes('disabled')).toBeDefined()
    await wrapper.get('[data-testid=sign-password]').setValue('correct horse')
    expect(submit.attributes('disabled')).toBeUndefined()
    await wrapper.get('form').trigger('submit')
    await flushPromises()
    expect(desk.requests('tx.signAndSubmit')).toEqual([
      { txId: real.create.txId, walletId: real.wallets.carol.id, password: 'correct horse' }
    ])
    expect(wrapper.get('[data-testid=tx-status]').text()).toBe('submitted')
    expect(wrapper.find('[data-testid=tx-confirmed]').exists()).toBe(false)

    status = 'confirmed'
    await vi.runOnlyPendingTimersAsync()
    await flushPromises()
    expect(desk.requests('tx.status')).toEqual([{ txId: real.create.txId }])
    expect(wrapper.get('[data-testid=tx-confirmed]').text()).toContain(shorten(real.create.txId))
    expect(wrapper.get('[data-testid=open-contract]').attributes('href')).toContain(encodeURIComponent(real.contractId))
  })
})

describe('review of a deposit into it', () => {
  test('the summary says who deposits what, and the Marlowe tab shows the contract afterwards', async () => {
    const { wrapper } = await reviewScreen(real.deposit, 'apply', wallet('alice', false))
    expect(wrapper.get('[data-testid=review-summary]').text()).toContain(
      `In the contract, Buyer deposits ${formatAda(real.price)} into Seller’s account.`
    )
    const effect = knownEffect(real.deposit)
    expect(effect.lovelace).toBe(real.deposit.fee.fee + real.price)
    expect(wrapper.get('[data-testid=review-summary]').text()).toContain(
      `You pay a ${formatAda(real.deposit.fee.fee)} fee and deposit ${formatAda(real.price)} into the contract: ` +
        `${formatAda(effect.lovelace)} leaves your wallet in all.`
    )
    await wrapper.get('[data-testid=tab-marlowe]').trigger('click')
    const step = wrapper.get('[data-testid=marlowe-step]').text()
    expect(step).toContain('Buyer deposits 100 ada into Seller’s account')
    expect(step).toContain('The contract afterwards')
    expect(step).toContain('Buyer chooses “Everything is alright”: 0')
    // Unlocked: no password to ask for.
    expect(wrapper.find('[data-testid=sign-password]').exists()).toBe(false)
    expect(wrapper.get('[data-testid=sign-submit]').attributes('disabled')).toBeUndefined()
  })

  test('a danger warning is shown first and must be acknowledged before signing', async () => {
    const { wrapper } = await reviewScreen(real.expiredDeposit, 'apply', wallet('alice', false))
    const [first] = wrapper.findAll('[data-testid=review-warning]')
    expect(first?.text()).toMatch(/^Danger: The transaction expired/)
    expect(first?.attributes('role')).toBe('alert')
    const submit = wrapper.get('[data-testid=sign-submit]')
    expect(submit.attributes('disabled')).toBeDefined()
    await wrapper.get('[data-testid=warnings-ack]').setValue(true)
    expect(submit.attributes('disabled')).toBeUndefined()
  })
})

describe('review of the deposit without its inputs (a bare file, no bundle)', () => {
  test('claims no net effect: it says what is unknown, and what the outputs pay is not read as money received', async () => {
    const review = real.unreadDeposit
    const [effect] = review.netEffect
    const unread = review.inputs.filter((i) => !i.resolved).length
    expect(unread).toBe(review.inputs.length)
    expect(effect).toMatchObject({ wallet: 'alice', complete: false })
    const change = effect!.complete ? 0n : effect!.received.lovelace
    expect(change).toBeGreaterThan(real.price)

    const { wrapper } = await reviewScreen(review, 'apply', wallet('alice', false))
    // Collateral and reference inputs are unread too: every place names the same inputs in the same words.
    const phrase = `${unread} spent inputs, 1 collateral input and 1 reference input could not be read`
    const net = wrapper.get('[data-testid=net-effect]')
    expect(net.get('[data-complete=false]').text()).toContain(
      `Unknown: ${phrase}, so what this wallet pays in all cannot be worked out.`
    )
    expect(wrapper.findAll('[data-testid=review-warning]').map((w) => w.text())).toContain(
      `Note: ${phrase}: the values, owners and datums behind them are unknown. Review the transaction with its bundle to see them.`
    )
    expect(net.text()).toContain(`Outputs pay it ${formatAda(change)}`)
    // The change alone, signed, is the inverted claim ("+2,989.78 ada") this screen must not make.
    expect(net.text()).not.toContain(formatAda(change, { signed: true }))
    const summary = wrapper.get('[data-testid=review-summary]').text()
    expect(summary).toContain(`${phrase}, so what your wallets pay in all is unknown.`)
    expect(summary).not.toMatch(/in all\.|receives/)
  })
})

describe('a wallet that locks itself while the review is open', () => {
  const carolUntil = (locksAt: bigint): WalletSummary => ({ ...wallet('carol', false), locksAt })

  test('signing refused because it locked: the password is asked for, and signing again works', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    let engineLocked = false
    const { wrapper, desk } = await reviewScreen(real.create, 'create', carolUntil(BigInt(Date.now()) + 600_000n), {
      'wallets.list': () => [engineLocked ? wallet('carol') : carolUntil(BigInt(Date.now()) + 600_000n)],
      'tx.signAndSubmit': ({ txId, password }) => {
        if (password === undefined) {
          engineLocked = true
          throw new DeskError('WalletLocked', 'Wallet "Carol’s wallet" is locked: unlock it to sign.', {
            walletId: real.wallets.carol.id
          })
        }
        return { txId, status: 'confirmed' }
      },
      'wallets.balance': () => ({
        walletId: real.wallets.carol.id,
        address: real.wallets.carol.address,
        lovelace: 0n,
        assets: [],
        utxoCount: 0,
        utxos: [],
        ...NOTHING_HELD
      })
    })
    expect(wrapper.find('[data-testid=sign-password]').exists()).toBe(false)
    expect(wrapper.get('[data-testid=sign-unlocked]').text()).toContain('It locks in 10 min')
    await wrapper.get('form').trigger('submit')
    await flushPromises()

    expect(desk.requests('tx.signAndSubmit')).toEqual([{ txId: real.create.txId, walletId: real.wallets.carol.id }])
    expect(wrapper.get('[data-testid=sign-locked-meanwhile]').text()).toBe(
      '“Carol’s wallet” has locked. Type its password and sign again.'
    )
    const field = wrapper.get('[data-testid=sign-password]')
    // The review is still there to sign.
    expect(wrapper.get('[data-testid=review-summary]').text()).toContain('Opens a Marlowe contract.')
    const submit = wrapper.get('[data-testid=sign-submit]')
    expect(submit.attributes('disabled')).toBeDefined()
    await field.setValue('correct horse')
    await wrapper.get('form').trigger('submit')
    await flushPromises()
    expect(desk.requests('tx.signAndSubmit')[1]).toEqual({
      txId: real.create.txId,
      walletId: real.wallets.carol.id,
      password: 'correct horse'
    })
    expect(wrapper.get('[data-testid=tx-confirmed]').text()).toContain(shorten(real.create.txId))
  })

  test('when its lock time comes, the password field appears without any call failing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const locksAt = BigInt(Date.now()) + 90_000n
    let engineLocked = false
    const { wrapper } = await reviewScreen(real.create, 'create', carolUntil(locksAt), {
      'wallets.list': () => [engineLocked ? wallet('carol') : carolUntil(locksAt)]
    })
    expect(wrapper.find('[data-testid=sign-password]').exists()).toBe(false)
    expect(wrapper.get('[data-testid=sign-unlocked]').text()).toContain('It locks in 2 min')
    await vi.advanceTimersByTimeAsync(30_001)
    expect(wrapper.get('[data-testid=sign-unlocked]').text()).toContain('It locks in 1 min')
    engineLocked = true
    await vi.advanceTimersByTimeAsync(60_000)
    await flushPromises()
    expect(wrapper.find('[data-testid=sign-password]').exists()).toBe(true)
    expect(wrapper.get('[data-testid=sign-submit]').attributes('disabled')).toBeDefined()
  })
})

describe('a contract opened with deadlines already past', () => {
  async function createReviewAt(chainTime: bigint) {
    const mounted = await reviewScreen(real.create, 'create', wallet('carol'), {
      'app.status': () => status(chainTime)
    })
    await useAppStore(mounted.pinia).refreshStatus()
    await flushPromises()
    return mounted
  }
  const firstDeadline = (): bigint => real.create.marlowe.created[0]!.nextTimeout!

  test('none passed on the chain’s clock: no warning', async () => {
    const { wrapper } = await createReviewAt(firstDeadline() - 1n)
    expect(wrapper.find('[data-testid=deadline-warning]').exists()).toBe(false)
  })

  test('the first deadline reached: the review warns, and signing is not held back', async () => {
    const { wrapper } = await createReviewAt(firstDeadline())
    expect(wrapper.get('[data-testid=deadline-warning]').text()).toBe(
      `Warning: A deadline of this contract has already passed (${formatTime(firstDeadline())}): what is due before ` +
        'it can no longer be done.'
    )
    await wrapper.get('[data-testid=sign-password]').setValue('correct horse')
    expect(wrapper.get('[data-testid=sign-submit]').attributes('disabled')).toBeUndefined()
  })

  test('years later: every deadline has passed, the first named', async () => {
    const { wrapper } = await createReviewAt(firstDeadline() + 10n * 365n * 86_400_000n)
    expect(wrapper.get('[data-testid=deadline-warning]').text()).toMatch(
      new RegExp(`^Warning: 4 deadlines of this contract have already passed, the first ${formatTime(firstDeadline())}`)
    )
  })
})
