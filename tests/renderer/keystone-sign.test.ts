// @vitest-environment happy-dom
/**
 * Signing with a Keystone from the review of a watch-only wallet's build: the fingerprint asked for, the sign
 * request shown as QR codes with the paths it signs with, the scanned signature sent with the request it answers,
 * the engine's refusal shown (and the scan offered again), then the submission.
 */
import { flushPromises } from '@vue/test-utils'
import { beforeAll, expect, test } from 'vitest'
import { DeskError, type KeystoneRequestShown, type PreparedTx, type WalletSummary } from '../../src/api/contract'
import QrScanner from '../../src/renderer/src/components/common/QrScanner.vue'
import { useTxStore } from '../../src/renderer/src/stores/tx'
import { useWalletsStore } from '../../src/renderer/src/stores/wallets'
import ReviewView from '../../src/renderer/src/views/ReviewView.vue'
import { NOTHING_HELD } from './support/balance'
import { FakeDesk, mountWithDesk } from './support/desk'
import { engineReviews, type EngineReviews } from './support/engine-review'
import { status } from './support/desk-answers'

const NOW = 1_900_000_000_000n
const REQUEST_ID = '6f1c1f0e-2b7a-4c55-9d3e-0a1b2c3d4e5f'
const OTHER_REQUEST =
  'This Keystone signature answers request 00000000-0000-4000-8000-000000000000, not the one shown for this transaction'

let real: EngineReviews
beforeAll(async () => {
  real = await engineReviews()
}, 120_000)

/** A watch-only wallet's id, 40 lowercase hex characters as the keystore makes them. */
const KEYSTONE_WALLET = 'ce'.repeat(20)

const watchOnly = (): WalletSummary => ({
  id: KEYSTONE_WALLET,
  name: 'Carol’s Keystone',
  kind: 'watch-only',
  locked: true,
  address: real.wallets.carol.address
})

const SHOWN = (): KeystoneRequestShown => ({
  requestId: REQUEST_ID,
  sequence: {
    parts: ['UR:CARDANO-SIGN-REQUEST/1-2/AAAA', 'UR:CARDANO-SIGN-REQUEST/2-2/BBBB'],
    fragments: 2,
    payloadBytes: 300
  },
  paths: ["m/1852'/1815'/0'/0/0"],
  missing: []
})

test('the sign request for the fingerprint, the scanned signature sent back with its request; a refusal, then submitted', async () => {
  let refuse = true
  const desk = new FakeDesk({
    'app.status': () => status(NOW),
    'wallets.list': () => [watchOnly()],
    'wallets.balance': ({ walletId }) => ({
      walletId,
      address: watchOnly().address,
      lovelace: 0n,
      assets: [],
      utxoCount: 0,
      utxos: [],
      ...NOTHING_HELD
    }),
    'tx.review': () => real.create,
    'tx.keystoneRequest': SHOWN,
    'tx.signWithKeystone': ({ txId }) => {
      if (refuse) throw new DeskError('KeystoneOtherRequest', OTHER_REQUEST)
      return { txId, status: 'submitted' }
    },
    'tx.status': ({ txId }) => ({ txId, status: 'submitted' })
  })
  const { wrapper, pinia, client } = await mountWithDesk(ReviewView, desk, { path: '/review' })
  await useWalletsStore(pinia).load()
  const prepared: PreparedTx = {
    kind: 'create',
    txId: real.create.txId,
    contractId: real.contractId,
    review: await client['tx.review']({ txId: real.create.txId }),
    cborHex: '84a0',
    safetyErrors: []
  }
  useTxStore(pinia).showPrepared(prepared)
  await flushPromises()

  const panel = wrapper.get('[data-testid=keystone-sign]')
  const show = () => panel.get('[data-testid=keystone-show]')
  expect(show().attributes('disabled')).toBeDefined()
  await panel.get('[data-testid=keystone-fingerprint]').setValue('1A2B3C4')
  expect(show().attributes('disabled')).toBeDefined()
  await panel.get('[data-testid=keystone-fingerprint]').setValue('1A2B3C4D')
  await panel.get('form').trigger('submit')
  await flushPromises()
  expect(desk.requests('tx.keystoneRequest')).toEqual([
    { txId: real.create.txId, walletId: KEYSTONE_WALLET, masterFingerprint: '1A2B3C4D' }
  ])
  expect(panel.get('[data-testid=qr-player]').get('[data-testid=qr-frame]').attributes('aria-label')).toBe(
    'The transaction as a Keystone sign request'
  )
  expect(panel.get('[data-testid=qr-counter]').text()).toContain('Frame 1 of 2')
  expect(panel.get('[data-testid=keystone-paths]').text()).toContain("m/1852'/1815'/0'/0/0")

  const scanned = async (cbor: string) => {
    await panel.get('[data-testid=keystone-scan]').trigger('click')
    wrapper.getComponent(QrScanner).vm.$emit('keystone', { requestId: REQUEST_ID, cbor })
    await flushPromises()
  }
  await scanned('a201d82550')
  expect(panel.get('[data-testid=error]').text()).toContain(OTHER_REQUEST)
  expect(panel.find('[data-testid=qr-scanner]').exists()).toBe(false)
  expect(panel.get('[data-testid=keystone-scan]').text()).toBe("Scan the Keystone's signature")

  refuse = false
  await scanned('a201d82551')
  expect(desk.requests('tx.signWithKeystone')).toEqual([
    { txId: real.create.txId, walletId: KEYSTONE_WALLET, requestId: REQUEST_ID, signature: 'a201d82550' },
    { txId: real.create.txId, walletId: KEYSTONE_WALLET, requestId: REQUEST_ID, signature: 'a201d82551' }
  ])
  expect(wrapper.get('[data-testid=sign-panel]').text()).toContain('Submitted')
})
