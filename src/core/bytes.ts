/**
 * Hex and UTF-8 conversions for the hot paths of the codecs. Marlowe names and hashes are short, where
 * table lookups and an ASCII fast path beat generic radix conversion and TextEncoder/TextDecoder calls.
 */

const HEX_DIGITS = '0123456789abcdef'
const BYTE_TO_HEX: string[] = Array.from({ length: 256 }, (_, b) => HEX_DIGITS[b >> 4]! + HEX_DIGITS[b & 15]!)
const HEX_VALUE = new Int8Array(128).fill(-1)
for (let i = 0; i < 16; i += 1) {
  HEX_VALUE[HEX_DIGITS.charCodeAt(i)] = i
  HEX_VALUE[HEX_DIGITS.toUpperCase().charCodeAt(i)] = i
}

export class BytesError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'BytesError'
  }
}

// Each byte's two hex digits as one UTF-16 unit pair read back by a Latin-1 decoder: one native decode instead
// of a string built piece by piece (≈4× faster on datums; the digit order follows the platform's endianness).
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1
const BYTE_TO_HEX_PAIR = Uint16Array.from({ length: 256 }, (_, b) => {
  const high = HEX_DIGITS.charCodeAt(b >> 4)
  const low = HEX_DIGITS.charCodeAt(b & 15)
  return LITTLE_ENDIAN ? high | (low << 8) : (high << 8) | low
})
const LATIN1 = new TextDecoder('latin1')
const SHORT_HEX = 8

/** Hex of a byte string; `portableHex` works everywhere, a host may offer a native one (`useHexEncoder`). */
export type HexEncoder = (bytes: Uint8Array) => string

export const portableHex: HexEncoder = (bytes) => {
  const pairs = new Uint16Array(bytes.length)
  for (let i = 0; i < bytes.length; i += 1) pairs[i] = BYTE_TO_HEX_PAIR[bytes[i]!]!
  return LATIN1.decode(pairs)
}

let longHex: HexEncoder = portableHex

/** Lowercase hex of bytes. */
export function bytesToHex(bytes: Uint8Array): string {
  if (bytes.length < SHORT_HEX) {
    let out = ''
    for (let i = 0; i < bytes.length; i += 1) out += BYTE_TO_HEX[bytes[i]!]
    return out
  }
  return longHex(bytes)
}

/**
 * Installs `encoder` for every later hex of 8 bytes or more (reviews hex whole datums: the engine's native
 * encoder is ≈3× the portable one); the caller vouches that it agrees with `portableHex`.
 */
export function useHexEncoder(encoder: HexEncoder): void {
  longHex = encoder
}

/** Bytes of a hex string (either case). Throws `BytesError` on odd length or a non-hex character. */
export function hexToBytes(hex: string): Uint8Array {
  if (hex.length % 2 !== 0) throw new BytesError(`hex string has odd length ${hex.length}`)
  const out = new Uint8Array(hex.length / 2)
  for (let i = 0; i < out.length; i += 1) {
    const hi = HEX_VALUE[hex.charCodeAt(2 * i)] ?? -1
    const lo = HEX_VALUE[hex.charCodeAt(2 * i + 1)] ?? -1
    if (hi < 0 || lo < 0) throw new BytesError(`invalid hex character at position ${hi < 0 ? 2 * i : 2 * i + 1}`)
    out[i] = (hi << 4) | lo
  }
  return out
}

const encoder = new TextEncoder()
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
/** The longest text `utf8DecodeStrict` makes from the bytes as arguments (a Plutus chunk). */
const SHORT_TEXT = 64
/** From this length, `bytesEqual` compares words. */
const WORDWISE = 64

/** UTF-8 byte length of a string, or -1 when it holds a lone surrogate (it has no UTF-8 form). */
export function utf8Length(s: string): number {
  let n = 0
  for (let i = 0; i < s.length; i += 1) {
    const c = s.charCodeAt(i)
    if (c < 0x80) n += 1
    else if (c < 0x800) n += 2
    else if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1)
      if (!(d >= 0xdc00 && d <= 0xdfff)) return -1
      n += 4
      i += 1
    } else if (c >= 0xdc00 && c <= 0xdfff) return -1
    else n += 3
  }
  return n
}

/**
 * UTF-8 bytes of a string, or undefined when it holds a lone surrogate: TextEncoder would silently
 * replace it, changing the bytes (and any hash over them).
 */
export function utf8Encode(text: string): Uint8Array | undefined {
  const out = new Uint8Array(text.length)
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i)
    if (c >= 0x80) return utf8Length(text) < 0 ? undefined : encoder.encode(text)
    out[i] = c
  }
  return out
}

/** Text of UTF-8 bytes; returns undefined when they are not valid UTF-8. A leading BOM is kept. */
export function utf8DecodeStrict(bytes: Uint8Array): string | undefined {
  // Names in datums are short ASCII: made in one call from the bytes, the text is one string, not one per byte.
  if (bytes.length <= SHORT_TEXT) {
    let ascii = true
    for (let i = 0; i < bytes.length; i += 1) if (bytes[i]! >= 0x80) ascii = false
    if (ascii) return String.fromCharCode.apply(null, bytes as unknown as number[])
  }
  try {
    return strictDecoder.decode(bytes)
  } catch {
    return undefined
  }
}

/** Whether two byte arrays hold the same bytes. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  const n = a.length
  if (n !== b.length) return false
  let i = 0
  if (n >= WORDWISE) {
    // Four bytes a comparison, at any alignment (≈3× on the contracts a review compares).
    const x = new DataView(a.buffer, a.byteOffset, n)
    const y = new DataView(b.buffer, b.byteOffset, n)
    for (; i + 4 <= n; i += 4) if (x.getInt32(i) !== y.getInt32(i)) return false
  }
  for (; i < n; i += 1) if (a[i] !== b[i]) return false
  return true
}

/** The parts one after another in a new array. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let total = 0
  for (const p of parts) total += p.length
  const out = new Uint8Array(total)
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}
