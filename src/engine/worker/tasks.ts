/**
 * The engine's heavy, pure computations, run on its worker thread (./entry.ts): the review of a transaction's
 * bytes, the reading of an imported transaction file or review bundle, and the safety analysis' walk of a
 * contract's paths. Each takes and gives plain data and throws only `EngineError`s it means the caller to see.
 */
import { BUNDLE_FORMAT, BundleError, parseBundle, type ReviewBundle } from '../../core/cardano/bundle'
import { reviewTransaction, TxDecodeError } from '../../core/cardano/review'
import type { ReviewContext, TxReview } from '../../core/cardano/review/types'
import type { Era } from '../../core/cardano/tx-envelope'
import { ValueTooLargeError } from '../../core/marlowe/limits'
import type { Value } from '../../core/marlowe/types'
import { simulateTransactions, type Simulation, type SimulationInput } from '../build/simulate'
import { EngineError } from '../errors'
import { readTransaction } from '../sign/read-transaction'
import type { TaskFunctions } from './protocol'

export interface ReviewInput {
  readonly tx: Uint8Array
  readonly context: ReviewContext
}

/** A transaction file or a review bundle, as pasted or dropped into the app. */
export interface ImportedTx {
  readonly tx: Uint8Array
  readonly era: Era
  readonly txId: string
  readonly bundle?: ReviewBundle
}

/** The walk's result, or the value beyond the core's limit that ended it (an error that crosses as data). */
export type SimulationOutcome =
  | { readonly type: 'simulated'; readonly simulation: Simulation }
  | { readonly type: 'valueTooLarge'; readonly value: Value; readonly bits: number; readonly path?: string }

export interface EngineTasks {
  review: { input: ReviewInput; output: TxReview }
  readImported: { input: string; output: ImportedTx }
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

function readImported(text: string): ImportedTx {
  if (text.includes(`"${BUNDLE_FORMAT}"`)) {
    let bundle: ReviewBundle
    try {
      bundle = parseBundle(text)
    } catch (e) {
      if (e instanceof BundleError) throw new EngineError('BadRequest', 'InvalidBundle', e.message)
      throw e
    }
    return { tx: bundle.tx, era: bundle.era, txId: readTransaction(bundle.tx).txId, bundle }
  }
  const file = readTransaction(new TextEncoder().encode(text))
  return { tx: file.tx, era: file.era, txId: file.txId }
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
