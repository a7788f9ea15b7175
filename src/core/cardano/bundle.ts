/**
 * A review bundle: an unsigned transaction together with everything needed to review it fully on a
 * machine with no network — the outputs it spends and references, the slot ↔ time mapping and the
 * protocol parameters. Made on the online machine, read on the air-gapped one. JSON with exact integers.
 */
import { BytesError, bytesToHex, hexToBytes } from '../bytes'
import {
  isJsonObject,
  JsonSyntaxError,
  parseJson,
  stringifyJson,
  type JsonObject,
  type JsonValue
} from '../json/lossless'
import { asArray, asInteger, asObject, asString, field, MarloweJsonError } from '../marlowe/json'
import type { ResolvedOutput, ReviewProtocolParameters, SlotEra } from './review'
import { txEnvelopeType, type Era } from './tx-envelope'
import type { ScriptLanguage } from './tx'
import type { Value } from './value'

export const BUNDLE_FORMAT = 'marlowe-desk/review-bundle'
export const BUNDLE_VERSION = 1n

export interface ReviewBundle {
  /** The whole transaction, bytes as built. */
  readonly tx: Uint8Array
  readonly era: Era
  /** The network the transaction is for, e.g. "preprod". */
  readonly network: string
  readonly resolvedInputs: readonly ResolvedOutput[]
  readonly eraSummaries: readonly SlotEra[]
  readonly protocolParameters?: ReviewProtocolParameters
  /** ISO 8601: when the online machine read the chain. */
  readonly createdAt: string
}

export class BundleError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'BundleError'
  }
}

const LANGUAGES: readonly ScriptLanguage[] = ['Native', 'PlutusV1', 'PlutusV2', 'PlutusV3']
const COST_MODEL_LANGUAGES = ['PlutusV1', 'PlutusV2', 'PlutusV3'] as const

// ------------------------------------------------------------------ writing

function valueJson(v: Value): JsonObject {
  const assets: JsonObject = {}
  for (const [policy, names] of Object.entries(v.assets)) assets[policy] = { ...names }
  return { lovelace: v.lovelace, assets }
}

function outputJson(o: ResolvedOutput): JsonObject {
  const out: JsonObject = {
    txId: o.ref.txId,
    index: BigInt(o.ref.index),
    address: o.address,
    value: valueJson(o.value)
  }
  if (o.datumHash !== undefined) out['datumHash'] = o.datumHash
  if (o.datum !== undefined) out['datum'] = bytesToHex(o.datum)
  if (o.scriptRef !== undefined)
    out['scriptRef'] = { language: o.scriptRef.language, bytes: bytesToHex(o.scriptRef.bytes) }
  return out
}

function eraJson(e: SlotEra): JsonObject {
  const out: JsonObject = { start: { ...e.start }, slotLength: e.slotLength }
  if (e.end !== undefined) out['end'] = { ...e.end }
  return out
}

function ratioJson(r: { numerator: bigint; denominator: bigint }): JsonObject {
  return { numerator: r.numerator, denominator: r.denominator }
}

function parametersJson(p: ReviewProtocolParameters): JsonObject {
  const out: JsonObject = {}
  if (p.maxTxSize !== undefined) out['maxTxSize'] = BigInt(p.maxTxSize)
  if (p.minFeeA !== undefined) out['minFeeA'] = p.minFeeA
  if (p.minFeeB !== undefined) out['minFeeB'] = p.minFeeB
  if (p.priceMem !== undefined) out['priceMem'] = ratioJson(p.priceMem)
  if (p.priceSteps !== undefined) out['priceSteps'] = ratioJson(p.priceSteps)
  if (p.minFeeRefScriptCostPerByte !== undefined)
    out['minFeeRefScriptCostPerByte'] = ratioJson(p.minFeeRefScriptCostPerByte)
  if (p.collateralPercentage !== undefined) out['collateralPercentage'] = BigInt(p.collateralPercentage)
  if (p.costModels !== undefined) {
    const models: JsonObject = {}
    for (const language of COST_MODEL_LANGUAGES) {
      const model = p.costModels[language]
      if (model !== undefined) models[language] = [...model]
    }
    out['costModels'] = models
  }
  return out
}

