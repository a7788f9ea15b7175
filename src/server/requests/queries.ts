/**
 * Query strings of the GET endpoints (runtime-api.md §3.1, §3.5, §3.11, §3.12) with Runtime's messages.
 * Repeated parameters are sets: duplicates collapse.
 */
import type { z } from 'zod'
import type { TxOutRef } from '../../chain/provider'
import { AddressError, parseShelleyAddress } from '../../core/cardano/address'
import type { Party } from '../../core/marlowe/types'
import { formatRef } from '../../core/cardano/refs'
import { engineErrorsOnly, invalidParameter } from './errors'
import { parseTxOutRef } from './ids'
import { parseWith } from './problems'
import {
  contractSourceQuery,
  contractSourcesQuery,
  contractsQuery,
  nextQuery,
  payoutsQuery,
  withdrawalsQuery
} from './schemas'

/** A role token: policy id (lowercase hex) and token name (text). */
export interface AssetId {
  readonly policyId: string
  readonly assetName: string
}

export interface ContractsQuery {
  readonly roleCurrencies: readonly string[]
  readonly tags: readonly string[]
  readonly partyAddresses: readonly string[]
  readonly partyRoles: readonly AssetId[]
}

export interface WithdrawalsQuery {
  readonly roleCurrencies: readonly string[]
}

export type PayoutStatus = 'available' | 'withdrawn'

export interface PayoutsQuery {
  readonly contractIds: readonly TxOutRef[]
  readonly roleTokens: readonly AssetId[]
  readonly status?: PayoutStatus
}

export interface NextQuery {
  /** POSIX ms */
  readonly validityStart: bigint
  readonly validityEnd: bigint
  /** Empty: no filtering by party. */
  readonly parties: readonly Party[]
}

type Messages = Readonly<Record<string, string>>

/** Hex of any even length: Runtime's `PolicyId` (Base16); "" is ada, i.e. contracts without roles. */
const POLICY_HEX = /^(?:[0-9a-fA-F]{2})*$/

function shape<S extends z.ZodType>(schema: S, query: unknown, messages: Messages): z.output<S> {
  const parsed = parseWith(schema, query ?? {})
  if (parsed.ok) return parsed.value
  const { missingKey, path, reason } = parsed.problem
  const parameter = missingKey ?? String(path[0] ?? '')
  const message = messages[parameter] ?? 'Invalid query string'
  throw invalidParameter(message, parameter, undefined, missingKey === undefined ? reason : 'the parameter is required')
}

/** Why a query value is refused. */
interface Rejected {
  readonly rejected: string
}

const reject = (reason: string): Rejected => ({ rejected: reason })

function isRejected<T>(v: T | Rejected): v is Rejected {
  return typeof v === 'object' && v !== null && Object.hasOwn(v, 'rejected')
}

/** The values of a repeated parameter, converted and deduplicated (by `key`); the first bad one fails. */
function each<T>(
  values: readonly string[] | undefined,
  convert: (value: string) => T | Rejected,
  fail: (value: string, reason: string) => Error,
  key: (value: T) => string
): T[] {
  const out = new Map<string, T>()
  for (const value of values ?? []) {
    const converted = convert(value)
    if (isRejected(converted)) throw fail(value, converted.rejected)
    out.set(key(converted), converted)
  }
  return [...out.values()]
}

const self = (s: string) => s

function policyHex(value: string): string | Rejected {
  return POLICY_HEX.test(value) ? value.toLowerCase() : reject('expected a policy id in hex')
}

function assetId(value: string): AssetId | Rejected {
  const dot = value.indexOf('.')
  if (dot < 0) return reject('expected "<policyId>.<tokenName>"')
  const policyId = policyHex(value.slice(0, dot))
  return isRejected(policyId) ? policyId : { policyId, assetName: value.slice(dot + 1) }
}

const assetKey = (a: AssetId) => `${a.policyId}.${a.assetName}`

function bech32Address(value: string): string | Rejected {
  try {
    parseShelleyAddress(value)
    return value.toLowerCase()
  } catch (e) {
    if (e instanceof AddressError) return reject(e.message)
    throw e
  }
}

