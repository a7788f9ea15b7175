/**
 * Phase-2 evaluation with aiken's `uplc` (the wasm build the emulator itself uses), in a wasm instance that is
 * replaced every `recycleEvery` evaluations. That instance's memory grows by about 32 KiB per evaluation and
 * never shrinks (tooling notes §3.4.7), so a long-lived sandbox would otherwise grow without bound; a fresh
 * instance starts small and the old one is garbage once nothing refers to it.
 *
 * Same work as `makeUplcEvaluator` from @blaze-cardano/vm with no over-estimation: the budgets returned are the
 * ones the scripts used. It takes and gives bytes and plain data (`PlutusRequest`, `PlutusOutcome`): the
 * transaction is never decoded into Blaze objects, whose decoding of Plutus Data costs seconds on a Marlowe-sized
 * datum, and a request can be carried to another thread whole. A script can run for as long as the budget
 * allows (a second or more), so whoever opens the sandbox may run evaluations elsewhere (`PlutusEvaluator`);
 * `inThreadEvaluator` runs them here.
 */
import { createRequire } from 'node:module'
import { CborReader } from '../../core/cardano/cbor'
import type { RedeemerBudget } from '../provider'

interface EvalResult {
  readonly redeemer: Uint8Array
  free(): void
}

interface UplcWasm {
  eval_phase_two_raw(
    tx: Uint8Array,
    utxoRefs: Uint8Array[],
    utxoOutputs: Uint8Array[],
    costModels: Uint8Array,
    cpuBudget: bigint,
    memBudget: bigint,
    zeroTime: bigint,
    zeroSlot: bigint,
    slotLength: number
  ): EvalResult[]
  readonly __wasm: { readonly memory: { readonly buffer: ArrayBuffer } }
}

function isUplcWasm(mod: unknown): mod is UplcWasm {
  if (typeof mod !== 'object' || mod === null) return false
  const m = mod as Partial<Record<keyof UplcWasm, unknown>>
  const wasm = m.__wasm as { memory?: { buffer?: unknown } } | undefined
  return typeof m.eval_phase_two_raw === 'function' && wasm?.memory?.buffer instanceof ArrayBuffer
}

/** The uplc build the emulator runs, found the way the emulator finds it (emulator → vm → uplc). */
function uplcWasmPath(): string {
  const fromHere = createRequire(__filename)
  const fromEmulator = createRequire(fromHere.resolve('@blaze-cardano/emulator'))
  const fromVm = createRequire(fromEmulator.resolve('@blaze-cardano/vm'))
  return fromVm.resolve('@blaze-cardano/uplc/wasm')
}

/**
 * Evaluates the module again, giving a new wasm instance. A fresh `createRequire` each time makes the module's
 * parent a throwaway, and the cache entry is dropped, so no module graph keeps the old instance alive.
 */
function loadFreshInstance(path: string): UplcWasm {
  const load = createRequire(path)
  delete load.cache[path]
  const mod: unknown = load(path)
  delete load.cache[path]
  if (!isUplcWasm(mod)) throw new Error(`${path} is not the uplc wasm module this sandbox was written for`)
  return mod
}

const DEFAULT_RECYCLE_EVERY = 200

export interface SpentOutput {
  /** `[transaction id, index]`. */
  readonly ref: Uint8Array
  readonly output: Uint8Array
}

/** The chain's side of an evaluation: its cost models (CBOR), the per-transaction budget and its slot clock. */
export interface PlutusSetup {
  readonly costModels: Uint8Array
  readonly maxSteps: bigint
  readonly maxMem: bigint
  readonly zeroTime: bigint
  readonly zeroSlot: bigint
  readonly slotLength: number
}

/** `tx` to evaluate, given the outputs its inputs, reference inputs and collateral spend. */
export interface PlutusRequest {
  readonly setup: PlutusSetup
  readonly tx: Uint8Array
  readonly utxos: readonly SpentOutput[]
}

/** The budget each redeemer used, or the evaluator's own words on why a script failed or could not run. */
export type PlutusOutcome =
  | { readonly type: 'evaluated'; readonly budgets: RedeemerBudget[] }
  | { readonly type: 'failed'; readonly words: string }

/** Runs a request somewhere; rejects only when it could not be run at all (never for what the scripts did). */
export type PlutusEvaluator = (request: PlutusRequest) => Promise<PlutusOutcome>

/** What a script failure or an unreadable transaction says, on one line. */
export function evaluatorWords(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ').trim()
}

const TAGS: readonly RedeemerBudget['tag'][] = ['spend', 'mint', 'cert', 'reward', 'vote', 'propose']

/** `[tag, index, data, [mem, steps]]`, the redeemer the evaluator returns; its data is skipped, not decoded. */
function readBudget(bytes: Uint8Array): RedeemerBudget {
  const r = new CborReader(bytes)
  const count = r.fixedArray('redeemer', 4)
  const tag = TAGS[r.smallUint('redeemer tag', TAGS.length - 1)]!
  const index = r.smallUint('redeemer index', Number.MAX_SAFE_INTEGER)
  r.skip()
  const units = r.fixedArray('execution units', 2)
  const exUnits = { mem: r.uint('memory'), steps: r.uint('steps') }
  r.closeArray(units, 'execution units')
  r.closeArray(count, 'redeemer')
  r.expectEnd('the redeemer')
  return { tag, index, exUnits }
}

export class RecyclingEvaluator {
  private readonly path = uplcWasmPath()
  private wasm: UplcWasm
  private sinceReload = 0
  private reloadCount = 0

  constructor(private readonly recycleEvery = DEFAULT_RECYCLE_EVERY) {
    if (!(recycleEvery >= 1)) throw new Error(`recycleEvery must be at least 1, got ${recycleEvery}`)
    this.wasm = loadFreshInstance(this.path)
  }

  /**
   * The budget each redeemer of the request's transaction used, or the evaluator's own words (often a plain
   * string thrown from the wasm) when a script fails or the transaction cannot be evaluated.
   */
  evaluate({ setup, tx, utxos }: PlutusRequest): PlutusOutcome {
    let results: EvalResult[]
    try {
      results = this.wasm.eval_phase_two_raw(
        tx,
        utxos.map((u) => u.ref),
        utxos.map((u) => u.output),
        setup.costModels,
        setup.maxSteps,
        setup.maxMem,
        setup.zeroTime,
        setup.zeroSlot,
        setup.slotLength
      )
    } catch (e) {
      return { type: 'failed', words: evaluatorWords(e) }
    } finally {
      this.countEvaluation()
    }
    try {
      return { type: 'evaluated', budgets: results.map((r) => readBudget(r.redeemer)) }
    } catch (e) {
      return { type: 'failed', words: evaluatorWords(e) }
    } finally {
      for (const r of results) r.free()
    }
  }

  /** Bytes of linear memory of the current wasm instance. */
  wasmMemoryBytes(): number {
    return this.wasm.__wasm.memory.buffer.byteLength
  }

  get reloads(): number {
    return this.reloadCount
  }

  private countEvaluation(): void {
    this.sinceReload += 1
    if (this.sinceReload < this.recycleEvery) return
    this.wasm = loadFreshInstance(this.path)
    this.sinceReload = 0
    this.reloadCount += 1
  }
}

/** Evaluations on this thread, through `evaluator`. */
export function inThreadEvaluator(evaluator: RecyclingEvaluator): PlutusEvaluator {
  return (request) => Promise.resolve(evaluator.evaluate(request))
}
