/**
 * Where a sandbox keeps its ledger (its data directory), so that saving costs the change and loading the ledger,
 * not its history.
 *
 * A small ledger is one state file (state-file.ts, version 1), rewritten whole after every change. Once that file
 * passes `logFromBytes`, the state file becomes a snapshot (version 2) and each change — a confirmed transaction,
 * a jump of the clock — is appended to the log beside it (ledger-log.ts) and flushed to disk before it is reported
 * done. The snapshot refers to the chain index's transactions and to the datums by where their bytes are in the
 * log, so it holds what the ledger is (its UTxOs, its blocks), not the bytes of its history. A new snapshot is
 * written after `SNAPSHOT_EVERY` changes, or sooner once the changes since the last one pass an eighth of its
 * size (and a quarter of `logFromBytes`): loading reads the snapshot, the bytes it refers to and at most that
 * many changes to replay, and writing snapshots costs each change a share of one.
 *
 * Crash safety: the state file is replaced whole or not at all (state-file.ts); the log only grows, a record
 * reaches the disk before its change is reported, and a torn last record (a change never reported) is cut off
 * on opening. A snapshot covers the log up to a length: whatever follows is replayed, so a crash between
 * appending and writing a snapshot loses nothing.
 */
import { join } from 'node:path'
import { ChainError } from '../provider'
import { LedgerLog, LOG_FILE_NAME, type LogRecord } from './ledger-log'
import { SandboxLedger, type Accepted, type LedgerOptions } from './ledger'
import { StateFile, type LedgerSnapshot, type LogSpans } from './state-file'

/** About a thousand contracts' worth of state file: rewriting it after every transaction starts to show. */
export const DEFAULT_LOG_FROM_BYTES = 4 * 1024 * 1024
/** Changes replayed at most on loading (some 50 ms); a snapshot of 10,000 contracts costs each a share of 30 KB. */
const SNAPSHOT_EVERY = 256

interface StoredLedger {
  readonly snapshot: LedgerSnapshot
  /** The changes after the snapshot, in order: to replay onto it. */
  readonly changes: readonly LogRecord[]
}

export interface LoadedLedger {
  readonly ledger: SandboxLedger
  readonly timeOffsetMs: bigint
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e))

export class LedgerStore {
  private readonly file: StateFile
  private readonly logPath: string
  private log: LedgerLog | undefined
  /** Where the log holds each chain-index transaction's bytes (by id) and each datum's (by hash). */
  private readonly txAt = new Map<string, number>()
  private readonly datumAt = new Map<string, number>()
  /** The log's length the last snapshot covers, that snapshot's size, and the changes logged since. */
  private covered = 0
  private snapshotBytes = 0
  private changes = 0

  constructor(
    dir: string,
    private readonly logFromBytes = DEFAULT_LOG_FROM_BYTES
  ) {
    this.file = new StateFile(dir)
    this.logPath = join(dir, LOG_FILE_NAME)
  }

  /**
   * The saved ledger with the changes since its snapshot replayed, or `undefined` when there is none yet. Throws
   * `ChainError` when it cannot be used.
   */
  load(options: LedgerOptions): LoadedLedger | undefined {
    const saved = this.read()
    if (saved === undefined) return undefined
    try {
      const ledger = SandboxLedger.restore(saved.snapshot, options)
      let timeOffsetMs = saved.snapshot.timeOffsetMs
      this.changes = saved.changes.length
      for (const change of saved.changes) {
        if (change.kind === 'tx') {
          this.place(ledger.replay(change.tx, change.block), change.at)
        } else {
          ledger.advanceToSlot(change.slot)
          if (change.timeOffsetMs > timeOffsetMs) timeOffsetMs = change.timeOffsetMs
        }
      }
      return { ledger, timeOffsetMs }
    } catch (e) {
      throw this.unusable(message(e))
    }
  }

  private read(): StoredLedger | undefined {
    let opened: ReturnType<typeof LedgerLog.open> | undefined
    let saved: ReturnType<StateFile['read']>
    try {
      saved = this.file.read((covered) => {
        opened = LedgerLog.open(this.logPath, covered)
        return opened.bytes
      })
    } catch (e) {
      opened?.log.close()
      throw e
    }
    if (saved === undefined) return undefined
    this.snapshotBytes = saved.size
    if (saved.log === undefined || opened === undefined) return { snapshot: saved.snapshot, changes: [] }
    this.log = opened.log
    this.covered = saved.log.covered
    for (const [id, at] of saved.log.txAt) this.txAt.set(id, at)
    for (const [hash, at] of saved.log.datumAt) this.datumAt.set(hash, at)
    return { snapshot: saved.snapshot, changes: opened.records }
  }

