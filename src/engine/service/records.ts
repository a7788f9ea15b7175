/**
 * What the service keeps about each built transaction (the store's `details` column), as lossless JSON:
 * written once at build time from the builder's result, read back for the resources and for later builds.
 * Marlowe state is kept as the datum's CBOR, the exact bytes on chain, and decoded when needed.
 */
import { hexToBytes } from '../../core/bytes'
import type { Value } from '../../core/cardano/value'
import { isJsonObject, parseJson, stringifyJson, type JsonObject, type JsonValue } from '../../core/json/lossless'
import { toJsonValue } from '../../core/json/plain'
import { decodeInputs, encodeInput } from '../../core/marlowe/json'
import type { Input, TimeInterval } from '../../core/marlowe/types'
import type { ConfirmEffects, RecordColumns } from '../../store/service-store'
import type { ApplyBuild, BuiltPayout, BurnBuild, CreateBuild, SlotTime, WithdrawBuild } from '../build'
import { formatRef } from '../build'
import { EngineError } from '../errors'

export interface PayoutRecord {
  /** `txid#ix` */
  readonly ref: string
  readonly rolesCurrency: string
  readonly role: string
  readonly assets: Value
}

interface Labels {
  readonly tags: JsonObject
  readonly metadata: JsonObject
}

export interface CreateRecord extends Labels {
  readonly kind: 'create'
  readonly datum: Uint8Array
  readonly marloweAddress: string
  readonly payoutAddress: string
  readonly assets: Value
  readonly minUTxODeposit: bigint
  readonly safetyErrors: readonly JsonObject[]
}

export interface ApplyRecord extends Labels {
  readonly kind: 'apply'
  /** The Marlowe UTxO spent, and its datum. */
  readonly input: string
  readonly inputDatum: Uint8Array
  readonly inputs: readonly Input[]
  readonly interval: TimeInterval
  readonly invalidBefore?: SlotTime
  readonly invalidHereafter?: SlotTime
  readonly output?: { readonly ref: string; readonly datum: Uint8Array; readonly assets: Value }
  readonly payouts: readonly PayoutRecord[]
  readonly safetyErrors: readonly JsonObject[]
}

export interface WithdrawRecord {
  readonly kind: 'withdraw'
  readonly payouts: readonly PayoutRecord[]
}

/** A role-token burn: of no contract, it changes nothing the store follows. */
export interface BurnRecord {
  readonly kind: 'burn'
  readonly burned: Value
}

export type TxRecord = CreateRecord | ApplyRecord | WithdrawRecord | BurnRecord

const payoutRecord = (p: BuiltPayout): PayoutRecord => ({
  ref: formatRef(p.ref),
  rolesCurrency: p.rolesCurrency,
  role: p.role,
  assets: p.assets
})

export function createRecord(build: CreateBuild, labels: Labels): CreateRecord {
  return {
    kind: 'create',
    ...labels,
    datum: build.datumBytes,
    marloweAddress: build.marloweAddress,
    payoutAddress: build.payoutAddress,
    assets: build.assets,
    minUTxODeposit: build.minUTxODeposit,
    safetyErrors: build.safetyErrors
  }
}

export function applyRecord(build: ApplyBuild, inputDatum: Uint8Array, labels: Labels): ApplyRecord {
  return {
    kind: 'apply',
    ...labels,
    input: formatRef(build.input),
    inputDatum,
    inputs: build.inputs,
    interval: build.interval,
    ...(build.invalidBefore === undefined ? {} : { invalidBefore: build.invalidBefore }),
    ...(build.invalidHereafter === undefined ? {} : { invalidHereafter: build.invalidHereafter }),
    ...(build.output === undefined
      ? {}
      : { output: { ref: formatRef(build.output.ref), datum: build.output.datumBytes, assets: build.output.assets } }),
    payouts: build.payouts.map(payoutRecord),
    safetyErrors: build.safetyErrors
  }
}

export function withdrawRecord(build: WithdrawBuild): WithdrawRecord {
  return { kind: 'withdraw', payouts: build.payouts.map(payoutRecord) }
}

export function burnRecord(build: BurnBuild): BurnRecord {
  return { kind: 'burn', burned: build.burned }
}

/**
 * What a confirmed transaction does to the stored contracts and payouts, from its record (ours or one read from
 * the chain): a creation opens its contract at its own UTxO; an application moves the contract to its
 * continuation (none: closed) and leaves its role payouts; a withdrawal spends payouts.
 */
export function confirmEffects(record: TxRecord, txId: string, contractId: string): ConfirmEffects {
  switch (record.kind) {
    case 'create':
      return { head: { contractId, utxo: contractId } }
    case 'apply':
      return {
        head: { contractId, utxo: record.output?.ref ?? null },
        newPayouts: record.payouts.map((p) => ({
          payoutId: p.ref,
          contractId,
          txId,
          rolesCurrency: p.rolesCurrency,
          role: p.role,
          assets: stringifyJson(toJsonValue(p.assets))
        }))
      }
    case 'withdraw':
      return { withdrawn: record.payouts.map((p) => p.ref) }
    case 'burn':
      return {}
  }
}