function txOutRef(value: string): TxOutRef | Rejected {
  const ref = parseTxOutRef(value, true)
  return typeof ref === 'string' ? reject(ref) : ref
}

const CONTRACTS: Messages = {
  roleCurrency: 'Invalid role currency',
  tag: 'Invalid tag',
  partyAddress: 'Invalid address',
  partyRole: 'Invalid role token'
}

/** GET /contracts */
export function decodeContractsQuery(query: unknown): ContractsQuery {
  return engineErrorsOnly(() => {
    const q = shape(contractsQuery, query, CONTRACTS)
    const fail = (parameter: string) => (value: string, reason: string) =>
      invalidParameter(CONTRACTS[parameter]!, parameter, value, reason)
    return {
      roleCurrencies: each(q.roleCurrency, policyHex, fail('roleCurrency'), self),
      tags: [...new Set(q.tag ?? [])],
      partyAddresses: each(q.partyAddress, bech32Address, fail('partyAddress'), self),
      partyRoles: each(q.partyRole, assetId, fail('partyRole'), assetKey)
    }
  })
}

const WITHDRAWALS: Messages = { roleCurrency: 'Invalid role value' }

/** GET /withdrawals */
export function decodeWithdrawalsQuery(query: unknown): WithdrawalsQuery {
  return engineErrorsOnly(() => {
    const q = shape(withdrawalsQuery, query, WITHDRAWALS)
    const fail = (value: string, reason: string) =>
      invalidParameter(WITHDRAWALS.roleCurrency!, 'roleCurrency', value, reason)
    return { roleCurrencies: each(q.roleCurrency, policyHex, fail, self) }
  })
}

/** Runtime reuses "Invalid contractId value" for a bad roleToken; naming the parameter is clearer. */
const PAYOUTS: Messages = {
  contractId: 'Invalid contractId value',
  roleToken: 'Invalid roleToken value',
  status: 'Invalid status value'
}

/** GET /payouts */
export function decodePayoutsQuery(query: unknown): PayoutsQuery {
  return engineErrorsOnly(() => {
    const q = shape(payoutsQuery, query, PAYOUTS)
    const fail = (parameter: string) => (value: string, reason: string) =>
      invalidParameter(PAYOUTS[parameter]!, parameter, value, reason)
    const status = q.status?.toLowerCase()
    if (status !== undefined && status !== 'available' && status !== 'withdrawn') {
      throw fail('status')(q.status!, 'expected "available" or "withdrawn"')
    }
    return {
      contractIds: each(q.contractId, txOutRef, fail('contractId'), formatRef),
      roleTokens: each(q.roleToken, assetId, fail('roleToken'), assetKey),
      ...(status === undefined ? {} : { status })
    }
  })
}

const NEXT: Messages = {
  validityStart: 'Invalid validityStart value',
  validityEnd: 'Invalid validityEnd value',
  party: 'Invalid parties'
}

/** A role name or a bech32 address, as Runtime reads a `Party`: whatever is not an address is a role. */
function party(value: string): Party {
  const address = bech32Address(value)
  return isRejected(address) ? { type: 'Role', role: value } : { type: 'Address', address }
}

/** GET /contracts/{contractId}/next */
export function decodeNextQuery(query: unknown): NextQuery {
  return engineErrorsOnly(() => {
    const q = shape(nextQuery, query, NEXT)
    const parties = new Map((q.party ?? []).map((v) => party(v)).map((p) => [JSON.stringify(p), p] as const))
    return { validityStart: q.validityStart, validityEnd: q.validityEnd, parties: [...parties.values()] }
  })
}

/** POST /contracts/sources: the label of the main contract. */
export function decodeContractSourcesQuery(query: unknown): { readonly main: string } {
  return engineErrorsOnly(() => shape(contractSourcesQuery, query, { main: 'Invalid main value' }))
}

/** GET /contracts/sources/{contractSourceId}: `expand` is a flag, as Servant's (`?expand` alone is true). */
export function decodeContractSourceQuery(query: unknown): { readonly expand: boolean } {
  return engineErrorsOnly(() => {
    const { expand } = shape(contractSourceQuery, query, { expand: 'Invalid expand value' })
    return { expand: expand === 'true' || expand === '1' || expand === '' }
  })
}
