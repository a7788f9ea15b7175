/**
 * The engine's heavy, pure computations, run on its worker thread (./entry.ts): the review of a transaction's
 * bytes, the reading of an imported transaction file or review bundle, the safety analysis' walk of a
 * contract's paths, the assembly of a transaction with CSL (the builds' and the cost check's), and the sandbox's
 * Plutus evaluations. Each takes and gives plain data and throws only `EngineError`s it means the caller to see.
 */
import type { ProtocolParameters } from '../../chain/provider'
import { RecyclingEvaluator, type PlutusOutcome, type PlutusRequest } from '../../chain/sandbox'
import { reviewTransaction, TxDecodeError } from '../../core/cardano/review'
import type { ReviewContext, TxReview } from '../../core/cardano/review'
import { ValueTooLargeError } from '../../core/marlowe/limits'
import type { Value } from '../../core/marlowe/types'
import { cslMemoryBytes } from '../../csl'
import {
  assemble,
  type AssembleInput,
  type Assembled,
  buildCostCandidates,
  type CostCandidate,
  type CostSetup,
  simulateTransactions,
  type Simulation,
  type SimulationInput
} from '../build'
import { EngineError } from '../errors'
import { readLoaded, type LoadedTx } from '../offline-tx'
import type { TaskFunctions } from './protocol'

export interface ReviewInput {
  readonly tx: Uint8Array
  readonly context: ReviewContext
}

/** The simulation, and with `costs` its costliest transactions built for the cost check (../build/cost-check.ts). */
export interface SafetyInput extends SimulationInput {
  readonly costs?: CostSetup
}

/** The walk's result, or the value beyond the core's limit that ended it (an error that crosses as data). */
export type SimulationOutcome =
  | { readonly type: 'simulated'; readonly simulation: Simulation; readonly candidates: CostCandidate[] }
  | { readonly type: 'valueTooLarge'; readonly value: Value; readonly bits: number; readonly path?: string }

export interface EngineTasks {
  review: { input: ReviewInput; output: TxReview }
  readImported: { input: string; output: LoadedTx }
  simulate: { input: SafetyInput; output: SimulationOutcome }
  assemble: { input: AssembleInput; output: Assembled }
  evaluatePlutus: { input: PlutusRequest; output: PlutusOutcome }
  /** Diagnostics: the size of the worker's CSL memory (`cslMemoryBytes`). */
  cslMemoryBytes: { input: null; output: number }
}

function review({ tx, context }: ReviewInput): TxReview {
  try {
    return reviewTransaction(tx, context)
  } catch (e) {
    if (e instanceof TxDecodeError) throw new EngineError('BadRequest', 'InvalidTransaction', e.message)
    throw e
  }
}

/** A transaction file or a review bundle, as pasted or dropped into the app. */
function readImported(text: string): LoadedTx {
  return readLoaded(new TextEncoder().encode(text))
}

function simulate({ costs, ...input }: SafetyInput): SimulationOutcome {
  try {
    const simulation = simulateTransactions(input)
    const candidates =
      costs === undefined
        ? []
        : buildCostCandidates({ ...costs, pp: withKnownCostModels(costs.pp) }, simulation.costliest)
    return { type: 'simulated', simulation, candidates }
  } catch (e) {
    if (!(e instanceof ValueTooLargeError)) throw e
    return { type: 'valueTooLarge', value: e.value, bits: e.bits, ...(e.path === undefined ? {} : { path: e.path }) }
  }
}

type CostModels = ProtocolParameters['costModels']

/** The cost models of the last assembly: each request brings its own copy, but they seldom change. */
let knownCostModels: CostModels | undefined

function sameCostModels(a: CostModels, b: CostModels): boolean {
  const languages = ['PlutusV1', 'PlutusV2', 'PlutusV3'] as const
  return languages.every((l) => {
    const x = a[l]
    const y = b[l]
    return x === undefined || y === undefined ? x === y : x.length === y.length && x.every((p, i) => p === y[i])
  })
}

/** `pp` with the known cost models when they are the same, whose serialisation ../build/protocol.ts keeps. */
function withKnownCostModels(pp: ProtocolParameters): ProtocolParameters {
  const { costModels } = pp
  if (knownCostModels === undefined || !sameCostModels(knownCostModels, costModels)) knownCostModels = costModels
  return { ...pp, costModels: knownCostModels }
}

function assembleHere(input: AssembleInput): Assembled {
  return assemble({ ...input, pp: withKnownCostModels(input.pp) })
}

/** One for the worker's life, started at its first evaluation: it replaces its own wasm as it goes. */
let evaluator: RecyclingEvaluator | undefined

function evaluatePlutus(request: PlutusRequest): PlutusOutcome {
  evaluator ??= new RecyclingEvaluator()
  return evaluator.evaluate(request)
}

export const ENGINE_TASKS: TaskFunctions<EngineTasks> = {
  review,
  readImported,
  simulate,
  assemble: assembleHere,
  evaluatePlutus,
  cslMemoryBytes
}
