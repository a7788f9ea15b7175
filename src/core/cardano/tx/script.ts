/**
 * Scripts: native scripts (a tree of signature and time-lock conditions) and Plutus scripts, with their hashes
 * (blake2b-224 of the language tag followed by the script bytes), and script references `#6.24(bytes .cbor script)`.
 */
import { scriptHashHex } from './hash'
import { HASH28, type TxReader } from './reader'
import type { DecodedScript, NativeScript, ScriptLanguage } from './types'

/** The ledger's language tags, also the prefix byte of a script hash. */
export const LANGUAGE_TAG: Readonly<Record<ScriptLanguage, number>> = {
  Native: 0,
  PlutusV1: 1,
  PlutusV2: 2,
  PlutusV3: 3
}
const LANGUAGES: readonly ScriptLanguage[] = ['Native', 'PlutusV1', 'PlutusV2', 'PlutusV3']
/** Native scripts nest `all`/`any`/`atLeast`; real ones are a few levels deep. */
const MAX_NATIVE_DEPTH = 64

/** A native script at the current position, hashed over its original encoding. */
export function readNativeScript(r: TxReader, what: string): DecodedScript {
  const start = r.pos
  const native = readNative(r, what, 0)
  const bytes = r.source.subarray(start, r.pos)
  return { language: 'Native', hash: scriptHashHex(LANGUAGE_TAG.Native, bytes), bytes, native }
}

/** A Plutus script as a witness set holds it: a byte string whose content is the serialised script. */
export function readPlutusScript(r: TxReader, language: ScriptLanguage, what: string): DecodedScript {
  const bytes = r.bytes(what)
  return { language, hash: scriptHashHex(LANGUAGE_TAG[language], bytes), bytes }
}

/** `#6.24(bytes .cbor [language, script])`, as in an output's script reference. */
export function readScriptRef(r: TxReader, what: string): DecodedScript {
  const { bytes, start } = r.embedded(what)
  if (start === undefined) r.fail(`${what}: the embedded script must be a definite byte string`)
  // Read the embedded bytes in place so the script keeps offsets into the transaction.
  const inner = r.sub(start, start + bytes.length)
  const count = inner.fixedArray(what, 2)
  const language = LANGUAGES[inner.smallUint(`${what} language`, LANGUAGES.length - 1)]!
  const script = language === 'Native' ? readNativeScript(inner, what) : readPlutusScript(inner, language, what)
  inner.closeArray(count, what)
  inner.expectEnd(what)
  return script
}

function readNative(r: TxReader, what: string, depth: number): NativeScript {
  if (depth > MAX_NATIVE_DEPTH) r.fail(`${what}: native script is nested deeper than ${MAX_NATIVE_DEPTH} levels`)
  const start = r.pos
  const count = r.arrayHeader(what)
  const kind = r.smallUint(`${what} kind`, 5)
  const expected = kind === 3 ? 3 : 2
  if (count !== undefined && count !== expected) {
    r.fail(`${what}: a native script of kind ${kind} has ${expected} items, got ${count}`, start)
  }
  const children = (): NativeScript[] => {
    const scripts: NativeScript[] = []
    r.arrayItems(what, () => scripts.push(readNative(r, what, depth + 1)))
    return scripts
  }
  let script: NativeScript
  switch (kind) {
    case 0:
      script = { type: 'sig', keyHash: r.hash(`${what} key hash`, HASH28) }
      break
    case 1:
      script = { type: 'all', scripts: children() }
      break
    case 2:
      script = { type: 'any', scripts: children() }
      break
    case 3: {
      const required = r.uint(`${what} required count`)
      script = { type: 'atLeast', required, scripts: children() }
      break
    }
    case 4:
      script = { type: 'after', slot: r.uint(`${what} slot`) }
      break
    default:
      script = { type: 'before', slot: r.uint(`${what} slot`) }
  }
  r.closeArray(count, what)
  return script
}
