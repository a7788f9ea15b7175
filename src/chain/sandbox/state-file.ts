/**
 * The sandbox ledger on disk: `<dataDir>/sandbox-ledger.state`, rewritten after every confirmed transaction and
 * every time jump. A write goes to a temporary file that is flushed to disk (fsync) and then renamed over the
 * old one, so a crash leaves either the old or the new state, never half of one; the previous state is first
 * kept as `sandbox-ledger.state.bak` (a hard link to it, or a copy where links are not possible).
 *
 * The name says what the file is, not how it is written: a small ledger's state is JSON (version 1), a large one's
 * a CBOR snapshot (version 3) that continues in the log beside it (`sandbox-ledger.log`). It was
 * `sandbox-ledger.json` until version 3: a data directory of then is moved over when the sandbox opens it.
 *
 * Format (JSON, integers exact):
 *   { "format": "marlowe-desk sandbox ledger", "version": 1, "genesis": <GENESIS_ID>,
 *     "slotConfig": { "zeroTime": <POSIX ms of slot 0>, "zeroSlot": 0, "slotLength": 1000 },
 *     "timeOffsetMs": <how far the sandbox clock runs ahead of the wall clock>, "slot": <current slot>,
 *     "tip": { "slot", "blockNo", "blockHash" }            — the last block,
 *     "utxos": [[<input CBOR hex>, <output CBOR hex>], …],
 *     "datums": [[<datum hash>, <datum CBOR hex>], …]        — the datums unspent outputs name by hash,
 *     "transactions": [[<tx id>, <slot>, <block no>, <block hash>], …]  — the recent ones, and the older ones
 *                                                              with an output unspent or in the chain index,
 *     "scriptTxs": [[<tx id>, <tx CBOR hex>, [<payment script hash>, …]], …] }  — the chain index, in chain order
 *
 * `scriptTxs` came later: a file without it has an empty index (the transactions before it are not listed).
 *
 * Version 2, a large ledger's snapshot (ledger-store.ts) before version 3: the same, except that the chain index's transactions
 * and the datums are bytes in the log beside it (ledger-log.ts), named by where they are, and that the changes
 * since the snapshot follow it in the log:
 *     "log": { "file": "sandbox-ledger.log" or "sandbox-ledger.<n>.log" after the n-th compaction,
 *              "bytes": <the log's length when the snapshot was written> },
 *     "datums": [[<datum hash>, <offset in the log>, <length>], …],
 *     "scriptTxs": [[<tx id>, <offset in the log>, <length>, [<payment script hash>, …]], …]
 *
 * Version 3 (binary-snapshot.ts) is version 2 in CBOR, with a length and a checksum: large ledgers' snapshots are
 * written in it. Versions 1 and 2 are still read; a version 2 file becomes version 3 at the next snapshot.
 *
 * A file that cannot be read, is not this format, or was made by another genesis is refused with a
 * `ChainError` saying what is wrong and what to do; it is never overwritten. With a log, the backup is kept a
 * snapshot of the same log (ledger-store.ts), so copying it over the file loses no change the log holds.
 */
import {
  closeSync,
  chmodSync,
  copyFileSync,
  fchmodSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync
} from 'node:fs'
import { join } from 'node:path'
import { blake2bHex } from '../../core/blake2b'
import { bytesToHex } from '../../core/bytes'
import { isJsonObject, parseJson, stringifyJson, type JsonObject, type JsonValue } from '../../core/json/lossless'
import { ChainError } from '../provider'
import { decodeBinarySnapshot, encodeBinarySnapshot, isBinarySnapshot } from './binary-snapshot'
import { LOG_FILE_PATTERN, logGeneration } from './ledger-log'
import type { LoggedTx } from './script-log'

export interface BlockRef {
  readonly slot: bigint
  readonly blockNo: bigint
  readonly blockHash: string
}

export interface LedgerSnapshot {
  readonly genesisId: string
  readonly zeroTime: bigint
  readonly slotLength: bigint
  readonly timeOffsetMs: bigint
  readonly slot: bigint
  readonly tip: BlockRef
  /** CBOR of each UTxO's input and output. */
  readonly utxos: readonly (readonly [input: Uint8Array, output: Uint8Array])[]
  readonly datums: readonly (readonly [hash: string, datum: Uint8Array])[]
  readonly transactions: ReadonlyMap<string, BlockRef>
  readonly scriptTxs: readonly LoggedTx[]
  /** The outputs are as the ledger wrote them (a checksummed snapshot's): restoring does not decode them again. */
  readonly outputsChecked?: boolean
}

