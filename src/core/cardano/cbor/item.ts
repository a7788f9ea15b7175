/**
 * A CBOR data item as read from untrusted bytes, with its byte range in the input (`start` inclusive, `end`
 * exclusive) so callers can slice the original encoding, and the encoding choices that matter for hashing.
 */
interface Span {
  readonly start: number
  readonly end: number
}

export interface CborInt extends Span {
  readonly kind: 'int'
  readonly value: bigint
}

export interface CborBytes extends Span {
  readonly kind: 'bytes'
  readonly value: Uint8Array
  readonly indefinite: boolean
}

export interface CborText extends Span {
  readonly kind: 'text'
  readonly value: string
  readonly indefinite: boolean
}

export interface CborArray extends Span {
  readonly kind: 'array'
  readonly items: readonly CborItem[]
  readonly indefinite: boolean
}

export interface CborMap extends Span {
  readonly kind: 'map'
  readonly entries: ReadonlyArray<readonly [CborItem, CborItem]>
  readonly indefinite: boolean
}

/** Tags are kept as written: 258 (set), 24 (embedded CBOR), 2/3 (bignum) and any other. */
export interface CborTag extends Span {
  readonly kind: 'tag'
  readonly tag: number
  readonly item: CborItem
}

export interface CborSimple extends Span {
  readonly kind: 'simple'
  /** `true`, `false`, `null`, `undefined`, or the number of an unassigned simple value. */
  readonly value: boolean | null | undefined | number
}

export interface CborFloat extends Span {
  readonly kind: 'float'
  readonly value: number
}

export type CborItem = CborInt | CborBytes | CborText | CborArray | CborMap | CborTag | CborSimple | CborFloat