  private unusable(why: string): ChainError {
    return this.file.unusable(why)
  }

  /** After a transaction: appended to the log, or the whole state file rewritten. Throws `ChainError`. */
  saveTx(ledger: SandboxLedger, accepted: Accepted, timeOffsetMs: bigint): void {
    const log = this.log
    if (log === undefined) {
      this.saveWhole(ledger, timeOffsetMs)
      return
    }
    this.place(accepted, log.appendTx(accepted.block, accepted.bytes))
    this.flush(log)
    this.changes += 1
    this.snapshotIfDue(ledger, timeOffsetMs, log)
  }

  /** After a jump of the clock. Throws `ChainError`. */
  saveClock(ledger: SandboxLedger, timeOffsetMs: bigint): void {
    const log = this.log
    if (log === undefined) {
      this.saveWhole(ledger, timeOffsetMs)
      return
    }
    log.appendClock(ledger.slot, timeOffsetMs)
    this.flush(log)
    this.changes += 1
  }

  /** The whole ledger in the state file (a new sandbox's, or a small one's after a change). Throws `ChainError`. */
  saveWhole(ledger: SandboxLedger, timeOffsetMs: bigint): void {
    this.snapshotBytes = this.file.write(ledger.snapshot(timeOffsetMs))
    if (this.snapshotBytes > this.logFromBytes) this.startLog(ledger, timeOffsetMs)
  }

  close(): void {
    this.log?.close()
    this.log = undefined
  }

  /** Where the log holds what the chain index and the datums keep of an accepted transaction at `at`. */
  private place(accepted: Accepted, at: number): void {
    if (accepted.indexed && !this.txAt.has(accepted.txId)) this.txAt.set(accepted.txId, at)
    for (const datum of accepted.tx.witnessSet.datums) {
      if (!this.datumAt.has(datum.hash)) this.datumAt.set(datum.hash, at + datum.offset)
    }
  }

  private flush(log: LedgerLog): void {
    try {
      log.flush()
    } catch (e) {
      throw new ChainError('Unavailable', `The sandbox ledger could not be saved to ${this.logPath}: ${message(e)}`, {
        path: this.logPath
      })
    }
  }

  /**
   * The state file has just been written whole and is large: from now on, changes go to a new log. Should the log
   * not start, the state file written is complete and the next save tries again.
   */
  private startLog(ledger: SandboxLedger, timeOffsetMs: bigint): void {
    let log: LedgerLog | undefined
    try {
      log = LedgerLog.create(this.logPath)
      this.txAt.clear()
      this.datumAt.clear()
      this.snapshot(ledger, timeOffsetMs, log)
      this.log = log
    } catch {
      log?.close()
    }
  }

  /** A snapshot of the whole ledger; what it refers to that the log does not hold yet is appended first. */
  private snapshot(ledger: SandboxLedger, timeOffsetMs: bigint, log: LedgerLog): void {
    const snapshot = ledger.snapshot(timeOffsetMs)
    for (const t of snapshot.scriptTxs) if (!this.txAt.has(t.txId)) this.txAt.set(t.txId, log.appendBytes(t.cbor))
    for (const [hash, datum] of snapshot.datums) {
      if (!this.datumAt.has(hash)) this.datumAt.set(hash, log.appendBytes(datum))
    }
    this.flush(log)
    const spans: LogSpans = { covered: log.length, txAt: this.txAt, datumAt: this.datumAt }
    this.snapshotBytes = this.file.write(snapshot, spans)
    this.covered = spans.covered
    this.changes = 0
  }

  /** A new snapshot when due. Should writing it fail, nothing is lost (the log holds every change): retried later. */
  private snapshotIfDue(ledger: SandboxLedger, timeOffsetMs: bigint, log: LedgerLog): void {
    const large = log.length - this.covered > Math.max(this.logFromBytes / 4, this.snapshotBytes / 8)
    if (this.changes < SNAPSHOT_EVERY && !large) return
    try {
      this.snapshot(ledger, timeOffsetMs, log)
    } catch {
      // Retried after the next change.
    }
  }
}