/** Where a large ledger's snapshot finds its bytes in the log, and how much of the log it covers. */
export interface LogSpans {
  /** The log's file name, beside the state file. */
  readonly file: string
  /** The log's length when the snapshot was written: the records after it are the changes since. */
  readonly covered: number
  /** Where each chain-index transaction's bytes start, by tx id, and each datum's, by hash. */
  readonly txAt: ReadonlyMap<string, number>
  readonly datumAt: ReadonlyMap<string, number>
}

export interface SavedLedger {
  readonly snapshot: LedgerSnapshot
  /** A version 2 or 3 snapshot's references into the log. */
  readonly log?: LogSpans
}

const FORMAT = 'marlowe-desk sandbox ledger'
const VERSION = 1n
const VERSION_WITH_LOG = 2n
const HEX = /^(?:[0-9a-f]{2})*$/
const HASH32 = /^[0-9a-f]{64}$/
const HASH28 = /^[0-9a-f]{56}$/

/** Version 1: the whole ledger, as JSON text. */
function encodeSnapshot(s: LedgerSnapshot): string {
  const block = (b: BlockRef): JsonObject => ({ slot: b.slot, blockNo: b.blockNo, blockHash: b.blockHash })
  const doc: JsonObject = {
    format: FORMAT,
    version: VERSION,
    genesis: s.genesisId,
    slotConfig: { zeroTime: s.zeroTime, zeroSlot: 0n, slotLength: s.slotLength },
    timeOffsetMs: s.timeOffsetMs,
    slot: s.slot,
    tip: block(s.tip),
    utxos: s.utxos.map(([i, o]) => [bytesToHex(i), bytesToHex(o)]),
    datums: s.datums.map(([h, d]) => [h, bytesToHex(d)]),
    transactions: [...s.transactions].map(([id, b]) => [id, b.slot, b.blockNo, b.blockHash]),
    scriptTxs: s.scriptTxs.map((t) => [t.txId, bytesToHex(t.cbor), [...t.scripts]])
  }
  return stringifyJson(doc, { indent: 1 })
}

function object(v: JsonValue | undefined, path: string): JsonObject {
  if (v === undefined || !isJsonObject(v)) throw new Error(`${path} should be an object`)
  return v
}

function array(v: JsonValue | undefined, path: string): JsonValue[] {
  if (!Array.isArray(v)) throw new Error(`${path} should be an array`)
  return v
}

function integer(v: JsonValue | undefined, path: string): bigint {
  if (typeof v !== 'bigint') throw new Error(`${path} should be an integer`)
  return v
}

function text(v: JsonValue | undefined, path: string, pattern: RegExp): string {
  if (typeof v !== 'string' || !pattern.test(v)) throw new Error(`${path} should be a string matching ${pattern}`)
  return v
}

/**
 * Hex decoded by the platform (the chain index alone is megabytes of it on a large ledger); a character that is
 * not hex stops the decoding short, which the length shows.
 */
function hexBytes(v: JsonValue | undefined, path: string): Uint8Array {
  const buffer = typeof v === 'string' ? Buffer.from(v, 'hex') : undefined
  if (buffer === undefined || buffer.byteLength * 2 !== (v as string).length) {
    throw new Error(`${path} should be a string matching ${HEX}`)
  }
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
}

function pairs<K>(
  v: JsonValue | undefined,
  path: string,
  key: (v: JsonValue | undefined, path: string) => K
): [K, Uint8Array][] {
  return array(v, path).map((p, i) => {
    const [a, b, ...rest] = array(p, `${path}[${i}]`)
    if (rest.length > 0) throw new Error(`${path}[${i}] should have two elements`)
    return [key(a, `${path}[${i}][0]`), hexBytes(b, `${path}[${i}][1]`)]
  })
}

function blockRef(v: JsonValue | undefined, path: string): BlockRef {
  const o = object(v, path)
  return {
    slot: integer(o['slot'], `${path}.slot`),
    blockNo: integer(o['blockNo'], `${path}.blockNo`),
    blockHash: text(o['blockHash'], `${path}.blockHash`, HASH32)
  }
}

/** Reads the log named `file` beside the state file, whole (at least `covered` bytes). */
export type ReadLog = (file: string, covered: number) => Uint8Array

