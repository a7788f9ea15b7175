/**
 * Phase-2 evaluation with aiken's `uplc` (the wasm build the emulator itself uses), in a wasm instance that is
 * replaced every `recycleEvery` evaluations. That instance's memory grows by about 32 KiB per evaluation and
 * never shrinks (tooling notes §3.4.7), so a long-lived sandbox would otherwise grow without bound; a fresh
 * instance starts small and the old one is garbage once nothing refers to it.
 *
 * Same work as `makeUplcEvaluator` from @blaze-cardano/vm with no over-estimation: the budgets returned are the
 * ones the scripts used. It takes and gives bytes: the transaction is never decoded into Blaze objects, whose
 * decoding of Plutus Data costs seconds on a Marlowe-sized datum.
 */
import { createRequire } from 'node:module'
import { Costmdls, fromHex, type ProtocolParameters as BlazeParams, type SlotConfig } from '@blaze-cardano/core'
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
  private readonly costModels: Uint8Array
  private wasm: UplcWasm
  private sinceReload = 0
  private reloadCount = 0

  constructor(
    private readonly params: BlazeParams,
    private readonly slotConfig: SlotConfig,
    private readonly recycleEvery = DEFAULT_RECYCLE_EVERY
  ) {
    if (!(recycleEvery >= 1)) throw new Error(`recycleEvery must be at least 1, got ${recycleEvery}`)
    this.costModels = fromHex(Costmdls.fromCore(params.costModels).toCbor())
    this.wasm = loadFreshInstance(this.path)
  }

  /**
   * The budget each redeemer of `tx` used, given the outputs its inputs, reference inputs and collateral spend
   * (each as the CBOR of its reference and of its output). Throws the evaluator's own message (often a plain
   * string) when a script fails or the transaction cannot be evaluated.
   */
  evaluate(tx: Uint8Array, utxos: readonly SpentOutput[]): RedeemerBudget[] {
    const { maxExecutionUnitsPerTransaction: max } = this.params
    let results: EvalResult[]
    try {
      results = this.wasm.eval_phase_two_raw(
        tx,
        utxos.map((u) => u.ref),
        utxos.map((u) => u.output),
        this.costModels,
        BigInt(max.steps),
        BigInt(max.memory),
        BigInt(this.slotConfig.zeroTime),
        BigInt(this.slotConfig.zeroSlot),
        this.slotConfig.slotLength
      )
    } finally {
      this.countEvaluation()
    }
    return results.map((r) => {
      try {
        return readBudget(r.redeemer)
      } finally {
        r.free()
      }
    })
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
