/**
 * Scripts between Blockfrost's forms and `ScriptRef.bytes`. Plutus scripts come as CBOR hex whose wrapping differs
 * between backends (flat in one or two CBOR byte strings); the script hash decides which form is the ledger's.
 * Native scripts may come only as cardano-cli JSON, which is encoded here and checked against the hash the same way.
 */
import { bytesToHex, concatBytes, hexToBytes } from '../../core/bytes'
import { CborError, decodeCbor, encodeByteString, encodeHead, type CborItem } from '../../core/cardano/cbor'
import { LANGUAGE_TAG, scriptHashHex } from '../../core/cardano/tx'
import type { JsonObject, JsonValue } from '../../core/json/lossless'
import type { ScriptLanguage } from '../provider'
import { asArray, asHex, asNatural, asObject, asString, badResponse, get } from './shape'

/** Blockfrost's `type` of a script. */
export const SCRIPT_TYPES: Readonly<Record<string, ScriptLanguage>> = {
  timelock: 'Native',
  plutusV1: 'PlutusV1',
  plutusV2: 'PlutusV2',
  plutusV3: 'PlutusV3'
}

const MAX_NATIVE_DEPTH = 64

/** The content of `bytes` when all of it is one CBOR byte string. */
function unwrapByteString(bytes: Uint8Array): Uint8Array | undefined {
  try {
    const { item } = decodeCbor(bytes, { maxDepth: 4 })
    return item.kind === 'bytes' ? item.value : undefined
  } catch (e) {
    if (e instanceof CborError) return undefined
    throw e
  }
}

/** The bytes among the plausible wrappings of `served` that hash to `hash`. */
export function scriptBytesMatching(
  served: Uint8Array,
  language: ScriptLanguage,
  hash: string,
  what: string
): Uint8Array {
  const candidates: Uint8Array[] = []
  let current: Uint8Array | undefined = served
  for (let depth = 0; depth < 3 && current !== undefined; depth += 1) {
    candidates.push(current)
    current = language === 'Native' ? undefined : unwrapByteString(current)
  }
  if (language !== 'Native') candidates.push(encodeByteString(served))
  const tag = LANGUAGE_TAG[language]
  const match = candidates.find((c) => scriptHashHex(tag, c) === hash)
  if (match === undefined) throw badResponse(what, `the ${language} script served does not hash to ${hash}`)
  return match
}

function nativeCbor(v: JsonValue | undefined, what: string, depth: number): Uint8Array {
  if (depth > MAX_NATIVE_DEPTH) throw badResponse(what, `nested deeper than ${MAX_NATIVE_DEPTH} levels`)
  const o = asObject(v, what)
  const type = asString(get(o, 'type'), `${what}.type`)
  const children = (field: JsonObject): Uint8Array => {
    const scripts = asArray(get(field, 'scripts'), `${what}.scripts`)
    return concatBytes([
      encodeHead(4, scripts.length),
      ...scripts.map((s, i) => nativeCbor(s, `${what}.scripts[${i}]`, depth + 1))
    ])
  }
  const head = (kind: number, items: number): Uint8Array => concatBytes([encodeHead(4, items), encodeHead(0, kind)])
  switch (type) {
    case 'sig':
      return concatBytes([head(0, 2), encodeByteString(hexToBytes(asHex(get(o, 'keyHash'), `${what}.keyHash`, 28)))])
    case 'all':
      return concatBytes([head(1, 2), children(o)])
    case 'any':
      return concatBytes([head(2, 2), children(o)])
    case 'atLeast':
      return concatBytes([head(3, 3), encodeHead(0, asNatural(get(o, 'required'), `${what}.required`)), children(o)])
    case 'after':
      return concatBytes([head(4, 2), encodeHead(0, asNatural(get(o, 'slot'), `${what}.slot`))])
    case 'before':
      return concatBytes([head(5, 2), encodeHead(0, asNatural(get(o, 'slot'), `${what}.slot`))])
    default:
      throw badResponse(`${what}.type`, `unknown native script type ${JSON.stringify(type)}`)
  }
}

/** A native script from cardano-cli JSON (`{type: 'all', scripts: [...]}`), checked against its hash. */
export function nativeScriptFromJson(json: JsonValue | undefined, hash: string, what: string): Uint8Array {
  return scriptBytesMatching(nativeCbor(json, what, 0), 'Native', hash, what)
}

class NotNative extends Error {}

function nativeItemToOgmios(item: CborItem, depth: number): JsonValue {
  if (depth > MAX_NATIVE_DEPTH || item.kind !== 'array') throw new NotNative()
  const [kind, a, b] = item.items
  if (kind?.kind !== 'int' || a === undefined) throw new NotNative()
  const list = (x: CborItem | undefined): JsonValue[] => {
    if (x?.kind !== 'array') throw new NotNative()
    return x.items.map((s) => nativeItemToOgmios(s, depth + 1))
  }
  const natural = (x: CborItem): bigint => {
    if (x.kind !== 'int' || x.value < 0n) throw new NotNative()
    return x.value
  }
  switch (kind.value) {
    case 0n:
      if (a.kind !== 'bytes') throw new NotNative()
      return bytesToHex(a.value)
    case 1n:
      return { all: list(a) }
    case 2n:
      return { any: list(a) }
    case 3n:
      return { [natural(a).toString()]: list(b) }
    case 4n:
      return { startsAt: natural(a) }
    case 5n:
      return { expiresAt: natural(a) }
    default:
      throw new NotNative()
  }
}

/** A native script's CBOR in Ogmios v5 JSON (`{"all": [...]}`, key hashes as strings), or undefined if unreadable. */
export function nativeScriptToOgmiosV5(bytes: Uint8Array): JsonValue | undefined {
  try {
    return nativeItemToOgmios(decodeCbor(bytes).item, 0)
  } catch (e) {
    if (e instanceof NotNative || e instanceof CborError) return undefined
    throw e
  }
}