/** The log a snapshot continues in, and whether it is what cannot be used. */
interface LogInQuestion {
  readonly path: string
  readonly atFault: boolean
}

/** Bytes of a version 2 snapshot: `[offset, length]` within the part of the log it covers. */
class LogReader {
  readonly txAt = new Map<string, number>()
  readonly datumAt = new Map<string, number>()

  constructor(
    readonly file: string,
    private readonly bytes: Uint8Array,
    readonly covered: number
  ) {}

  span(
    places: Map<string, number>,
    key: string,
    offset: JsonValue | undefined,
    length: JsonValue | undefined,
    path: string
  ): Uint8Array {
    const at = integer(offset, `${path}[1]`)
    const end = at + integer(length, `${path}[2]`)
    if (at < 0n || end < at || end > BigInt(this.covered)) throw new Error(`${path} is outside the log`)
    places.set(key, Number(at))
    return this.bytes.subarray(Number(at), Number(end))
  }
}

/**
 * Throws `Error` naming the first thing wrong (syntax, shape, format or version). A version 2 snapshot reads its
 * bytes from the log `readLog` gives (the file named, whole, at least `covered` bytes).
 */
export function decodeSnapshot(json: string, readLog?: ReadLog): SavedLedger {
  const doc = object(parseJson(json), 'the document')
  if (doc['format'] !== FORMAT) throw new Error(`"format" is not "${FORMAT}"`)
  const version = doc['version']
  if (version !== VERSION && !(version === VERSION_WITH_LOG && readLog !== undefined)) {
    throw new Error(
      `"version" is ${String(version)}, this app reads ${VERSION}${readLog === undefined ? '' : ` and ${VERSION_WITH_LOG}`}`
    )
  }
  let log: LogReader | undefined
  let datums: [string, Uint8Array][]
  if (version === VERSION_WITH_LOG && readLog !== undefined) {
    const where = object(doc['log'], 'log')
    const file = text(where['file'], 'log.file', LOG_FILE_PATTERN)
    const covered = integer(where['bytes'], 'log.bytes')
    if (covered < 0n || covered > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('log.bytes is out of range')
    const reader = new LogReader(file, readLog(file, Number(covered)), Number(covered))
    datums = array(doc['datums'], 'datums').map((d, i) => {
      const path = `datums[${i}]`
      const [hash, offset, length, ...rest] = array(d, path)
      if (rest.length > 0) throw new Error(`${path} should have three elements`)
      const h = text(hash, `${path}[0]`, HASH32)
      return [h, reader.span(reader.datumAt, h, offset, length, path)]
    })
    log = reader
  } else {
    datums = pairs(doc['datums'], 'datums', (v, path) => text(v, path, HASH32))
    // Version 2 has the log's checksums; here nothing but its hash says a datum arrived as it was written.
    datums.forEach(([hash, bytes], i) => {
      if (blake2bHex(bytes, 32) !== hash) throw new Error(`datums[${i}] does not hash to ${hash}`)
    })
  }
  const slotConfig = object(doc['slotConfig'], 'slotConfig')
  if (integer(slotConfig['zeroSlot'], 'slotConfig.zeroSlot') !== 0n) throw new Error('slotConfig.zeroSlot should be 0')
  const transactions = new Map<string, BlockRef>()
  array(doc['transactions'], 'transactions').forEach((t, i) => {
    const path = `transactions[${i}]`
    const [id, slot, blockNo, blockHash] = array(t, path)
    transactions.set(text(id, `${path}[0]`, HASH32), {
      slot: integer(slot, `${path}[1]`),
      blockNo: integer(blockNo, `${path}[2]`),
      blockHash: text(blockHash, `${path}[3]`, HASH32)
    })
  })
  const scriptTxs = (doc['scriptTxs'] === undefined ? [] : array(doc['scriptTxs'], 'scriptTxs')).map((t, i) => {
    const path = `scriptTxs[${i}]`
    const fields = array(t, path)
    const txId = text(fields[0], `${path}[0]`, HASH32)
    const block = transactions.get(txId)
    if (block === undefined) throw new Error(`${path} names a transaction that is not in "transactions"`)
    const scripts = log === undefined ? fields[2] : fields[3]
    return {
      txId,
      block,
      cbor:
        log === undefined ? hexBytes(fields[1], `${path}[1]`) : log.span(log.txAt, txId, fields[1], fields[2], path),
      scripts: array(scripts, `${path}[scripts]`).map((h, j) => text(h, `${path}[scripts][${j}]`, HASH28))
    }
  })
  const snapshot: LedgerSnapshot = {
    genesisId: text(doc['genesis'], 'genesis', HASH32),
    zeroTime: integer(slotConfig['zeroTime'], 'slotConfig.zeroTime'),
    slotLength: integer(slotConfig['slotLength'], 'slotConfig.slotLength'),
    timeOffsetMs: integer(doc['timeOffsetMs'], 'timeOffsetMs'),
    slot: integer(doc['slot'], 'slot'),
    tip: blockRef(doc['tip'], 'tip'),
    utxos: pairs(doc['utxos'], 'utxos', hexBytes),
    datums,
    transactions,
    scriptTxs
  }
  return log === undefined
    ? { snapshot }
    : { snapshot, log: { file: log.file, covered: log.covered, txAt: log.txAt, datumAt: log.datumAt } }
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e))

