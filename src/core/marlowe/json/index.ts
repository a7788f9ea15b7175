/** Text-level entry points: parse and validate Marlowe JSON documents, and write them back. */
import { parseJson, stringifyJson, type JsonLimits, type JsonValue, type StringifyOptions } from '../../json/lossless'
import type { Contract, Input, MarloweData, State, TransactionInput } from '../types'
import { decodeContract, decodeInputs, decodeMarloweData, decodeState, decodeTransactionInput } from './decode'
import { encodeContract, encodeInput, encodeMarloweData, encodeState, encodeTransactionInput } from './encode'

export { MarloweJsonError, asArray, asInteger, asObject, asString, field, child, index, describe } from './reader'

function parseWith<T>(decode: (v: JsonValue, path: string) => T, path: string) {
  return (text: string, limits?: Partial<JsonLimits>): T => decode(parseJson(text, limits), path)
}

export const parseContract = parseWith(decodeContract, 'contract')
export const parseState = parseWith(decodeState, 'state')
export const parseInputs = parseWith(decodeInputs, 'inputs')
export const parseTransactionInput = parseWith(decodeTransactionInput, 'input')
export const parseMarloweData = parseWith(decodeMarloweData, 'datum')

export function stringifyContract(c: Contract, options?: StringifyOptions): string {
  return stringifyJson(encodeContract(c), options)
}

export function stringifyState(s: State, options?: StringifyOptions): string {
  return stringifyJson(encodeState(s), options)
}

export function stringifyInputs(inputs: readonly Input[], options?: StringifyOptions): string {
  return stringifyJson(inputs.map(encodeInput), options)
}

export function stringifyTransactionInput(t: TransactionInput, options?: StringifyOptions): string {
  return stringifyJson(encodeTransactionInput(t), options)
}

export function stringifyMarloweData(d: MarloweData, options?: StringifyOptions): string {
  return stringifyJson(encodeMarloweData(d), options)
}
export { isHex, MAX_ASSET_NAME_BYTES } from './text'
export {
  decodeAction,
  decodeContract,
  decodeObservation,
  decodeParty,
  decodeToken,
  decodeValue,
  decodeInputs,
  decodeInput,
  decodeMarloweData,
  decodeBound,
  decodeChoiceId,
  decodePayee,
  decodeState
} from './decode'
export {
  encodeNextSteps,
  encodeParty,
  encodeToken,
  encodeTransactionOutput,
  encodeMarloweData,
  type EncodedWhens,
  encodeContract,
  encodeInput,
  encodePayment,
  encodeState,
  encodeTransactionError,
  encodeWarning,
  encodeTransactionInput
} from './encode'
