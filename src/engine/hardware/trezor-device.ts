/**
 * What Trezor Connect answers, in Desk's terms: its failure codes (Connect's `ERRORS` and the device's
 * `Failure_*` messages) as device states, and its signed-transaction payload as device signatures. Connect
 * names a witness by its public key, not its path, so each key is matched to a path Desk asked to sign with.
 */
import type {
  CardanoGetPublicKey,
  CardanoPublicKey,
  CardanoSignedTxData,
  CardanoSignTransaction
} from '@trezor/connect/lib/types/api/cardano'
import type { Unsuccessful } from '@trezor/connect/lib/types/params'
import { bytesToHex, hexToBytes } from '../../core/bytes'
import { EngineError } from '../errors'
import { childPublicKey, type KeyRole } from '../keys'
import type { AccountKey } from '../keys'
import { accountPath } from './device-plan'
import { deviceStateError, withDeviceTimeout, type DeviceState } from './device-states'
import type { DeviceSigned } from './device-witnesses'

/** Connect's error codes and the device's failure codes that name a state. */
const STATES: Readonly<Record<string, DeviceState>> = {
  Device_NotFound: 'no-device',
  Transport_Missing: 'no-device',
  Failure_PinCancelled: 'locked',
  Failure_PinInvalid: 'locked',
  Device_MissingCapability: 'wrong-app',
  Device_MissingCapabilityBtcOnly: 'wrong-app',
  Device_FwException: 'app-too-old',
  Failure_ActionCancelled: 'rejected',
  Method_Cancel: 'rejected',
  Device_Disconnected: 'unplugged'
}

/**
 * Transport failures Connect passes on as their text with no code of their own: Trezor Bridge's and
 * @trezor/transport's words for a device gone mid-call.
 */
const TRANSPORT_STATES: Readonly<Record<string, DeviceState>> = {
  'device disconnected during action': 'unplugged',
  'device not found': 'no-device'
}

/** A failed Connect call (`{ success: false, payload }`) as a device state, or as itself when none fits. */
export function trezorStateError(failure: { readonly error: string; readonly code?: string }): EngineError {
  const state = (failure.code === undefined ? undefined : STATES[failure.code]) ?? TRANSPORT_STATES[failure.error]
  if (state === 'wrong-app')
    return deviceStateError(state, 'trezor', `its firmware has no Cardano support: ${failure.error}`)
  if (state === 'app-too-old')
    return deviceStateError(
      state,
      'trezor',
      `The Trezor's firmware is too old for Cardano Plutus transactions (${failure.error})`
    )
  if (state !== undefined) return deviceStateError(state, 'trezor', ` (${failure.error})`)
  return new EngineError('Unavailable', 'HardwareWalletFailed', `Trezor answered: ${failure.error}`, {
    vendor: 'trezor',
    code: failure.code ?? null
  })
}

const ROLES: readonly KeyRole[] = ['payment', 'change', 'stake']

/** Connect's signed payload as signatures by path: each witness key must be one of `paths` of the account. */
export function trezorSigned(
  payload: CardanoSignedTxData,
  account: AccountKey,
  paths: readonly (readonly number[])[]
): DeviceSigned {
  const byKey = new Map(
    paths.map((path) => [
      bytesToHex(childPublicKey(account.xvk, ROLES[path[3] ?? -1] ?? 'payment', path[4] ?? 0, false)),
      path
    ])
  )
  return {
    vendor: 'trezor',
    txHashHex: payload.hash,
    signatures: payload.witnesses.map((w) => {
      const path = byKey.get(w.pubKey.toLowerCase())
      if (path === undefined) {
        throw new EngineError(
          'Internal',
          'HardwareWalletBadWitness',
          `Trezor returned a signature by key ${w.pubKey}, which is none of the keys Desk asked it to sign with`,
          { pubKey: w.pubKey }
        )
      }
      return { path, signatureHex: w.signature }
    })
  }
}

export type ConnectAnswer<T> = Promise<{ success: true; payload: T } | Unsuccessful>

/** The two Cardano calls of Trezor Connect Desk makes, as Connect answers them. */
export interface TrezorCardano {
  cardanoGetPublicKey(params: CardanoGetPublicKey): ConnectAnswer<CardanoPublicKey>
  cardanoSignTransaction(params: CardanoSignTransaction): ConnectAnswer<CardanoSignedTxData>
  /** Stops the call in progress (Connect's `cancel`), when the device took too long. */
  cancel(): void
}

export interface TrezorSession {
  readonly connect: TrezorCardano
  readonly timeoutMs: number
}

async function answered<T>(session: TrezorSession, call: ConnectAnswer<T>): Promise<T> {
  const answer = await withDeviceTimeout('trezor', session.timeoutMs, call, async () => session.connect.cancel())
  if (!answer.success) throw trezorStateError(answer.payload)
  return answer.payload
}

/** The account public key ‖ chain code (64 bytes) of m/1852'/1815'/account'. */
export async function readTrezorAccount(session: TrezorSession, account: number): Promise<Uint8Array> {
  const key = await answered(session, session.connect.cardanoGetPublicKey({ path: accountPath(account) }))
  return hexToBytes(key.publicKey)
}

export async function signWithTrezor(
  session: TrezorSession,
  params: CardanoSignTransaction,
  account: AccountKey
): Promise<DeviceSigned> {
  const payload = await answered(session, session.connect.cardanoSignTransaction(params))
  return trezorSigned(payload, account, params.additionalWitnessRequests?.filter(isPath) ?? [])
}

const isPath = (p: string | number[]): p is number[] => Array.isArray(p)
