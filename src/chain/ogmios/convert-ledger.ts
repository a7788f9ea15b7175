/**
 * Ledger-state answers of Ogmios v6 into the plain types of `ChainProvider`: protocol parameters, era summaries,
 * tips, evaluation budgets. Amounts stay bigints from the lossless parser; ratios are Ogmios' exact "n/d" text.
 */
import type {
  Bound,
  EraSummary as OgmiosEraSummary,
  EvaluateTransactionSuccess,
  ExecutionUnits,
  Point,
  ProtocolParameters as OgmiosParams,
  RedeemerPointer,
  ScriptExecutionPrices,
  SlotLength,
  ValueAdaOnly
} from '@cardano-ogmios/schema'
import type { JsonValue } from '../../core/json/lossless'
import { decimalRatio as coreDecimalRatio, reduceRatio } from '../../core/ratio'
import type { EraSummary, ExUnits, ProtocolParameters, Ratio, RedeemerBudget, RedeemerTag } from '../provider'
import { array, Fields, integer, natural, numberText, object, ShapeError, string } from '../json-shape'

/** Ogmios' `Ratio`, the text "numerator/denominator". */
export function toRatio(v: JsonValue | undefined, path: string): Ratio {
  const match = /^(\d+)\/(\d+)$/.exec(string(v, path))
  if (match === null || BigInt(match[2]!) === 0n) throw new ShapeError(path, 'a ratio "n/d" with d > 0')
  return reduceRatio(BigInt(match[1]!), BigInt(match[2]!))
}

/** A JSON number as an exact ratio (15 → 15/1, 44.5 → 89/2, 1.5e-3 → 3/2000). */
export function decimalRatio(v: JsonValue | undefined, path: string): Ratio {
  const ratio = coreDecimalRatio(numberText(v, path))
  if (ratio === undefined) throw new ShapeError(path, 'a non-negative number')
  return ratio
}

function lovelace(value: Fields<ValueAdaOnly>): bigint {
  return value.fields<ValueAdaOnly['ada']>('ada').natural('lovelace')
}

type Size = { bytes: bigint }

export function toExUnits(units: Fields<ExecutionUnits>): ExUnits {
  return { mem: units.natural('memory'), steps: units.natural('cpu') }
}

const COST_MODEL_LANGUAGES = { 'plutus:v1': 'PlutusV1', 'plutus:v2': 'PlutusV2', 'plutus:v3': 'PlutusV3' } as const

function costModels(v: JsonValue | undefined, path: string): ProtocolParameters['costModels'] {
  const out: Partial<Record<'PlutusV1' | 'PlutusV2' | 'PlutusV3', readonly bigint[]>> = {}
  if (v === undefined) return out
  for (const [language, model] of Object.entries(object(v, path))) {
    // A language this app does not know yet (a future Plutus) is left out rather than failing every query.
    if (!Object.hasOwn(COST_MODEL_LANGUAGES, language)) continue
    const name = COST_MODEL_LANGUAGES[language as keyof typeof COST_MODEL_LANGUAGES]
    out[name] = array(model, `${path}.${language}`).map((x, i) => integer(x, `${path}.${language}[${i}]`))
  }
  return out
}

/**
 * `queryLedgerState/protocolParameters`. The Plutus parameters are optional in Ogmios' schema (eras before
 * Alonzo) but required here; the reference-script fee only exists since Conway and is 0 before.
 */
export function toProtocolParameters(v: JsonValue, path = 'result'): ProtocolParameters {
  const p = Fields.of<OgmiosParams>(v, path)
  const prices = p.fields<ScriptExecutionPrices>('scriptExecutionPrices')
  const version = p.fields<OgmiosParams['version']>('version')
  return {
    minFeeA: p.natural('minFeeCoefficient'),
    minFeeB: lovelace(p.fields('minFeeConstant')),
    coinsPerUtxoByte: p.natural('minUtxoDepositCoefficient'),
    maxTxSize: p.fields<Size>('maxTransactionSize').smallNatural('bytes'),
    maxValueSize: p.fields<Size>('maxValueSize').smallNatural('bytes'),
    keyDeposit: lovelace(p.fields('stakeCredentialDeposit')),
    poolDeposit: lovelace(p.fields('stakePoolDeposit')),
    priceMem: toRatio(prices.get('memory'), prices.at('memory')),
    priceSteps: toRatio(prices.get('cpu'), prices.at('cpu')),
    minFeeRefScriptCostPerByte: refScriptFee(p.opt('minFeeReferenceScripts'), p.at('minFeeReferenceScripts')),
    collateralPercentage: p.smallNatural('collateralPercentage'),
    maxCollateralInputs: p.smallNatural('maxCollateralInputs'),
    maxTxExUnits: toExUnits(p.fields('maxExecutionUnitsPerTransaction')),
    costModels: costModels(p.opt('plutusCostModels'), p.at('plutusCostModels')),
    protocolVersion: { major: version.smallNatural('major'), minor: version.smallNatural('minor') }
  }
}

