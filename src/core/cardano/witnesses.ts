/**
 * Adding key witnesses to a transaction without re-serialising anything that is already there: the body
 * bytes (so the tx id), and every other witness-set entry (datums and redeemers, whose exact bytes the
 * script data hash covers) are copied verbatim. Only the vkey witness list (witness set key 0) is rewritten.
 */
import { bytesToHex, concatBytes } from '../bytes'
import {
  CborError,
  decodeCbor,
  encodeByteString,
  encodeHead,
  type CborItem,
  type CborMap,
  MAJOR_ARRAY,
  MAJOR_MAP,
  MAJOR_TAG
} from './cbor'

export class WitnessError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'WitnessError'
  }
}

/** One vkey witness `[vkey (32 bytes), signature (64 bytes)]` as CBOR, with its parts. */
export interface VkeyWitness {
  readonly cbor: Uint8Array
  readonly vkey: Uint8Array
  readonly signature: Uint8Array
}

const TAG_SET = 258
const VKEYS = 0n

function read(bytes: Uint8Array, what: string): CborItem {
  try {
    return decodeCbor(bytes).item
  } catch (e) {
    if (e instanceof CborError) throw new WitnessError(`${what} is not valid CBOR: ${e.message}`)
    throw e
  }
}

function vkeyWitnessFrom(item: CborItem, source: Uint8Array, what: string): VkeyWitness {
  const [vkey, signature] = item.kind === 'array' ? item.items : []
  if (item.kind !== 'array' || item.items.length !== 2 || vkey?.kind !== 'bytes' || signature?.kind !== 'bytes') {
    throw new WitnessError(`${what} is not a vkey witness [vkey, signature]`)
  }
  if (vkey.value.length !== 32 || signature.value.length !== 64) {
    throw new WitnessError(
      `${what} has a ${vkey.value.length}-byte key and a ${signature.value.length}-byte signature (expected 32 and 64)`
    )
  }
  return { cbor: source.slice(item.start, item.end), vkey: vkey.value, signature: signature.value }
}

/** The items of a witness list, which Conway may wrap in the set tag 258. */
function listItems(item: CborItem, what: string): { items: readonly CborItem[]; tagged: boolean } {
  if (item.kind === 'tag' && item.tag === TAG_SET && item.item.kind === 'array')
    return { items: item.item.items, tagged: true }
  if (item.kind === 'array') return { items: item.items, tagged: false }
  throw new WitnessError(`${what} is not a list of witnesses`)
}

function asMap(item: CborItem, what: string): CborMap {
  if (item.kind !== 'map') throw new WitnessError(`${what} is not a CBOR map`)
  return item
}

function isVkeyKey(key: CborItem): boolean {
  return key.kind === 'int' && key.value === VKEYS
}

/** The vkey witnesses of a witness set (CBOR map), e.g. the body of a `ShelleyTxWitness` envelope. */
export function vkeyWitnessesOfWitnessSet(witnessSet: Uint8Array): VkeyWitness[] {
  const map = asMap(read(witnessSet, 'the witness set'), 'the witness set')
  const entry = map.entries.find(([k]) => isVkeyKey(k))
  if (entry === undefined) return []
  return listItems(entry[1], 'witness set key 0').items.map((w, i) =>
    vkeyWitnessFrom(w, witnessSet, `vkey witness ${i}`)
  )
}

/** A cardano-cli key witness (`TxWitness <Era>` cborHex): `[0, [vkey, signature]]`. */
export function vkeyWitnessOfKeyWitness(bytes: Uint8Array): VkeyWitness {
  const item = read(bytes, 'the key witness')
  const [tag, witness] = item.kind === 'array' ? item.items : []
  if (item.kind !== 'array' || item.items.length !== 2 || tag?.kind !== 'int' || witness === undefined) {
    throw new WitnessError('the key witness is not [0, [vkey, signature]]')
  }
  if (tag.value === 1n) throw new WitnessError('bootstrap (Byron) witnesses are not supported')
  if (tag.value !== 0n) throw new WitnessError(`unknown key witness kind ${tag.value}`)
  return vkeyWitnessFrom(witness, bytes, 'the key witness')
}

/** The vkey witness of a 32-byte key and its 64-byte signature, e.g. one a hardware wallet returned. */
export function vkeyWitnessOf(vkey: Uint8Array, signature: Uint8Array): VkeyWitness {
  if (vkey.length !== 32 || signature.length !== 64) {
    throw new WitnessError(
      `a vkey witness has a 32-byte key and a 64-byte signature, got ${vkey.length} and ${signature.length}`
    )
  }
  const cbor = concatBytes([encodeHead(MAJOR_ARRAY, 2), encodeByteString(vkey), encodeByteString(signature)])
  return { cbor, vkey, signature }
}

