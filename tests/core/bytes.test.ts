import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bytesEqual, bytesToHex, hexToBytes, utf8DecodeStrict } from '../../src/core/bytes'

/** The obvious definition, to hold the table-driven one to. */
function referenceHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

describe('bytesToHex', () => {
  it('writes every byte value as two lowercase digits, in order', () => {
    const all = Uint8Array.from({ length: 256 }, (_, b) => b)
    expect(bytesToHex(all)).toBe(referenceHex(all))
    expect(bytesToHex(all.subarray(250))).toBe('fafbfcfdfeff')
  })

  it('agrees with the reference on short, long and offset views', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.nat(16), (bytes, skip) => {
        const view = bytes.subarray(Math.min(skip, bytes.length))
        expect(bytesToHex(view)).toBe(referenceHex(view))
        expect(hexToBytes(bytesToHex(view))).toEqual(view)
      }),
      { numRuns: 300 }
    )
  })

  it('gives the empty string for no bytes', () => {
    expect(bytesToHex(new Uint8Array(0))).toBe('')
  })
})

describe('bytesEqual', () => {
  it('is true exactly for the same bytes, whatever the views', () => {
    const a = Uint8Array.of(1, 2, 3, 4)
    expect(bytesEqual(a.subarray(1), Uint8Array.of(2, 3, 4))).toBe(true)
    expect(bytesEqual(a, Uint8Array.of(1, 2, 3, 5))).toBe(false)
    expect(bytesEqual(a, a.subarray(0, 3))).toBe(false)
    expect(bytesEqual(new Uint8Array(0), new Uint8Array(0))).toBe(true)
  })

  it('finds a single differing byte anywhere in long views at any alignment', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 600 }),
        fc.nat(3),
        fc.nat(3),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (bytes, offsetA, offsetB, at, delta) => {
          const a = new Uint8Array(bytes.length + 3)
          const b = new Uint8Array(bytes.length + 3)
          a.set(bytes, offsetA)
          b.set(bytes, offsetB)
          const x = a.subarray(offsetA, offsetA + bytes.length)
          const y = b.subarray(offsetB, offsetB + bytes.length)
          expect(bytesEqual(x, y)).toBe(true)
          const i = at % bytes.length
          y[i] = (y[i]! + delta) & 0xff
          expect(bytesEqual(x, y)).toBe(false)
        }
      ),
      { numRuns: 500 }
    )
  })
})

describe('utf8DecodeStrict', () => {
  it('gives back any text from its UTF-8, short or long, ASCII or not', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 100 }), fc.string({ maxLength: 100 }), (text, ascii) => {
        for (const s of [text, ascii, ascii.repeat(3)]) expect(utf8DecodeStrict(new TextEncoder().encode(s))).toBe(s)
      }),
      { numRuns: 500 }
    )
  })

  it('refuses bytes that are not UTF-8, and keeps a leading byte-order mark', () => {
    expect(utf8DecodeStrict(Uint8Array.of(0x61, 0xff))).toBeUndefined()
    expect(utf8DecodeStrict(Uint8Array.of(0xc3))).toBeUndefined()
    expect(utf8DecodeStrict(Uint8Array.of(0xed, 0xa0, 0x80))).toBeUndefined()
    expect(utf8DecodeStrict(Uint8Array.of(0xef, 0xbb, 0xbf, 0x61))).toBe('\uFEFFa')
    expect(utf8DecodeStrict(new Uint8Array(0))).toBe('')
  })
})
