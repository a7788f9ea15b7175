/**
 * The sandbox ledger on disk: `<dataDir>/sandbox-ledger.json`, rewritten after every confirmed transaction and
 * every time jump. A write goes to a temporary file that is flushed to disk (fsync) and then renamed over the
 * old one, so a crash leaves either the old or the new state, never half of one; the previous state is first
 * copied to `sandbox-ledger.json.bak`.
 *
 * Format (JSON, integers exact):
 *   { "format": "marlowe-desk sandbox ledger", "version": 1, "genesis": <GENESIS_ID>,
 *     "slotConfig": { "zeroTime": <POSIX ms of slot 0>, "zeroSlot": 0, "slotLength": 1000 },
 *     "timeOffsetMs": <how far the sandbox clock runs ahead of the wall clock>, "slot": <current slot>,
 *     "tip": { "slot", "blockNo", "blockHash" }            — the last block,
 *     "utxos": [[<input CBOR hex>, <output CBOR hex>], …],
 *     "datums": [[<datum hash>, <datum CBOR hex>], …]        — every datum the ledger has seen,
 *     "transactions": [[<tx id>, <slot>, <block no>, <block hash>], …],
 *     "scriptTxs": [[<tx id>, <tx CBOR hex>, [<payment script hash>, …]], …] }  — the chain index, in chain order
 *
 * `scriptTxs` came later: a file without it has an empty index (the transactions before it are not listed).
 *
 * A file that cannot be read, is not this format, or was made by another genesis is refused with a
 * `ChainError` saying what is wrong and what to do; it is never overwritten.
 */
import {
  closeSync,
  chmodSync,
  copyFileSync,
  fchmodSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync
} from 'node:fs'
import { join } from 'node:path'
import { bytesToHex, hexToBytes } from '../../core/bytes'
import { isJsonObject, parseJson, stringifyJson, type JsonObject, type JsonValue } from '../../core/json/lossless'
import { ChainError } from '../provider'
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
  readonly utxos: readonly (readonly [input: string, output: string])[]
  readonly datums: readonly (readonly [hash: string, datum: string])[]
  readonly transactions: ReadonlyMap<string, BlockRef>
  readonly scriptTxs: readonly LoggedTx[]
}

const FORMAT = 'marlowe-desk sandbox ledger'
const VERSION = 1n
const HEX = /^(?:[0-9a-f]{2})*$/
const HASH32 = /^[0-9a-f]{64}$/
const HASH28 = /^[0-9a-f]{56}$/

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
    utxos: s.utxos.map(([i, o]) => [i, o]),
    datums: s.datums.map(([h, d]) => [h, d]),
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

function pairs(v: JsonValue | undefined, path: string, first: RegExp): [string, string][] {
  return array(v, path).map((p, i) => {
    const [a, b, ...rest] = array(p, `${path}[${i}]`)
    if (rest.length > 0) throw new Error(`${path}[${i}] should have two elements`)
    return [text(a, `${path}[${i}][0]`, first), text(b, `${path}[${i}][1]`, HEX)]
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

/** Throws `Error` naming the first thing wrong (syntax, shape, format or version). */
export function decodeSnapshot(json: string): LedgerSnapshot {
  const doc = object(parseJson(json), 'the document')
  if (doc['format'] !== FORMAT) throw new Error(`"format" is not "${FORMAT}"`)
  if (doc['version'] !== VERSION) throw new Error(`"version" is ${String(doc['version'])}, this app reads ${VERSION}`)
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
    const [id, cbor, scripts] = array(t, path)
    const txId = text(id, `${path}[0]`, HASH32)
    const block = transactions.get(txId)
    if (block === undefined) throw new Error(`${path} names a transaction that is not in "transactions"`)
    return {
      txId,
      block,
      cbor: hexToBytes(text(cbor, `${path}[1]`, HEX)),
      scripts: array(scripts, `${path}[2]`).map((h, j) => text(h, `${path}[2][${j}]`, HASH28))
    }
  })
  return {
    genesisId: text(doc['genesis'], 'genesis', HASH32),
    zeroTime: integer(slotConfig['zeroTime'], 'slotConfig.zeroTime'),
    slotLength: integer(slotConfig['slotLength'], 'slotConfig.slotLength'),
    timeOffsetMs: integer(doc['timeOffsetMs'], 'timeOffsetMs'),
    slot: integer(doc['slot'], 'slot'),
    tip: blockRef(doc['tip'], 'tip'),
    utxos: pairs(doc['utxos'], 'utxos', HEX),
    datums: pairs(doc['datums'], 'datums', HASH32),
    transactions,
    scriptTxs
  }
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e))

export const STATE_FILE_NAME = 'sandbox-ledger.json'

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

  /** The saved state, or `undefined` when there is none yet; throws `ChainError` when it cannot be used. */
  read(): LedgerSnapshot | undefined {
    if (!existsSync(this.path)) return undefined
    let json: string
    try {
      json = readFileSync(this.path, 'utf8')
    } catch (e) {
      throw this.unusable(`it cannot be read (${message(e)})`)
    }
    try {
      return decodeSnapshot(json)
    } catch (e) {
      throw this.unusable(`it is corrupt: ${message(e)}`)
    }
  }

  /** A `ChainError` for a state file the sandbox refuses to start from. */
  unusable(why: string): ChainError {
    const backup = existsSync(this.backupPath)
      ? ` ${this.backupPath} holds the state before the last transaction: copy it over the file to recover.`
      : ''
    return new ChainError(
      'Unavailable',
      `The sandbox ledger in ${this.path} cannot be used: ${why}. It was left untouched.${backup} To start a new sandbox instead, move the file away.`,
      { path: this.path }
    )
  }

  /** Throws `ChainError('Unavailable')` when the disk refuses; the file then still holds the previous state. */
  write(snapshot: LedgerSnapshot): void {
    try {
      const fd = openSync(this.tmpPath, 'w', 0o600)
      try {
        // A temporary file a crash left behind keeps its mode through 'w': narrow it.
        fchmodSync(fd, 0o600)
        // writeFileSync on a descriptor writes until every byte is down (or throws, ENOSPC included); a lone
        // writeSync may write part and report it as success.
        writeFileSync(fd, encodeSnapshot(snapshot))
        fsyncSync(fd)
      } finally {
        closeSync(fd)
      }
      if (existsSync(this.path)) {
        copyFileSync(this.path, this.backupPath)
        chmodSync(this.backupPath, 0o600)
      }
      renameSync(this.tmpPath, this.path)
      syncDirectory(this.dir)
    } catch (e) {
      throw new ChainError('Unavailable', `The sandbox ledger could not be saved to ${this.path}: ${message(e)}`, {
        path: this.path
      })
    }
  }
}

/** Makes the rename itself durable; directories cannot be opened on Windows, where rename is already durable. */
function syncDirectory(dir: string): void {
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
