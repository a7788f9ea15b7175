/**
 * `SandboxProvider`: the `ChainProvider` of the local sandbox (see ./index.ts for what it is and is not).
 *
 * Everything that changes the ledger — submits, the faucet, clock moves — runs one at a time through one queue.
 * The clock follows the wall clock (checked on every change and by an unref'd timer) plus an offset that only
 * grows: `advanceTo`/`advanceSlots` jump ahead, and the sandbox stays that far ahead, so a contract's timeout
 * can be reached without waiting and the ledger never goes back in time, even across restarts.
 */
import type { MarloweDeployment } from '../deployments'
import { readValidatorDir } from '../marlowe-scripts'
import type {
  ChainProvider,
  ChainTip,
  EraSummary,
  ProtocolParameters,
  RedeemerBudget,
  ScriptTxPage,
  ScriptTxQuery,
  TxOutRef,
  TxStatus,
  Utxo
} from '../provider'
import { ChainError } from '../provider'
import { DirLock } from './dir-lock'
import { inThreadEvaluator, RecyclingEvaluator, type PlutusEvaluator } from './evaluator'
import { faucetTransaction } from './faucet'
import { sandboxGenesis, STAND_IN_GENESIS, type SandboxGenesis } from './genesis'
import { sandboxDeployment } from './reference-scripts'
import { SandboxLedger, SLOT_LENGTH_MS } from './ledger'
import { SANDBOX_BLAZE_PARAMS, toProtocolParameters } from './params'
import { LedgerStore } from './ledger-store'
import { SANDBOX_FAUCET } from './wallets'

export interface SandboxOptions {
  /** Where the ledger is saved and restored from; without it the sandbox lives in memory only. */
  readonly dataDir?: string
  /** POSIX ms of slot 0 for a new ledger (default: now, rounded down to the second); a saved ledger keeps its own. */
  readonly zeroTime?: bigint
  /** The wall clock in POSIX ms (default `Date.now`); tests pass a fixed one. */
  readonly now?: () => number
  /** How often the clock catches up with the wall clock, in ms (default 1000); `false` for no timer. */
  readonly clockTickMs?: number | false
  /** Evaluations between reloads of the Plutus evaluator's wasm (default 200), when it runs on this thread. */
  readonly recycleEvaluatorEvery?: number
  /**
   * Where the scripts run, for evaluations and submits (default: on this thread). A script may run for a second
   * or more within its budget: a server gives one that runs them off the thread serving its requests.
   */
  readonly evaluate?: PlutusEvaluator
  /**
   * A directory of the Marlowe validators as cardano-cli TextEnvelopes (`semantics.plutus`, `payout.plutus`,
   * `open-role.plutus`; see ../marlowe-scripts.ts) to deploy instead of the stand-ins. A saved ledger made with
   * other scripts is refused.
   */
  readonly validators?: string
  /**
   * From this size of the state file on, each change is appended to a log beside it instead of rewriting the file
   * (default `DEFAULT_LOG_FROM_BYTES`, 4 MiB; see ./ledger-store.ts).
   */
  readonly logFromBytes?: number
}

const DEFAULT_TICK_MS = 1000

export class SandboxProvider implements ChainProvider {
  readonly network = 'sandbox' as const
  readonly networkId = 0 as const
  readonly deployment: MarloweDeployment
  private readonly params: ProtocolParameters = toProtocolParameters(SANDBOX_BLAZE_PARAMS)
  private queue: Promise<unknown> = Promise.resolve()
  private timer: ReturnType<typeof setInterval> | undefined
  private closed = false
  private readonly tipListeners = new Set<(tip: ChainTip) => void>()
  private lastTip: ChainTip | undefined

  private constructor(
    private readonly ledger: SandboxLedger,
    private readonly store: LedgerStore | undefined,
    private readonly lock: DirLock | undefined,
    private timeOffsetMs: bigint,
    private readonly now: () => number,
    genesis: SandboxGenesis,
    private readonly inThread: RecyclingEvaluator | undefined
  ) {
    this.deployment = sandboxDeployment(genesis.referenceScripts, genesis.standIn)
  }

