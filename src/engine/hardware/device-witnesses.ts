/**
 * What a device returns, made into the transaction's witnesses: the device's body hash must be Desk's (else it
 * rebuilt another body, and its signatures sign that one), each signature's key is derived from the account
 * key read from the device before (a path outside the account is refused), and each witness is verified against
 * the body hash and spliced in by the same assembly as any other witness: the body bytes never change.
 */
import { hexToBytes } from '../../core/bytes'
import { vkeyWitnessOf, type VkeyWitness } from '../../core/cardano/witnesses'
import { EngineError } from '../errors'
import { childPublicKey, type KeyRole } from '../keys'
import type { AccountKey, HardwareVendor } from '../keys'
import { assembleTransaction } from '../sign'
import { accountPath, VENDOR_NAME } from './device-plan'

export interface DeviceSignature {
  readonly path: readonly number[]
  /** 64 bytes, hex. */
  readonly signatureHex: string
}

export interface DeviceSigned {
  readonly vendor: HardwareVendor
  /** The hash of the body the device serialised, hex. */
  readonly txHashHex: string
  readonly signatures: readonly DeviceSignature[]
}

const ROLES: readonly KeyRole[] = ['payment', 'change', 'stake']

export function spliceDeviceWitnesses(
  tx: Uint8Array,
  txId: string,
  account: AccountKey,
  signed: DeviceSigned
): { tx: Uint8Array; witnesses: VkeyWitness[] } {
  const vendor = VENDOR_NAME[signed.vendor]
  if (signed.txHashHex.toLowerCase() !== txId) {
    throw new EngineError(
      'Internal',
      'HardwareWalletBodyMismatch',
      `${vendor} signed a body whose hash is ${signed.txHashHex}, not this transaction's ${txId}: the device rebuilt it differently, so its signatures are refused`,
      { vendor: signed.vendor, deviceHash: signed.txHashHex, txId }
    )
  }
  const witnesses = signed.signatures.map((s) =>
    vkeyWitnessOf(publicKeyAt(account, s.path, vendor), hexToBytes(s.signatureHex))
  )
  return { tx: assembleTransaction(tx, witnesses).tx, witnesses }
}

function publicKeyAt(account: AccountKey, path: readonly number[], vendor: string): Uint8Array {
  const prefix = accountPath(account.index)
  const role = ROLES[path[3] ?? -1]
  const index = path[4]
  if (path.length !== 5 || prefix.some((n, i) => path[i] !== n) || role === undefined || index === undefined) {
    throw new EngineError(
      'Internal',
      'HardwareWalletBadWitness',
      `${vendor} returned a signature for path ${path.join('/')}, which is not a key of account ${account.index}`,
      { path: [...path] }
    )
  }
  return childPublicKey(account.xvk, role, index, false)
}
