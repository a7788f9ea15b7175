/** The few CBOR encodings the core writes itself (e.g. language views for the script data hash): canonical heads. */
import { MAJOR_BYTES, MAJOR_NEGINT, MAJOR_UINT } from './major'

const UINT64_LIMIT = 1n << 64n

/** The shortest head of major type `major` with argument `n` (0 ≤ n < 2^64). */
export function encodeHead(major: number, n: bigint | number): Uint8Array {
  const value = BigInt(n)
  if (value < 0n || value >= UINT64_LIMIT) throw new RangeError(`CBOR head argument ${value} is out of range`)
  const type = major << 5
  if (value < 24n) return Uint8Array.of(type | Number(value))
  const size = value < 0x100n ? 1 : value < 0x10000n ? 2 : value < 0x100000000n ? 4 : 8
  const out = new Uint8Array(1 + size)
  out[0] = type | (24 + Math.log2(size))
  let rest = value
  for (let i = size; i >= 1; i--) {
    out[i] = Number(rest & 0xffn)
    rest >>= 8n
  }
  return out
}

/** The length of `encodeHead(_, n)`, without writing it. */
export function headLength(n: bigint | number): number {
  const value = BigInt(n)
  if (value < 0n || value >= UINT64_LIMIT) throw new RangeError(`CBOR head argument ${value} is out of range`)
  return value < 24n ? 1 : value < 0x100n ? 2 : value < 0x10000n ? 3 : value < 0x100000000n ? 5 : 9
}

/** A CBOR integer (major type 0 or 1); −2^64 ≤ n < 2^64. */
export function encodeInt(n: bigint): Uint8Array {
  return n >= 0n ? encodeHead(MAJOR_UINT, n) : encodeHead(MAJOR_NEGINT, -1n - n)
}

/** A CBOR byte string (major type 2) holding `bytes`. */
export function encodeByteString(bytes: Uint8Array): Uint8Array {
  const head = encodeHead(MAJOR_BYTES, bytes.length)
  const out = new Uint8Array(head.length + bytes.length)
  out.set(head)
  out.set(bytes, head.length)
  return out
}
