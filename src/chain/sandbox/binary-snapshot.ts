/**
 * Version 3 of a large ledger's snapshot (state-file.ts has versions 1 and 2): what version 2 holds, in CBOR
 * (cbor-x) instead of JSON, so that loading 10,000 contracts reads byte strings and integers as they are, with no
 * JSON text to parse, no hex to decode and no pattern to test per entry.
 *
 * File: MAGIC (ASCII, 28 bytes) ‖ version (1 byte, 3) ‖ body length (4 bytes, big-endian) ‖ CRC-32 of the body
 * (4 bytes) ‖ body. The length and checksum tell a truncated or damaged file from a whole one before anything in
 * it is used. The body is one CBOR array of columns: each list's hashes are one byte string (hashes one after the
 * other), its numbers one array, so that a ledger of 10,000 contracts is a dozen objects to decode, not 100,000:
 *   [ genesis id ‖ tip hash, [zeroTime, slotLength, timeOffsetMs, slot, tip slot, tip block no],
 *     log file name, log bytes covered,
 *     the UTxOs' input ‖ output CBOR one after the other, [input length, output length, …],
 *     datum hashes, [offset in the log, length, …],
 *     transaction ids, [slot, block no, …], block hashes,
 *     chain-index transaction ids, [offset in the log, length, number of payment scripts, …], script hashes (28) ]
 */
import { crc32 } from 'node:zlib'
import { Decoder, Encoder } from 'cbor-x'
import { LOG_FILE_PATTERN } from './ledger-log'
import type { BlockRef, LedgerSnapshot, LogSpans, SavedLedger } from './state-file'

export const BINARY_VERSION = 3
const MAGIC = Buffer.from('marlowe-desk sandbox ledger\n', 'ascii')
/** Where the version byte is. */
export const BINARY_VERSION_AT = MAGIC.length
const HEAD = MAGIC.length + 1 + 4 + 4
const FIELDS = 14

// Plain CBOR: byte strings untagged, no cbor-x records; byte strings read as views of the file's bytes.
const encoder = new Encoder({ tagUint8Array: false, useRecords: false, pack: false })
const decoder = new Decoder({ useRecords: false, pack: false })

/**
 * Whether `bytes` are meant as a version 3 snapshot: they start as one does (a JSON state file starts with `{`), so
 * that one cut short inside its header is refused as what it is.
 */
export function isBinarySnapshot(bytes: Uint8Array): boolean {
  return bytes[0] === MAGIC[0]
}

function place(places: ReadonlyMap<string, number>, key: string): number {
  const at = places.get(key)
  if (at === undefined) throw new Error(`${key} has no place in the log`)
  return at
}

/** Hashes given as hex, one after the other as bytes: a column of the snapshot. */
function column(hashes: Iterable<string>): Buffer {
  let hex = ''
  for (const h of hashes) hex += h
  return Buffer.from(hex, 'hex')
}

export function encodeBinarySnapshot(s: LedgerSnapshot, log: LogSpans): Uint8Array {
  const utxoLengths: number[] = []
  for (const [input, output] of s.utxos) utxoLengths.push(input.length, output.length)
  const datumPlaces: number[] = []
  for (const [h, d] of s.datums) datumPlaces.push(place(log.datumAt, h), d.length)
  const blocks: bigint[] = []
  for (const b of s.transactions.values()) blocks.push(b.slot, b.blockNo)
  const scriptTxPlaces: number[] = []
  for (const t of s.scriptTxs) scriptTxPlaces.push(place(log.txAt, t.txId), t.cbor.length, t.scripts.length)
  const body = encoder.encode([
    column([s.genesisId, s.tip.blockHash]),
    [s.zeroTime, s.slotLength, s.timeOffsetMs, s.slot, s.tip.slot, s.tip.blockNo],
    log.file,
    log.covered,
    Buffer.concat(s.utxos.flat()),
    utxoLengths,
    column(s.datums.map(([h]) => h)),
    datumPlaces,
    column(s.transactions.keys()),
    blocks,
    column([...s.transactions.values()].map((b) => b.blockHash)),
    column(s.scriptTxs.map((t) => t.txId)),
    scriptTxPlaces,
    column(s.scriptTxs.flatMap((t) => t.scripts))
  ]) as Uint8Array
  const head = Buffer.alloc(HEAD)
  MAGIC.copy(head)
  head.writeUInt8(BINARY_VERSION, MAGIC.length)
  head.writeUInt32BE(body.length, MAGIC.length + 1)
  head.writeUInt32BE(crc32(body), MAGIC.length + 5)
  return Buffer.concat([head, body])
}

