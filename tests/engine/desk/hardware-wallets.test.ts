/**
 * Hardware wallets through the desk's wire: added by reading the account key from the device (Ledger through
 * the transport mocker replaying the Cardano app's documented exchanges; the real node-hid finds no device on
 * this machine; a Trezor through Trezor Connect as the engine sets it up, its BridgeTransport talking to a Bridge
 * double on 127.0.0.1 with a Model T double behind it), the steps the device will show, and a reviewed build
 * signed on the device (the Model T double, and a Ledger Cardano-app double at the transport, each rebuild the
 * body from what they are sent and sign their own hash), verified, spliced and submitted; and every device
 * refusal as the desk's typed error with the engine's message, nothing submitted.
 */
import { openTransportReplayer, RecordStore } from '@ledgerhq/hw-transport-mocker'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { PreparedTx, WalletSummary } from '../../../src/api/contract'
import { bytesToHex } from '../../../src/core/bytes'
import { stringifyContract } from '../../../src/core/marlowe/json'
import type { HardwareDevices } from '../../../src/engine/desk/device-calls'
import { TrezorConnection } from '../../../src/engine/hardware/trezor-connect'
import { LedgerCardanoAppDouble } from '../hardware/ledger-app-double'
import { CAROL_ACCOUNT, CAROL_LEDGER_KEYS, carol, HOLDER_CONTRACT } from '../hardware/support'
import { BridgeDouble } from '../hardware/trezor-double/bridge'
import { TrezorModelT } from '../hardware/trezor-double/firmware'
import { deskHarness, restoreSandboxWallet, type DeskHarness } from './support'

/** doc/ins_get_app_version.md and doc/ins_get_public_keys.md (m/1852'/1815'/0'), as the engine's Ledger test. */
const GET_VERSION = 'd700000000'
const VERSION_7_1 = '070100009000'
const GET_ACCOUNT_KEY = 'd71000000d03' + '8000073c' + '80000717' + '80000000'
const PAYMENT_PATH = "m/1852'/1815'/0'/0/0"

let h: DeskHarness
let devices: { ledger: () => Promise<Awaited<ReturnType<HardwareDevices['openLedger']>>> }
let built: PreparedTx | undefined
let bridge: BridgeDouble
let trezorConnect: TrezorConnection

beforeAll(async () => {
  devices = { ledger: async () => openTransportReplayer(new RecordStore([])) }
  bridge = await BridgeDouble.start()
  bridge.plug(new TrezorModelT())
  trezorConnect = new TrezorConnection([bridge.transport()])
  h = await deskHarness({
    hardware: {
      timeoutMs: 60_000,
      openLedger: () => devices.ledger(),
      openTrezor: () => trezorConnect.open()
    }
  })
})
afterAll(async () => {
  await h.close()
  await trezorConnect.dispose()
  await bridge.close()
})

const replaying = (exchanges: [string, string][]) => async () => openTransportReplayer(new RecordStore(exchanges))