export const STATE_FILE_NAME = 'sandbox-ledger.state'
/** The state file's name until version 3 snapshots, when it could only hold JSON. */
const FORMER_STATE_FILE_NAME = 'sandbox-ledger.json'

export class StateFile {
  readonly path: string
  readonly backupPath: string
  private readonly tmpPath: string

  constructor(readonly dir: string) {
    this.path = join(dir, STATE_FILE_NAME)
    this.backupPath = `${this.path}.bak`
    this.tmpPath = `${this.path}.tmp`
    try {
      // The ledger holds the wallets' history: its owner's alone, as every file of Desk's data directory.
      mkdirSync(dir, { recursive: true, mode: 0o700 })
    } catch (e) {
      throw new ChainError('Unavailable', `The sandbox cannot create its data directory ${dir}: ${message(e)}`, {
        path: dir
      })
    }
  }

  /**
   * The saved state, or `undefined` when there is none yet; throws `ChainError` when it cannot be used. A version
   * 2 snapshot reads its log through `readLog` (see `decodeSnapshot`).
   */
  read(readLog?: ReadLog): (SavedLedger & { readonly size: number }) | undefined {
    this.moveFromFormerName()
    if (!existsSync(this.path)) return undefined
    let file: Buffer
    try {
      file = readFileSync(this.path)
    } catch (e) {
      throw this.unusable(`it cannot be read (${message(e)})`, this.logBeside())
    }
    let log: LogInQuestion | undefined
    const reading =
      readLog &&
      ((file: string, covered: number): Uint8Array => {
        log = { path: join(this.dir, file), atFault: true }
        const bytes = readLog(file, covered)
        log = { ...log, atFault: false }
        return bytes
      })
    try {
      let saved: SavedLedger
      if (!isBinarySnapshot(file)) saved = decodeSnapshot(file.toString('utf8'), reading)
      else if (reading !== undefined) saved = decodeBinarySnapshot(file, reading)
      else throw new Error('it is a snapshot that continues in a log, which this reader does not open')
      return { ...saved, size: file.length }
    } catch (e) {
      throw this.unusable(`it is corrupt: ${message(e)}`, log ?? this.logBeside())
    }
  }

  /**
   * Gives a state file and its backup kept under the former name the current one. Each rename is atomic and made
   * durable (the directory flushed) before the next; the backup goes first, so a crash between them leaves the
   * state file under its former name, moved at the next opening. Both names present cannot come from a move, so
   * which one holds the ledger is not guessed: the sandbox refuses to start. A temporary file the former writer
   * left holds nothing a reader needs.
   */
  private moveFromFormerName(): void {
    const former = join(this.dir, FORMER_STATE_FILE_NAME)
    for (const [from, to] of [
      [`${former}.bak`, this.backupPath],
      [former, this.path]
    ] as const) {
      if (!existsSync(from)) continue
      if (existsSync(to)) {
        throw new ChainError(
          'Unavailable',
          `The sandbox ledger in ${this.dir} is under two names: ${from} (its name before this version) and ${to}. Both were left untouched. Keep the one that holds the ledger you mean to use and move the other away.`,
          { path: from }
        )
      }
      try {
        renameSync(from, to)
        syncDirectory(this.dir)
      } catch (e) {
        throw new ChainError('Unavailable', `The sandbox cannot rename ${from} to ${to}: ${message(e)}`, { path: from })
      }
    }
    rmSync(`${former}.tmp`, { force: true })
    rmSync(`${former}.bak.tmp`, { force: true })
  }

