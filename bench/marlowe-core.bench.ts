/**
 * Marlowe core throughput against named peers, on the same inputs in the same run:
 * - semantics vs @marlowe.io/language-core-v1 0.4.0-beta on the Haskell reference paths (493 transactions, 142
 *   paths). Before timing, every step's output from both sides is compared with the reference's; only the
 *   steps (and whole paths) on which both agree with it are timed, since a wrong answer is no rival's speed;
 * - JSON parse + validate of the largest reference contract vs the SDK's MarloweJSON.parse + io-ts guard;
 * - Plutus Data encode/decode of the 50 validator-capture datums vs CSL's PlutusData.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as CSL from '@emurgo/cardano-serialization-lib-nodejs'
import { MarloweJSON } from '@marlowe.io/adapter/codec'
import * as SdkGuards from '@marlowe.io/language-core-v1/guards'
import * as Sdk from '@marlowe.io/language-core-v1/semantics'
import { parseJson, type JsonValue } from '../src/core/json/lossless'
import { parseContract } from '../src/core/marlowe/json'
import { asArray, asObject, field } from '../src/core/marlowe/json/reader'
import { decodeContract, decodeState, decodeTransactionInput } from '../src/core/marlowe/json/decode'
import { encodeTransactionOutput } from '../src/core/marlowe/json/encode'
import { decodePlutusData, encodePlutusData } from '../src/core/marlowe/plutus/data'
import { decodeMarloweData, encodeMarloweData } from '../src/core/marlowe/plutus/marlowe-data'
import { computeTransaction, playTraceFrom } from '../src/core/marlowe/semantics'
import type { Contract, State, TransactionInput } from '../src/core/marlowe/types'
import { measure, printRows, type Row } from './harness'
import { vectorsDir } from './vectors'

type SdkStep = Parameters<typeof Sdk.computeTransaction>
type SdkTrace = Parameters<typeof Sdk.playTrace>

interface Step {
  readonly ours: { tx: TransactionInput; state: State; contract: Contract }
  /** The SDK takes the same JSON shapes with bigint numbers, which is what the lossless parser produces. */
  readonly sdk: SdkStep
  /** The Haskell reference's output, and its canonical text (see `canonical`). */
  readonly reference: JsonValue
  readonly expected: string
}

interface Path {
  readonly ours: { state: State; contract: Contract; txs: TransactionInput[] }
  readonly sdk: SdkTrace
  readonly steps: readonly Step[]
}

function loadReference(): { steps: Step[]; paths: Path[] } {
  const dir = join(vectorsDir, 'reference')
  const steps: Step[] = []
  const paths: Path[] = []
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.paths'))) {
    for (const p of asArray(parseJson(readFileSync(join(dir, file), 'utf8')), file)) {
      const path = asObject(p, file, 'a path')
      let state: JsonValue = field(path, 'state', file)
      let contract: JsonValue = field(path, 'contract', file)
      const txs = asArray(field(path, 'transactions', file), file).map((t) => asObject(t, file, 'a transaction'))
      const pathSteps: Step[] = []
      const sdkTrace = [state, contract, txs.map((t) => field(t, 'input', file))] as unknown as SdkTrace
      const oursTrace = {
        state: decodeState(state),
        contract: decodeContract(contract),
        txs: txs.map((t) => decodeTransactionInput(field(t, 'input', file)))
      }
      for (const t of txs) {
        const input = field(t, 'input', file)
        const output = field(t, 'output', file)
        pathSteps.push({
          ours: { tx: decodeTransactionInput(input), state: decodeState(state), contract: decodeContract(contract) },
          sdk: [input, state, contract] as unknown as SdkStep,
          reference: output,
          expected: canonical(output)
        })
        const next = asObject(output, file, 'an output')
        state = field(next, 'state', file)
        contract = field(next, 'contract', file)
      }
      steps.push(...pathSteps)
      paths.push({ ours: oursTrace, sdk: sdkTrace, steps: pathSteps })
    }
  }
  return { steps, paths }
}