  /**
   * Restores the ledger saved in `dataDir`, or starts from genesis; throws `ChainError` for an unusable state file
   * and `MarloweScriptsError` for unusable `validators`.
   */
  static open(options: SandboxOptions = {}): SandboxProvider {
    const now = options.now ?? Date.now
    const genesis =
      options.validators === undefined ? STAND_IN_GENESIS : sandboxGenesis(readValidatorDir(options.validators))
    const store = options.dataDir === undefined ? undefined : new LedgerStore(options.dataDir, options.logFromBytes)
    const lock = options.dataDir === undefined ? undefined : DirLock.acquire(options.dataDir)
    let inThread: RecyclingEvaluator | undefined
    let loaded
    try {
      let evaluate = options.evaluate
      if (evaluate === undefined) {
        inThread = new RecyclingEvaluator(options.recycleEvaluatorEvery)
        evaluate = inThreadEvaluator(inThread)
      }
      loaded = SandboxProvider.load(store, options, genesis, now, evaluate)
    } catch (e) {
      store?.close()
      lock?.release()
      throw e
    }
    const provider = new SandboxProvider(loaded.ledger, store, lock, loaded.timeOffsetMs, now, genesis, inThread)
    provider.followWallClock()
    // A new ledger is saved at once; a restored one is already on disk (the clock alone is not worth rewriting it).
    if (loaded.isNew) store?.saveWhole(loaded.ledger, loaded.timeOffsetMs)
    if (options.clockTickMs !== false) provider.startClock(options.clockTickMs ?? DEFAULT_TICK_MS)
    return provider
  }

  private static load(
    store: LedgerStore | undefined,
    options: SandboxOptions,
    genesis: SandboxGenesis,
    now: () => number,
    evaluate: PlutusEvaluator
  ): { ledger: SandboxLedger; timeOffsetMs: bigint; isNew: boolean } {
    const ledgerOptions = { genesis, evaluate }
    const saved = store?.load(ledgerOptions)
    if (saved !== undefined) return { ...saved, isNew: false }
    const zeroTime = options.zeroTime ?? (BigInt(now()) / SLOT_LENGTH_MS) * SLOT_LENGTH_MS
    return { ledger: SandboxLedger.genesis(zeroTime, ledgerOptions), timeOffsetMs: 0n, isNew: true }
  }

  era(): Promise<string> {
    return Promise.resolve('conway')
  }

  protocolParameters(): Promise<ProtocolParameters> {
    return Promise.resolve(this.params)
  }

  eraSummaries(): Promise<readonly EraSummary[]> {
    return Promise.resolve([{ start: { slot: 0n, time: this.ledger.zeroTime }, slotLength: SLOT_LENGTH_MS }])
  }

  /** The current slot (the sandbox clock), with the last block's number and hash. */
  tip(): Promise<ChainTip> {
    return this.serial(() => this.currentTip())
  }

  utxosAt(addresses: readonly string[]): Promise<Utxo[]> {
    return this.read(() => this.ledger.utxosAt(addresses))
  }

  utxosByRef(refs: readonly TxOutRef[]): Promise<Utxo[]> {
    return this.read(() => this.ledger.utxosByRef(refs))
  }

  evaluate(tx: Uint8Array, additionalUtxos: readonly Utxo[] = []): Promise<RedeemerBudget[]> {
    return this.read(() => this.ledger.evaluate(tx, additionalUtxos))
  }

  /**
   * Resolves once the transaction is confirmed (the sandbox has no mempool), with its id. Should saving the ledger
   * then fail (`Unavailable`), the transaction stands in memory and is saved with the next change.
   */
  submit(tx: Uint8Array): Promise<string> {
    return this.serial(() => this.submitNow(tx))
  }

  txStatus(txId: string): Promise<TxStatus> {
    return this.read(() => {
      const block = this.ledger.confirmation(txId)
      return block === undefined ? { status: 'unknown' } : { status: 'confirmed', block }
    })
  }

  scriptTransactions(query: ScriptTxQuery): Promise<ScriptTxPage> {
    return this.read(() => this.ledger.scriptTransactions(query))
  }

  /** Pays `lovelace` from the faucet wallet to `address` in a real transaction; the new UTxO is output 0. */
  fund(address: string, lovelace: bigint): Promise<TxOutRef> {
    return this.serial(async () => {
      const faucetUtxos = this.ledger.utxosAt([SANDBOX_FAUCET.address])
      const txId = await this.submitNow(faucetTransaction(this.params, faucetUtxos, address, lovelace))
      return { txId, index: 0 }
    })
  }

