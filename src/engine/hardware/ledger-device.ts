/**
 * The Ledger Cardano app over a transport: reading the account key once, and signing a request. Every error the
 * app, the OS or the transport gives becomes one of the device states. Status words are the app's
 * (`src/errors.h`, which the app's APDU documentation names for its errors) and the Ledger OS's (@ledgerhq/errors'
 * `StatusCodes`, for the dashboard and the PIN screen, which answer before any app does).
 * The USB transport (node-hid, which needs libusb) is loaded only when a device is asked for, so Desk runs
 * without it.
 */
import Ada, { DeviceStatusError, DeviceVersionUnsupported } from '@cardano-foundation/ledgerjs-hw-app-cardano'
import type { SignTransactionRequest } from '@cardano-foundation/ledgerjs-hw-app-cardano'
import { hexToBytes } from '../../core/bytes'
import { EngineError } from '../errors'
import { accountPath } from './device-plan'
import { deviceStateError, withDeviceTimeout } from './device-states'
import type { DeviceSigned } from './device-witnesses'

export type LedgerTransport = ConstructorParameters<typeof Ada>[0]

/** The app's status words (src/errors.h) and the OS's (@ledgerhq/errors StatusCodes) that name a state. */
const STATUS = {
  /** App: ERR_REJECTED_BY_USER. OS: CONDITIONS_OF_USE_NOT_SATISFIED, a refusal on the device. */
  rejected: [0x6e09, 0x6985],
  /** App: ERR_DEVICE_LOCKED. OS: LOCKED_DEVICE (the PIN screen answers). */
  locked: [0x6e11, 0x5515],
  /** OS: CLA_NOT_SUPPORTED (another app), INS_NOT_SUPPORTED, and 0x6e01 (the dashboard, no app open). */
  wrongApp: [0x6e00, 0x6d00, 0x6e01]
} as const

/** App: the transaction itself refused (ERR_INVALID_STATE, ERR_INVALID_DATA, ERR_REJECTED_BY_POLICY), by why. */
const REFUSALS: ReadonlyMap<number, string> = new Map([
  [0x6e06, 'as out of order'],
  [0x6e07, 'as invalid'],
  [0x6e10, 'by its security policy']
])

/** Opens the first Ledger on USB; node-hid is loaded here, on first use. */
export async function openLedgerUsb(): Promise<LedgerTransport> {
  let TransportNodeHid
  try {
    TransportNodeHid = (await import('@ledgerhq/hw-transport-node-hid')).default
  } catch (e) {
    throw deviceStateError('no-device', 'ledger', ` (USB access is not available here: ${errorText(e)})`)
  }
  try {
    return await TransportNodeHid.open('')
  } catch (e) {
    throw deviceStateError('no-device', 'ledger', ` (${errorText(e)})`)
  }
}

export interface LedgerSession {
  readonly transport: LedgerTransport
  /** How long the device may take to answer, the user's confirmations included. */
  readonly timeoutMs: number
}

/** The account public key ‖ chain code (64 bytes) of m/1852'/1815'/account', after checking the app. */
export async function readLedgerAccount(session: LedgerSession, account: number): Promise<Uint8Array> {
  return onDevice(session, async (ada) => {
    const key = await ada.getExtendedPublicKey({ path: accountPath(account) })
    return hexToBytes(key.publicKeyHex + key.chainCodeHex)
  })
}

export async function signWithLedger(session: LedgerSession, request: SignTransactionRequest): Promise<DeviceSigned> {
  return onDevice(session, async (ada) => {
    const signed = await ada.signTransaction(request)
    return {
      vendor: 'ledger',
      txHashHex: signed.txHashHex,
      signatures: signed.witnesses.map((w) => ({ path: w.path, signatureHex: w.witnessSignatureHex }))
    }
  })
}

/** Runs `work` after checking the app is open and new enough for Plutus transactions in the Conway era. */
async function onDevice<T>(session: LedgerSession, work: (ada: Ada) => Promise<T>): Promise<T> {
  const ada = new Ada(session.transport)
  const run = async (): Promise<T> => {
    const { version, compatibility } = await ada.getVersion()
    if (!compatibility.supportsConway) {
      const found = `${version.major}.${version.minor}.${version.patch}`
      throw deviceStateError(
        'app-too-old',
        'ledger',
        `The Ledger's Cardano app is version ${found}; Plutus transactions with Conway's encoding need ${compatibility.recommendedVersion ?? '7.0'} or later`
      )
    }
    return work(ada)
  }
  try {
    return await withDeviceTimeout('ledger', session.timeoutMs, run(), () => session.transport.close())
  } catch (e) {
    throw ledgerStateError(e)
  } finally {
    await session.transport.close().catch(() => undefined)
  }
}

/** The device state an error from the app, the OS or the transport stands for; other errors as they are. */
export function ledgerStateError(e: unknown): unknown {
  if (e instanceof EngineError) return e
  if (e instanceof DeviceVersionUnsupported) return deviceStateError('app-too-old', 'ledger', e.message)
  if (e instanceof DeviceStatusError) {
    const code = e.code
    if ((STATUS.rejected as readonly number[]).includes(code)) return deviceStateError('rejected', 'ledger')
    if ((STATUS.locked as readonly number[]).includes(code)) return deviceStateError('locked', 'ledger')
    if ((STATUS.wrongApp as readonly number[]).includes(code)) {
      return deviceStateError('wrong-app', 'ledger', `status 0x${code.toString(16)}`)
    }
    const refused = REFUSALS.get(code)
    if (refused !== undefined) {
      return new EngineError(
        'BadRequest',
        'HardwareWalletRefused',
        `The Ledger's Cardano app refused this transaction ${refused} (status 0x${code.toString(16)}): nothing was signed. Desk cannot sign it on this device as it is`,
        { vendor: 'ledger', status: code }
      )
    }
  }
  if (e instanceof Error && (e.name === 'DisconnectedDevice' || e.name === 'DisconnectedDeviceDuringOperation')) {
    return deviceStateError('unplugged', 'ledger')
  }
  return e
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}
