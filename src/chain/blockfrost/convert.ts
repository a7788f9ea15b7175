/** Blockfrost answers (OpenAPI shapes, parsed losslessly) → the plain data of `ChainProvider`. */
import type { JsonObject, JsonValue } from '../../core/json/lossless'
import type { Value } from '../../core/cardano/value'
import type { ChainTip, EraSummary, ProtocolParameters, Ratio, TxStatus } from '../provider'
import {
  asArray,
  asHex,
  asInteger,
  asNatural,
  asObject,
  asRatio,
  asSmallNatural,
  asString,
  badResponse,
  get,
  optional,
  secondsToMs
} from './shape'

const POLICY_HEX = 56
const MAX_ASSET_NAME_HEX = 64
const UNIT = /^[0-9a-f]+$/

/** `[{unit: 'lovelace', quantity: '…'}, {unit: policyId + assetNameHex, quantity: '…'}]` → `Value`. */
export function toValue(amount: JsonValue | undefined, what: string): Value {
  let lovelace: bigint | undefined
  const assets: Record<string, Record<string, bigint>> = {}
  asArray(amount, what).forEach((entry, i) => {
    const o = asObject(entry, `${what}[${i}]`)
    const unit = asString(get(o, 'unit'), `${what}[${i}].unit`)
    const quantity = asNatural(get(o, 'quantity'), `${what}[${i}].quantity`)
    if (unit === 'lovelace') {
      lovelace = (lovelace ?? 0n) + quantity
      return
    }
    const u = unit.toLowerCase()
    if (!UNIT.test(u) || u.length < POLICY_HEX || u.length > POLICY_HEX + MAX_ASSET_NAME_HEX || u.length % 2 !== 0) {
      throw badResponse(`${what}[${i}].unit`, `${JSON.stringify(unit.slice(0, 140))} is not a policy id and asset name`)
    }
    const policy = u.slice(0, POLICY_HEX)
    const name = u.slice(POLICY_HEX)
    const names = (assets[policy] ??= {})
    names[name] = (names[name] ?? 0n) + quantity
  })
  if (lovelace === undefined) throw badResponse(what, 'no lovelace amount')
  return { lovelace, assets }
}

const LANGUAGES = ['PlutusV1', 'PlutusV2', 'PlutusV3'] as const

/** A cost model as a list in ledger order: `cost_models_raw` has arrays; some backends write `{"0": …, "1": …}`. */
function costModel(v: JsonValue, what: string): bigint[] {
  if (Array.isArray(v)) return v.map((x, i) => asInteger(x, `${what}[${i}]`))
  const o = asObject(v, what)
  const keys = Object.keys(o)
  if (!keys.every((k, i) => k === String(i))) {
    // Named parameters cannot be put in ledger order without the ledger's list of names for each version.
    throw badResponse(what, 'is keyed by parameter names, not in ledger order (is cost_models_raw missing?)')
  }
  return keys.map((k) => asInteger(o[k], `${what}.${k}`))
}

function costModels(p: JsonObject, what: string): ProtocolParameters['costModels'] {
  const raw = optional(p, 'cost_models_raw')
  const source = raw ?? optional(p, 'cost_models')
  const field = raw === undefined ? 'cost_models' : 'cost_models_raw'
  const out: Partial<Record<(typeof LANGUAGES)[number], readonly bigint[]>> = {}
  if (source === undefined) return out
  const models = asObject(source, `${what}.${field}`)
  for (const language of LANGUAGES) {
    const model = optional(models, language)
    if (model !== undefined) out[language] = costModel(model, `${what}.${field}.${language}`)
  }
  return out
}

const ZERO: Ratio = { numerator: 0n, denominator: 1n }

