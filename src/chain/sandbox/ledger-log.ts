/**
 * The append-only log of a large sandbox ledger (`sandbox-ledger.log`, beside the state file, then
 * `sandbox-ledger.<n>.log` after the n-th compaction; ledger-store.ts says when there is one and when it is
 * compacted): every transaction confirmed and every clock jump since the last compaction, and the bytes a
 * snapshot refers to (the chain index's transactions, the datums). A record is written and flushed to
 * disk (fsync) before the change it records is reported done, so a crash can only tear the last record, one never
 * reported done; opening the log cuts a torn last record off.
 *
 * Record: kind (1 byte) ‖ payload length (4 bytes, big-endian) ‖ CRC-32 of those 5 bytes ‖ payload ‖ CRC-32 of
 * everything before it (integers big-endian). The head's own checksum tells a torn last record (a whole head,
 * part of its payload) from a damaged length anywhere, which must not be taken for the end of the log.
 *   1 transaction: slot (8 bytes) ‖ block number (8) ‖ block hash (32) ‖ the transaction's bytes
 *   2 clock:       slot (8) ‖ time offset in ms (8)
 *   3 bytes:       bytes a snapshot refers to that no logged transaction holds (those from before the log)
 */
import { closeSync, existsSync, fchmodSync, fsyncSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs'
import { basename } from 'node:path'
import { crc32 } from 'node:zlib'
import { bytesToHex, concatBytes, hexToBytes } from '../../core/bytes'
import type { BlockRef } from './state-file'

export const LOG_FILE_NAME = 'sandbox-ledger.log'
/** The first log and those of later compactions (`sandbox-ledger.<n>.log`, n ≥ 1). */
export const LOG_FILE_PATTERN = /^sandbox-ledger(?:\.([1-9][0-9]{0,8}))?\.log$/

/** The log after `generation` compactions. */
export function logFileName(generation: number): string {
  return generation === 0 ? LOG_FILE_NAME : `sandbox-ledger.${generation}.log`
}

/** How many compactions came before the log named `name` (a name `LOG_FILE_PATTERN` matches). */
export function logGeneration(name: string): number {
  const generation = LOG_FILE_PATTERN.exec(name)?.[1]
  return generation === undefined ? 0 : Number(generation)
}

export type LogRecord =
  | {
      readonly kind: 'tx'
      readonly block: BlockRef
      readonly tx: Uint8Array
      /** Where the transaction's bytes start in the log. */
      readonly at: number
    }
  | { readonly kind: 'clock'; readonly slot: bigint; readonly timeOffsetMs: bigint }

const TX = 1
const CLOCK = 2
const BYTES = 3
const CRC = 4
const HEAD = 5 + CRC
const BLOCK = 8 + 8 + 32

function record(kind: number, parts: readonly Uint8Array[]): Uint8Array {
  const length = parts.reduce((n, p) => n + p.length, 0)
  const out = new Uint8Array(HEAD + length + CRC)
  const view = new DataView(out.buffer)
  out[0] = kind
  view.setUint32(1, length)
  view.setUint32(5, crc32(out.subarray(0, 5)))
  let at = HEAD
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  view.setUint32(at, crc32(out.subarray(0, at)))
  return out
}

function u64(n: bigint): Uint8Array {
  const out = new Uint8Array(8)
  new DataView(out.buffer).setBigUint64(0, n)
  return out
}

/**
 * Checks every record of `bytes` and reads those from `from` on (where the snapshot ends: a record boundary); the
 * offset of a torn last record, if any.
 */
function parse(
  bytes: Uint8Array,
  from: number,
  name: string
): { records: LogRecord[]; checked: number; torn: number | undefined } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const damaged = (pos: number): Error => new Error(`the log ${name} is damaged at byte ${pos}`)
  const records: LogRecord[] = []
  let checked = 0
  let pos = 0
  while (pos < bytes.length) {
    if (bytes.length - pos < HEAD) return { records, checked, torn: pos }
    if (view.getUint32(pos + 5) !== crc32(bytes.subarray(pos, pos + 5))) throw damaged(pos)
    const end = pos + HEAD + view.getUint32(pos + 1) + CRC
    if (end > bytes.length) return { records, checked, torn: pos }
    if (view.getUint32(end - CRC) !== crc32(bytes.subarray(pos, end - CRC))) {
      if (end === bytes.length) return { records, checked, torn: pos }
      throw damaged(pos)
    }
    if (pos < from && end > from) {
      throw new Error(`the log ${name} has no record starting at byte ${from}, where the snapshot ends`)
    }
    if (pos >= from) {
      const record = readRecord(bytes, view, pos, end, name)
      if (record !== undefined) records.push(record)
    }
    checked += 1
    pos = end
  }
  return { records, checked, torn: undefined }
}

