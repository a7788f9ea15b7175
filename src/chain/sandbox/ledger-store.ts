/**
 * Where a sandbox keeps its ledger (its data directory), so that saving costs the change and loading the ledger,
 * not its history.
 *
 * A small ledger is one state file (state-file.ts, version 1), rewritten whole after every change. Once that file
 * passes `logFromBytes`, the state file becomes a snapshot (version 3, binary-snapshot.ts) and each change — a
 * confirmed transaction, a jump of the clock — is appended to the log beside it (ledger-log.ts) and flushed to disk
 * before it is reported done. The snapshot refers to the chain index's transactions and to the datums by where their bytes are in the
 * log, so it holds what the ledger is (its UTxOs, its blocks), not the bytes of its history. A new snapshot is
 * written after `SNAPSHOT_EVERY` changes, or sooner once the changes since the last one pass an eighth of its
 * size (and a quarter of `logFromBytes`): loading replays at most that many changes, and writing snapshots costs
 * each change a share of one.
 *
 * Compaction: the log would otherwise keep every change ever made. When a snapshot is due and the log holds more
 * than the bytes that snapshot refers to (its live bytes) by more than those bytes (and than a quarter of
 * `logFromBytes`), the live bytes are copied into a new log (`sandbox-ledger.<n>.log`) and the snapshot refers
 * to that one; the old log is then deleted. Loading reads the snapshot and a log of at most about twice its live
 * bytes plus the changes since, whatever the number of transactions ever made; compacting costs each byte
 * appended at most one byte copied.
 *
 * Crash safety: the state file is replaced whole or not at all (state-file.ts); the log only grows, a record
 * reaches the disk before its change is reported, and a torn last record (a change never reported) is cut off
 * on opening. A snapshot covers the log up to a length: whatever follows is replayed, so a crash between
 * appending and writing a snapshot loses nothing. A compaction writes and flushes the new log whole before the
 * snapshot naming it replaces the state file: until then the old snapshot and log are untouched, after it the
 * new ones are complete. Logs the state file does not name (an interrupted compaction's, or the one a finished
 * compaction left) are deleted once the state file has been read, after the backup is made the current snapshot,
 * so that the backup always continues in the log that is kept.
 */
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { ChainError } from '../provider'
import { LedgerLog, LOG_FILE_NAME, LOG_FILE_PATTERN, logFileName, logGeneration, type LogRecord } from './ledger-log'
import { SandboxLedger, type Accepted, type LedgerOptions } from './ledger'
import { StateFile, syncDirectory, type LedgerSnapshot, type LogSpans } from './state-file'

/** About a thousand contracts' worth of state file: rewriting it after every transaction starts to show. */
export const DEFAULT_LOG_FROM_BYTES = 4 * 1024 * 1024
/** Changes replayed at most on loading (some 50 ms); a snapshot of 10,000 contracts costs each a share of 30 KB. */
const SNAPSHOT_EVERY = 256
/** A record's framing in the log (head and checksum, see ledger-log.ts). */
const RECORD_BYTES = 13

/** What loading read of the log: its bytes, the records checked, and the changes replayed. */
export interface LogRead {
  readonly bytes: number
  readonly records: number
  readonly replayed: number
}

interface StoredLedger {
  readonly snapshot: LedgerSnapshot
  /** The changes after the snapshot, in order: to replay onto it. */
  readonly changes: readonly LogRecord[]
  readonly logBytes: number
  readonly logRecords: number
}

export interface LoadedLedger {
  readonly ledger: SandboxLedger
  readonly timeOffsetMs: bigint
  readonly logRead: LogRead
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e))

