/**
 * A hardware wallet on the air-gapped machine: the online Desk builds every kind of transaction for the wallet
 * (create minting a role, apply as the role's holder and as an address party, withdraw) and exports its review
 * bundle; a Desk whose node cannot be reached imports it, shows what the device will show and signs it on the
 * device (a Ledger Cardano-app double at the transport; a Trezor Model T double behind a Bridge double, through
 * Trezor Connect) into a witness file; the online Desk takes the witness back, and the sandbox confirms.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { PreparedTx, WalletSummary } from '../../../src/api/contract'
import { parseBundle } from '../../../src/core/cardano/bundle'
import { stringifyContract, stringifyInputs } from '../../../src/core/marlowe/json'
import type { HardwareVendor } from '../../../src/engine/keys/wallet-file'
import { readWitnessFile, verifyWitness } from '../../../src/engine/sign'
import { TrezorConnection } from '../../../src/engine/hardware/trezor-connect'
import { LedgerCardanoAppDouble } from '../hardware/ledger-app-double'
import { CAROL_DEPOSITS, CAROL_LEDGER_KEYS, carol, HOLDER_CHOOSES, HOLDER_CONTRACT } from '../hardware/support'
import { BridgeDouble } from '../hardware/trezor-double/bridge'
import { TrezorModelT } from '../hardware/trezor-double/firmware'
import { deskHarness, restoreSandboxWallet, unreachableNode, type DeskHarness } from './support'

const PAYMENT_PATH = "m/1852'/1815'/0'/0/0"

let online: DeskHarness
let offline: DeskHarness
let bridge: BridgeDouble
let trezorConnect: TrezorConnection
let ledger: LedgerCardanoAppDouble | undefined

beforeAll(async () => {
  bridge = await BridgeDouble.start()
  bridge.plug(new TrezorModelT())
  trezorConnect = new TrezorConnection([bridge.transport()])
  // The device travels between the two machines: both Desks reach the same doubles.
  const hardware = {
    timeoutMs: 60_000,
    openLedger: async () => (ledger = new LedgerCardanoAppDouble({ keys: CAROL_LEDGER_KEYS })),
    openTrezor: () => trezorConnect.open()
  }
  online = await deskHarness({ hardware })
  offline = await deskHarness({ provider: unreachableNode(), hardware })
})
afterAll(async () => {
  await online.close()
  await offline.close()
  await trezorConnect.dispose()
  await bridge.close()
})

describe.each<HardwareVendor>(['ledger', 'trezor'])('signing bundles offline on a %s', (vendor) => {
  let here: WalletSummary
  let there: WalletSummary
  let contractId: string

  beforeAll(async () => {
    // One wallet a key on each Desk: the other vendor's wallet for the same account goes first.
    for (const desk of [online, offline]) {
      for (const w of await desk.ok('wallets.list', {})) {
        await desk.ok('wallets.remove', { walletId: w.id, confirmName: w.name })
      }
    }
    const name = `carol on ${vendor}`
    here = await online.ok('wallets.addHardware', { name, vendor, accountIndex: 0 })
    there = await offline.ok('wallets.addHardware', { name, vendor, accountIndex: 0 })
    expect(there.address).toBe(here.address)
    await online.opened.follower.sync()
  }, 60_000)

  /** The build carried to the offline Desk as a bundle, signed there on the device, and its witness carried back. */
  async function signAway(built: PreparedTx): Promise<void> {
    const bundle = (await online.ok('tx.exportBundle', { txId: built.txId })).text
    await offline.fails('tx.signOfflineWithDevice', { text: bundle, walletId: there.id }, 'NotReviewed')
    const imported = await offline.ok('tx.import', { text: bundle })
    expect(imported).toMatchObject({ txId: built.txId, known: false })
    expect(imported.review.inputs.every((i) => i.resolved)).toBe(true)

    const {
      vendor: shown,
      steps,
      missing
    } = await offline.ok('tx.offlineDeviceSteps', {
      text: bundle,
      walletId: there.id
    })
    expect(shown).toBe(vendor)
    expect(missing).toEqual([])
    expect(steps.filter((s) => s.title.startsWith('Output '))).toHaveLength(built.review.outputs.length)
    expect(steps.find((s) => s.title === 'Fee')?.lines).toEqual([{ label: 'Fee', lovelace: built.review.fee.fee }])
    expect(steps.at(-1)).toEqual({
      title: 'Sign the transaction',
      lines: [{ label: 'With the key at', text: PAYMENT_PATH }]
    })

    const witness = await offline.ok('tx.signOfflineWithDevice', { text: bundle, walletId: there.id })
    expect(witness.fileName).toBe(`${built.txId}.witness.json`)
    const witnesses = readWitnessFile(new TextEncoder().encode(witness.text), 'the witness')
    expect(witnesses).toHaveLength(1)
    expect(witnesses.every((w) => verifyWitness(parseBundle(bundle).tx, w))).toBe(true)
    if (vendor === 'ledger') {
      expect(ledger?.screens.find((s) => s.kind === 'tx-id')?.text).toBe(`Transaction id ${built.txId}`)
    }

    expect(await online.ok('tx.submitWitness', { txId: built.txId, text: witness.text })).toEqual({
      txId: built.txId,
      status: 'submitted'
    })
    await online.opened.follower.sync()
    expect(await online.ok('tx.status', { txId: built.txId })).toEqual({ txId: built.txId, status: 'confirmed' })
  }

  test('create, minting the role token to the wallet', async () => {
    const built = await online.ok('contracts.create', {
      walletId: here.id,
      contractJson: stringifyContract(HOLDER_CONTRACT),
      roles: [{ role: 'Holder', address: carol.address }],
      tags: ['desk.test']
    })
    contractId = built.contractId!
    await signAway(built)
  })

  test('apply as the role’s holder', async () => {
    const built = await online.ok('contracts.apply', {
      walletId: here.id,
      contractId,
      inputsJson: stringifyInputs(HOLDER_CHOOSES)
    })
    expect(built.kind).toBe('apply')
    await signAway(built)
  })

  test('apply as an address party', async () => {
    const built = await online.ok('contracts.apply', {
      walletId: here.id,
      contractId,
      inputsJson: stringifyInputs(CAROL_DEPOSITS)
    })
    await signAway(built)
  })

  test('withdraw the role’s payout', async () => {
    const [payout] = await online.ok('payouts.list', { walletId: here.id })
    const built = await online.ok('payouts.withdraw', { walletId: here.id, payoutIds: [payout!.payoutId] })
    expect(built.kind).toBe('withdraw')
    await signAway(built)
    expect(await online.ok('payouts.list', { walletId: here.id })).toEqual([])
  })
})