  /** Moves the sandbox clock forward so that it reads at least `posixMs` (never backwards). */
  advanceTo(posixMs: bigint): Promise<ChainTip> {
    return this.serial(() => {
      this.followWallClock()
      const slot = (posixMs - this.ledger.zeroTime + SLOT_LENGTH_MS - 1n) / SLOT_LENGTH_MS
      return this.jumpTo(slot)
    })
  }

  advanceSlots(slots: bigint): Promise<ChainTip> {
    return this.serial(() => {
      this.followWallClock()
      return this.jumpTo(this.ledger.slot + slots)
    })
  }

  /** POSIX ms at which `slot` starts. */
  slotToTime(slot: bigint): bigint {
    return this.ledger.slotStartTime(slot)
  }

  /** Calls `listener` after every change of the tip (clock or block); returns the unsubscribe function. */
  onTip(listener: (tip: ChainTip) => void): () => void {
    this.tipListeners.add(listener)
    return () => this.tipListeners.delete(listener)
  }

  /** Lets the clock follow the wall clock every `tickMs` without keeping the process alive. */
  startClock(tickMs = DEFAULT_TICK_MS): void {
    this.stopClock()
    this.timer = setInterval(() => {
      // Catching up cannot fail; the catch only keeps a closed sandbox from raising an unhandled rejection.
      this.serial(() => this.followWallClock()).catch(() => undefined)
    }, tickMs)
    this.timer.unref()
  }

  stopClock(): void {
    if (this.timer !== undefined) clearInterval(this.timer)
    this.timer = undefined
  }

  /** Stops the clock and lets queued work finish; every later call fails with `Unavailable`. */
  async close(): Promise<void> {
    this.stopClock()
    this.closed = true
    await this.queue
    this.store?.close()
    this.lock?.release()
  }

  /**
   * Plutus evaluator diagnostics: wasm memory of the current instance and how often it was replaced. Only for a
   * sandbox whose scripts run on this thread (no `evaluate` option).
   */
  evaluatorStats(): { readonly wasmMemoryBytes: number; readonly reloads: number } {
    if (this.inThread === undefined) throw new Error("this sandbox's scripts run off this thread")
    return { wasmMemoryBytes: this.inThread.wasmMemoryBytes(), reloads: this.inThread.reloads }
  }

  private async submitNow(tx: Uint8Array): Promise<string> {
    this.followWallClock()
    const accepted = await this.ledger.submit(tx)
    this.store?.saveTx(this.ledger, accepted, this.timeOffsetMs)
    this.announceTip()
    return accepted.txId
  }

  private jumpTo(slot: bigint): ChainTip {
    if (slot > this.ledger.slot) {
      this.ledger.advanceToSlot(slot)
      const ahead = this.ledger.slotStartTime(slot) - BigInt(this.now())
      if (ahead > this.timeOffsetMs) this.timeOffsetMs = ahead
      this.store?.saveClock(this.ledger, this.timeOffsetMs)
      this.announceTip()
    }
    return this.currentTip()
  }

  private followWallClock(): void {
    const time = BigInt(this.now()) + this.timeOffsetMs - this.ledger.zeroTime
    if (time < 0n || time / SLOT_LENGTH_MS <= this.ledger.slot) return
    this.ledger.advanceToSlot(time / SLOT_LENGTH_MS)
    this.announceTip()
  }

  private ledgerTip(): ChainTip {
    return { slot: this.ledger.slot, blockNo: this.ledger.tip.blockNo, blockHash: this.ledger.tip.blockHash }
  }

  private currentTip(): ChainTip {
    this.followWallClock()
    return this.ledgerTip()
  }

  /** Listeners run as microtasks: one that throws cannot break the ledger's queue, and its error is not hidden. */
  private announceTip(): void {
    const tip = this.ledgerTip()
    if (this.lastTip?.slot === tip.slot && this.lastTip.blockNo === tip.blockNo) return
    this.lastTip = tip
    for (const listener of this.tipListeners) queueMicrotask(() => listener(tip))
  }

  private checkOpen(): void {
    if (this.closed) throw new ChainError('Unavailable', 'the sandbox has been closed')
  }

  private read<T>(fn: () => T | Promise<T>): Promise<T> {
    try {
      this.checkOpen()
      return Promise.resolve(fn())
    } catch (e) {
      return Promise.reject(e)
    }
  }

  private serial<T>(job: () => T | Promise<T>): Promise<T> {
    try {
      this.checkOpen()
    } catch (e) {
      return Promise.reject(e)
    }
    const run = this.queue.then(job)
    this.queue = run.catch(() => undefined)
    return run
  }
}