export class LedgerStore {
  private readonly file: StateFile
  /** The log's file name: the state file's, once there is a log. */
  private logName = LOG_FILE_NAME
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
  }

  private get logPath(): string {
    return join(this.file.dir, this.logName)
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
      const logRead = { bytes: saved.logBytes, records: saved.logRecords, replayed: saved.changes.length }
      return { ledger, timeOffsetMs, logRead }
    } catch (e) {
      throw this.unusable(message(e))
    }
  }

  private read(): StoredLedger | undefined {
    let opened: ReturnType<typeof LedgerLog.open> | undefined
    let saved: ReturnType<StateFile['read']>
    try {
      saved = this.file.read((file, covered) => {
        opened = LedgerLog.open(join(this.file.dir, file), covered)
        return opened.bytes
      })
    } catch (e) {
      opened?.log.close()
      throw e
    }
    if (saved === undefined) return undefined
    this.snapshotBytes = saved.size
    if (saved.log === undefined || opened === undefined) {
      return { snapshot: saved.snapshot, changes: [], logBytes: 0, logRecords: 0 }
    }
    this.log = opened.log
    this.logName = saved.log.file
    this.covered = saved.log.covered
    for (const [id, at] of saved.log.txAt) this.txAt.set(id, at)
    for (const [hash, at] of saved.log.datumAt) this.datumAt.set(hash, at)
    this.dropOtherLogs()
    return {
      snapshot: saved.snapshot,
      changes: opened.records,
      logBytes: opened.bytes.length,
      logRecords: opened.checked
    }
  }

  private unusable(why: string): ChainError {
    return this.file.unusable(why, this.log === undefined ? undefined : { path: this.logPath, atFault: false })
  }

  /**
   * Deletes the logs the state file does not name, once the backup is the state file itself (it may name one of
   * them). Left for the next time when the disk refuses: they cost space, not correctness.
   */
  private dropOtherLogs(): void {
    try {
      const others = readdirSync(this.file.dir).filter((name) => LOG_FILE_PATTERN.test(name) && name !== this.logName)
      if (others.length === 0) return
      this.file.backUpCurrent()
      for (const name of others) rmSync(join(this.file.dir, name), { force: true })
    } catch {
      // Tried again on the next compaction or opening.
    }
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
      this.logName = LOG_FILE_NAME
      log = LedgerLog.create(this.logPath)
      syncDirectory(this.file.dir)
      this.txAt.clear()
      this.datumAt.clear()
      this.snapshot(ledger.snapshot(timeOffsetMs), log)
      this.log = log
    } catch {
      log?.close()
      return
    }
    // The backup is the last state file without a log: copied over, it would start the log anew.
    this.backUpCurrent()
    this.dropOtherLogs()
  }

  private backUpCurrent(): void {
    try {
      this.file.backUpCurrent()
    } catch {
      // The backup is a convenience: the state file and the log are complete without it.
    }
  }

  /** A snapshot of the whole ledger; what it refers to that the log does not hold yet is appended first. */
  private snapshot(snapshot: LedgerSnapshot, log: LedgerLog): void {
    for (const t of snapshot.scriptTxs) if (!this.txAt.has(t.txId)) this.txAt.set(t.txId, log.appendBytes(t.cbor))
    for (const [hash, datum] of snapshot.datums) {
      if (!this.datumAt.has(hash)) this.datumAt.set(hash, log.appendBytes(datum))
    }
    this.flush(log)
    const spans: LogSpans = { file: this.logName, covered: log.length, txAt: this.txAt, datumAt: this.datumAt }
    this.snapshotBytes = this.file.write(snapshot, spans)
    this.covered = spans.covered
    this.changes = 0
  }

  /**
   * A snapshot in a new log holding only what it refers to: the chain index's transactions, and the datums
   * (kept inside their transaction where one holds them, else on their own). The new log is on disk before the
   * state file names it; the old one is deleted after.
   */
  private compact(snapshot: LedgerSnapshot, old: LedgerLog): void {
    const name = logFileName(logGeneration(this.logName) + 1)
    const path = join(this.file.dir, name)
    const log = LedgerLog.create(path)
    const txAt = new Map<string, number>()
    const datumAt = new Map<string, number>()
    let switched = false
    try {
      /** Where each copied transaction was and is: `[old start, old end, new start]`, by old start. */
      const moved: [number, number, number][] = []
      for (const t of snapshot.scriptTxs) {
        const at = log.appendBytes(t.cbor)
        txAt.set(t.txId, at)
        const was = this.txAt.get(t.txId)
        if (was !== undefined) moved.push([was, was + t.cbor.length, at])
      }
      moved.sort((a, b) => a[0] - b[0])
      for (const [hash, datum] of snapshot.datums) {
        const was = this.datumAt.get(hash)
        const inTx = was === undefined ? undefined : within(moved, was, datum.length)
        datumAt.set(hash, inTx ?? log.appendBytes(datum))
      }
      log.flush()
      syncDirectory(this.file.dir)
      const spans: LogSpans = { file: name, covered: log.length, txAt, datumAt }
      // From the moment the state file names the new log, changes must go to it, whatever fails after.
      this.snapshotBytes = this.file.write(snapshot, spans, () => {
        switched = true
        old.close()
        this.log = log
        this.logName = name
        this.covered = spans.covered
        this.changes = 0
        this.txAt.clear()
        this.datumAt.clear()
        for (const [id, at] of txAt) this.txAt.set(id, at)
        for (const [hash, at] of datumAt) this.datumAt.set(hash, at)
      })
    } catch (e) {
      if (!switched) {
        log.close()
        rmSync(path, { force: true })
      }
      throw e
    }
    this.dropOtherLogs()
  }

  /**
   * A new snapshot when due, in a new log when the old one is mostly history. Should writing it fail, nothing is
   * lost (the log holds every change): retried after the next change.
   */
  private snapshotIfDue(ledger: SandboxLedger, timeOffsetMs: bigint, log: LedgerLog): void {
    const large = log.length - this.covered > Math.max(this.logFromBytes / 4, this.snapshotBytes / 8)
    if (this.changes < SNAPSHOT_EVERY && !large) return
    try {
      const snapshot = ledger.snapshot(timeOffsetMs)
      const live = liveBytes(snapshot)
      if (log.end - live > Math.max(live, this.logFromBytes / 4)) this.compact(snapshot, log)
      else this.snapshot(snapshot, log)
    } catch {
      // Retried after the next change.
    }
  }
}

/** At most the bytes a compacted log holds for `snapshot` (each datum counted as if on its own). */
function liveBytes(snapshot: LedgerSnapshot): number {
  let bytes = 0
  for (const t of snapshot.scriptTxs) bytes += t.cbor.length + RECORD_BYTES
  for (const [, datum] of snapshot.datums) bytes += datum.length + RECORD_BYTES
  return bytes
}

/** Where `length` bytes that were at `at` are now, when a transaction moved in `moved` held them. */
function within(moved: readonly (readonly [number, number, number])[], at: number, length: number): number | undefined {
  let low = 0
  let high = moved.length - 1
  while (low <= high) {
    const middle = (low + high) >> 1
    const [start, end, now] = moved[middle]!
    if (at < start) high = middle - 1
    else if (at >= end) low = middle + 1
    else return at + length <= end ? now + (at - start) : undefined
  }
  return undefined
}
