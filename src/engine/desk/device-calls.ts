/**
 * Hardware wallets: adding one (its account key read from the device once), what its device will show for a
 * build, and signing a reviewed build on it. The device signs; the engine checks its signatures against the
 * body hash, splices them in and submits as any other signature. Every device state is the engine's error.
 */
import type { HardwareVendor } from '../../api/contract'
import {
  deviceSteps,
  openLedgerUsb,
  planDeviceSigning,
  readLedgerAccount,
  readTrezorAccount,
  signWithLedger,
  signWithTrezor,
  spliceDeviceWitnesses,
  type DeviceSigningPlan,
  openTrezorUsb,
  type LedgerTransport,
  type TrezorCardano
} from '../hardware'
import type { AccountKey } from '../keys/wallet-file'
import { chainFacts } from './chain-facts'
import type { DeskContext } from './context'
import type { HandlersOf } from './handlers'
import { missingSignatures, nothingToSign, submitSigned, unsignedRow } from './tx-calls'

type DeviceCall = 'wallets.addHardware' | 'tx.deviceSteps' | 'tx.signWithDevice'

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

  async function plan(txId: string, walletId: string): Promise<DeviceSigningPlan & { account: AccountKey }> {
    const row = await ctx.build(txId)
    const { vendor, account } = await keystore.hardwareAccount(walletId)
    const resolved = (await chainFacts(provider, row.unsignedTx)).resolvedInputs
    const planned = await planDeviceSigning({
      tx: row.unsignedTx,
      vendor,
      account,
      network: provider.network,
      resolved
    })
    if (planned.context.witnessPaths.length === 0) throw await nothingToSign(ctx, walletId, txId)
    return { ...planned, account }
  }

  return {
    'wallets.addHardware': async ({ name, vendor, accountIndex }) => {
      const accountXvk = await progress.run('wallets.addHardware', 'Reading the account key from the device', 1, () =>
        readAccount(vendor, accountIndex)
      )
      const added = await keystore.addHardware({ name, vendor, accountIndex, accountXvk })
      return ctx.wallets.summary(added.id)
    },

    'tx.deviceSteps': async ({ txId, walletId }) => {
      const planned = await plan(txId, walletId)
      return { vendor: planned.device.vendor, steps: deviceSteps(planned), missing: [...planned.missing.keys()] }
    },

    'tx.signWithDevice': async ({ txId, walletId }) => {
      const row = unsignedRow(await ctx.build(txId))
      ctx.checkReviewed(row.txId)
      return progress.run('tx.signWithDevice', "Reading the transaction's inputs", 3, async (stage) => {
        const planned = await plan(row.txId, walletId)
        if (planned.missing.size > 0) throw missingSignatures([...planned.missing.keys()])
        stage('Waiting for the confirmation on the device')
        const { device, account } = planned
        const signed =
          device.vendor === 'ledger'
            ? await signWithLedger({ transport: await devices.openLedger(), timeoutMs }, device.request)
            : await signWithTrezor({ connect: await devices.openTrezor(), timeoutMs }, device.request, account)
        const { tx } = spliceDeviceWitnesses(row.unsignedTx, row.txId, account, signed)
        stage('Submitting to the node')
        return submitSigned(ctx, row, tx)
      })
    }
  }
}