describe('adding a hardware wallet', () => {
  test('a Ledger: the account key is read once through the documented exchanges; the wallet is the account', async () => {
    devices.ledger = replaying([
      [GET_VERSION, VERSION_7_1],
      [GET_VERSION, VERSION_7_1],
      [GET_ACCOUNT_KEY, bytesToHex(CAROL_ACCOUNT.xvk) + '9000']
    ])
    const wallet = await h.ok('wallets.addHardware', { name: 'carol on ledger', vendor: 'ledger', accountIndex: 0 })
    expect(wallet).toMatchObject({
      kind: 'hardware',
      vendor: 'ledger',
      name: 'carol on ledger',
      address: carol.address
    })
    const locked = await h.fails('wallets.unlock', { walletId: wallet.id, password: 'x' }, 'HardwareWallet')
    expect(locked.message).toContain('keeps its keys on a Ledger')
    await h.ok('wallets.remove', { walletId: wallet.id, confirmName: 'carol on ledger' })
  })

  test('a locked Ledger or the wrong app: the engine’s message with its way on, and no wallet', async () => {
    devices.ledger = replaying([[GET_VERSION, '6e11']])
    const locked = await h.fails(
      'wallets.addHardware',
      { name: 'l', vendor: 'ledger', accountIndex: 0 },
      'HardwareWalletLocked'
    )
    expect(locked.message).toBe(
      'The Ledger is locked. Enter its PIN on the device, open the Cardano app, then try again.'
    )
    devices.ledger = replaying([[GET_VERSION, '6e01']])
    const wrong = await h.fails(
      'wallets.addHardware',
      { name: 'l', vendor: 'ledger', accountIndex: 0 },
      'HardwareWalletWrongApp'
    )
    expect(wrong.message).toContain('Open the Cardano app, then try again')
    expect(await h.ok('wallets.list', {})).toEqual([])
  })

  test('no Ledger on USB (the real node-hid on this machine): HardwareWalletNotFound', async () => {
    const usb = await deskHarness()
    try {
      const none = await usb.fails(
        'wallets.addHardware',
        { name: 'l', vendor: 'ledger', accountIndex: 0 },
        'HardwareWalletNotFound'
      )
      expect(none.message).toMatch(
        /^No Ledger was found .*Connect it by USB, unlock it and open the Cardano app, then try again\.$/
      )
    } finally {
      await usb.close()
    }
  })

  test('bad requests are refused before any device is asked', async () => {
    await h.fails('wallets.addHardware', { name: 'x', vendor: 'keystone', accountIndex: 0 }, 'InvalidRequest')
    await h.fails('wallets.addHardware', { name: 'x', vendor: 'ledger', accountIndex: -1 }, 'InvalidRequest')
    await h.fails('wallets.addHardware', { name: 'x', vendor: 'ledger', accountIndex: 2 ** 31 }, 'InvalidRequest')
  })
})

describe('signing a reviewed build on the device', () => {
  let trezor: WalletSummary

  beforeAll(async () => {
    trezor = await h.ok('wallets.addHardware', { name: 'carol on trezor', vendor: 'trezor', accountIndex: 0 })
    built = await h.ok('contracts.create', {
      walletId: trezor.id,
      contractJson: stringifyContract(HOLDER_CONTRACT),
      roles: [{ role: 'Holder', address: carol.address }],
      tags: ['desk.test']
    })
  }, 120_000)

  test('the steps the device will show follow the body: every output, the fee, the mint, the key it signs with', async () => {
    const { vendor, steps, missing } = await h.ok('tx.deviceSteps', { txId: built!.txId, walletId: trezor.id })
    expect(vendor).toBe('trezor')
    expect(missing).toEqual([])
    const titles = steps.map((s) => s.title)
    const outputs = built!.review.outputs.length
    expect(titles[0]).toBe('Start signing a Plutus transaction')
    expect(titles.filter((t) => t.startsWith('Output '))).toHaveLength(outputs)
    expect(titles).toEqual(expect.arrayContaining(['Fee', 'Mint', 'Script data hash', 'Collateral inputs']))
    expect(steps.find((s) => s.title === 'Fee')?.lines).toEqual([{ label: 'Fee', lovelace: built!.review.fee.fee }])
    expect(steps.at(-1)).toEqual({
      title: 'Sign the transaction',
      lines: [{ label: 'With the key at', text: PAYMENT_PATH }]
    })
  })

  test('a device that rebuilt another body: its signatures are refused and nothing is submitted', async () => {
    await bridge.plugSeen(new TrezorModelT({ untaggedSets: true }))
    const e = await h.fails(
      'tx.signWithDevice',
      { txId: built!.txId, walletId: trezor.id },
      'HardwareWalletBodyMismatch'
    )
    expect(e.message).toContain('the device rebuilt it differently')
    expect((await h.ok('tx.status', { txId: built!.txId })).status).toBe('unsigned')
  })

  test('rejected on the device: the engine’s message, nothing submitted', async () => {
    await bridge.plugSeen(new TrezorModelT({ reject: true }))
    const e = await h.fails('tx.signWithDevice', { txId: built!.txId, walletId: trezor.id }, 'HardwareWalletRejected')
    expect(e.message).toContain('nothing was signed or shared')
    expect((await h.ok('tx.status', { txId: built!.txId })).status).toBe('unsigned')
  })

  test('signed on the device, verified and spliced by the engine, then submitted', async () => {
    await bridge.plugSeen(new TrezorModelT())
    const answer = await h.ok('tx.signWithDevice', { txId: built!.txId, walletId: trezor.id })
    expect(answer).toEqual({ txId: built!.txId, status: 'submitted' })
    await h.fails('tx.signWithDevice', { txId: built!.txId, walletId: trezor.id }, 'AlreadySubmitted')
  })

  test('an unknown build, or a wallet that is not a hardware one, is refused before the device', async () => {
    await h.fails('tx.deviceSteps', { txId: 'cd'.repeat(32), walletId: trezor.id }, 'TxNotFound')
    const software = await restoreSandboxWallet(h, 'alice')
    const e = await h.fails('tx.deviceSteps', { txId: built!.txId, walletId: software.id }, 'InvalidRequest')
    expect(e.message).toContain('is not a hardware wallet')
  })
})