function readRecord(bytes: Uint8Array, view: DataView, pos: number, end: number, name: string): LogRecord | undefined {
  const payload = pos + HEAD
  switch (bytes[pos]) {
    case TX: {
      const block: BlockRef = {
        slot: view.getBigUint64(payload),
        blockNo: view.getBigUint64(payload + 8),
        blockHash: bytesToHex(bytes.subarray(payload + 16, payload + BLOCK))
      }
      return { kind: 'tx', block, tx: bytes.subarray(payload + BLOCK, end - CRC), at: payload + BLOCK }
    }
    case CLOCK:
      return { kind: 'clock', slot: view.getBigUint64(payload), timeOffsetMs: view.getBigUint64(payload + 8) }
    case BYTES:
      return undefined
    default:
      throw new Error(`the log ${name} has a record of unknown kind ${bytes[pos]} at byte ${pos}`)
  }
}

export class LedgerLog {
  private pending: Uint8Array[] = []
  private pendingBytes = 0

  private constructor(
    private readonly fd: number,
    private durable: number
  ) {}

  /** A new, empty log at `path`: one left by an interrupted start of the log is emptied. */
  static create(path: string): LedgerLog {
    const fd = openSync(path, 'a', 0o600)
    try {
      // The ledger's history is its owner's alone, as the state file; a stale file keeps its mode through 'a'.
      fchmodSync(fd, 0o600)
      ftruncateSync(fd, 0)
      fsyncSync(fd)
    } catch (e) {
      closeSync(fd)
      throw e
    }
    return new LedgerLog(fd, 0)
  }

  /**
   * Opens the log at `path`, read whole: its bytes, the records from byte `from` on (where the snapshot ends) and
   * how many records it holds in all (each one checked). A torn last record is cut off. Throws `Error` when the
   * log is missing, shorter than `from` or damaged.
   */
  static open(
    path: string,
    from: number
  ): { log: LedgerLog; bytes: Uint8Array; records: LogRecord[]; checked: number } {
    const name = basename(path)
    if (!existsSync(path)) throw new Error(`the log ${name} it continues in is missing`)
    const read = readFileSync(path)
    const bytes = new Uint8Array(read.buffer, read.byteOffset, read.byteLength)
    if (bytes.length < from) {
      throw new Error(`the log ${name} holds ${bytes.length} bytes, fewer than the ${from} it refers to`)
    }
    const { records, checked, torn } = parse(bytes, from, name)
    if (torn !== undefined && torn < from) {
      throw new Error(`the log ${name} ends inside a record its snapshot refers to`)
    }
    const fd = openSync(path, 'a')
    const durable = torn ?? bytes.length
    try {
      if (torn !== undefined) {
        ftruncateSync(fd, torn)
        fsyncSync(fd)
      }
    } catch (e) {
      closeSync(fd)
      throw e
    }
    return { log: new LedgerLog(fd, durable), bytes: bytes.subarray(0, durable), records, checked }
  }

  /** The log's length once what was appended is flushed. */
  get end(): number {
    return this.durable + this.pendingBytes
  }

  /** The bytes on disk. */
  get length(): number {
    return this.durable
  }

  private append(bytes: Uint8Array): number {
    const at = this.end
    this.pending.push(bytes)
    this.pendingBytes += bytes.length
    return at
  }

  /** Appends a confirmed transaction; returns where its bytes will be. */
  appendTx(block: BlockRef, tx: Uint8Array): number {
    const head = [u64(block.slot), u64(block.blockNo), hexToBytes(block.blockHash)]
    return this.append(record(TX, [...head, tx])) + HEAD + BLOCK
  }

  appendClock(slot: bigint, timeOffsetMs: bigint): void {
    this.append(record(CLOCK, [u64(slot), u64(timeOffsetMs)]))
  }

  /** Appends bytes for a snapshot to refer to; returns where they will be. */
  appendBytes(bytes: Uint8Array): number {
    return this.append(record(BYTES, [bytes])) + HEAD
  }

  /**
   * Writes what was appended and flushes it to disk. On failure the appended records stay pending, and the next
   * flush first cuts off whatever part of them reached the file.
   */
  flush(): void {
    if (this.pending.length === 0) return
    ftruncateSync(this.fd, this.durable)
    const bytes = concatBytes(this.pending)
    // Opened for appending: every write goes to the end, however few bytes the disk takes at a time.
    for (let written = 0; written < bytes.length;) {
      written += writeSync(this.fd, bytes, written, bytes.length - written)
    }
    fsyncSync(this.fd)
    this.durable += bytes.length
    this.pending = []
    this.pendingBytes = 0
  }

  close(): void {
    closeSync(this.fd)
  }
}
