/**
 * What the Marlowe contract will do after this transaction: for each spent Marlowe semantics input, the
 * validator's own computation — `computeTransaction` on the input datum and the redeemer's inputs over the
 * validity interval as Marlowe time (marlowe-core.md §4) — with its payments, new state and contract, next
 * timeout, and whether the continuing output carries exactly the new datum. Also the contracts created and the
 * role payouts withdrawn.
 *
 * Without resolved inputs the spent datum is inferred: when exactly one unresolved input is spent with a
 * redeemer shaped like Marlowe inputs and exactly one witness-set datum is MarloweData that no output names,
 * they are paired (reported as `inferred`) to show the contract and its inputs — but not evaluated: which script
 * the unread output sits at is unknown, and its interval would be read on this Desk's ledger, not necessarily the
 * one the transaction was built on, so a verdict would be a guess.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../json/lossless'
import {
  encodeContract,
  encodeInput,
  encodePayment,
  encodeState,
  encodeTransactionError,
  encodeWarning
} from '../../marlowe/json'
import { isListData } from '../../marlowe/plutus/data'
import { PlutusDecodeError, decodeContract, decodeRedeemer, probePayoutDatum } from '../../marlowe/plutus/marlowe-data'
import { computeTransaction, ValueTooLargeError } from '../../marlowe/semantics'
import { nextTimeout } from '../../marlowe/timeouts'
import type { Contract, Input, MarloweData, TransactionOutput } from '../../marlowe/types'
import { blake2b256Hex, type DecodedRedeemer } from '../tx'
import { tryDecode, type DatumDecoder } from './datum-view'
import { outRef, refKey, type ReviewEnv } from './env'
import type { LedgerOrder } from './redeemer-targets'
import type { InputView, MarloweStepView, MarloweView, OutRef, OutputView, ValidityView } from './types'

export interface MarloweStepInputs {
  readonly env: ReviewEnv
  readonly datums: DatumDecoder
  readonly order: LedgerOrder
  readonly inputs: ReadonlyMap<string, InputView>
  readonly outputs: readonly OutputView[]
  readonly validity: ValidityView
}

export interface MarloweResult {
  readonly view: MarloweView
  /** By position in the witness set's redeemers: the decoded Marlowe inputs, in Runtime JSON. */
  readonly redeemerInputs: ReadonlyMap<number, readonly JsonValue[]>
}

const UNREAD_SPEND = 'the spent output was not read here — import the transaction with its review bundle'

const SECOND_SEMANTICS_INPUT =
  'the transaction spends another input from the same Marlowe script, and the validator accepts only one (it fails with "w")'

interface SpentDatum {
  readonly hash: string
  readonly bytes: Uint8Array
  readonly source: MarloweStepView['datumSource']
}

export function marloweSteps(ctx: MarloweStepInputs): MarloweResult {
  const { env, order } = ctx
  const steps: MarloweStepView[] = []
  const withdrawals: Array<MarloweView['withdrawals'][number]> = []
  const redeemerInputs = new Map<number, readonly JsonValue[]>()
  const continuing = new Set<bigint>()
  const unresolved: Array<{ position: number; ref: OutRef; redeemer: DecodedRedeemer }> = []
  const semanticsRun = new Set<string>()

  env.tx.witnessSet.redeemers.forEach((redeemer, position) => {
    if (redeemer.tag !== 'spend') return
    const txIn = order.inputs[redeemer.index]
    if (txIn === undefined) return
    const ref = outRef(txIn)
    const input = ctx.inputs.get(refKey(ref))
    if (input === undefined || !input.resolved) {
      if (isListData(redeemer.data)) unresolved.push({ position, ref, redeemer })
      return
    }
    const scriptName = input.address?.scriptName
    if (scriptName === 'marlowe-payout') {
      const datum = spentDatum(env, ref)
      const payout = datum === undefined ? undefined : probePayoutDatum(datum.bytes)
      withdrawals.push(payout === undefined ? { input: ref } : { input: ref, ...payout })
    } else if (scriptName === 'marlowe-semantics') {
      const datum = spentDatum(env, ref)
      const md = datum === undefined ? undefined : ctx.datums.marloweData(datum.hash, datum.bytes)
      if (datum === undefined || md === undefined) {
        steps.push(notRun(ref, datum?.source ?? 'resolved', 'the spent output has no MarloweData datum in reach'))
        return
      }
      // The validator fails (`w`) on a second input from its script, so the semantics run once per script:
      // a transaction listing many would otherwise make the review run and answer them all.
      const script = input.address?.payment?.hash ?? ''
      if (semanticsRun.has(script)) {
        steps.push(notRun(ref, datum.source, SECOND_SEMANTICS_INPUT))
        return
      }
      semanticsRun.add(script)
      run(ctx, { ref, address: input.address?.text, datum, md, redeemer, position }, steps, redeemerInputs, continuing)
    }
  })

  const inferred = inferSpentDatum(ctx, unresolved.length)
  const only = unresolved[0]
  if (inferred !== undefined && only !== undefined) {
    run(ctx, { address: undefined, ...inferred, ...only }, steps, redeemerInputs, continuing)
  }
  // An output to the Marlowe script beside an unread Marlowe-shaped spend may be that contract's continuation:
  // it is not claimed as a contract opened (Desk never builds a creation beside a step).
  if (unresolved.length > 0) {
    for (const o of ctx.outputs) if (o.address.scriptName === 'marlowe-semantics') continuing.add(o.index)
  }

  return { view: { steps, created: created(ctx, continuing), withdrawals }, redeemerInputs }
}

