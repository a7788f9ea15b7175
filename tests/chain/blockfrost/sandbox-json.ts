/**
 * The sandbox's plain data written in Blockfrost's JSON shapes (and Ogmios's, for evaluation), chosen so that the
 * Blockfrost adapter reads every value back exactly: prices as exact decimals, amounts as strings, times in
 * seconds from the system start, reference scripts as `/scripts/{hash}/cbor` serves them.
 */
import type {
  EraSummary,
  ProtocolParameters,
  Ratio,
  RedeemerBudget,
  RedeemerTag,
  ScriptRef,
  Utxo
} from '../../../src/chain/provider'
import {
  asArray,
  asHex,
  asHexBytes,
  asNatural,
  asObject,
  asSmallNatural,
  asString,
  get,
  optional
} from '../../../src/chain/blockfrost/shape'
import { bytesToHex } from '../../../src/core/bytes'
import { encodeByteString } from '../../../src/core/cardano/cbor'
import { blake2b256Hex, LANGUAGE_TAG, scriptHashHex } from '../../../src/core/cardano/tx'
import type { Value } from '../../../src/core/cardano/value'
import { JsonDecimal, type JsonObject, type JsonValue } from '../../../src/core/json/lossless'
import type { ScriptRecord } from './peer'

const EPOCH_LENGTH = 432_000n

/** A ratio as the exact decimal it is (every sandbox price has a power-of-ten denominator). */
function decimal(r: Ratio): JsonValue {
  if (r.denominator === 1n) return r.numerator
  for (let digits = 1; digits <= 40; digits += 1) {
    const scale = 10n ** BigInt(digits)
    if (scale % r.denominator !== 0n) continue
    const text = (r.numerator * (scale / r.denominator)).toString().padStart(digits + 1, '0')
    return new JsonDecimal(`${text.slice(0, -digits)}.${text.slice(-digits)}`)
  }
  throw new Error(`${r.numerator}/${r.denominator} has no exact decimal form`)
}

/** Milliseconds as Blockfrost's seconds (a fraction when they are not whole). */
function seconds(ms: bigint): JsonValue {
  return decimal({ numerator: ms, denominator: 1000n })
}

/** `GET /epochs/latest/parameters`, lovelace amounts and limits as strings as Blockfrost writes them. */
export function parametersJson(p: ProtocolParameters): JsonObject {
  const costModels: JsonObject = {}
  for (const [language, model] of Object.entries(p.costModels)) costModels[language] = [...model]
  return {
    epoch: 0n,
    min_fee_a: p.minFeeA,
    min_fee_b: p.minFeeB,
    max_tx_size: BigInt(p.maxTxSize),
    key_deposit: p.keyDeposit.toString(),
    pool_deposit: p.poolDeposit.toString(),
    protocol_major_ver: BigInt(p.protocolVersion.major),
    protocol_minor_ver: BigInt(p.protocolVersion.minor),
    cost_models_raw: costModels,
    price_mem: decimal(p.priceMem),
    price_step: decimal(p.priceSteps),
    max_tx_ex_mem: p.maxTxExUnits.mem.toString(),
    max_tx_ex_steps: p.maxTxExUnits.steps.toString(),
    max_val_size: String(p.maxValueSize),
    collateral_percent: BigInt(p.collateralPercentage),
    max_collateral_inputs: BigInt(p.maxCollateralInputs),
    coins_per_utxo_size: p.coinsPerUtxoByte.toString(),
    coins_per_utxo_word: p.coinsPerUtxoByte.toString(),
    min_fee_ref_script_cost_per_byte: decimal(p.minFeeRefScriptCostPerByte)
  }
}

/** `GET /network/eras`; the current era ends at a horizon one epoch on, as a node's forecast would. */
export function erasJson(eras: readonly EraSummary[], systemStartMs: bigint): JsonValue {
  const bound = (slot: bigint, time: bigint): JsonObject => ({
    time: seconds(time - systemStartMs),
    slot,
    epoch: slot / EPOCH_LENGTH
  })
  return eras.map((era) => {
    const end = era.end ?? {
      slot: era.start.slot + EPOCH_LENGTH,
      time: era.start.time + EPOCH_LENGTH * era.slotLength
    }
    return {
      start: bound(era.start.slot, era.start.time),
      end: bound(end.slot, end.time),
      parameters: { epoch_length: EPOCH_LENGTH, slot_length: seconds(era.slotLength), safe_zone: 129_600n }
    }
  })
}

export function genesisJson(systemStartMs: bigint): JsonObject {
  return {
    active_slots_coefficient: new JsonDecimal('0.05'),
    update_quorum: 5n,
    max_lovelace_supply: '45000000000000000',
    network_magic: 42n,
    epoch_length: EPOCH_LENGTH,
    system_start: seconds(systemStartMs),
    slots_per_kes_period: 129_600n,
    slot_length: 1n,
    max_kes_evolutions: 62n,
    security_param: 2160n
  }
}

function amountJson(value: Value): JsonObject[] {
  const assets = Object.entries(value.assets).flatMap(([policy, names]) =>
    Object.entries(names).map(([name, quantity]) => ({ unit: policy + name, quantity: quantity.toString() }))
  )
  return [{ unit: 'lovelace', quantity: value.lovelace.toString() }, ...assets]
}

export function scriptHashOf(script: ScriptRef): string {
  return scriptHashHex(LANGUAGE_TAG[script.language], script.bytes)
}

