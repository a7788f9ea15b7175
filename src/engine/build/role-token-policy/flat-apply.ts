/**
 * `[program argument]` in Untyped Plutus Core's flat encoding, the argument a Plutus Data constant: how a compiled
 * script gets its parameters. Flat is a bit stream, so the program's term is found by reading it (every term and
 * constant a Plutus 1.0.0 program may hold) and copied behind an application tag, bit for bit except the filler
 * before each byte string: it pads to a byte boundary, which moves with the term.
 */
import { BitReader, BitWriter, FlatError } from '../../../core/cardano/flat-bits'

const TERM = {
  var: 0,
  delay: 1,
  lam: 2,
  apply: 3,
  constant: 4,
  force: 5,
  error: 6,
  builtin: 7
} as const
const TYPE = { integer: 0, bytes: 1, string: 2, unit: 3, bool: 4, list: 5, pair: 6, application: 7, data: 8 } as const
const TERM_TAG_BITS = 4
const TYPE_TAG_BITS = 4
const BUILTIN_BITS = 7

type SimpleKind = 'integer' | 'bytes' | 'string' | 'unit' | 'bool' | 'data'

type ConstantType =
  | { readonly kind: SimpleKind }
  | { readonly kind: 'list'; readonly item: ConstantType }
  | { readonly kind: 'pair'; readonly first: ConstantType; readonly second: ConstantType }

const SIMPLE: Readonly<Record<number, SimpleKind>> = {
  [TYPE.integer]: 'integer',
  [TYPE.bytes]: 'bytes',
  [TYPE.string]: 'string',
  [TYPE.unit]: 'unit',
  [TYPE.bool]: 'bool',
  [TYPE.data]: 'data'
}

/** A constant's type: its tags in prefix order (`7 5 t` is a list of t, `7 7 6 a b` a pair). */
function parseType(tags: readonly number[], at: { i: number }): ConstantType {
  const tag = tags[at.i++]
  const simple = tag === undefined ? undefined : SIMPLE[tag]
  if (simple !== undefined) return { kind: simple }
  if (tag === TYPE.application && tags[at.i] === TYPE.list) {
    at.i += 1
    return { kind: 'list', item: parseType(tags, at) }
  }
  if (tag === TYPE.application && tags[at.i] === TYPE.application && tags[at.i + 1] === TYPE.pair) {
    at.i += 2
    return { kind: 'pair', first: parseType(tags, at), second: parseType(tags, at) }
  }
  throw new FlatError(`flat: unsupported constant type tag ${String(tag)}`)
}

function skipValue(r: BitReader, type: ConstantType): void {
  switch (type.kind) {
    case 'integer':
      r.natural()
      return
    case 'bytes':
    case 'string':
    case 'data':
      r.byteString()
      return
    case 'unit':
      return
    case 'bool':
      r.bit()
      return
    case 'list':
      while (r.bit() === 1) skipValue(r, type.item)
      return
    case 'pair':
      skipValue(r, type.first)
      skipValue(r, type.second)
      return
  }
}

function skipConstant(r: BitReader): void {
  const tags: number[] = []
  while (r.bit() === 1) tags.push(r.bits(TYPE_TAG_BITS))
  const at = { i: 0 }
  const type = parseType(tags, at)
  if (at.i !== tags.length) throw new FlatError('flat: a constant type with tags left over')
  skipValue(r, type)
}

/** Skips one term; iterative, so a deep program cannot overflow the stack. */
function skipTerm(r: BitReader): void {
  let pending = 1
  while (pending > 0) {
    pending -= 1
    const tag = r.bits(TERM_TAG_BITS)
    switch (tag) {
      case TERM.var:
        r.natural()
        break
      case TERM.delay:
      case TERM.lam:
      case TERM.force:
        pending += 1
        break
      case TERM.apply:
        pending += 2
        break
      case TERM.constant:
        skipConstant(r)
        break
      case TERM.error:
        break
      case TERM.builtin:
        r.bits(BUILTIN_BITS)
        break
      default:
        throw new FlatError(`flat: term tag ${tag} is not part of a Plutus 1.0.0 program`)
    }
  }
}

/** The flat program `[program (con data argument)]`, same version; `argument` is the Data's CBOR. */
export function applyDataArgument(program: Uint8Array, argument: Uint8Array): Uint8Array {
  const r = new BitReader(program)
  const version = [r.natural(), r.natural(), r.natural()] as const
  if (version.join('.') !== '1.0.0') throw new FlatError(`flat: program version ${version.join('.')} is not 1.0.0`)
  const start = r.position
  skipTerm(r)
  const end = r.position
  const fillers = [...r.fillers]
  r.filler()
  if (!r.atEnd) throw new FlatError('flat: bytes left after the program')

  const w = new BitWriter()
  for (const part of version) w.natural(part)
  w.bits(TERM.apply, TERM_TAG_BITS)
  w.copy(program, start, end, fillers)
  w.bits(TERM.constant, TERM_TAG_BITS)
  w.bit(1)
  w.bits(TYPE.data, TYPE_TAG_BITS)
  w.bit(0)
  w.byteString(argument)
  w.filler()
  return w.result()
}
