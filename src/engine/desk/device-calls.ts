/**
 * Hardware wallets: adding one (its account key read from the device once), what its device will show for a
 * build, and signing a reviewed build on it (then submitted) or an imported file (then a witness file, as any
 * offline signature). The device signs; the engine checks its signatures against the
 * body hash, splices them in and submits as any other signature. Every device state is the engine's error.
 */
import type { DeskResponse, HardwareVendor } from '../../api/contract'
import {
  deviceSteps,
  openLedgerUsb,
  planDeviceSigning,
  readLedgerAccount,
  readTrezorAccount,
  signWithLedger,
  signWithTrezor,
  spliceDeviceWitnesses,
  type DeviceSigningInput,
  type DeviceSigningPlan,
  openTrezorUsb,
  type LedgerTransport,
  type TrezorCardano
} from '../hardware'
import { formatRef } from '../../core/cardano/refs'
import type { AccountKey } from '../keys'
import { loadedNetwork, type LoadedTx } from '../offline-tx'
import { readImportedOffThread } from '../worker'
import { chainFacts, importedFacts } from './chain-facts'
import type { DeskContext } from './context'
import { deskFailure } from './errors'
import type { HandlersOf } from './handlers'
import { missingSignatures, nothingToSign, submitSigned, unsignedRow, witnessFile } from './tx-calls'

type DeviceCall =
  'wallets.addHardware' | 'tx.deviceSteps' | 'tx.signWithDevice' | 'tx.offlineDeviceSteps' | 'tx.signOfflineWithDevice'

type Planned = DeviceSigningPlan & { readonly account: AccountKey }

/** How Desk reaches the devices: USB (and Trezor Bridge) in the app; the tests' transport doubles. */
export interface HardwareDevices {
  /** How long a device may take to answer, the user's confirmations included. */
  readonly timeoutMs: number
  openLedger(): Promise<LedgerTransport>
  openTrezor(): Promise<TrezorCardano>
}

/** A person reads every screen of a Plutus transaction before confirming: minutes, not seconds. */
const DEVICE_TIMEOUT_MS = 5 * 60_000

export const USB_DEVICES: HardwareDevices = {
  timeoutMs: DEVICE_TIMEOUT_MS,
  openLedger: openLedgerUsb,
  openTrezor: openTrezorUsb
}

export function deviceCalls(ctx: DeskContext, devices: HardwareDevices): HandlersOf<DeviceCall> {
  const { keystore, provider, progress } = ctx
  const { timeoutMs } = devices

  async function readAccount(vendor: HardwareVendor, accountIndex: number): Promise<Uint8Array> {
    return vendor === 'ledger'
      ? readLedgerAccount({ transport: await devices.openLedger(), timeoutMs }, accountIndex)
      : readTrezorAccount({ connect: await devices.openTrezor(), timeoutMs }, accountIndex)
  }

  /** The device request for `tx`, refused before the device when the wallet holds none of the keys it needs. */
  /**
   * The device request for `tx`, refused before the device when the wallet holds none of the keys it needs —
   * or, when some spent outputs could not be read (`unread`), when which of its keys they need is unknown.
   */
  async function plan(
    walletId: string,
    txId: string,
    input: Pick<DeviceSigningInput, 'tx' | 'network' | 'resolved'>
  ): Promise<Planned> {
    const { vendor, account } = await keystore.hardwareAccount(walletId)
    const planned = await planDeviceSigning({ ...input, vendor, account })
    if (planned.context.witnessPaths.length > 0) return { ...planned, account }
    const { body } = planned.tx
    const read = new Set(input.resolved.map((o) => formatRef(o.ref)))
    if ([...body.inputs, ...body.collateral].some((ref) => !read.has(formatRef(ref)))) {
      throw deskFailure(
        'BadRequest',
        'InputsUnknown',
        `the outputs transaction ${txId} spends cannot be read here, so which keys must sign it is unknown: import its review bundle (Export the review bundle on the Desk that built it) to sign it on the device`,
        { txId }
      )
    }
    throw await nothingToSign(ctx, walletId, txId)
  }

  async function planBuild(txId: string, walletId: string): Promise<Planned> {
    const row = await ctx.build(txId)
    const resolved = (await chainFacts(provider, row.unsignedTx)).resolvedInputs
    return plan(walletId, row.txId, { tx: row.unsignedTx, network: provider.network, resolved })
  }

  /** An imported file signs for the network its bundle names, with the inputs the bundle (or a chain) resolves. */
  async function planImported(loaded: LoadedTx, walletId: string): Promise<Planned> {
    const resolved = (await importedFacts(provider, loaded))?.resolvedInputs ?? []
    return plan(walletId, loaded.txId, { tx: loaded.tx, network: loadedNetwork(loaded, provider.network), resolved })
  }

  /** The device's signatures, verified against the body hash, with the transaction they are spliced into. */
  async function signOnDevice(
    planned: Planned,
    tx: Uint8Array,
    txId: string
  ): Promise<ReturnType<typeof spliceDeviceWitnesses>> {
    const { device, account } = planned
    const signed =
      device.vendor === 'ledger'
        ? await signWithLedger({ transport: await devices.openLedger(), timeoutMs }, device.request)
        : await signWithTrezor({ connect: await devices.openTrezor(), timeoutMs }, device.request, account)
    return spliceDeviceWitnesses(tx, txId, account, signed)
  }

  const stepsOf = (planned: Planned): DeskResponse<'tx.deviceSteps'> => ({
    vendor: planned.device.vendor,
    steps: deviceSteps(planned),
    missing: [...planned.missing.keys()]
  })

  return {
    'wallets.addHardware': async ({ name, vendor, accountIndex }) => {
      const accountXvk = await progress.run('wallets.addHardware', 'Reading the account key from the device', 1, () =>
        readAccount(vendor, accountIndex)
      )
      const added = await keystore.addHardware({ name, vendor, accountIndex, accountXvk })
      return ctx.wallets.summary(added.id)
    },

    'tx.deviceSteps': async ({ txId, walletId }) => stepsOf(await planBuild(txId, walletId)),

    'tx.signWithDevice': async ({ txId, walletId }) => {
      const row = unsignedRow(await ctx.build(txId))
      ctx.checkReviewed(row.txId)
      return progress.run('tx.signWithDevice', "Reading the transaction's inputs", 3, async (stage) => {
        const planned = await planBuild(row.txId, walletId)
        if (planned.missing.size > 0) throw missingSignatures([...planned.missing.keys()])
        stage('Waiting for the confirmation on the device')
        const { tx } = await signOnDevice(planned, row.unsignedTx, row.txId)
        stage('Submitting to the node')
        return submitSigned(ctx, row, tx)
      })
    },

    'tx.offlineDeviceSteps': async ({ text, walletId }) =>
      stepsOf(await planImported(await readImportedOffThread(text), walletId)),

    // The witness of the keys this account holds; others the transaction needs are collected elsewhere, as offline.
    'tx.signOfflineWithDevice': async ({ text, walletId }) => {
      const loaded = await readImportedOffThread(text)
      ctx.checkReviewed(loaded.txId)
      return progress.run('tx.signOfflineWithDevice', "Reading the transaction's inputs", 2, async (stage) => {
        const planned = await planImported(loaded, walletId)
        stage('Waiting for the confirmation on the device')
        return witnessFile(loaded, (await signOnDevice(planned, loaded.tx, loaded.txId)).witnesses)
      })
    }
  }
}