/** The base fee per byte of reference scripts (a plain number in Ogmios, e.g. 15 or 44.5). */
function refScriptFee(v: JsonValue | undefined, path: string): Ratio {
  if (v === undefined) return { numerator: 0n, denominator: 1n }
  const fee = Fields.of<NonNullable<OgmiosParams['minFeeReferenceScripts']>>(v, path)
  return decimalRatio(fee.get('base'), fee.at('base'))
}

/** `queryNetwork/startTime`: an ISO 8601 UTC time, as POSIX milliseconds. */
export function toStartTime(v: JsonValue, path = 'result'): bigint {
  const ms = Date.parse(string(v, path))
  if (Number.isNaN(ms)) throw new ShapeError(path, 'a UTC time')
  return BigInt(ms)
}

/** Relative seconds (an integer, or a decimal with at most millisecond precision) as milliseconds. */
function secondsToMs(v: JsonValue | undefined, path: string): bigint {
  const { numerator, denominator } = decimalRatio(v, path)
  if ((numerator * 1000n) % denominator !== 0n) throw new ShapeError(path, 'seconds with at most millisecond precision')
  return (numerator * 1000n) / denominator
}

function toBound(bound: Fields<Bound>, startTime: bigint): EraSummary['start'] {
  const time = bound.fields<Bound['time']>('time')
  return { slot: bound.natural('slot'), time: startTime + secondsToMs(time.get('seconds'), time.at('seconds')) }
}

/**
 * `queryLedgerState/eraSummaries` with the network's start time. The current era keeps the `end` Ogmios gives
 * it: that is the node's safe horizon for slot ↔ time conversions, which `SlotClock` honours.
 */
export function toEraSummaries(v: JsonValue, startTime: bigint, path = 'result'): EraSummary[] {
  const eras = array(v, path)
  if (eras.length === 0) throw new ShapeError(path, 'at least one era')
  return eras.map((era, i) => {
    const summary = Fields.of<OgmiosEraSummary>(era, `${path}[${i}]`)
    const slotLength = summary.fields<OgmiosEraSummary['parameters']>('parameters').fields<SlotLength>('slotLength')
    const ms = slotLength.natural('milliseconds')
    if (ms === 0n) throw new ShapeError(slotLength.at('milliseconds'), 'a positive slot length')
    const end = summary.opt('end')
    return {
      start: toBound(summary.fields('start'), startTime),
      ...(end === undefined ? {} : { end: toBound(Fields.of(end, summary.at('end')), startTime) }),
      slotLength: ms
    }
  })
}

/** Hard-fork-combinator eras in order: an era summary list always starts at Byron, so its length names the era. */
const ERAS = ['byron', 'shelley', 'allegra', 'mary', 'alonzo', 'babbage', 'conway', 'dijkstra'] as const

export function eraOfSummaries(count: number, path = 'result'): string {
  const era = ERAS[count - 1]
  if (era === undefined) throw new ShapeError(path, `between 1 and ${ERAS.length} era summaries, not ${count}`)
  return era
}

/** A `Point` (slot and block hash); `origin` when the node has no block yet. */
export function toPoint(v: JsonValue, path = 'result'): { slot: bigint; id: string } | 'origin' {
  if (v === 'origin') return 'origin'
  const point = Fields.of<Point>(v, path)
  return { slot: point.natural('slot'), id: point.hex('id', 32) }
}

export function toBlockHeight(v: JsonValue, path = 'result'): bigint | 'origin' {
  return v === 'origin' ? 'origin' : natural(v, path)
}

const PURPOSES = ['spend', 'mint', 'publish', 'withdraw', 'vote', 'propose'] as const
const TAGS: Readonly<Record<(typeof PURPOSES)[number], RedeemerTag>> = {
  spend: 'spend',
  mint: 'mint',
  publish: 'cert',
  withdraw: 'reward',
  vote: 'vote',
  propose: 'propose'
}

export function toRedeemerPointer(pointer: Fields<RedeemerPointer>): { tag: RedeemerTag; index: number } {
  return { tag: TAGS[pointer.oneOf('purpose', PURPOSES)], index: pointer.smallNatural('index') }
}

type Evaluation = EvaluateTransactionSuccess['result'][number]

/** `evaluateTransaction`: `[{ validator: { purpose, index }, budget: { memory, cpu } }]`. */
export function toRedeemerBudgets(v: JsonValue, path = 'result'): RedeemerBudget[] {
  return array(v, path).map((entry, i) => {
    const evaluation = Fields.of<Evaluation>(entry, `${path}[${i}]`)
    const { tag, index } = toRedeemerPointer(evaluation.fields('validator'))
    return { tag, index, exUnits: toExUnits(evaluation.fields('budget')) }
  })
}
