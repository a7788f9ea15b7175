/**
 * The engine's worker thread, shared by every part of the engine in a process: the review of transaction bytes,
 * the reading of imported files, the safety analysis, the CSL assembly of builds and the sandbox's Plutus
 * evaluations run there (./tasks.ts), so that a long one never holds up the HTTP loop or the window's calls.
 *
 * Its script is a bundle of ./entry.ts that each build of the engine writes beside its own bundle: the CLI's
 * (scripts/cli-build.mjs, out/cli) and the desktop app's main process (electron.vite.config.ts, out/main). A
 * separate file rather than code handed to the Worker as a string, because the worker then resolves its
 * dependencies that stay outside the bundles (CSL loads its wasm from its own folder) from where the engine
 * does. Tests run the engine from its TypeScript sources, which a Worker cannot load on Node 20: they build the
 * same entry with esbuild once per run and name it with `useEngineWorkerScript` (tests/support/engine-worker.ts).
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { PlutusEvaluator } from '../../chain/sandbox'
import type { TxReview, ReviewContext } from '../../core/cardano/review'
import { ValueTooLargeError } from '../../core/marlowe/limits'
import type { AssembleInput, Assembled, CostCandidate, Simulation } from '../build'
import { EngineError } from '../errors'
import { WorkerRunner } from './runner'
import type { LoadedTx } from '../offline-tx'
import type { EngineTasks, SafetyInput } from './tasks'

export { WorkerRunner, type RunnerStatus, type WorkerRunnerOptions } from './runner'

/** The script's name beside the engine's bundle; the builds write it under this name. */
const ENGINE_WORKER_FILE = 'engine-worker.cjs'

/**
 * Twice the 15 s Runtime gives its safety analysis, and some seven times the slowest analysis its work budget
 * allowed when measured (≈ 4 s, ../build/simulate.ts): only a computation that escaped its budget meets it.
 */
const ENGINE_TIME_LIMIT_MS = 30_000

/** As many as the HTTP server's connections, each with a request waiting. */
const ENGINE_MAX_QUEUED = 256

/** Far above what a budgeted analysis or a review of the largest transaction allocates. */
const ENGINE_MAX_HEAP_MB = 1024

let chosenScript: string | undefined

/** Runs the engine's worker from `path` instead of the script beside the engine's bundle. */
export function useEngineWorkerScript(path: string): void {
  chosenScript = path
}

function engineWorkerScript(): string {
  const script = chosenScript ?? join(__dirname, ENGINE_WORKER_FILE)
  if (!existsSync(script)) {
    throw new EngineError(
      'Internal',
      'EngineWorkerMissing',
      `The engine's worker script is missing from this installation (${script})`,
      { script }
    )
  }
  return script
}

let shared: WorkerRunner<EngineTasks> | undefined

export function engineWorker(): WorkerRunner<EngineTasks> {
  shared ??= new WorkerRunner<EngineTasks>({
    script: engineWorkerScript,
    timeLimitMs: ENGINE_TIME_LIMIT_MS,
    maxQueued: ENGINE_MAX_QUEUED,
    maxHeapMb: ENGINE_MAX_HEAP_MB
  })
  return shared
}

/** The review of `tx`; an undecodable one is a BadRequest `InvalidTransaction`. */
export function reviewOffThread(tx: Uint8Array, context: ReviewContext): Promise<TxReview> {
  return engineWorker().run('review', { tx, context }, 'The review of the transaction')
}

/** A transaction file or review bundle as pasted or dropped: `InvalidTransaction` or `InvalidBundle` if it is not. */
export function readImportedOffThread(text: string): Promise<LoadedTx> {
  return engineWorker().run('readImported', text, 'Reading the transaction file')
}

/**
 * `simulateTransactions` (../build/simulate.ts), throwing its `ValueTooLargeError` as it does, and with `costs` the
 * cost check's transactions built in the same task (`buildCostCandidates`).
 */
export async function simulateOffThread(
  input: SafetyInput
): Promise<{ readonly simulation: Simulation; readonly candidates: CostCandidate[] }> {
  const outcome = await engineWorker().run('simulate', input, 'The safety analysis')
  if (outcome.type === 'valueTooLarge') throw new ValueTooLargeError(outcome.value, outcome.bits, outcome.path)
  return { simulation: outcome.simulation, candidates: outcome.candidates }
}

/** `assemble` (../build/assemble.ts): one CSL pass, which takes hundreds of milliseconds on a large transaction. */
export function assembleOffThread(input: AssembleInput): Promise<Assembled> {
  return engineWorker().run('assemble', input, 'Building the transaction')
}

/** The sandbox's Plutus evaluations on the worker (`SandboxOptions.evaluate`): a script may run for seconds. */
export const evaluatePlutusOffThread: PlutusEvaluator = (request) =>
  engineWorker().run('evaluatePlutus', request, 'The evaluation of the scripts')
