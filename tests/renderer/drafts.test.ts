// @vitest-environment happy-dom
/**
 * Unsigned builds the user left: the contract list's drafts can be resumed (the review opens again) or discarded
 * after a confirmation; the review screen discards too, and then returns to the screen it was opened from.
 */
import { flushPromises } from '@vue/test-utils'
import { beforeAll, describe, expect, test } from 'vitest'
import { DeskError, type ContractListItem, type PreparedTx } from '../../src/api/contract'
import { useTxStore } from '../../src/renderer/src/stores/tx'
import { useWalletsStore } from '../../src/renderer/src/stores/wallets'
import ContractsView from '../../src/renderer/src/views/ContractsView.vue'
import ReviewView from '../../src/renderer/src/views/ReviewView.vue'
import { FakeDesk, mountWithDesk } from './support/desk'
import { engineReviews, type EngineReviews } from './support/engine-review'
import { status, WALLET } from './support/desk-answers'

const NOW = 1_900_000_000_000n

let real: EngineReviews
let prepared: PreparedTx
beforeAll(async () => {
  real = await engineReviews()
  prepared = {
    kind: 'create',
    txId: real.create.txId,
    contractId: real.contractId,
    review: real.create,
    cborHex: '84a0',
    safetyErrors: []
  }
})

const draft = (): ContractListItem => ({
  header: {
    contractId: real.contractId,
    rolesCurrency: real.rolesCurrency,
    tags: {},
    metadata: {},
    status: 'unsigned'
  },
  closed: false,
  awaiting: [],
  parties: [],
  createdAt: NOW - 60_000n
})

describe('drafts on the contract list', () => {
  test('Resume opens the review of the build', async () => {
    const desk = new FakeDesk({
      'app.status': () => status(NOW),
      'wallets.list': () => [WALLET],
      'contracts.list': () => [draft()],
      'tx.resume': () => prepared
    })
    const { wrapper, pinia, router } = await mountWithDesk(ContractsView, desk, { path: '/contracts' })
    await useWalletsStore(pinia).load()
    await flushPromises()
    await wrapper.get('[data-testid=draft-resume]').trigger('click')
    await flushPromises()
    expect(desk.requests('tx.resume')).toEqual([{ txId: real.create.txId }])
    expect(router.currentRoute.value.name).toBe('review')
    expect(useTxStore(pinia).current?.txId).toBe(real.create.txId)
  })

  test('Discard asks first, then discards and lists again', async () => {
    let discarded = false
    const desk = new FakeDesk({
      'app.status': () => status(NOW),
      'wallets.list': () => [WALLET],
      'contracts.list': () => (discarded ? [] : [draft()]),
      'tx.discard': ({ txId }) => {
        discarded = true
        return { txId }
      }
    })
    const { wrapper, pinia } = await mountWithDesk(ContractsView, desk, { path: '/contracts' })
    await useWalletsStore(pinia).load()
    await flushPromises()
    await wrapper.get('[data-testid=discard]').trigger('click')
    expect(wrapper.get('[data-testid=discard-ask]').text()).toContain('can no longer be signed')
    await wrapper.get('[data-testid=discard-cancel]').trigger('click')
    expect(desk.requests('tx.discard')).toEqual([])

    await wrapper.get('[data-testid=discard]').trigger('click')
    await wrapper.get('[data-testid=discard-confirm]').trigger('click')
    await flushPromises()
    expect(desk.requests('tx.discard')).toEqual([{ txId: real.create.txId }])
    expect(wrapper.findAll('[data-testid=contract-row]')).toHaveLength(0)
  })
})

describe('discarding from the review screen', () => {
  async function reviewFrom(path: string, desk: FakeDesk) {
    const mounted = await mountWithDesk(ReviewView, desk, { path })
    await mounted.router.push('/review')
    useTxStore(mounted.pinia).showPrepared(prepared)
    await flushPromises()
    return mounted
  }

  test('after confirming, the build is discarded and the screen it came from is back', async () => {
    const desk = new FakeDesk({ 'tx.discard': ({ txId }) => ({ txId }) })
    const { wrapper, router, pinia } = await reviewFrom(`/contracts/${encodeURIComponent(real.contractId)}`, desk)
    await wrapper.get('[data-testid=discard]').trigger('click')
    await wrapper.get('[data-testid=discard-confirm]').trigger('click')
    await flushPromises()
    expect(desk.requests('tx.discard')).toEqual([{ txId: real.create.txId }])
    expect(router.currentRoute.value.name).toBe('contract')
    expect(router.currentRoute.value.params['contractId']).toBe(real.contractId)
    expect(useTxStore(pinia).current).toBeUndefined()
  })

  test('a refusal is shown and the review stays', async () => {
    const desk = new FakeDesk({
      'tx.discard': () => {
        throw new DeskError('AlreadySubmitted', 'Transaction … is submitted: only an unsigned build can be discarded.')
      }
    })
    const { wrapper, router } = await reviewFrom('/contracts', desk)
    await wrapper.get('[data-testid=discard]').trigger('click')
    await wrapper.get('[data-testid=discard-confirm]').trigger('click')
    await flushPromises()
    expect(wrapper.text()).toContain('only an unsigned build can be discarded')
    expect(router.currentRoute.value.name).toBe('review')
  })

  test('no Discard once the transaction is submitted', async () => {
    const desk = new FakeDesk({})
    const { wrapper, pinia } = await reviewFrom('/contracts', desk)
    expect(wrapper.find('[data-testid=discard]').exists()).toBe(true)
    useTxStore(pinia).status = 'submitted'
    await flushPromises()
    expect(wrapper.find('[data-testid=discard]').exists()).toBe(false)
  })
})
