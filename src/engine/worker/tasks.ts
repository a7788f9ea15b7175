/**
 * The engine's heavy, pure computations, run on its worker thread (./entry.ts): the review of a transaction's
 * bytes, the reading of an imported transaction file or review bundle, and the safety analysis' walk of a
 * contract's paths. Each takes and gives plain data and throws only `EngineError`s it means the caller to see.
 */
import { reviewTransaction, TxDecodeError } from '../../core/cardano/review'
import type { ReviewContext, TxReview } from '../../core/cardano/review/types'
import { ValueTooLargeError } from '../../core/marlowe/limits'
import type { Value } from '../../core/marlowe/types'
import { simulateTransactions, type Simulation, type SimulationInput } from '../build/simulate'
import { EngineError } from '../errors'
import { readLoaded, type LoadedTx } from '../offline-tx'
import type { TaskFunctions } from './protocol'

export interface ReviewInput {
  readonly tx: Uint8Array
  readonly context: ReviewContext
}

/** The walk's result, or the value beyond the core's limit that ended it (an error that crosses as data). */
export type SimulationOutcome =
  | { readonly type: 'simulated'; readonly simulation: Simulation }
  | { readonly type: 'valueTooLarge'; readonly value: Value; readonly bits: number; readonly path?: string }

export interface EngineTasks {
  review: { input: ReviewInput; output: TxReview }
  readImported: { input: string; output: LoadedTx }
  simulate: { input: SimulationInput; output: SimulationOutcome }
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

function simulate(input: SimulationInput): SimulationOutcome {
  try {
    return { type: 'simulated', simulation: simulateTransactions(input) }
  } catch (e) {
    if (!(e instanceof ValueTooLargeError)) throw e
    return { type: 'valueTooLarge', value: e.value, bits: e.bits, ...(e.path === undefined ? {} : { path: e.path }) }
  }
}

export const ENGINE_TASKS: TaskFunctions<EngineTasks> = { review, readImported, simulate }
