/**
 * The small pieces the desk's answer schemas are made of: ids, hex, JSON values, Marlowe JSON read back, and the
 * core's Marlowe model checked against its decoder.
 */
import { z } from 'zod'
import { JsonDecimal, type JsonObject, type JsonValue } from '../../core/json/lossless'
import {
  MarloweJsonError,
  decodeContract,
  decodeInput,
  decodeMarloweData,
  decodeParty,
  decodePayee,
  decodeState,
  decodeToken,
  encodeContract,
  encodeInput,
  encodeState
} from '../../core/marlowe/json'
import type { Contract, Input, State } from '../../core/marlowe/types'

export const hex = z.string().regex(/^([0-9a-f]{2})*$/, 'not lowercase hex')
export const hexOf = (bytes: number, what: string) =>
  z.string().regex(new RegExp(`^[0-9a-f]{${2 * bytes}}$`), `not ${what} (${2 * bytes} lowercase hex characters)`)
export const txId = hexOf(32, 'a transaction id')
/** Key, script and policy hashes (Blake2b-224). */
export const hash28 = hexOf(28, 'a key or script hash')
/** Datum, data and metadata hashes (Blake2b-256). */
export const hash32 = hexOf(32, 'a hash')
export const outRef = z.string().regex(/^[0-9a-f]{64}#\d{1,5}$/, 'not an output reference (txid#index)')
export const policyId = z.string().regex(/^([0-9a-f]{56})?$/, 'not a policy id (56 lowercase hex characters, or empty)')
export const count = z.int().nonnegative()
export const quantity = z.bigint()
export const natural = z.bigint().nonnegative()
export const sentence = z.string().min(1)
export const txStatus = z.enum(['unsigned', 'submitted', 'confirmed'])
/** ISO-8601 UTC as the engine writes it (more year digits, signed, beyond year 9999). */
export const isoTime = z
  .string()
  .regex(/^(?:\d{4}|[+-]\d{6,})-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{3})?Z$/, 'not an ISO-8601 UTC time')

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof JsonDecimal)

function isJsonValue(v: unknown): v is JsonValue {
  if (v === null || typeof v === 'boolean' || typeof v === 'bigint' || typeof v === 'string') return true
  if (v instanceof JsonDecimal) return true
  if (Array.isArray(v)) return v.every(isJsonValue)
  return isObject(v) && Object.values(v).every(isJsonValue)
}

/** Any value the lossless JSON codec carries (numbers are bigints or decimals, never floats). */
export const jsonValue = z.custom<JsonValue>(isJsonValue, 'not a lossless JSON value')
export const jsonObject = z.custom<JsonObject>((v) => isObject(v) && isJsonValue(v), 'not a JSON object')

/** Marlowe JSON that the core's own decoder reads back (so every part of it is checked, to the leaves). */
function marlowe<T extends JsonValue>(what: string, decode: (v: JsonValue, path: string) => unknown) {
  return z.custom<T>((v) => {
    if (!isJsonValue(v)) return false
    try {
      decode(v, '$')
      return true
    } catch (e) {
      if (e instanceof MarloweJsonError) return false
      throw e
    }
  }, `not a Marlowe ${what} in Runtime JSON`)
}

export const marloweContract = marlowe<JsonValue>('contract', decodeContract)
export const marloweState = marlowe<JsonObject>('state', decodeState)
export const marloweInput = marlowe<JsonValue>('input', decodeInput)
export const marloweData = marlowe<JsonObject>('datum', decodeMarloweData)

const marloweParty = marlowe<JsonObject>('party', decodeParty)
const marloweToken = marlowe<JsonObject>('token', decodeToken)

/** A payment as the semantics report it (`encodePayment`). */
export const marlowePayment = z.strictObject({
  amount: quantity,
  payment_from: marloweParty,
  to: marlowe<JsonObject>('payee', decodePayee),
  token: marloweToken
})

/** Plain data equal to its leaves: the same keys and items, and equal strings, numbers, bigints and booleans. */
function sameData(a: unknown, b: unknown): boolean {
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameData(x, b[i]))
  if (isObject(a)) {
    if (!isObject(b) || Array.isArray(b)) return false
    const keys = Object.keys(a)
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameData(a[k], b[k]))
  }
  return a === b
}

/**
 * A value of the core's Marlowe model (src/core/marlowe/types.ts) that is exactly what the core's decoder reads
 * back from its own encoding: no key missing or extra, no number where a bigint belongs, to the leaves.
 */
function model<T>(what: string, encode: (v: T) => JsonValue, decode: (v: JsonValue, path: string) => T) {
  return z.custom<T>((v) => {
    try {
      return sameData(v, decode(encode(v as T), '$'))
    } catch (e) {
      // Encoding something that is not the model fails on a missing part (TypeError) or yields what the decoder refuses.
      if (e instanceof MarloweJsonError || e instanceof TypeError) return false
      throw e
    }
  }, `not a Marlowe ${what}`)
}

export const contractModel = model<Contract>('contract', encodeContract, decodeContract)
export const stateModel = model<State>('state', encodeState, decodeState)
export const inputModel = model<Input>('input', encodeInput, decodeInput)
