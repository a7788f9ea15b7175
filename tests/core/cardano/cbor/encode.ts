/**
 * A CBOR writer for tests: builds hand-crafted items, including the encodings real tools rarely emit
 * (indefinite lengths, non-shortest heads, duplicate keys), to feed the reader and the transaction decoder.
 */
export type Cbor =
  | number
  | bigint
  | string
  | boolean
  | null
  | Uint8Array
  | readonly Cbor[]
  | { readonly map: ReadonlyArray<readonly [Cbor, Cbor]>; readonly indefinite?: boolean }
  | { readonly tag: number; readonly value: Cbor }
  | { readonly indefinite: readonly Cbor[] }
  /** An unsigned integer with an 8-byte head whatever its size (non-shortest). */
  | { readonly wide: number }
  /** Bytes spliced in as they are. */
  | { readonly raw: Uint8Array }

export function head(major: number, n: number | bigint): number[] {
  const v = BigInt(n)
  const t = major << 5
  if (v < 24n) return [t | Number(v)]
  const size = v < 0x100n ? 1 : v < 0x10000n ? 2 : v < 0x100000000n ? 4 : 8
  const out = [t | (24 + Math.log2(size))]
  for (let i = size - 1; i >= 0; i--) out.push(Number((v >> BigInt(8 * i)) & 0xffn))
  return out
}

export function enc(x: Cbor): Uint8Array {
  return Uint8Array.from(parts(x))
}

function parts(x: Cbor): number[] {
  if (x === null) return [0xf6]
  if (x === true) return [0xf5]
  if (x === false) return [0xf4]
  if (typeof x === 'number' || typeof x === 'bigint') {
    const v = BigInt(x)
    return v >= 0n ? head(0, v) : head(1, -1n - v)
  }
  if (typeof x === 'string') {
    const b = new TextEncoder().encode(x)
    return [...head(3, b.length), ...b]
  }
  if (x instanceof Uint8Array) return [...head(2, x.length), ...x]
  if (isList(x)) return [...head(4, x.length), ...x.flatMap(parts)]
  if ('map' in x) {
    const body = x.map.flatMap(([k, v]) => [...parts(k), ...parts(v)])
    return x.indefinite === true ? [0xbf, ...body, 0xff] : [...head(5, x.map.length), ...body]
  }
  if ('tag' in x) return [...head(6, x.tag), ...parts(x.value)]
  if ('indefinite' in x) return [0x9f, ...x.indefinite.flatMap(parts), 0xff]
  if ('wide' in x) return [0x1b, 0, 0, 0, 0, ...u32(x.wide)]
  return [...x.raw]
}

/** `Array.isArray` does not narrow readonly arrays. */
function isList(x: Cbor): x is readonly Cbor[] {
  return Array.isArray(x)
}

function u32(n: number): number[] {
  return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]
}

export const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
export const unhex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'hex'))
