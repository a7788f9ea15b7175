// @vitest-environment happy-dom
/**
 * The wallet screen's "Burn the role tokens of closed contracts": it asks the desk for the selected wallet's burn
 * and opens the review with it; a wallet with nothing to burn is told so.
 */
import { flushPromises } from '@vue/test-utils'
import { beforeAll, describe, expect, test } from 'vitest'
import { DeskError, type PreparedTx } from '../../src/api/contract'
import BurnRoleTokens from '../../src/renderer/src/components/wallet/BurnRoleTokens.vue'
import { useTxStore } from '../../src/renderer/src/stores/tx'
import { useWalletsStore } from '../../src/renderer/src/stores/wallets'
import { engineReviews, type EngineReviews } from './support/engine-review'
import { FakeDesk, mountWithDesk, type FakeHandlers } from './support/desk'
import { WALLET } from './support/desk-answers'

let reviews: EngineReviews
beforeAll(async () => {
  reviews = await engineReviews()
}, 120_000)

async function mounted(handlers: FakeHandlers) {
  const desk = new FakeDesk({ 'wallets.list': () => [WALLET], ...handlers })
  const m = await mountWithDesk(BurnRoleTokens, desk)
  await useWalletsStore(m.pinia).load()
  await m.wrapper.get('[data-testid="burn-roles-button"]').trigger('click')
  await flushPromises()
  return { ...m, desk }
}

describe('BurnRoleTokens', () => {
  test("asks for the selected wallet's burn and opens its review", async () => {
    const prepared: PreparedTx = {
      kind: 'burn',
      txId: 'b0'.repeat(32),
      review: reviews.create,
      cborHex: '00',
      safetyErrors: []
    }
    const { desk, router, pinia } = await mounted({ 'roles.burnClosed': () => prepared })
    expect(desk.requests('roles.burnClosed')).toEqual([{ walletId: WALLET.id }])
    expect(router.currentRoute.value.path).toBe('/review')
    expect(useTxStore(pinia).current?.kind).toBe('burn')
    expect(useTxStore(pinia).current?.txId).toBe(prepared.txId)
  })

  test('nothing to burn is said, and the screen stays', async () => {
    const { wrapper, router } = await mounted({
      'roles.burnClosed': () => {
        throw new DeskError('BurnNoTokensToBurn', 'No tokens to burn')
      }
    })
    expect(router.currentRoute.value.path).toBe('/wallet')
    expect(wrapper.text()).toContain('No tokens to burn')
  })
})
