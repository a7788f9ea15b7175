/**
 * The CBOR reader with the shapes every part of a transaction shares: sets (counting tag 258 use), hashes,
 * transaction inputs, credentials, anchors, addresses, embedded CBOR and Plutus Data, each failure a
 * `CborError` at the offending byte.
 */
import { utf8Length } from '../../bytes'
import { AddressError, type Credential } from '../address'
import { CborError, CborReader, type CborReaderOptions } from '../cbor'
import { PlutusDataError, decodePlutusDataItem, skipPlutusDataItem, type PlutusData } from '../../marlowe/plutus/data'
import { decodeAddress, type DecodedAddress } from './address'
import type { Anchor, SetTagUse, TxIn } from './types'

export const HASH28 = 28
export const HASH32 = 32
const TAG_EMBEDDED_CBOR = 24
const INDEFINITE_BYTES = 0x5f
/** Conway's anchor URL limit. */
const MAX_URL_BYTES = 128

export class TxReader extends CborReader {
  private tagged = 0
  private untagged = 0

  constructor(bytes: Uint8Array, start = 0, end = bytes.length, options: CborReaderOptions = {}) {
    super(bytes, start, end, options)
  }

  /**
   * Reads an item already read once as a generic item (a map key) with its schema; `read` must consume all of
   * it. The item's encoding issues were logged the first time, so this pass logs nowhere.
   */
  reread<T>(item: { readonly start: number; readonly end: number }, what: string, read: (k: TxReader) => T): T {
    const k = new TxReader(this.source, item.start, item.end)
    const value = read(k)
    k.expectEnd(what)
    return value
  }

  /** A reader over `[start, end)` of the same input, logging to the same issue log. */
  sub(start: number, end: number): TxReader {
    return new TxReader(this.source, start, end, { issues: this.issues })
  }

  get setTags(): SetTagUse {
    return { tagged: this.tagged, untagged: this.untagged }
  }

  /** A ledger set: an array, tagged 258 or not. */
  set(what: string, onItem: (index: number) => void): void {
    this.countTag(this.setItems(what, onItem))
  }

  /** A ledger set whose elements are known by a hash: `onItem` returns it (see `keyedSetItems`). */
  hashedSet(what: string, onItem: (index: number) => string): void {
    this.countTag(this.keyedSetItems(what, onItem))
  }

  private countTag(tagged: boolean): void {
    if (tagged) this.tagged += 1
    else this.untagged += 1
  }

  /** `null` or the value `read` returns. */
  nullable<T>(read: () => T): T | undefined {
    return this.takeNull() ? undefined : read()
  }

  txIn(what: string): TxIn {
    const count = this.fixedArray(what, 2)
    const txId = this.hash(`${what} transaction id`, HASH32)
    const index = this.smallUint(`${what} index`, Number.MAX_SAFE_INTEGER)
    this.closeArray(count, what)
    return { txId, index }
  }

  /** `[0, key hash] / [1, script hash]`. */
  credential(what: string): Credential {
    const count = this.fixedArray(what, 2)
    const type = this.smallUint(`${what} type`, 1) === 0 ? 'key' : 'script'
    const hash = this.hash(what, HASH28)
    this.closeArray(count, what)
    return { type, hash }
  }

  anchor(what: string): Anchor {
    const count = this.fixedArray(what, 2)
    const start = this.pos
    const url = this.text(`${what} url`)
    if (utf8Length(url) > MAX_URL_BYTES) {
      this.fail(`${what}: the url is longer than ${MAX_URL_BYTES} bytes`, start)
    }
    const dataHash = this.hash(`${what} data hash`, HASH32)
    this.closeArray(count, what)
    return { url, dataHash }
  }

  address(what: string): DecodedAddress {
    const start = this.pos
    const bytes = this.bytes(what)
    try {
      return decodeAddress(bytes)
    } catch (e) {
      if (e instanceof AddressError) this.fail(`${what}: ${e.message}`, start)
      throw e
    }
  }

  rewardAccount(what: string): DecodedAddress {
    const start = this.pos
    const address = this.address(what)
    if (address.kind !== 'reward') this.fail(`${what}: expected a reward address, got a ${address.kind} address`, start)
    return address
  }

  /**
   * `#6.24(bytes)`: the embedded bytes and, when they are contiguous in the input (a definite byte string),
   * where they start, so what is decoded from them keeps offsets into the transaction.
   */
  embedded(what: string): { bytes: Uint8Array; start: number | undefined } {
    const tagStart = this.pos
    if (this.tag(what) !== TAG_EMBEDDED_CBOR) this.fail(`${what}: expected tag 24 (embedded CBOR)`, tagStart)
    const indefinite = this.peekByte() === INDEFINITE_BYTES
    const bytes = this.bytes(what)
    return { bytes, start: indefinite ? undefined : this.pos - bytes.length }
  }

  /** One Plutus Data item at the current position; advances past it. */
  plutusData(what: string): { data: PlutusData; bytes: Uint8Array; offset: number } {
    const offset = this.pos
    const { data, end } = plutusDataAt(this.source, offset, this.end, what)
    this.pos = end
    return { data, bytes: this.source.subarray(offset, end), offset }
  }

  /**
   * The bytes of the one Plutus Data item at the current position, checked as `plutusData` checks them but
   * without building the tree: datums are decoded later, and only as what they are needed as.
   */
  plutusDataBytes(what: string): { bytes: Uint8Array; offset: number } {
    const offset = this.pos
    const end = plutusDataEnd(this.source, offset, this.end, what)
    this.pos = end
    return { bytes: this.source.subarray(offset, end), offset }
  }

  /** Checks that the embedded bytes returned by `embedded` are exactly one Plutus Data item. */
  checkEmbeddedPlutusData(embedded: { bytes: Uint8Array; start: number | undefined }, what: string): void {
    const { bytes, start } = embedded
    const source = start === undefined ? bytes : this.source
    const from = start ?? 0
    const to = from + bytes.length
    const end = plutusDataEnd(source, from, to, what)
    if (end !== to) this.fail(`${what}: ${to - end} unexpected bytes after the datum`, end)
  }
}

/** Decodes Plutus Data within `[offset, limit)`, turning its errors into `CborError`s at the same offset. */
function plutusDataAt(
  source: Uint8Array,
  offset: number,
  limit: number,
  what: string
): { data: PlutusData; end: number } {
  return asCborError(what, offset, () => decodePlutusDataItem(within(source, limit), offset))
}

/** Where the Plutus Data item at `offset` ends within `[offset, limit)`; errors as `plutusDataAt`'s. */
function plutusDataEnd(source: Uint8Array, offset: number, limit: number, what: string): number {
  return asCborError(what, offset, () => skipPlutusDataItem(within(source, limit), offset))
}

function within(source: Uint8Array, limit: number): Uint8Array {
  return limit === source.length ? source : source.subarray(0, limit)
}

function asCborError<T>(what: string, offset: number, read: () => T): T {
  try {
    return read()
  } catch (e) {
    if (e instanceof PlutusDataError) {
      const reason = e.message.replace(/ at byte \d+$/, '')
      throw new CborError(`${what}: ${reason}`, e.offset ?? offset)
    }
    throw e
  }
}