export function stringifyBundle(b: ReviewBundle): string {
  const doc: JsonObject = {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    network: b.network,
    createdAt: b.createdAt,
    tx: { type: txEnvelopeType(b.era), description: 'Marlowe Desk review bundle', cborHex: bytesToHex(b.tx) },
    resolvedInputs: b.resolvedInputs.map(outputJson),
    eraSummaries: b.eraSummaries.map(eraJson)
  }
  if (b.protocolParameters !== undefined) doc['protocolParameters'] = parametersJson(b.protocolParameters)
  return `${stringifyJson(doc, { indent: 2 })}\n`
}

// ------------------------------------------------------------------ reading

function hex(v: JsonValue | undefined, path: string): Uint8Array {
  try {
    return hexToBytes(asString(v, path))
  } catch (e) {
    if (e instanceof BytesError) throw new BundleError(`${path}: ${e.message}`)
    throw e
  }
}

function optional(obj: JsonObject, key: string): JsonValue | undefined {
  return Object.hasOwn(obj, key) ? obj[key] : undefined
}

function smallInt(v: JsonValue | undefined, path: string): number {
  const n = asInteger(v, path)
  if (n < 0n || n > BigInt(Number.MAX_SAFE_INTEGER)) throw new BundleError(`${path}: ${n} is out of range`)
  return Number(n)
}

function readValue(v: JsonValue | undefined, path: string): Value {
  const obj = asObject(v, path, 'a value ({"lovelace", "assets"})')
  const assetsObj = asObject(field(obj, 'assets', path), `${path}.assets`, 'an object of policies')
  const assets: Record<string, Record<string, bigint>> = {}
  for (const [policy, names] of Object.entries(assetsObj)) {
    const namesObj = asObject(names, `${path}.assets.${policy}`, 'an object of asset names')
    assets[policy] = Object.fromEntries(
      Object.entries(namesObj).map(([name, q]) => [name, asInteger(q, `${path}.assets.${policy}.${name}`)])
    )
  }
  return { lovelace: asInteger(field(obj, 'lovelace', path), `${path}.lovelace`), assets }
}

function readOutput(v: JsonValue, path: string): ResolvedOutput {
  const obj = asObject(v, path, 'a resolved output')
  const datumHash = optional(obj, 'datumHash')
  const datum = optional(obj, 'datum')
  const scriptRef = optional(obj, 'scriptRef')
  let script: ResolvedOutput['scriptRef']
  if (scriptRef !== undefined) {
    const s = asObject(scriptRef, `${path}.scriptRef`, 'a script reference ({"language", "bytes"})')
    const language = asString(field(s, 'language', `${path}.scriptRef`), `${path}.scriptRef.language`)
    if (!(LANGUAGES as readonly string[]).includes(language)) {
      throw new BundleError(
        `${path}.scriptRef.language: expected one of ${LANGUAGES.join(', ')}, got ${JSON.stringify(language)}`
      )
    }
    script = { language: language as ScriptLanguage, bytes: hex(s['bytes'], `${path}.scriptRef.bytes`) }
  }
  return {
    ref: {
      txId: asString(field(obj, 'txId', path), `${path}.txId`),
      index: smallInt(field(obj, 'index', path), `${path}.index`)
    },
    address: asString(field(obj, 'address', path), `${path}.address`),
    value: readValue(field(obj, 'value', path), `${path}.value`),
    ...(datumHash === undefined ? {} : { datumHash: asString(datumHash, `${path}.datumHash`) }),
    ...(datum === undefined ? {} : { datum: hex(datum, `${path}.datum`) }),
    ...(script === undefined ? {} : { scriptRef: script })
  }
}

function readPoint(v: JsonValue | undefined, path: string): { slot: bigint; time: bigint } {
  const obj = asObject(v, path, 'a point ({"slot", "time"})')
  return {
    slot: asInteger(field(obj, 'slot', path), `${path}.slot`),
    time: asInteger(field(obj, 'time', path), `${path}.time`)
  }
}

function readEra(v: JsonValue, path: string): SlotEra {
  const obj = asObject(v, path, 'an era summary')
  const end = optional(obj, 'end')
  return {
    start: readPoint(field(obj, 'start', path), `${path}.start`),
    ...(end === undefined ? {} : { end: readPoint(end, `${path}.end`) }),
    slotLength: asInteger(field(obj, 'slotLength', path), `${path}.slotLength`)
  }
}

