// @vitest-environment happy-dom
/**
 * Hardware wallets on the screens: the "Hardware wallet" way to add one (the engine reads the account from the
 * device; a missing device says what to do), and signing on the device from the review — the steps the device
 * will show beside the review, the device's refusal with its way on, and the submission once it signs.
 */
import { flushPromises } from '@vue/test-utils'
import { beforeAll, describe, expect, test } from 'vitest'
import { DeskError, type DeviceSteps, type PreparedTx, type WalletSummary } from '../../src/api/contract'
import WalletSetup from '../../src/renderer/src/components/wallet/WalletSetup.vue'
import { formatAda } from '../../src/renderer/src/format/amounts'
import { useTxStore } from '../../src/renderer/src/stores/tx'
import { useWalletsStore } from '../../src/renderer/src/stores/wallets'
import ReviewView from '../../src/renderer/src/views/ReviewView.vue'
import { NOTHING_HELD } from './support/balance'
import { FakeDesk, mountWithDesk } from './support/desk'
import { engineReviews, type EngineReviews } from './support/engine-review'
import { status } from './support/desk-answers'

const NOW = 1_900_000_000_000n
const NO_DEVICE =
  'No Ledger was found (NoDevice). Connect it by USB, unlock it and open the Cardano app, then try again.'
const REJECTED =
  'The request was rejected on the Ledger: nothing was signed or shared. Try again to review it on the device once more.'

let real: EngineReviews
beforeAll(async () => {
  real = await engineReviews()
}, 120_000)

const ledgerWallet = (): WalletSummary => ({
  id: real.wallets.carol.id,
  name: 'Carol’s Ledger',
  kind: 'hardware',
  vendor: 'ledger',
  locked: true,
  address: real.wallets.carol.address
})

describe('adding a hardware wallet', () => {
  test('the Hardware wallet tab reads the chosen account from the chosen device', async () => {
    const desk = new FakeDesk({
      'wallets.addHardware': ({ name, vendor }) => ({ ...ledgerWallet(), name, vendor })
    })
    const { wrapper, pinia } = await mountWithDesk(WalletSetup, desk)
    await wrapper.get('[data-testid=tab-hardware]').trigger('click')
    await wrapper.get('[data-testid=hardware-trezor]').setValue(true)
    expect(wrapper.get('[data-testid=hardware-prepare]').text()).toContain('Connect the Trezor by USB')
    await wrapper.get('[data-testid=hardware-account]').setValue('1')
    await wrapper.get('[data-testid=hardware-add]').trigger('submit')
    await flushPromises()
    expect(desk.requests('wallets.addHardware')).toEqual([
      { name: 'Trezor account 1', vendor: 'trezor', accountIndex: 1 }
    ])
    expect(useWalletsStore(pinia).selected?.name).toBe('Trezor account 1')
    expect(wrapper.emitted('done')).toHaveLength(1)
  })

  test('no device: the engine’s message with what to do, and the form stays to try again', async () => {
    const desk = new FakeDesk({
      'wallets.addHardware': () => {
        throw new DeskError('HardwareWalletNotFound', NO_DEVICE, { vendor: 'ledger', state: 'no-device' })
      }
    })
    const { wrapper } = await mountWithDesk(WalletSetup, desk)
    await wrapper.get('[data-testid=tab-hardware]').trigger('click')
    await wrapper.get('[data-testid=hardware-add]').trigger('submit')
    await flushPromises()
    expect(wrapper.get('[data-testid=error]').text()).toContain(NO_DEVICE)
    expect(wrapper.get('[data-testid=hardware-add]').text()).toBe('Read the account from the Ledger')
    expect(wrapper.emitted('done')).toBeUndefined()
  })
})