/** What the store keeps beside a record for the lists and lookups that must not read it (see RecordColumns). */
function recordColumns(record: TxRecord): RecordColumns {
  switch (record.kind) {
    case 'create':
      return { tags: stringifyJson(record.tags), metadata: stringifyJson(record.metadata) }
    case 'apply':
      return {
        tags: stringifyJson(record.tags),
        metadata: stringifyJson(record.metadata),
        marloweInput: record.input,
        ...(record.output === undefined ? {} : { marloweOutput: record.output.ref })
      }
    case 'withdraw':
    case 'burn':
      return {}
  }
}

function stringifyRecord(record: TxRecord): string {
  if (record.kind !== 'apply') return stringifyJson(toJsonValue(record))
  return stringifyJson(toJsonValue({ ...record, inputs: record.inputs.map(encodeInput) }))
}

/** A record as the store keeps it: its lossless JSON, and the columns beside it. */
export function storedRecord(record: TxRecord): { readonly details: string; readonly columns: RecordColumns } {
  return { details: stringifyRecord(record), columns: recordColumns(record) }
}

/** A stored record that does not read back is a corrupted store, not a bad request. */
function corrupt(why: string): EngineError {
  return new EngineError('Internal', 'CorruptStore', `a stored transaction record is unreadable: ${why}`)
}

function field(o: JsonObject, key: string): JsonValue {
  if (!Object.hasOwn(o, key)) throw corrupt(`missing ${key}`)
  return o[key] as JsonValue
}

function text(o: JsonObject, key: string): string {
  const v = field(o, key)
  if (typeof v !== 'string') throw corrupt(`${key} is not a string`)
  return v
}

function int(o: JsonObject, key: string): bigint {
  const v = field(o, key)
  if (typeof v !== 'bigint') throw corrupt(`${key} is not an integer`)
  return v
}

function object(o: JsonObject, key: string): JsonObject {
  const v = field(o, key)
  if (!isJsonObject(v)) throw corrupt(`${key} is not an object`)
  return v
}

function list(o: JsonObject, key: string): JsonValue[] {
  const v = field(o, key)
  if (!Array.isArray(v)) throw corrupt(`${key} is not a list`)
  return v
}

function objects(o: JsonObject, key: string): JsonObject[] {
  return list(o, key).map((v) => {
    if (!isJsonObject(v)) throw corrupt(`${key} holds a non-object`)
    return v
  })
}

export function readValue(v: JsonValue): Value {
  if (!isJsonObject(v)) throw corrupt('a value is not an object')
  const assets: Record<string, Record<string, bigint>> = {}
  for (const [policy, names] of Object.entries(object(v, 'assets'))) {
    if (!isJsonObject(names)) throw corrupt('assets are not a map')
    assets[policy] = {}
    for (const [name, q] of Object.entries(names)) {
      if (typeof q !== 'bigint') throw corrupt('an asset quantity is not an integer')
      assets[policy][name] = q
    }
  }
  return { lovelace: int(v, 'lovelace'), assets }
}

function readSlotTime(o: JsonObject, key: string): SlotTime | undefined {
  if (!Object.hasOwn(o, key)) return undefined
  const v = object(o, key)
  return { slot: int(v, 'slot'), time: int(v, 'time') }
}

const readPayout = (p: JsonObject): PayoutRecord => ({
  ref: text(p, 'ref'),
  rolesCurrency: text(p, 'rolesCurrency'),
  role: text(p, 'role'),
  assets: readValue(field(p, 'assets'))
})

const bytesOf = (o: JsonObject, key: string): Uint8Array => hexToBytes(text(o, key))

export function parseRecord(details: string): TxRecord {
  const o = parseJson(details)
  if (!isJsonObject(o)) throw corrupt('not an object')
  const kind = text(o, 'kind')
  if (kind === 'withdraw') return { kind, payouts: objects(o, 'payouts').map(readPayout) }
  if (kind === 'burn') return { kind, burned: readValue(field(o, 'burned')) }
  const labels = { tags: object(o, 'tags'), metadata: object(o, 'metadata') }
  if (kind === 'create') {
    return {
      kind,
      ...labels,
      datum: bytesOf(o, 'datum'),
      marloweAddress: text(o, 'marloweAddress'),
      payoutAddress: text(o, 'payoutAddress'),
      assets: readValue(field(o, 'assets')),
      minUTxODeposit: int(o, 'minUTxODeposit'),
      safetyErrors: objects(o, 'safetyErrors')
    }
  }
  if (kind !== 'apply') throw corrupt(`unknown kind ${kind}`)
  const interval = object(o, 'interval')
  const output = Object.hasOwn(o, 'output') ? object(o, 'output') : undefined
  const invalidBefore = readSlotTime(o, 'invalidBefore')
  const invalidHereafter = readSlotTime(o, 'invalidHereafter')
  return {
    kind,
    ...labels,
    input: text(o, 'input'),
    inputDatum: bytesOf(o, 'inputDatum'),
    inputs: decodeInputs(field(o, 'inputs')),
    interval: { from: int(interval, 'from'), to: int(interval, 'to') },
    ...(invalidBefore === undefined ? {} : { invalidBefore }),
    ...(invalidHereafter === undefined ? {} : { invalidHereafter }),
    ...(output === undefined
      ? {}
      : {
          output: {
            ref: text(output, 'ref'),
            datum: bytesOf(output, 'datum'),
            assets: readValue(field(output, 'assets'))
          }
        }),
    payouts: objects(o, 'payouts').map(readPayout),
    safetyErrors: objects(o, 'safetyErrors')
  }
}