function readRatio(v: JsonValue | undefined, path: string): { numerator: bigint; denominator: bigint } {
  const obj = asObject(v, path, 'a ratio ({"numerator", "denominator"})')
  const denominator = asInteger(field(obj, 'denominator', path), `${path}.denominator`)
  if (denominator <= 0n) throw new BundleError(`${path}.denominator: must be positive`)
  return { numerator: asInteger(field(obj, 'numerator', path), `${path}.numerator`), denominator }
}

function readParameters(v: JsonValue, path: string): ReviewProtocolParameters {
  const obj = asObject(v, path, 'protocol parameters')
  const get = <T>(key: string, read: (x: JsonValue, p: string) => T): { [k: string]: T } => {
    const x = optional(obj, key)
    return x === undefined ? {} : { [key]: read(x, `${path}.${key}`) }
  }
  const costModels = optional(obj, 'costModels')
  const models: Partial<Record<(typeof COST_MODEL_LANGUAGES)[number], bigint[]>> = {}
  if (costModels !== undefined) {
    const m = asObject(costModels, `${path}.costModels`, 'cost models by language')
    for (const language of COST_MODEL_LANGUAGES) {
      const model = optional(m, language)
      if (model !== undefined) {
        models[language] = asArray(model, `${path}.costModels.${language}`).map((x, i) =>
          asInteger(x, `${path}.costModels.${language}[${i}]`)
        )
      }
    }
  }
  return {
    ...get('maxTxSize', smallInt),
    ...get('minFeeA', asInteger),
    ...get('minFeeB', asInteger),
    ...get('priceMem', readRatio),
    ...get('priceSteps', readRatio),
    ...get('minFeeRefScriptCostPerByte', readRatio),
    ...get('collateralPercentage', smallInt),
    ...(costModels === undefined ? {} : { costModels: models })
  }
}

const ERA_OF_TYPE = /^(?:Witnessed |Unwitnessed )?Tx (Shelley|Allegra|Mary|Alonzo|Babbage|Conway|Dijkstra)Era$/

export function parseBundle(text: string): ReviewBundle {
  let doc: JsonValue
  try {
    doc = parseJson(text)
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw new BundleError(`not a review bundle: ${e.message}`)
    throw e
  }
  try {
    if (!isJsonObject(doc) || doc['format'] !== BUNDLE_FORMAT)
      throw new BundleError(`not a review bundle (format is not "${BUNDLE_FORMAT}")`)
    const version = doc['version']
    if (version !== BUNDLE_VERSION)
      throw new BundleError(
        `review bundle version ${String(version)} is not supported (this version reads ${BUNDLE_VERSION})`
      )
    const tx = asObject(field(doc, 'tx', 'bundle'), 'bundle.tx', 'a transaction envelope')
    const type = asString(field(tx, 'type', 'bundle.tx'), 'bundle.tx.type')
    const era = ERA_OF_TYPE.exec(type)?.[1] as Era | undefined
    if (era === undefined) throw new BundleError(`bundle.tx.type: expected "Tx <Era>", got ${JSON.stringify(type)}`)
    const parameters = optional(doc, 'protocolParameters')
    return {
      tx: hex(field(tx, 'cborHex', 'bundle.tx'), 'bundle.tx.cborHex'),
      era,
      network: asString(field(doc, 'network', 'bundle'), 'bundle.network'),
      createdAt: asString(field(doc, 'createdAt', 'bundle'), 'bundle.createdAt'),
      resolvedInputs: asArray(field(doc, 'resolvedInputs', 'bundle'), 'bundle.resolvedInputs').map((o, i) =>
        readOutput(o, `bundle.resolvedInputs[${i}]`)
      ),
      eraSummaries: asArray(field(doc, 'eraSummaries', 'bundle'), 'bundle.eraSummaries').map((e, i) =>
        readEra(e, `bundle.eraSummaries[${i}]`)
      ),
      ...(parameters === undefined
        ? {}
        : { protocolParameters: readParameters(parameters, 'bundle.protocolParameters') })
    }
  } catch (e) {
    if (e instanceof MarloweJsonError) throw new BundleError(e.message)
    throw e
  }
}
