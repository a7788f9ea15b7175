// @vitest-environment happy-dom
/**
 * Ids and addresses on the screens: each whole where a reviewer checks it (every output's address in the
 * review), each with a copy button, and on a public network a link to its explorer page that opens outside the
 * app — none on the sandbox, whose ledger no explorer knows.
 */
import { flushPromises } from '@vue/test-utils'
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import type { AppStatus, WalletSummary } from '../../src/api/contract'
import { explorerUrl } from '../../src/core/cardano/explorer'
import ChainRef from '../../src/renderer/src/components/common/ChainRef.vue'
import { useAppStore } from '../../src/renderer/src/stores/app'
import { useTxStore } from '../../src/renderer/src/stores/tx'
import { useWalletsStore } from '../../src/renderer/src/stores/wallets'
import ReviewView from '../../src/renderer/src/views/ReviewView.vue'
import { FakeDesk, mountWithDesk } from './support/desk'
import { engineReviews, type EngineReviews } from './support/engine-review'
import { status } from './support/desk-answers'

let real: EngineReviews
beforeAll(async () => {
  real = await engineReviews()
}, 120_000)
afterEach(() => vi.restoreAllMocks())

async function reviewOn(network: AppStatus['network']) {
  const signer: WalletSummary = {
    id: real.wallets.carol.id,
    name: 'Carol',
    kind: 'mnemonic',
    locked: true,
    address: real.wallets.carol.address
  }
  const desk = new FakeDesk({
    'app.status': () => status(1_700_000_000_000n, network),
    'wallets.list': () => [signer],
    'tx.review': () => real.create
  })
  const mounted = await mountWithDesk(ReviewView, desk, { path: '/review' })
  await useAppStore(mounted.pinia).refreshStatus()
  await useWalletsStore(mounted.pinia).load()
  useTxStore(mounted.pinia).showPrepared({
    kind: 'create',
    txId: real.create.txId,
    contractId: real.contractId,
    review: await mounted.client['tx.review']({ txId: real.create.txId }),
    cborHex: '84a0',
    safetyErrors: []
  })
  await flushPromises()
  return mounted
}

describe('ids and addresses', () => {
  test('the review shows every output’s address whole, copies it whole, and links it on preprod', async () => {
    const writeText = vi.fn(async (_text: string) => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    const { wrapper } = await reviewOn('preprod')
    const outputs = wrapper.findAll('[data-testid=review-output]')
    expect(outputs).toHaveLength(real.create.outputs.length)
    for (const [i, output] of outputs.entries()) {
      const address = real.create.outputs[i]!.address.text
      expect(output.get('[data-testid=review-address]').text()).toBe(address)
      const link = output.get('[data-testid=explorer-link]')
      expect(link.attributes('href')).toBe(`https://preprod.cardanoscan.io/address/${address}`)
      expect(link.attributes('target')).toBe('_blank')
      expect(link.attributes('rel')).toBe('noopener noreferrer')
      await output.get('button[aria-label="Copy address"]').trigger('click')
      await flushPromises()
      expect(writeText).toHaveBeenLastCalledWith(address)
    }

    await wrapper.get('[data-testid=tab-raw]').trigger('click')
    const links = wrapper.findAll('[data-testid=explorer-link]').map((a) => a.attributes('href'))
    expect(links).toContain(explorerUrl('preprod', { kind: 'tx', txId: real.create.txId }))
    // The inputs spent: each links to the transaction that made it.
    for (const input of real.create.inputs) {
      expect(links).toContain(`https://preprod.cardanoscan.io/transaction/${input.ref.txId}`)
    }
  })

  test('on the sandbox nothing links out, and the copy buttons stay', async () => {
    const { wrapper } = await reviewOn('sandbox')
    expect(wrapper.find('[data-testid=explorer-link]').exists()).toBe(false)
    expect(wrapper.findAll('button[aria-label="Copy address"]')).toHaveLength(real.create.outputs.length)
    await wrapper.get('[data-testid=tab-raw]').trigger('click')
    expect(wrapper.get('[data-testid=review-txid]').text()).toBe(real.create.txId)
    expect(wrapper.find('button[aria-label="Copy transaction id"]').exists()).toBe(true)
    expect(wrapper.find('[data-testid=explorer-link]').exists()).toBe(false)
  })

  test('a shortened id stays on one line (it could break after its ellipsis); a whole one may wrap', async () => {
    const id = `${'ab'.repeat(32)}#12`
    const desk = new FakeDesk({ 'app.status': () => status(1_700_000_000_000n, 'sandbox') })
    const short = await mountWithDesk(ChainRef, desk, { props: { text: id, kind: 'tx', short: true, testid: 'ref' } })
    expect(short.wrapper.get('[data-testid=ref]').text()).toBe(`abababab…abab#12`)
    expect(short.wrapper.get('[data-testid=ref]').classes()).toEqual(['mono', 'nowrap'])
    const whole = await mountWithDesk(ChainRef, desk, { props: { text: id, kind: 'tx', testid: 'ref' } })
    expect(whole.wrapper.get('[data-testid=ref]').classes()).toEqual(['mono', 'breakable'])
  })
})
