/**
 * Signing with a hardware wallet, up to the device: which keys of the account the transaction needs (the same
 * analysis the review shows), and the request each vendor's library takes. The caller hands the request to the
 * device and the answer to `spliceDeviceWitnesses`.
 */
import type { CardanoSignTransaction } from '@trezor/connect/lib/types/api/cardano'
import type { SignTransactionRequest } from '@cardano-foundation/ledgerjs-hw-app-cardano'
import type { NetworkName } from '../../chain/provider'
import type { ResolvedOutput } from '../../core/cardano/review'
import { decodeTransaction, type DecodedTx } from '../../core/cardano/tx'
import { DEFAULT_GAP, ownedKeyHashes } from '../keys'
import type { AccountKey, HardwareVendor } from '../keys'
import { neededKeys } from '../sign'
import { deviceNetwork, witnessPaths, type DeviceRequestContext } from './device-plan'
import { ledgerSignRequest } from './ledger-request'
import { trezorSignParams } from './trezor-params'

export type DeviceRequest =
  | { readonly vendor: 'ledger'; readonly request: SignTransactionRequest }
  | { readonly vendor: 'trezor'; readonly request: CardanoSignTransaction }

export interface DeviceSigningPlan {
  readonly tx: DecodedTx
  readonly device: DeviceRequest
  /** The network the request names and the paths of the keys the device signs with. */
  readonly context: DeviceRequestContext
  /** Key hashes the transaction needs that the account does not hold, each with why. */
  readonly missing: ReadonlyMap<string, readonly string[]>
}

export interface DeviceSigningInput {
  readonly tx: Uint8Array
  readonly vendor: HardwareVendor
  readonly account: AccountKey
  readonly network: NetworkName
  /** The outputs the tx spends (inputs and collateral), from the chain or a review bundle. */
  readonly resolved: readonly ResolvedOutput[]
}

export async function planDeviceSigning(input: DeviceSigningInput): Promise<DeviceSigningPlan> {
  const tx = decodeTransaction(input.tx)
  const needed = await neededKeys(input.tx, input.resolved)
  const owned = ownedKeyHashes({ account: input.account }, DEFAULT_GAP)
  const context = { network: deviceNetwork(input.network), witnessPaths: witnessPaths([...needed.keys.keys()], owned) }
  const missing = new Map([...needed.keys].filter(([hash]) => !owned.has(hash)))
  const device: DeviceRequest =
    input.vendor === 'ledger'
      ? { vendor: 'ledger', request: ledgerSignRequest(tx, context) }
      : { vendor: 'trezor', request: trezorSignParams(tx, context) }
  return { tx, device, context, missing }
}
