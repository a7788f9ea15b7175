/**
 * Native scripts from Ogmios' JSON form to their ledger CBOR. Ogmios includes a native script's original CBOR
 * only when it runs with `--include-cbor`; without it we rebuild the bytes from the JSON clauses. The rebuilt
 * encoding is canonical, which is what every wallet and cardano-cli write, but a script first written with a
 * non-canonical encoding would get a different hash: prefer Ogmios' `cbor` whenever it is there.
 */
import type { ClauseAfter, ClauseBefore, ClauseSignature, ClauseSome, ClauseAll } from '@cardano-ogmios/schema'
import { concatBytes, hexToBytes } from '../../core/bytes'
import { encodeByteString, encodeHead } from '../../core/cardano/cbor'
import type { JsonValue } from '../../core/json/lossless'
import { Fields, ShapeError } from '../json-shape'

const MAX_DEPTH = 64
const CLAUSES = ['signature', 'all', 'any', 'some', 'after', 'before'] as const

function cborArray(items: readonly Uint8Array[]): Uint8Array {
  return concatBytes([encodeHead(4, items.length), ...items])
}

/** The ledger CBOR (`native_script`) of a native script in Ogmios' JSON notation. */
export function nativeScriptCbor(json: JsonValue, path: string, depth = 0): Uint8Array {
  if (depth > MAX_DEPTH) throw new ShapeError(path, `a native script nested at most ${MAX_DEPTH} deep`)
  const script = Fields.of<ClauseSignature>(json, path)
  const clause = script.oneOf('clause', CLAUSES)
  const scripts = (): Uint8Array => {
    const from = Fields.of<ClauseAll>(json, path)
    return cborArray(from.array('from').map((s, i) => nativeScriptCbor(s, `${from.at('from')}[${i}]`, depth + 1)))
  }
  switch (clause) {
    case 'signature': {
      const keyHash = hexToBytes(script.hex('from', 28))
      return cborArray([encodeHead(0, 0), encodeByteString(keyHash)])
    }
    case 'all':
      return cborArray([encodeHead(0, 1), scripts()])
    case 'any':
      return cborArray([encodeHead(0, 2), scripts()])
    case 'some':
      return cborArray([
        encodeHead(0, 3),
        encodeHead(0, Fields.of<ClauseSome>(json, path).natural('atLeast')),
        scripts()
      ])
    case 'after':
      return cborArray([encodeHead(0, 4), encodeHead(0, Fields.of<ClauseAfter>(json, path).natural('slot'))])
    case 'before':
      return cborArray([encodeHead(0, 5), encodeHead(0, Fields.of<ClauseBefore>(json, path).natural('slot'))])
  }
}