/**
 * JSON text with every object's keys sorted: key order carries no meaning in JSON (the SDK and Haskell write
 * them in different orders), array order does (a state's accounts, choices and bound values are ordered maps,
 * and their order is the datum's order on chain), so arrays keep theirs. Absent (`undefined`) fields are left
 * out, as JSON.stringify does.
 */
function canonical(value: unknown): string {
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (typeof value === 'string' || value === null) return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined)
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`
  }
  throw new Error(`not JSON: ${typeof value}`)
}

/** `canonical` with the state's maps sorted as well: tells a wrong map order from a wrong value. */
function canonicalUpToMapOrder(value: unknown): string {
  if (typeof value !== 'object' || value === null || !('state' in value)) return canonical(value)
  const state = value.state as Record<string, unknown>
  const sorted = Object.fromEntries(
    Object.entries(state).map(([k, v]) => [k, Array.isArray(v) ? v.map(canonical).sort() : v])
  )
  return canonical({ ...value, state: sorted })
}

type Verdict = 'agrees' | 'wrong' | 'wrong map order only' | 'error'

function sdkVerdict(step: Step): Verdict {
  let output: unknown
  try {
    output = Sdk.computeTransaction(...step.sdk)
  } catch {
    return 'error'
  }
  // The reference paths hold no failing transaction: a transaction error here is the SDK's.
  if (typeof output === 'object' && output !== null && 'transaction_error' in output) return 'error'
  if (canonical(output) === step.expected) return 'agrees'
  return canonicalUpToMapOrder(output) === canonicalUpToMapOrder(step.reference) ? 'wrong map order only' : 'wrong'
}

function oursAgrees(step: Step): boolean {
  const { tx, state, contract } = step.ours
  return canonical(encodeTransactionOutput(computeTransaction(tx, state, contract))) === step.expected
}

function sameTrace(p: Path): boolean {
  const ours = canonical(encodeTransactionOutput(playTraceFrom(p.ours.state, p.ours.contract, p.ours.txs)))
  try {
    return canonical(Sdk.playTrace(...p.sdk)) === ours
  } catch {
    return false
  }
}

export function benchMarloweCore(): void {
  const { steps, paths } = loadReference()
  const rows: Row[] = []

  const verdicts = new Map<Step, Verdict>(steps.map((s) => [s, sdkVerdict(s)]))
  const count = (v: Verdict): number => [...verdicts.values()].filter((x) => x === v).length
  const oursCorrect = new Set(steps.filter(oursAgrees))
  const bothCorrect = (s: Step): boolean => oursCorrect.has(s) && verdicts.get(s) === 'agrees'
  const comparableSteps = steps.filter(bothCorrect)
  const comparablePaths = paths.filter((p) => p.steps.every(bothCorrect))
  // Whole traces as well: the SDK's accumulated payments and warnings must equal ours on every timed path.
  const sameTraces = comparablePaths.filter(sameTrace).length

  const oursTx = measure(() => {
    for (const s of comparableSteps) computeTransaction(s.ours.tx, s.ours.state, s.ours.contract)
  }, comparableSteps.length)
  const sdkTx = measure(() => {
    for (const s of comparableSteps) Sdk.computeTransaction(...s.sdk)
  }, comparableSteps.length)
  rows.push({
    what: `computeTransaction, the ${comparableSteps.length} of ${steps.length} reference steps where both agree with Haskell`,
    unit: 'tx/s',
    ours: oursTx.opsPerSecond,
    peerName: '@marlowe.io/language-core-v1',
    peer: sdkTx.opsPerSecond
  })

  const oursTrace = measure(() => {
    for (const p of comparablePaths) playTraceFrom(p.ours.state, p.ours.contract, p.ours.txs)
  }, comparablePaths.length)
  const sdkTrace = measure(() => {
    for (const p of comparablePaths) Sdk.playTrace(...p.sdk)
  }, comparablePaths.length)
  rows.push({
    what: `playTrace, the ${comparablePaths.length} of ${paths.length} reference paths where both agree on every step`,
    unit: 'traces/s',
    ours: oursTrace.opsPerSecond,
    peerName: '@marlowe.io/language-core-v1',
    peer: sdkTrace.opsPerSecond
  })

  const dir = join(vectorsDir, 'reference')
  const largest =
    readdirSync(dir)
      .filter((f) => f.endsWith('.contract'))
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .sort((a, b) => b.length - a.length)[0] ?? ''
  const mb = largest.length / 1e6
  const oursJson = measure(() => parseContract(largest))
  const sdkJson = measure(() => {
    if (!SdkGuards.Contract.is(MarloweJSON.parse(largest))) throw new Error('SDK rejected the contract')
  })
  rows.push({
    what: `JSON parse + validate, largest reference contract (${largest.length} B)`,
    unit: 'MB/s',
    ours: oursJson.opsPerSecond * mb,
    peerName: 'SDK MarloweJSON.parse + io-ts guard',
    peer: sdkJson.opsPerSecond * mb
  })

  const capturesDir = join(vectorsDir, 'semantics-captures')
  const datums = readdirSync(capturesDir)
    .filter((f) => f.endsWith('.benchmark'))
    .map((f) => {
      const capture = decodePlutusData(new Uint8Array(readFileSync(join(capturesDir, f))))
      if (typeof capture !== 'object' || !('constr' in capture) || capture.fields[0] === undefined)
        throw new Error(`${f}: not a capture`)
      return encodePlutusData(capture.fields[0])
    })
  const datumMb = datums.reduce((n, d) => n + d.length, 0) / 1e6
  const models = datums.map((d) => decodeMarloweData(d))
  const cslDatums = datums.map((d) => CSL.PlutusData.from_bytes(d))
  const oursDecode = measure(() => {
    for (const d of datums) decodeMarloweData(d)
  })
  const cslDecode = measure(() => {
    for (const d of datums) CSL.PlutusData.from_bytes(d).free()
  })
  rows.push({
    what: `Plutus Data decode, 50 capture datums (${Math.round(datumMb * 1e6)} B) into the Marlowe model`,
    unit: 'MB/s',
    ours: oursDecode.opsPerSecond * datumMb,
    peerName: 'CSL PlutusData.from_bytes (generic)',
    peer: cslDecode.opsPerSecond * datumMb
  })
  const oursEncode = measure(() => {
    for (const m of models) encodeMarloweData(m)
  })
  const cslEncode = measure(() => {
    for (const d of cslDatums) d.to_bytes()
  })
  rows.push({
    what: 'Plutus Data encode, the same datums from the Marlowe model',
    unit: 'MB/s',
    ours: oursEncode.opsPerSecond * datumMb,
    peerName: 'CSL PlutusData.to_bytes (re-emits the bytes it decoded: no encoding work)',
    peer: cslEncode.opsPerSecond * datumMb
  })
  for (const d of cslDatums) d.free()

  printRows('Marlowe core', rows)
  const wrong = count('wrong') + count('wrong map order only')
  console.log(
    `\nChecked before timing, each output against the Haskell reference's (object key order ignored, array order kept):\n` +
      `- ours: ${oursCorrect.size} of ${steps.length} steps agree\n` +
      `- @marlowe.io/language-core-v1: ${count('agrees')} of ${steps.length} agree; ${wrong + count('error')} disagree: ` +
      `${wrong} wrong (${count('wrong map order only')} of them only in the order of the state's maps) and ` +
      `${count('error')} errors (a transaction error or a throw where Haskell succeeds)\n` +
      `- playTrace: the SDK's whole trace equals ours on ${sameTraces} of the ${comparablePaths.length} paths timed`
  )
}