/** cardano-cli's key witness encoding, `[0, witness]`. */
export function keyWitnessBytes(witness: VkeyWitness): Uint8Array {
  return concatBytes([Uint8Array.of(0x82, 0x00), witness.cbor])
}

/** A witness set holding only these vkey witnesses (what Runtime's submit accepts as `ShelleyTxWitness`). */
export function witnessSetBytes(witnesses: readonly VkeyWitness[], tagged = true): Uint8Array {
  return concatBytes([encodeHead(MAJOR_MAP, 1), Uint8Array.of(0x00), vkeyList(witnesses, tagged)])
}

function vkeyList(witnesses: readonly VkeyWitness[], tagged: boolean): Uint8Array {
  const list = [encodeHead(MAJOR_ARRAY, witnesses.length), ...witnesses.map((w) => w.cbor)]
  return concatBytes(tagged ? [encodeHead(MAJOR_TAG, TAG_SET), ...list] : list)
}

export interface TxParts {
  /** The array head of the whole transaction as written. */
  readonly head: Uint8Array
  readonly body: Uint8Array
  readonly witnessSet: CborMap
  readonly rest: Uint8Array
  readonly source: Uint8Array
}

/** Splits a transaction `[body, witnessSet, isValid?, auxData]` keeping every part's original bytes. */
export function splitTransaction(tx: Uint8Array): TxParts {
  const item = read(tx, 'the transaction')
  if (item.kind !== 'array' || item.items.length < 3 || item.items.length > 4) {
    throw new WitnessError('the transaction is not an array [body, witnesses, (isValid,) auxiliary data]')
  }
  const [body, witnessSet] = item.items as [CborItem, CborItem]
  if (body.kind !== 'map') throw new WitnessError('the transaction body is not a CBOR map')
  return {
    head: tx.slice(item.start, body.start),
    body: tx.slice(body.start, body.end),
    witnessSet: asMap(witnessSet, 'the witness set'),
    rest: tx.slice(witnessSet.end, item.end),
    source: tx
  }
}

/** Whether the body writes its inputs with the Conway set tag: new witness lists then use it too. */
function bodyUsesSetTags(body: Uint8Array): boolean {
  const map = asMap(read(body, 'the transaction body'), 'the transaction body')
  const inputs = map.entries.find(([k]) => k.kind === 'int' && k.value === 0n)
  return inputs !== undefined && inputs[1].kind === 'tag' && inputs[1].tag === TAG_SET
}

export interface MergeResult {
  readonly tx: Uint8Array
  /** Witnesses added (a witness whose key already signed is not added twice). */
  readonly added: number
}

/**
 * Adds vkey witnesses to a transaction. Existing witnesses stay first and in order; a new witness for a key
 * that already signed is skipped. Everything but witness-set key 0 is copied byte for byte.
 */
export function addVkeyWitnesses(tx: Uint8Array, witnesses: readonly VkeyWitness[]): MergeResult {
  const parts = splitTransaction(tx)
  const { source, witnessSet } = parts
  const existingEntry = witnessSet.entries.find(([k]) => isVkeyKey(k))
  const existing = existingEntry === undefined ? undefined : listItems(existingEntry[1], 'witness set key 0')
  const kept = (existing?.items ?? []).map((w, i) => vkeyWitnessFrom(w, source, `existing vkey witness ${i}`))
  const seen = new Set(kept.map((w) => bytesToHex(w.vkey)))
  const added: VkeyWitness[] = []
  for (const w of witnesses) {
    const key = bytesToHex(w.vkey)
    if (seen.has(key)) continue
    seen.add(key)
    added.push(w)
  }
  if (added.length === 0) return { tx, added: 0 }
  const tagged = existing?.tagged ?? bodyUsesSetTags(parts.body)
  const newVkeys = vkeyList([...kept, ...added], tagged)
  const entries: Uint8Array[] = []
  if (existingEntry === undefined) entries.push(Uint8Array.of(0x00), newVkeys)
  for (const [k, v] of witnessSet.entries) {
    entries.push(source.slice(k.start, k.end))
    entries.push(isVkeyKey(k) ? newVkeys : source.slice(v.start, v.end))
  }
  const count = witnessSet.entries.length + (existingEntry === undefined ? 1 : 0)
  const mapHead = witnessSet.indefinite ? Uint8Array.of(0xbf) : encodeHead(MAJOR_MAP, count)
  const mapTail = witnessSet.indefinite ? [Uint8Array.of(0xff)] : []
  return { tx: concatBytes([parts.head, parts.body, mapHead, ...entries, ...mapTail, parts.rest]), added: added.length }
}