/** The spent output's datum: for a hash, the witness set's copy first (what the validator sees), else the context's. */
function spentDatum(env: ReviewEnv, ref: OutRef): SpentDatum | undefined {
  const output = env.resolved(ref)
  const hash = output?.datumHash
  const witness = hash === undefined ? undefined : env.witnessDatum(hash)
  if (witness !== undefined) return { hash: witness.hash, bytes: witness.bytes, source: 'witness-set' }
  const bytes = output?.datum
  return bytes === undefined ? undefined : { hash: blake2b256Hex(bytes), bytes, source: 'resolved' }
}

/** The one witness-set MarloweData no output names, when exactly one unresolved Marlowe-shaped spend needs it. */
function inferSpentDatum(
  ctx: MarloweStepInputs,
  candidates: number
): { datum: SpentDatum; md: MarloweData } | undefined {
  if (candidates !== 1) return undefined
  const named = new Set(ctx.outputs.flatMap((o) => (o.datum === undefined ? [] : [o.datum.hash])))
  const found: Array<{ datum: SpentDatum; md: MarloweData }> = []
  for (const w of ctx.env.tx.witnessSet.datums) {
    if (named.has(w.hash)) continue
    const md = ctx.datums.marloweData(w.hash, w.bytes)
    if (md !== undefined) found.push({ datum: { hash: w.hash, bytes: w.bytes, source: 'inferred' }, md })
  }
  return found.length === 1 ? found[0] : undefined
}

interface Spend {
  readonly ref: OutRef
  /** The spent output's address, when resolved: the continuation must go back to exactly it. */
  readonly address: string | undefined
  readonly datum: SpentDatum
  readonly md: MarloweData
  readonly redeemer: DecodedRedeemer
  readonly position: number
}

function run(
  ctx: MarloweStepInputs,
  spend: Spend,
  steps: MarloweStepView[],
  redeemerInputs: Map<number, readonly JsonValue[]>,
  continuing: Set<bigint>
): void {
  const { env } = ctx
  const { ref, md, datum } = spend
  const base = { input: ref, datumSource: datum.source, rolesCurrency: md.params.rolesCurrency }
  const lookup = (hash: string): Contract | undefined => {
    const witness = env.witnessDatum(hash)
    return witness === undefined ? undefined : tryDecode(() => decodeContract(witness.bytes))
  }
  let inputs: Input[]
  try {
    inputs = decodeRedeemer(spend.redeemer.dataBytes, lookup)
  } catch (e) {
    if (!(e instanceof PlutusDecodeError)) throw e
    steps.push({
      ...base,
      inputs: [],
      result: { type: 'not-run', reason: `the redeemer is not Marlowe inputs: ${e.message}` }
    })
    return
  }
  const inputsJson = inputs.map(encodeInput)
  redeemerInputs.set(spend.position, inputsJson)
  if (datum.source === 'inferred') {
    steps.push({ ...base, inputs: inputsJson, result: { type: 'not-run', reason: UNREAD_SPEND } })
    return
  }
  const interval = ctx.validity.marloweInterval
  if (interval === undefined) {
    const reason = 'Marlowe needs a validity interval bounded on both sides, and era summaries to read it as time'
    steps.push({ ...base, inputs: inputsJson, result: { type: 'not-run', reason } })
    return
  }
  let out: TransactionOutput
  try {
    out = computeTransaction({ interval, inputs }, md.state, md.contract)
  } catch (e) {
    if (!(e instanceof ValueTooLargeError)) throw e
    const reason = `the contract computes a value beyond what Marlowe Desk evaluates (${e.message})`
    steps.push({ ...base, inputs: inputsJson, interval, result: { type: 'not-run', reason } })
    return
  }
  if (out.type === 'Error') {
    steps.push({
      ...base,
      inputs: inputsJson,
      interval,
      result: { type: 'error', error: encodeTransactionError(out.error) }
    })
    return
  }
  const closes = out.contract.type === 'Close'
  const timeout = nextTimeout(out.contract, out.state.minTime)
  // A closing contract must not send anything back to its script (the validator's check `c`).
  const index = continuingOutput(ctx, spend.address)
  if (index !== undefined) continuing.add(index)
  const expected: MarloweData = { params: md.params, state: out.state, contract: out.contract }
  const carried = index === undefined || closes ? undefined : continuationDatum(ctx, index)
  const matches = index === undefined ? undefined : carried !== undefined && modelEquals(carried.md, expected)
  // When the continuation matches, its datum's JSON (already in the outputs) is the new state and contract.
  const shown = matches === true && carried !== undefined ? carried.json : undefined
  steps.push({
    ...base,
    inputs: inputsJson,
    interval,
    result: {
      type: 'success',
      payments: out.payments.map(encodePayment),
      warnings: out.warnings.map(encodeWarning),
      state: shown?.state ?? encodeState(out.state),
      contract: shown?.contract ?? encodeContract(out.contract),
      closes,
      ...(timeout === undefined ? {} : { nextTimeout: timeout }),
      ...(index === undefined ? {} : { continuingOutput: index }),
      ...(matches === undefined ? {} : { continuationMatches: matches })
    }
  })
}

