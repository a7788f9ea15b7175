/**
 * Shape checks for reading typed values out of Plutus Data. Every failure is a `PlutusDecodeError` whose
 * message starts with the path of the offending node (e.g. `datum.contract.cases[1].then: …`).
 */
import { bytesToHex, utf8DecodeStrict } from '../../bytes'
import type { PlutusData } from './data'

export class PlutusDecodeError extends Error {
  readonly path: string

  constructor(path: string, message: string) {
    super(`${path}: ${message}`)
    this.name = 'PlutusDecodeError'
    this.path = path
  }
}

export interface ConstrView {
  readonly index: number
  readonly name: string
  readonly fields: readonly PlutusData[]
  readonly path: string
}

type Tuple<N extends number, R extends PlutusData[] = []> = R['length'] extends N ? R : Tuple<N, [...R, PlutusData]>

/** Reads a constructor of the type whose constructors, by index, are `names`. */
export function readConstr(d: PlutusData, path: string, typeName: string, names: readonly string[]): ConstrView {
  if (typeof d !== 'object' || !('constr' in d)) {
    throw new PlutusDecodeError(path, `expected a ${typeName} constructor, got ${describe(d)}`)
  }
  // Compare against a literal: building a BigInt per node is a measurable cost on large datums.
  const index = d.constr >= 0n && d.constr < 0x10000n ? Number(d.constr) : -1
  const name = names[index]
  if (name === undefined) {
    throw new PlutusDecodeError(
      path,
      `expected ${typeName} constructor 0..${names.length - 1}, got constructor ${d.constr}`
    )
  }
  return { index, name, fields: d.fields, path }
}

/** The constructor's fields, which must number exactly `count`. */
export function fieldsOf<N extends number>(c: ConstrView, count: N): Tuple<N> {
  if (c.fields.length !== count) {
    throw new PlutusDecodeError(c.path, `${c.name} takes ${count} fields, got ${c.fields.length}`)
  }
  return c.fields as Tuple<N>
}

/** A single-constructor record (tuples, newtypes made with makeIsDataIndexed): Constr 0 with `count` fields. */
export function readRecord<N extends number>(d: PlutusData, path: string, typeName: string, count: N): Tuple<N> {
  return fieldsOf(readConstr(d, path, typeName, [typeName]), count)
}

export function readInteger(d: PlutusData, path: string): bigint {
  if (typeof d !== 'bigint') throw new PlutusDecodeError(path, `expected an integer, got ${describe(d)}`)
  return d
}

export function readBytes(d: PlutusData, path: string): Uint8Array {
  if (!(d instanceof Uint8Array)) throw new PlutusDecodeError(path, `expected a byte string, got ${describe(d)}`)
  return d
}

export function readHex(d: PlutusData, path: string): string {
  return bytesToHex(readBytes(d, path))
}

/** Token, role, choice and value names are the UTF-8 bytes of their text. */
export function readText(d: PlutusData, path: string): string {
  const bytes = readBytes(d, path)
  const text = utf8DecodeStrict(bytes)
  if (text === undefined) throw new PlutusDecodeError(path, `byte string ${bytesToHex(bytes)} is not valid UTF-8 text`)
  return text
}

export function readBool(d: PlutusData, path: string): boolean {
  const c = readConstr(d, path, 'Bool', ['False', 'True'])
  fieldsOf(c, 0)
  return c.index === 1
}

export function readList(d: PlutusData, path: string): readonly PlutusData[] {
  if (typeof d !== 'object' || !('list' in d)) throw new PlutusDecodeError(path, `expected a list, got ${describe(d)}`)
  return d.list
}

export function readMap(d: PlutusData, path: string): ReadonlyArray<readonly [PlutusData, PlutusData]> {
  // Checked first because a Uint8Array also has a `map` property.
  if (typeof d !== 'object' || d instanceof Uint8Array || !('map' in d)) {
    throw new PlutusDecodeError(path, `expected a map, got ${describe(d)}`)
  }
  return d.map
}

function describe(d: PlutusData): string {
  if (typeof d === 'bigint') return `integer ${d}`
  if (d instanceof Uint8Array) return `a byte string of ${d.length} bytes`
  if ('constr' in d) return `constructor ${d.constr}`
  return 'list' in d ? 'a list' : 'a map'
}
