/**
 * The Marlowe datum, redeemer and payout datum as Plutus Data and as CBOR bytes (marlowe-core.md §2).
 *
 * Byte-level decoders throw `PlutusDataError` for malformed CBOR and `PlutusDecodeError` (with the path of
 * the bad node) for well-formed Data of the wrong shape; encoders throw `PlutusEncodeError`. The decoders read
 * the bytes directly; those from a Data tree encode it first.
 */
import type { Contract, Input, MarloweData, PayoutDatum } from '../types'
import { encodePlutusData, type PlutusData } from './data'
import {
  decodeContract,
  decodeMarloweData,
  decodePayoutDatum,
  decodeRedeemer,
  type ContinuationLookup
} from './marlowe-from-data'
import { inputsToRedeemer, marloweDataToPlutusData, payoutDatumToPlutusData } from './marlowe-to-data'

export { PlutusDecodeError } from './data-shape'
export {
  DecodedContracts,
  decodeContract,
  decodeMarloweData,
  decodePayoutDatum,
  decodeRedeemer,
  probeMarloweData,
  probePayoutDatum,
  type ContinuationLookup
} from './marlowe-from-data'
export {
  PlutusEncodeError,
  contractToPlutusData,
  inputsToRedeemer,
  marloweDataToPlutusData,
  payoutDatumToPlutusData
} from './marlowe-to-data'

export function encodeMarloweData(md: MarloweData): Uint8Array {
  return encodePlutusData(marloweDataToPlutusData(md))
}

export function encodeRedeemer(inputs: readonly Input[]): Uint8Array {
  return encodePlutusData(inputsToRedeemer(inputs))
}

export function encodePayoutDatum(datum: PayoutDatum): Uint8Array {
  return encodePlutusData(payoutDatumToPlutusData(datum))
}

export function marloweDataFromPlutusData(d: PlutusData, path = 'datum'): MarloweData {
  return decodeMarloweData(encodePlutusData(d), path)
}

export function contractFromPlutusData(d: PlutusData, path = 'contract'): Contract {
  return decodeContract(encodePlutusData(d), path)
}

export function redeemerToInputs(d: PlutusData, continuations?: ContinuationLookup, path = 'redeemer'): Input[] {
  return decodeRedeemer(encodePlutusData(d), continuations, path)
}

export function payoutDatumFromPlutusData(d: PlutusData, path = 'payoutDatum'): PayoutDatum {
  return decodePayoutDatum(encodePlutusData(d), path)
}