function notRun(input: OutRef, datumSource: MarloweStepView['datumSource'], reason: string): MarloweStepView {
  return { input, datumSource, inputs: [], result: { type: 'not-run', reason } }
}

/** The output back at the spent address (any Marlowe semantics output when that address is unknown). */
function continuingOutput(ctx: MarloweStepInputs, address: string | undefined): bigint | undefined {
  const found = ctx.outputs.find((o) =>
    address === undefined ? o.address.scriptName === 'marlowe-semantics' : o.address.text === address
  )
  return found?.index
}

/**
 * The continuing output's MarloweData. The validator wants it by datum hash (an inline datum fails) and compares
 * it as Data; the decoded models are equal exactly when the Data are, and both are decoded already.
 */
function continuationDatum(
  ctx: MarloweStepInputs,
  index: bigint
): { md: MarloweData; json: { state: JsonObject; contract: JsonValue } } | undefined {
  const datum = ctx.env.tx.body.outputs[Number(index)]?.datum
  const witness = datum?.kind === 'hash' ? ctx.env.witnessDatum(datum.hash) : undefined
  const md = witness === undefined ? undefined : ctx.datums.marloweData(witness.hash, witness.bytes)
  if (witness === undefined || md === undefined) return undefined
  const content = ctx.datums.content(witness.hash, witness.bytes)
  if (content.type !== 'marlowe-data') return undefined
  const { marloweState, marloweContract } = content.marlowe
  if (marloweState === undefined || marloweContract === undefined || !isJsonObject(marloweState)) return undefined
  return { md, json: { state: marloweState, contract: marloweContract } }
}

/** Structural equality of plain model values: bigints, strings, booleans, arrays and objects. */
function modelEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i += 1) if (!modelEquals(a[i], b[i])) return false
    return true
  }
  if (Array.isArray(b)) return false
  // Plain loops: this walks two whole contracts, and the allocation-free walk is several times faster.
  const x = a as Record<string, unknown>
  const y = b as Record<string, unknown>
  let keys = 0
  for (const k in x) {
    if (!Object.hasOwn(y, k) || !modelEquals(x[k], y[k])) return false
    keys += 1
  }
  for (const _ in y) keys -= 1
  return keys === 0
}

function created(ctx: MarloweStepInputs, continuing: ReadonlySet<bigint>): Array<MarloweView['created'][number]> {
  const out: Array<MarloweView['created'][number]> = []
  ctx.env.tx.body.outputs.forEach((output, index) => {
    if (continuing.has(BigInt(index)) || ctx.outputs[index]?.address.scriptName !== 'marlowe-semantics') return
    const datum = output.datum
    const bytes =
      datum === undefined ? undefined : datum.kind === 'inline' ? datum.bytes : ctx.env.witnessDatum(datum.hash)?.bytes
    const md = datum === undefined || bytes === undefined ? undefined : ctx.datums.marloweData(datum.hash, bytes)
    if (md === undefined) return
    const timeout = nextTimeout(md.contract, md.state.minTime)
    out.push({
      output: BigInt(index),
      rolesCurrency: md.params.rolesCurrency,
      ...(timeout === undefined ? {} : { nextTimeout: timeout })
    })
  })
  return out
}