function integer(v: unknown, path: string): bigint {
  if (typeof v === 'bigint') return v
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v)
  throw new Error(`${path} should be an integer`)
}

/** A whole number no larger than `most` (an offset or a length). */
function count(v: unknown, most: number, path: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0 || v > most) {
    throw new Error(`${path} should be a whole number up to ${most}`)
  }
  return v
}

/** Bytes as the ledger keeps them: a plain Uint8Array over the file's (cbor-x gives a Buffer). */
function bytes(v: unknown, path: string): Uint8Array {
  if (!(v instanceof Uint8Array)) throw new Error(`${path} should be bytes`)
  return new Uint8Array(v.buffer, v.byteOffset, v.length)
}

function list(v: unknown, width: number, path: string): unknown[] {
  if (!Array.isArray(v) || v.length % width !== 0) throw new Error(`${path} should be a list of ${width}-field entries`)
  return v
}

/**
 * A column of `size`-byte hashes, as the ledger keeps them (hex): one hex string cut in pieces, not one object
 * per hash to decode. Throws unless it holds `entries` of them, when given.
 */
function hashes(v: unknown, size: number, path: string, entries?: number): string[] {
  const column = bytes(v, path)
  if (column.length % size !== 0 || (entries !== undefined && column.length !== entries * size)) {
    throw new Error(`${path} should be ${entries ?? 'a whole number of'} hashes of ${size} bytes`)
  }
  const hex = Buffer.from(column.buffer, column.byteOffset, column.length).toString('hex')
  const out = new Array<string>(column.length / size)
  for (let i = 0; i < out.length; i += 1) out[i] = hex.slice(2 * size * i, 2 * size * (i + 1))
  return out
}

/**
 * Throws `Error` naming the first thing wrong: a truncated or damaged file, another version, a field of the wrong
 * kind, or a place outside the part of the log the snapshot covers. `readLog` gives the log named (at least
 * `covered` bytes).
 */