describe('signing on the device from the review', () => {
  const STEPS: DeviceSteps = {
    vendor: 'ledger',
    steps: [
      { title: 'Start signing a Plutus transaction', lines: [{ label: 'Network id', text: '0' }] },
      { title: 'Fee', lines: [{ label: 'Fee', lovelace: 180_000n }] },
      { title: 'Sign the transaction', lines: [{ label: 'With the key at', text: "m/1852'/1815'/0'/0/0" }] }
    ],
    missing: []
  }

  async function reviewWithLedger(sign: () => { txId: string; status: 'submitted' }) {
    const review = real.create
    const desk = new FakeDesk({
      'app.status': () => status(NOW),
      'wallets.list': () => [ledgerWallet()],
      'wallets.balance': ({ walletId }) => ({
        walletId,
        address: ledgerWallet().address,
        lovelace: 0n,
        assets: [],
        utxoCount: 0,
        utxos: [],
        ...NOTHING_HELD
      }),
      'tx.review': () => review,
      'tx.deviceSteps': () => STEPS,
      'tx.signWithDevice': sign,
      'tx.status': ({ txId }) => ({ txId, status: 'submitted' })
    })
    const mounted = await mountWithDesk(ReviewView, desk, { path: '/review' })
    await useWalletsStore(mounted.pinia).load()
    const prepared: PreparedTx = {
      kind: 'create',
      txId: review.txId,
      contractId: real.contractId,
      review: await mounted.client['tx.review']({ txId: review.txId }),
      cborHex: '84a0',
      safetyErrors: []
    }
    useTxStore(mounted.pinia).showPrepared(prepared)
    await flushPromises()
    return { ...mounted, desk }
  }

  test('the device’s steps beside the review; a refusal on the device says so and offers to review again; then it submits', async () => {
    let refuse = true
    const { wrapper, desk } = await reviewWithLedger(() => {
      if (refuse) throw new DeskError('HardwareWalletRejected', REJECTED, { vendor: 'ledger', state: 'rejected' })
      return { txId: real.create.txId, status: 'submitted' }
    })
    const panel = wrapper.get('[data-testid=sign-panel]')
    expect(panel.find('[data-testid=sign-password]').exists()).toBe(false)
    expect(panel.text()).toContain('What the Ledger will show')
    const steps = panel.findAll('[data-testid=device-step]').map((s) => s.text())
    expect(steps).toHaveLength(3)
    expect(steps[1]).toContain(`Fee${formatAda(180_000n)}`)
    expect(steps[2]).toContain("m/1852'/1815'/0'/0/0")
    expect(desk.requests('tx.deviceSteps')).toEqual([{ txId: real.create.txId, walletId: real.wallets.carol.id }])

    const button = () => panel.get('[data-testid=device-sign-submit]')
    expect(button().text()).toBe('Sign on the Ledger and submit')
    await button().trigger('click')
    await flushPromises()
    expect(panel.get('[data-testid=error]').text()).toContain(REJECTED)
    expect(button().text()).toBe('Review on the Ledger again')

    refuse = false
    await button().trigger('click')
    await flushPromises()
    expect(desk.requests('tx.signWithDevice')).toHaveLength(2)
    expect(panel.text()).toContain('Submitted')
  })

  test('a body the device cannot rebuild is refused before the device, with the rule', async () => {
    const desk = new FakeDesk({
      'wallets.list': () => [ledgerWallet()],
      'tx.review': () => real.create,
      'tx.deviceSteps': () => {
        throw new DeskError(
          'HardwareWalletCannotSign',
          'Ledger cannot sign this transaction (no certificates): Desk maps no certificates to a device request. Nothing was sent to the device.'
        )
      }
    })
    const mounted = await mountWithDesk(ReviewView, desk, { path: '/review' })
    await useWalletsStore(mounted.pinia).load()
    useTxStore(mounted.pinia).showPrepared({
      kind: 'create',
      txId: real.create.txId,
      review: await mounted.client['tx.review']({ txId: real.create.txId }),
      cborHex: '84a0',
      safetyErrors: []
    })
    await flushPromises()
    const panel = mounted.wrapper.get('[data-testid=sign-panel]')
    expect(panel.get('[data-testid=error]').text()).toContain('Nothing was sent to the device.')
    expect(panel.find('[data-testid=device-sign-submit]').exists()).toBe(false)
  })
})