  /**
   * A `ChainError` for a state file the sandbox refuses to start from, saying what the backup holds: without a
   * log, the state before the last change; with one, an earlier snapshot of the same log, which recovers every
   * change when the state file is at fault and nothing when the log is.
   */
  unusable(why: string, log?: LogInQuestion): ChainError {
    const backup = existsSync(this.backupPath)
    let recovery: string
    if (log === undefined) {
      recovery = backup
        ? ` ${this.backupPath} holds the state before the last transaction: copy it over the file to recover.`
        : ''
    } else if (log.atFault) {
      recovery = backup
        ? ` ${this.backupPath} holds an earlier snapshot that continues in the same log: it cannot recover the changes either.`
        : ''
    } else {
      recovery = backup
        ? ` ${this.backupPath} holds an earlier snapshot that continues in the same log ${log.path}: copy it over the file to recover every change the log holds.`
        : ` Its changes since the last snapshot are in ${log.path}.`
    }
    const away = log === undefined ? 'the file' : `the file and ${log.path}`
    return new ChainError(
      'Unavailable',
      `The sandbox ledger in ${this.path} cannot be used: ${why}. It was left untouched.${recovery} To start a new sandbox instead, move ${away} away.`,
      { path: this.path }
    )
  }

  /** The newest log in the directory, when the state file cannot tell which one it continues in. */
  private logBeside(): LogInQuestion | undefined {
    let names: string[]
    try {
      names = readdirSync(this.dir).filter((name) => LOG_FILE_PATTERN.test(name))
    } catch {
      return undefined
    }
    const newest = names.sort((a, b) => logGeneration(a) - logGeneration(b)).pop()
    return newest === undefined ? undefined : { path: join(this.dir, newest), atFault: false }
  }

  /**
   * Makes the backup a copy of the current state file (a snapshot of the log the sandbox goes on with): a copy,
   * not a link, since the file it backs up is this one and not a replaced one.
   */
  backUpCurrent(): void {
    const staging = `${this.backupPath}.tmp`
    copyFileSync(this.path, staging)
    const fd = openSync(staging, 'r+')
    try {
      fchmodSync(fd, 0o600)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(staging, this.backupPath)
    syncDirectory(this.dir)
  }

  private keepBackup(): void {
    linkOrCopy(this.path, this.backupPath)
    chmodSync(this.backupPath, 0o600)
  }

  /**
   * Writes version 1, or version 3 with `log` (binary-snapshot.ts); returns the file's size. Throws `ChainError('Unavailable')` when
   * the disk refuses; the file then still holds the previous state, unless `replaced` was called (the new file
   * is in place, only making that durable failed).
   */
  write(snapshot: LedgerSnapshot, log?: LogSpans, replaced?: () => void): number {
    try {
      const content = log === undefined ? encodeSnapshot(snapshot) : encodeBinarySnapshot(snapshot, log)
      const fd = openSync(this.tmpPath, 'w', 0o600)
      try {
        // A temporary file a crash left behind keeps its mode through 'w': narrow it.
        fchmodSync(fd, 0o600)
        // writeFileSync on a descriptor writes until every byte is down (or throws, ENOSPC included); a lone
        // writeSync may write part and report it as success.
        writeFileSync(fd, content)
        fsyncSync(fd)
      } finally {
        closeSync(fd)
      }
      if (existsSync(this.path)) this.keepBackup()
      renameSync(this.tmpPath, this.path)
      replaced?.()
      syncDirectory(this.dir)
      // Version 1's text is ASCII: its length is its size in bytes.
      return content.length
    } catch (e) {
      throw new ChainError('Unavailable', `The sandbox ledger could not be saved to ${this.path}: ${message(e)}`, {
        path: this.path
      })
    }
  }
}

/**
 * The current file becomes the backup: a hard link to it (nothing copied, however large the ledger), put in
 * place by a rename so a crash leaves the old backup or the new one; a copy where the file system has no links.
 */
function linkOrCopy(from: string, to: string): void {
  const staging = `${to}.tmp`
  rmSync(staging, { force: true })
  try {
    linkSync(from, staging)
  } catch {
    copyFileSync(from, staging)
  }
  renameSync(staging, to)
}

/**
 * Makes a rename or a new file's name durable; directories cannot be opened on Windows, where renames are already
 * durable.
 */
export function syncDirectory(dir: string): void {
  let fd: number
  try {
    fd = openSync(dir, 'r')
  } catch {
    return
  }
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}
