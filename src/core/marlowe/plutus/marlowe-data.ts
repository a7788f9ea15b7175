/**
 * The Marlowe datum, redeemer and payout datum as Plutus Data and as CBOR bytes (marlowe-core.md §2).
 *
 * Byte-level decoders throw `PlutusDataError` for malformed CBOR and `PlutusDecodeError` (with the path of
 * the bad node) for well-formed Data of the wrong shape; encoders throw `PlutusEncodeError`.
 */
import type { Input, MarloweData, PayoutDatum } from '../types'
import { decodePlutusData, encodePlutusData } from './data'
import {
  marloweDataFromPlutusData,
  payoutDatumFromPlutusData,
  redeemerToInputs,
  type ContinuationLookup
} from './marlowe-from-data'
import { inputsToRedeemer, marloweDataToPlutusData, payoutDatumToPlutusData } from './marlowe-to-data'

export { PlutusDecodeError } from './data-shape'
export {
  contractFromPlutusData,
  marloweDataFromPlutusData,
  payoutDatumFromPlutusData,
  redeemerToInputs,
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

export function decodeMarloweData(bytes: Uint8Array): MarloweData {
  return marloweDataFromPlutusData(decodePlutusData(bytes))
}

export function encodeRedeemer(inputs: readonly Input[]): Uint8Array {
  return encodePlutusData(inputsToRedeemer(inputs))
}

export function decodeRedeemer(bytes: Uint8Array, continuations?: ContinuationLookup): Input[] {
  return redeemerToInputs(decodePlutusData(bytes), continuations)
}

export function encodePayoutDatum(datum: PayoutDatum): Uint8Array {
  return encodePlutusData(payoutDatumToPlutusData(datum))
}

export function decodePayoutDatum(bytes: Uint8Array): PayoutDatum {
  return payoutDatumFromPlutusData(decodePlutusData(bytes))
}