/** `GET /epochs/latest/parameters`. Prices are decimals in JSON and become exact ratios. */
export function toProtocolParameters(json: JsonValue): ProtocolParameters {
  const what = 'epochs/latest/parameters'
  const p = asObject(json, what)
  const req = (key: string): JsonValue => {
    const v = optional(p, key)
    if (v === undefined) throw badResponse(`${what}.${key}`, 'missing')
    return v
  }
  const coinsPerUtxo = optional(p, 'coins_per_utxo_size') ?? optional(p, 'coins_per_utxo_word')
  if (coinsPerUtxo === undefined) throw badResponse(`${what}.coins_per_utxo_size`, 'missing')
  const refScriptFee = optional(p, 'min_fee_ref_script_cost_per_byte')
  return {
    minFeeA: asNatural(req('min_fee_a'), `${what}.min_fee_a`),
    minFeeB: asNatural(req('min_fee_b'), `${what}.min_fee_b`),
    coinsPerUtxoByte: asNatural(coinsPerUtxo, `${what}.coins_per_utxo_size`),
    maxTxSize: asSmallNatural(req('max_tx_size'), `${what}.max_tx_size`),
    maxValueSize: asSmallNatural(req('max_val_size'), `${what}.max_val_size`),
    keyDeposit: asNatural(req('key_deposit'), `${what}.key_deposit`),
    poolDeposit: asNatural(req('pool_deposit'), `${what}.pool_deposit`),
    priceMem: asRatio(req('price_mem'), `${what}.price_mem`),
    priceSteps: asRatio(req('price_step'), `${what}.price_step`),
    minFeeRefScriptCostPerByte:
      refScriptFee === undefined ? ZERO : asRatio(refScriptFee, `${what}.min_fee_ref_script_cost_per_byte`),
    collateralPercentage: asSmallNatural(req('collateral_percent'), `${what}.collateral_percent`),
    maxCollateralInputs: asSmallNatural(req('max_collateral_inputs'), `${what}.max_collateral_inputs`),
    maxTxExUnits: {
      mem: asNatural(req('max_tx_ex_mem'), `${what}.max_tx_ex_mem`),
      steps: asNatural(req('max_tx_ex_steps'), `${what}.max_tx_ex_steps`)
    },
    costModels: costModels(p, what),
    protocolVersion: {
      major: asSmallNatural(req('protocol_major_ver'), `${what}.protocol_major_ver`),
      minor: asSmallNatural(req('protocol_minor_ver'), `${what}.protocol_minor_ver`)
    }
  }
}

/** The ledger era a protocol major version belongs to (hard forks bump it: 9 and 10 are Conway). */
export function eraOfProtocolVersion(major: number): string {
  if (major >= 9) return 'conway'
  if (major >= 7) return 'babbage'
  if (major >= 5) return 'alonzo'
  if (major === 4) return 'mary'
  if (major === 3) return 'allegra'
  if (major === 2) return 'shelley'
  return 'byron'
}

/** `GET /genesis`: slot 0 in POSIX ms, and the network magic. */
export function toGenesis(json: JsonValue): { readonly systemStartMs: bigint; readonly networkMagic: bigint } {
  const g = asObject(json, 'genesis')
  return {
    systemStartMs: secondsToMs(get(g, 'system_start'), 'genesis.system_start'),
    networkMagic: asNatural(get(g, 'network_magic'), 'genesis.network_magic')
  }
}

function bound(json: JsonValue | undefined, systemStartMs: bigint, what: string): { slot: bigint; time: bigint } {
  const o = asObject(json, what)
  return {
    slot: asNatural(get(o, 'slot'), `${what}.slot`),
    time: systemStartMs + secondsToMs(get(o, 'time'), `${what}.time`)
  }
}

/**
 * `GET /network/eras` (times in seconds from the system start) → POSIX ms. The last era's `end` is only the node's
 * forecast horizon, so it is left out as the interface asks; callers bound the current era themselves.
 */
export function toEraSummaries(json: JsonValue, systemStartMs: bigint): EraSummary[] {
  const eras = asArray(json, 'network/eras')
  if (eras.length === 0) throw badResponse('network/eras', 'no eras')
  return eras.map((e, i) => {
    const what = `network/eras[${i}]`
    const era = asObject(e, what)
    const slotLength = secondsToMs(
      get(asObject(get(era, 'parameters'), `${what}.parameters`), 'slot_length'),
      `${what}.parameters.slot_length`
    )
    if (slotLength <= 0n) throw badResponse(`${what}.parameters.slot_length`, 'must be positive')
    const start = bound(get(era, 'start'), systemStartMs, `${what}.start`)
    if (i === eras.length - 1) return { start, slotLength }
    return { start, end: bound(get(era, 'end'), systemStartMs, `${what}.end`), slotLength }
  })
}

/** `GET /blocks/latest`. */
export function toTip(json: JsonValue): ChainTip {
  const b = asObject(json, 'blocks/latest')
  return {
    slot: asNatural(get(b, 'slot'), 'blocks/latest.slot'),
    blockNo: asNatural(get(b, 'height'), 'blocks/latest.height'),
    blockHash: asHex(get(b, 'hash'), 'blocks/latest.hash', 32)
  }
}

/** `GET /txs/{hash}`: the block that holds the transaction. */
export function toConfirmed(json: JsonValue, txId: string): TxStatus {
  const what = `txs/${txId}`
  const t = asObject(json, what)
  return {
    status: 'confirmed',
    block: {
      slot: asNatural(get(t, 'slot'), `${what}.slot`),
      blockNo: asNatural(get(t, 'block_height'), `${what}.block_height`),
      blockHash: asHex(get(t, 'block'), `${what}.block`, 32)
    }
  }
}

/** A 64-hex transaction id from a JSON string answer (`POST /tx/submit`). */
export function toTxId(json: JsonValue, what: string): string {
  return asHex(json, what, 32)
}