const SCRIPT_TYPES = { PlutusV1: 'plutusV1', PlutusV2: 'plutusV2', PlutusV3: 'plutusV3' } as const

/** What `/scripts/{hash}` and its `/cbor` serve: a Plutus script wrapped in one more byte string, as Blockfrost does. */
export function scriptRecord(script: ScriptRef): ScriptRecord {
  if (script.language === 'Native') throw new Error('the sandbox peer serves Plutus reference scripts only')
  const served = encodeByteString(script.bytes)
  return { type: SCRIPT_TYPES[script.language], cbor: bytesToHex(served) }
}

/** The datum and script fields shared by both output shapes; Blockfrost gives inline datums their hash too. */
function outputFields(u: Utxo): JsonObject {
  const inline = u.datumHash === undefined && u.datum !== undefined
  return {
    address: u.address,
    amount: amountJson(u.value),
    output_index: BigInt(u.ref.index),
    data_hash: u.datumHash ?? (u.datum === undefined ? null : blake2b256Hex(u.datum)),
    inline_datum: inline && u.datum !== undefined ? bytesToHex(u.datum) : null,
    reference_script_hash: u.scriptRef === undefined ? null : scriptHashOf(u.scriptRef)
  }
}

/** An output of `GET /txs/{h}/utxos` (unspent: `consumed_by_tx` is null). */
export function txOutputJson(u: Utxo): JsonObject {
  return { ...outputFields(u), collateral: false, consumed_by_tx: null }
}

/** An item of `GET /addresses/{a}/utxos`, in the block `block` (its hash). */
export function addressUtxoJson(u: Utxo, block: string): JsonObject {
  return { ...outputFields(u), tx_hash: u.ref.txId, tx_index: BigInt(u.ref.index), block }
}

const PURPOSES: Readonly<Record<RedeemerTag, string>> = {
  spend: 'spend',
  mint: 'mint',
  cert: 'publish',
  reward: 'withdraw',
  vote: 'vote',
  propose: 'propose'
}

/** Ogmios v6's `evaluateTransaction` answer, as Blockfrost relays it. */
export function evaluationJson(budgets: readonly RedeemerBudget[]): JsonObject {
  return {
    jsonrpc: '2.0',
    method: 'evaluateTransaction',
    result: budgets.map((b) => ({
      validator: { index: BigInt(b.index), purpose: PURPOSES[b.tag] },
      budget: { memory: b.exUnits.mem, cpu: b.exUnits.steps }
    })),
    id: null
  }
}

/** Ogmios v6's answer when the scripts fail (code 3010), the evaluator's words as its message. */
export function evaluationFailureJson(reason: string): JsonObject {
  return { jsonrpc: '2.0', method: 'evaluateTransaction', error: { code: 3010n, message: reason, data: [] }, id: null }
}

const PLUTUS_KEYS: Readonly<Record<string, ScriptRef['language']>> = {
  'plutus:v1': 'PlutusV1',
  'plutus:v2': 'PlutusV2',
  'plutus:v3': 'PlutusV3'
}

function scriptFromV5(json: JsonValue | undefined, what: string): ScriptRef | undefined {
  if (json === undefined) return undefined
  const [entry, ...more] = Object.entries(asObject(json, what))
  const language = entry === undefined ? undefined : PLUTUS_KEYS[entry[0]]
  if (entry === undefined || language === undefined || more.length > 0) throw new Error(`${what}: not a Plutus script`)
  return { language, bytes: asHexBytes(entry[1], `${what}.${entry[0]}`) }
}

function valueFromV5(json: JsonValue | undefined, what: string): Value {
  const o = asObject(json, what)
  const assets: Record<string, Record<string, bigint>> = {}
  for (const [unit, quantity] of Object.entries(asObject(optional(o, 'assets') ?? {}, `${what}.assets`))) {
    const [policy = '', name = ''] = unit.split('.')
    const names = (assets[policy] ??= {})
    names[name] = asNatural(quantity, `${what}.assets.${unit}`)
  }
  return { lovelace: asNatural(get(o, 'coins'), `${what}.coins`), assets }
}

/** The `additionalUtxoSet` of `/utils/txs/evaluate/utxos` (Ogmios v5 TxIn/TxOut pairs) back to `Utxo`s. */
export function additionalUtxos(json: JsonValue | undefined): Utxo[] {
  if (json === undefined) return []
  return asArray(json, 'additionalUtxoSet').map((pair, i) => {
    const what = `additionalUtxoSet[${i}]`
    const [input, output] = asArray(pair, what)
    const ref = asObject(input, `${what}[0]`)
    const out = asObject(output, `${what}[1]`)
    const datumHash = optional(out, 'datumHash')
    const datum = optional(out, 'datum')
    const scriptRef = scriptFromV5(optional(out, 'script'), `${what}[1].script`)
    return {
      ref: {
        txId: asHex(get(ref, 'txId'), `${what}[0].txId`, 32),
        index: asSmallNatural(get(ref, 'index'), `${what}[0].index`)
      },
      address: asString(get(out, 'address'), `${what}[1].address`),
      value: valueFromV5(get(out, 'value'), `${what}[1].value`),
      ...(datumHash === undefined ? {} : { datumHash: asHex(datumHash, `${what}[1].datumHash`, 32) }),
      ...(datumHash === undefined && datum !== undefined ? { datum: asHexBytes(datum, `${what}[1].datum`) } : {}),
      ...(scriptRef === undefined ? {} : { scriptRef })
    }
  })
}