describe('signing a reviewed build on a Ledger, APDU by APDU (the Cardano app double)', () => {
  let ledger: WalletSummary
  let create: PreparedTx

  beforeAll(async () => {
    // The same account as the Trezor wallet above: one wallet a key, so that one goes first.
    const trezor = (await h.ok('wallets.list', {})).find((w) => w.name === 'carol on trezor')!
    await h.ok('wallets.remove', { walletId: trezor.id, confirmName: trezor.name })
    devices.ledger = async () => new LedgerCardanoAppDouble({ keys: CAROL_LEDGER_KEYS })
    ledger = await h.ok('wallets.addHardware', { name: 'carol on ledger', vendor: 'ledger', accountIndex: 0 })
    await h.opened.follower.sync()
    create = await h.ok('contracts.create', {
      walletId: ledger.id,
      contractJson: stringifyContract(HOLDER_CONTRACT),
      roles: [{ role: 'Holder', address: carol.address }],
      tags: ['desk.test']
    })
  }, 120_000)

  test('rejected at the final confirmation on the device: the engine’s message, nothing submitted', async () => {
    const device = new LedgerCardanoAppDouble({ keys: CAROL_LEDGER_KEYS, confirm: (s) => s.kind !== 'confirm' })
    devices.ledger = async () => device
    const e = await h.fails('tx.signWithDevice', { txId: create.txId, walletId: ledger.id }, 'HardwareWalletRejected')
    expect(e.message).toContain('nothing was signed or shared')
    expect(device.screens.find((s) => s.kind === 'tx-id')?.text).toBe(`Transaction id ${create.txId}`)
    expect((await h.ok('tx.status', { txId: create.txId })).status).toBe('unsigned')
  })

  test('signed on the device: its hash is the build’s id, the engine verifies, splices and submits; confirmed', async () => {
    const device = new LedgerCardanoAppDouble({ keys: CAROL_LEDGER_KEYS })
    devices.ledger = async () => device
    const answer = await h.ok('tx.signWithDevice', { txId: create.txId, walletId: ledger.id })
    expect(answer).toEqual({ txId: create.txId, status: 'submitted' })
    expect(device.screens.at(-1)).toEqual({ kind: 'witness', text: `Sign with ${PAYMENT_PATH}`, confirmed: true })
    await h.opened.follower.sync()
    expect(await h.ok('tx.status', { txId: create.txId })).toEqual({ txId: create.txId, status: 'confirmed' })
  })
})