export function decodeBinarySnapshot(
  file: Uint8Array,
  readLog: (name: string, covered: number) => Uint8Array
): SavedLedger {
  if (file.length < HEAD) throw new Error(`it ends after ${file.length} bytes, inside its ${HEAD}-byte header`)
  if (!MAGIC.equals(file.subarray(0, MAGIC.length))) throw new Error('it is neither a sandbox ledger nor JSON')
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength)
  const version = view.getUint8(MAGIC.length)
  if (version !== BINARY_VERSION)
    throw new Error(`its version is ${version}, this app reads 1, 2 and ${BINARY_VERSION}`)
  const length = view.getUint32(MAGIC.length + 1)
  if (file.length !== HEAD + length) {
    throw new Error(
      `it holds ${file.length - HEAD} bytes after its header where it says ${length}: it is truncated or damaged`
    )
  }
  const body = file.subarray(HEAD)
  if (crc32(body) !== view.getUint32(MAGIC.length + 5)) throw new Error('its checksum does not match: it is damaged')
  let fields: unknown
  try {
    fields = decoder.decode(body)
  } catch (e) {
    throw new Error(`its CBOR does not decode (${e instanceof Error ? e.message : String(e)})`)
  }
  if (!Array.isArray(fields) || fields.length !== FIELDS) throw new Error(`it should be a list of ${FIELDS} fields`)
  const [genesisId, tipHash] = hashes(fields[0], 32, 'genesis and tip hashes', 2) as [string, string]
  const numbers = list(fields[1], 6, 'clock and tip')
  if (numbers.length !== 6) throw new Error('clock and tip should have 6 fields')
  const logFile = fields[2]
  if (typeof logFile !== 'string' || !LOG_FILE_PATTERN.test(logFile)) throw new Error('its log file name is not one')
  const covered = count(fields[3], Number.MAX_SAFE_INTEGER, 'log bytes')
  const logBytes = readLog(logFile, covered)
  const span = (places: unknown[], i: number, path: string): Uint8Array => {
    const at = count(places[i], covered, `${path} offset`)
    const end = at + count(places[i + 1], covered, `${path} length`)
    if (end > covered) throw new Error(`${path} is outside the log`)
    return logBytes.subarray(at, end)
  }

  const utxoBytes = bytes(fields[4], 'utxos')
  const utxoLengths = list(fields[5], 2, 'utxo lengths')
  const utxos = new Array<readonly [Uint8Array, Uint8Array]>(utxoLengths.length / 2)
  let at = 0
  for (let i = 0; i < utxos.length; i += 1) {
    const input = count(utxoLengths[2 * i], utxoBytes.length, `utxos[${i}] input length`)
    const output = count(utxoLengths[2 * i + 1], utxoBytes.length, `utxos[${i}] output length`)
    if (at + input + output > utxoBytes.length) throw new Error(`utxos[${i}] is outside the utxos' bytes`)
    utxos[i] = [utxoBytes.subarray(at, at + input), utxoBytes.subarray(at + input, at + input + output)]
    at += input + output
  }
  if (at !== utxoBytes.length) throw new Error("the utxos' bytes do not end with the last utxo")

  const datumPlaces = list(fields[7], 2, 'datum places')
  const datumHashes = hashes(fields[6], 32, 'datum hashes', datumPlaces.length / 2)
  const datumAt = new Map<string, number>()
  const datums = datumHashes.map((h, i): readonly [string, Uint8Array] => {
    const datum = span(datumPlaces, 2 * i, `datums[${i}]`)
    datumAt.set(h, datumPlaces[2 * i] as number)
    return [h, datum]
  })

  const blocks = list(fields[9], 2, 'blocks')
  const txIds = hashes(fields[8], 32, 'transaction ids', blocks.length / 2)
  const blockHashes = hashes(fields[10], 32, 'block hashes', txIds.length)
  const transactions = new Map<string, BlockRef>()
  txIds.forEach((id, i) => {
    transactions.set(id, {
      slot: integer(blocks[2 * i], `transactions[${i}] slot`),
      blockNo: integer(blocks[2 * i + 1], `transactions[${i}] block number`),
      blockHash: blockHashes[i]!
    })
  })

  const scriptTxPlaces = list(fields[12], 3, 'chain index places')
  const scriptTxIds = hashes(fields[11], 32, 'chain index ids', scriptTxPlaces.length / 3)
  const scriptHashes = hashes(fields[13], 28, 'chain index scripts')
  const txAt = new Map<string, number>()
  let script = 0
  const scriptTxs = scriptTxIds.map((txId, i): LedgerSnapshot['scriptTxs'][number] => {
    const path = `scriptTxs[${i}]`
    const block = transactions.get(txId)
    if (block === undefined) throw new Error(`${path} names a transaction that is not in "transactions"`)
    const cbor = span(scriptTxPlaces, 3 * i, path)
    txAt.set(txId, scriptTxPlaces[3 * i] as number)
    const scripts = count(scriptTxPlaces[3 * i + 2], scriptHashes.length - script, `${path} scripts`)
    script += scripts
    return { txId, block, cbor, scripts: scriptHashes.slice(script - scripts, script) }
  })
  if (script !== scriptHashes.length) throw new Error('the chain index scripts do not end with the last transaction')

  const snapshot: LedgerSnapshot = {
    genesisId,
    zeroTime: integer(numbers[0], 'zeroTime'),
    slotLength: integer(numbers[1], 'slotLength'),
    timeOffsetMs: integer(numbers[2], 'timeOffsetMs'),
    slot: integer(numbers[3], 'slot'),
    tip: {
      slot: integer(numbers[4], 'tip slot'),
      blockNo: integer(numbers[5], 'tip block number'),
      blockHash: tipHash
    },
    utxos,
    datums,
    transactions,
    scriptTxs,
    outputsChecked: true
  }
  return { snapshot, log: { file: logFile, covered, txAt, datumAt } }
}