describe('the offline Desk’s status', () => {
  test('answers with the node down: its network, its own clock as the chain’s, no tip, and that no node is reachable', async () => {
    const status = await offline.ok('app.status', {})
    expect(status.network).toBe('preprod')
    expect(status.tip).toBeUndefined()
    expect(status.offline).toBe('no preprod node can be reached (connection refused)')
    expect(status.chainTime).toBe(offline.clock.ms)
    const reached = await online.ok('app.status', {})
    expect(reached.offline).toBeUndefined()
    expect(reached.tip?.slot).toBeGreaterThanOrEqual(0n)
  })
})

describe('what the offline Desk refuses before the device', () => {
  test('a hardware wallet through the keystore’s call, a keystore wallet through the device’s, a file that is no tx or has no bundle', async () => {
    const [builder] = await online.ok('wallets.list', {})
    const [device] = await offline.ok('wallets.list', {})
    const built = await online.ok('contracts.create', {
      walletId: builder!.id,
      contractJson: stringifyContract(HOLDER_CONTRACT),
      roles: [{ role: 'Holder', address: carol.address }],
      tags: ['desk.test']
    })
    const bundle = (await online.ok('tx.exportBundle', { txId: built.txId })).text
    await offline.ok('tx.import', { text: bundle })
    const keystore = await offline.fails('tx.signOffline', { text: bundle, walletId: device!.id }, 'HardwareWallet')
    expect(keystore.message).toContain('keeps its keys on a Trezor')
    const alice = await restoreSandboxWallet(offline, 'alice')
    const software = await offline.fails(
      'tx.offlineDeviceSteps',
      { text: bundle, walletId: alice.id },
      'InvalidRequest'
    )
    expect(software.message).toContain('is not a hardware wallet')
    await offline.fails('tx.signOfflineWithDevice', { text: 'hello', walletId: device!.id }, 'InvalidTransaction')
    // The transaction alone: its inputs unread offline, the device is not asked to sign blind.
    const unsigned = (await online.ok('tx.exportUnsigned', { txId: built.txId })).text
    await offline.ok('tx.import', { text: unsigned })
    for (const call of ['tx.offlineDeviceSteps', 'tx.signOfflineWithDevice'] as const) {
      const blind = await offline.fails(call, { text: unsigned, walletId: device!.id }, 'InputsUnknown')
      expect(blind.message).toContain('import its review bundle')
    }
  })

  test('nothing above was an unexpected error', () => {
    expect(online.logged).toEqual([])
    expect(offline.logged).toEqual([])
  })
})
