/**
 * POST /role-tokens/burnTxs: the body is a `RoleTokenFilter`, read as Runtime's aeson instance reads it
 * (`W/Role/TokenFilter.hs`): `true`, `false`, or an object of exactly one key, each set also taken as a single
 * value. Nesting and set sizes are bounded so a hostile body cannot exhaust the stack or the CPU.
 */
import { bytesToHex, utf8Encode } from '../../core/bytes'
import { JsonDecimal, type JsonValue } from '../../core/json/lossless'
import { formatRef } from '../../core/cardano/refs'
import { tokenKey, type RoleTokenFilter } from '../../engine/service'
import { bodyParseError, engineErrorsOnly } from './errors'
import { parseTxOutRef } from './ids'
import { childPath, describeInput } from './problems'

const MAX_DEPTH = 64
const MAX_SET = 1000
const MAX_NAME_BYTES = 32
const POLICY = /^[0-9a-fA-F]{56}$/
const FAILED = 'Parsing RoleTokenFilter failed, '

type JsonObjectLike = { readonly [key: string]: JsonValue }

function fail(where: string, reason: string): never {
  throw bodyParseError({ path: [], where, reason })
}

function isObject(v: JsonValue): v is JsonObjectLike {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonDecimal)
}

/** Runtime's `parseSetOrSingle`: an array is a set, any other value a set of one. */
function setOrSingle<T>(v: JsonValue, where: string, item: (v: JsonValue, where: string) => T): T[] {
  if (!Array.isArray(v)) return [item(v, where)]
  if (v.length > MAX_SET) fail(where, `${FAILED}at most ${MAX_SET} values are accepted, got ${v.length}`)
  return v.map((x, i) => item(x, childPath(where, i)))
}

function text(v: JsonValue, where: string, what: string): string {
  if (typeof v !== 'string') fail(where, `${FAILED}expected ${what}, but encountered ${describeInput(v)}`)
  return v
}

function contractRef(v: JsonValue, where: string): string {
  const ref = parseTxOutRef(text(v, where, 'a contract id'), false)
  if (typeof ref === 'string') fail(where, `${FAILED}${ref}`)
  return formatRef(ref)
}

function policyId(v: JsonValue, where: string): string {
  const s = text(v, where, 'a policy id')
  if (!POLICY.test(s)) fail(where, `${FAILED}expected a policy id of 56 hex digits`)
  return s.toLowerCase()
}

/** Runtime's web `AssetId`: `{"policyId": hex, "assetName": text}`. */
function assetId(v: JsonValue, where: string): string {
  if (!isObject(v))
    fail(where, `${FAILED}expected an object {policyId, assetName}, but encountered ${describeInput(v)}`)
  const policy = policyId(v.policyId ?? null, childPath(where, 'policyId'))
  const name = text(v.assetName ?? null, childPath(where, 'assetName'), 'a token name')
  const bytes = utf8Encode(name)
  if (bytes === undefined || bytes.length > MAX_NAME_BYTES) {
    fail(childPath(where, 'assetName'), `${FAILED}a token name is at most ${MAX_NAME_BYTES} UTF-8 bytes`)
  }
  return tokenKey(policy, bytesToHex(bytes))
}

function pair(v: JsonValue, where: string, depth: number): [RoleTokenFilter, RoleTokenFilter] {
  if (!Array.isArray(v) || v.length !== 2) {
    fail(where, `${FAILED}expected an array of two filters, but encountered ${describeInput(v)}`)
  }
  return [filter(v[0]!, childPath(where, 0), depth + 1), filter(v[1]!, childPath(where, 1), depth + 1)]
}

function filter(v: JsonValue, where: string, depth: number): RoleTokenFilter {
  if (depth > MAX_DEPTH) fail(where, `${FAILED}filters nest at most ${MAX_DEPTH} deep`)
  if (v === true) return { type: 'any' }
  if (v === false) return { type: 'none' }
  if (!isObject(v)) fail(where, `${FAILED}expected object|boolean, but encountered ${describeInput(v)}`)
  const keys = Object.keys(v)
  if (keys.length !== 1) fail(where, `${FAILED}Unexpected number of keys, expected exactly 1.`)
  const key = keys[0]!
  const value = v[key]!
  const at = childPath(where, key)
  switch (key) {
    case 'and': {
      const [left, right] = pair(value, at, depth)
      return { type: 'and', left, right }
    }
    case 'or': {
      const [left, right] = pair(value, at, depth)
      return { type: 'or', left, right }
    }
    case 'not':
      return { type: 'not', filter: filter(value, at, depth + 1) }
    case 'contract_id':
      return { type: 'contracts', contractIds: new Set(setOrSingle(value, at, contractRef)) }
    case 'roles_currency':
      return { type: 'policies', policyIds: new Set(setOrSingle(value, at, policyId)) }
    case 'role_tokens':
      return { type: 'tokens', tokens: new Set(setOrSingle(value, at, assetId)) }
    default:
      return fail(where, `${FAILED}Unexpected key: ${JSON.stringify(key)}`)
  }
}

export function decodeRoleTokenFilter(body: JsonValue): RoleTokenFilter {
  return engineErrorsOnly(() => filter(body, '$', 0))
}
