import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { hex } from '@scure/base'
import {
  MAX_DATA_DEPTH,
  PlutusDataError,
  constrData,
  decodePlutusData,
  decodePlutusDataItem,
  encodePlutusData,
  isConstrData,
  isListData,
  isMapData,
  plutusDataEquals,
  skipPlutusDataItem,
  type PlutusData
} from '../../../../src/core/marlowe/plutus/data'

const enc = (d: PlutusData): string => hex.encode(encodePlutusData(d))
const dec = (h: string): PlutusData => decodePlutusData(hex.decode(h))
const bytesOf = (n: number, fill = 0xab): Uint8Array => new Uint8Array(n).fill(fill)

function decodeError(bytes: Uint8Array): PlutusDataError {
  try {
    decodePlutusData(bytes)
  } catch (error) {
    if (error instanceof PlutusDataError) return error
    throw error
  }
  throw new Error(`decoded without error: ${hex.encode(bytes)}`)
}

/** `skipPlutusDataItem` accepts what `decodePlutusDataItem` accepts, ends where it ends and fails as it fails. */
function expectSkipAgrees(bytes: Uint8Array, offset = 0): void {
  const outcome = (read: () => number): { end: number } | { error: string } => {
    try {
      return { end: read() }
    } catch (error) {
      if (!(error instanceof PlutusDataError)) throw error
      return { error: error.message }
    }
  }
  const skipped = outcome(() => skipPlutusDataItem(bytes, offset))
  expect(skipped).toEqual(outcome(() => decodePlutusDataItem(bytes, offset).end))
}

describe('encodePlutusData (plutus-core layout)', () => {
  it.each([
    [0n, '00'],
    [23n, '17'],
    [24n, '1818'],
    [255n, '18ff'],
    [256n, '190100'],
    [65535n, '19ffff'],
    [65536n, '1a00010000'],
    [2n ** 32n - 1n, '1affffffff'],
    [2n ** 32n, '1b0000000100000000'],
    [2n ** 64n - 1n, '1bffffffffffffffff'],
    [2n ** 64n, 'c249010000000000000000'],
    [-1n, '20'],
    [-24n, '37'],
    [-25n, '3818'],
    [-(2n ** 64n), '3bffffffffffffffff'],
    [-(2n ** 64n) - 1n, 'c349010000000000000000'],
    [10n ** 50n, `c255${(10n ** 50n).toString(16).padStart(42, '0')}`]
  ])('integer %s → %s', (n, expected) => {
    expect(enc(n)).toBe(expected)
  })

  it('chunks a bignum magnitude longer than 64 bytes like a byte string', () => {
    expect(enc(2n ** 600n)).toBe(`c25f584001${'00'.repeat(63)}4c${'00'.repeat(12)}ff`)
    expect(enc(-(2n ** 512n) - 1n)).toBe(`c35f584001${'00'.repeat(63)}41${'00'}ff`)
  })

  it('writes byte strings up to 64 bytes definite and longer ones as indefinite 64-byte chunks', () => {
    expect(enc(new Uint8Array())).toBe('40')
    expect(enc(bytesOf(64))).toBe(`5840${'ab'.repeat(64)}`)
    expect(enc(bytesOf(65))).toBe(`5f5840${'ab'.repeat(64)}41abff`)
    expect(enc(bytesOf(128))).toBe(`5f5840${'ab'.repeat(64)}5840${'ab'.repeat(64)}ff`)
  })

  it('writes empty lists as 0x80 and non-empty lists and fields indefinite; maps definite', () => {
    expect(enc({ list: [] })).toBe('80')
    expect(enc({ list: [1n, { list: [] }] })).toBe('9f0180ff')
    expect(enc(constrData(0, [1n]))).toBe('d8799f01ff')
    expect(enc({ map: [] })).toBe('a0')
    expect(
      enc({
        map: [
          [1n, 2n],
          [1n, 3n]
        ]
      })
    ).toBe('a201020103')
  })

  it.each([
    [0n, 'd87980'],
    [6n, 'd87f80'],
    [7n, 'd9050080'],
    [11n, 'd9050480'],
    [127n, 'd9057880'],
    [128n, 'd86682188080'],
    [2n ** 64n - 1n, 'd866821bffffffffffffffff80']
  ])('constructor %s → %s', (index, expected) => {
    expect(enc(constrData(index, []))).toBe(expected)
  })

  it('writes extended constructor fields with the list rule', () => {
    expect(enc(constrData(200, [1n]))).toBe('d8668218c89f01ff')
  })

  it('rejects constructor indices the ledger cannot read back', () => {
    expect(() => encodePlutusData(constrData(-1, []))).toThrow(PlutusDataError)
    expect(() => encodePlutusData(constrData(2n ** 64n, []))).toThrow(
      'constructor index 18446744073709551616 is outside 0..2^64-1'
    )
  })

  it('grows its buffer for large values', () => {
    const big = { list: Array.from({ length: 5000 }, (_, i) => bytesOf(100, i & 0xff)) }
    expect(plutusDataEquals(decodePlutusData(encodePlutusData(big)), big)).toBe(true)
  })
})

describe('decodePlutusData accepts every valid encoding', () => {
  it.each<[string, PlutusData]>([
    ['8101', { list: [1n] }],
    ['9f01ff', { list: [1n] }],
    ['9fff', { list: [] }],
    ['bf0102ff', { map: [[1n, 2n]] }],
    ['a0', { map: [] }],
    ['5f41014102ff', hex.decode('0102')],
    ['5fff', new Uint8Array()],
    ['1800', 0n],
    ['1b0000000000000001', 1n],
    ['3a00000000', -1n],
    ['c240', 0n],
    ['c24101', 1n],
    ['c3420100', -257n],
    ['c25f4101ff', 1n],
    ['d8798101', constrData(0, [1n])],
    ['d87e80', constrData(5, [])],
    ['d9057880', constrData(127, [])],
    ['d866820080', constrData(0, [])],
    ['d8669f18c880ff', constrData(200, [])],
    ['da0000007980', constrData(0, [])]
  ])('%s', (encoded, expected) => {
    expect(plutusDataEquals(dec(encoded), expected)).toBe(true)
  })

  it('decodes one item at an offset and reports its end', () => {
    const bytes = hex.decode('ff9f01ff00')
    const { data, end } = decodePlutusDataItem(bytes, 1)
    expect(plutusDataEquals(data, { list: [1n] })).toBe(true)
    expect(end).toBe(4)
    expect(() => decodePlutusDataItem(bytes, 6)).toThrow('offset 6 is outside the input of 5 bytes')
    expect(() => decodePlutusDataItem(bytes, -1)).toThrow(PlutusDataError)
    expect(skipPlutusDataItem(bytes, 1)).toBe(4)
    expectSkipAgrees(bytes, 6)
    expectSkipAgrees(bytes, -1)
  })

  it('copies byte strings out of the input', () => {
    const input = hex.decode('4101')
    const out = decodePlutusData(input)
    input[1] = 9
    expect(out).toEqual(hex.decode('01'))
  })
})

describe('decodePlutusData on hostile input', () => {
  it.each([
    ['', 'unexpected end of input at byte 0'],
    ['9f01', 'unexpected end of input: missing break at byte 2'],
    ['d879', 'unexpected end of input at byte 2'],
    ['1a0000', 'unexpected end of input at byte 3'],
    ['4301', 'byte string declares 3 bytes but only 1 remain at byte 0'],
    ['5b7fffffffffffffff00', 'byte string declares over 2^53 bytes but only 1 remain at byte 0'],
    ['5bffffffffffffffff', 'byte string declares over 2^53 bytes but only 0 remain at byte 0'],
    ['9b8000000000000000', 'array declares over 2^53 items but only 0 bytes remain at byte 0'],
    ['9affffffff0000', 'array declares 4294967295 items but only 2 bytes remain at byte 0'],
    ['bb800000000000000000', 'map declares over 2^53 entries but only 1 bytes remain at byte 0'],
    ['a20102', 'map declares 2 entries but only 2 bytes remain at byte 0'],
    ['5f5b7fffffffffffffffff', 'byte string declares over 2^53 bytes but only 1 remain at byte 1'],
    ['0000', '1 unexpected byte after the Data item at byte 1'],
    ['80ffff', '2 unexpected bytes after the Data item at byte 1'],
    ['6161', 'a text string is not Plutus Data at byte 0'],
    ['f93c00', 'a float or simple value is not Plutus Data at byte 0'],
    ['f4', 'a float or simple value is not Plutus Data at byte 0'],
    ['ff', 'unexpected break at byte 0'],
    ['d87901', 'constructor fields must be an array, got CBOR major type 0 at byte 2'],
    // A break where a tag's content belongs is not the end of the list around it.
    ['9fd879ff', 'constructor fields must be an array, got CBOR major type 7 at byte 3'],
    ['9fc2ff', 'a bignum tag must be followed by a byte string at byte 2'],
    ['9fd8669f00ff', 'constructor fields must be an array, got CBOR major type 7 at byte 5'],
    ['9fd8668200ff', 'constructor fields must be an array, got CBOR major type 7 at byte 5'],
    ['d81e80', 'CBOR tag 30 is not used by Plutus Data at byte 0'],
    ['d9057980', 'CBOR tag 1401 is not used by Plutus Data at byte 0'],
    ['db800000000000007980', 'CBOR tag over 2^53 is not used by Plutus Data at byte 0'],
    ['c201', 'a bignum tag must be followed by a byte string at byte 1'],
    ['d8668100', 'tag 102 array must have 2 items, got 1 at byte 2'],
    ['d86600', 'tag 102 must be followed by an array [index, fields] at byte 2'],
    ['d866822080', 'tag 102 constructor index must be an unsigned integer at byte 3'],
    ['d8669f008000ff', 'tag 102 array must have 2 items, got more at byte 5'],
    ['5f01ff', 'a chunk of an indefinite byte string must be a definite byte string at byte 1'],
    [`5841${'00'.repeat(65)}`, 'definite byte string of 65 bytes exceeds the 64-byte limit at byte 0'],
    [`5f5841${'00'.repeat(65)}ff`, 'definite byte string of 65 bytes exceeds the 64-byte limit at byte 1'],
    [`c25841${'01'.repeat(65)}`, 'definite byte string of 65 bytes exceeds the 64-byte limit at byte 1'],
    ['5f5fffff', 'a chunk of an indefinite byte string must be a definite byte string at byte 1'],
    ['1c', 'reserved additional information 28 is not allowed for CBOR major type 0 at byte 0'],
    ['1f', 'indefinite length is not allowed for CBOR major type 0 at byte 0'],
    ['3f', 'indefinite length is not allowed for CBOR major type 1 at byte 0'],
    ['df', 'indefinite length is not allowed for CBOR major type 6 at byte 0']
  ])('%s → %s', (encoded, message) => {
    const error = decodeError(hex.decode(encoded))
    expect(error.message).toBe(message)
    expectSkipAgrees(hex.decode(encoded))
    expect(error.offset).toBe(Number(/at byte (\d+)$/.exec(message)?.[1]))
  })

  it('fails on every truncation of a valid encoding', () => {
    const full = encodePlutusData({
      list: [constrData(200, [2n ** 70n, bytesOf(70)]), { map: [[-5n, { list: [constrData(3, [])] }]] }]
    })
    for (let length = 0; length < full.length; length++) {
      expect(() => decodePlutusData(full.subarray(0, length))).toThrow(PlutusDataError)
    }
  })

  it.each([
    ['definite arrays', 0x81],
    ['indefinite arrays', 0x9f],
    ['maps', 0xa1]
  ])('stops 100000 nested %s at the depth limit', (_, opener) => {
    const bytes = new Uint8Array(100_001).fill(opener)
    bytes[100_000] = 0
    const message = `Data is nested deeper than ${MAX_DATA_DEPTH} levels at byte ${MAX_DATA_DEPTH}`
    expect(decodeError(bytes).message).toBe(message)
    expectSkipAgrees(bytes)
  })

  it('stops deeply nested constructors at the depth limit', () => {
    const bytes = new Uint8Array(300_000)
    for (let i = 0; i < 100_000; i++) bytes.set([0xd8, 0x79, 0x81], 3 * i)
    // The failing level is the array head of the 1025th constructor.
    const message = `Data is nested deeper than ${MAX_DATA_DEPTH} levels at byte ${3 * MAX_DATA_DEPTH + 2}`
    expect(decodeError(bytes).message).toBe(message)
    expectSkipAgrees(bytes)
  })

  it('accepts nesting right up to the limit', () => {
    const bytes = new Uint8Array(MAX_DATA_DEPTH + 1).fill(0x81)
    bytes[MAX_DATA_DEPTH] = 0
    expect(skipPlutusDataItem(bytes, 0)).toBe(bytes.length)
    let d = decodePlutusData(bytes)
    for (let depth = 0; depth < MAX_DATA_DEPTH; depth++) {
      if (typeof d !== 'object' || !('list' in d) || d.list[0] === undefined) throw new Error(`not a list at ${depth}`)
      d = d.list[0]
    }
    expect(d).toBe(0n)
  })

  it('returns Data or throws PlutusDataError on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 256 }), (bytes) => {
        expectDataOrDataError(bytes)
        expectSkipAgrees(bytes)
      }),
      { numRuns: 5000 }
    )
  })

  it('returns Data or throws PlutusDataError on corrupted valid encodings', () => {
    fc.assert(
      fc.property(plutusData, byteEdits, (d, edits) => {
        const bytes = encodePlutusData(d)
        for (const [at, value] of edits) bytes[at % bytes.length] = value
        expectDataOrDataError(bytes)
        expectSkipAgrees(bytes)
      }),
      { numRuns: 3000 }
    )
  })

  it('skips as it decodes when a byte is inserted or removed, in canonical and loose encodings', () => {
    fc.assert(
      fc.property(plutusData, fc.integer(), fc.nat(), fc.integer({ min: -1, max: 255 }), (d, seed, at, value) => {
        let state = seed >>> 0
        const pick = (n: number): number => {
          state = (Math.imul(state, 1664525) + 1013904223) >>> 0
          return state % n
        }
        for (const bytes of [Array.from(encodePlutusData(d)), looseEncode(d, pick)]) {
          const i = at % (bytes.length + 1)
          if (value < 0) bytes.splice(i, 1)
          else bytes.splice(i, 0, value)
          expectSkipAgrees(Uint8Array.from(bytes))
        }
      }),
      { numRuns: 3000 }
    )
  })
})

const byteEdits = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 })

function expectDataOrDataError(bytes: Uint8Array): void {
  let decoded: PlutusData
  try {
    decoded = decodePlutusData(bytes)
  } catch (error) {
    expect(error).toBeInstanceOf(PlutusDataError)
    return
  }
  // Whatever decodes must survive our own canonical round trip.
  expect(plutusDataEquals(decodePlutusData(encodePlutusData(decoded)), decoded)).toBe(true)
}

const { plutusData } = fc.letrec<{ plutusData: PlutusData }>((tie) => ({
  plutusData: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(
      fc.bigInt({ min: -(2n ** 66n), max: 2n ** 66n }),
      fc.bigInt({ min: -(2n ** 600n), max: 2n ** 600n }),
      fc.bigInt({ min: -30n, max: 30n })
    ),
    fc.uint8Array({ maxLength: 140 }),
    fc.record({
      constr: fc.oneof(fc.bigInt({ min: 0n, max: 140n }), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })),
      fields: fc.array(tie('plutusData'), { maxLength: 4 })
    }),
    fc.record({ list: fc.array(tie('plutusData'), { maxLength: 4 }) }),
    fc.record({ map: fc.array(fc.tuple(tie('plutusData'), tie('plutusData')), { maxLength: 3 }) })
  )
}))

/**
 * Writes `d` in a randomly chosen valid but non-canonical CBOR form (definite/indefinite containers, long
 * heads, chunked byte strings, tag 102 for small indices, bignums for small integers), as other encoders may.
 */
function looseEncode(d: PlutusData, pick: (n: number) => number): number[] {
  const head = (major: number, n: bigint): number[] => {
    const widths = [0, 1, 2, 4, 8].filter((w) => (w === 0 ? n < 24n : n < 2n ** BigInt(8 * w)))
    const width = widths[pick(widths.length)] ?? 8
    if (width === 0) return [(major << 5) | Number(n)]
    const out = [(major << 5) | (24 + Math.log2(width))]
    for (let i = width - 1; i >= 0; i--) out.push(Number((n >> BigInt(8 * i)) & 0xffn))
    return out
  }
  const array = (items: number[][], count: number): number[] =>
    pick(2) === 0 ? [...head(4, BigInt(count)), ...items.flat()] : [0x9f, ...items.flat(), 0xff]
  const definite = (part: Uint8Array): number[] => [...head(2, BigInt(part.length)), ...part]
  // Definite strings and chunks stay within plutus-core's 64-byte limit.
  const bytes = (b: Uint8Array): number[] => {
    if (b.length <= 64 && pick(2) === 0) return definite(b)
    const chunks: number[] = [0x5f]
    for (let at = 0; at < b.length || pick(4) === 0;) {
      const size = pick(65)
      chunks.push(...definite(b.subarray(at, at + size)))
      at += size
    }
    return [...chunks, 0xff]
  }
  const magnitudeBytes = (m: bigint): Uint8Array => {
    const digits = m.toString(16)
    return m === 0n ? new Uint8Array() : hex.decode(digits.length % 2 === 0 ? digits : `0${digits}`)
  }
  if (typeof d === 'bigint') {
    const negative = d < 0n
    const m = negative ? -1n - d : d
    if (m < 2n ** 64n && pick(3) !== 0) return head(negative ? 1 : 0, m)
    return [negative ? 0xc3 : 0xc2, ...bytes(magnitudeBytes(m))]
  }
  if (d instanceof Uint8Array) return bytes(d)
  if ('list' in d)
    return array(
      d.list.map((x) => looseEncode(x, pick)),
      d.list.length
    )
  if ('map' in d) {
    const entries = d.map.map(([k, v]) => [...looseEncode(k, pick), ...looseEncode(v, pick)])
    return pick(2) === 0 ? [...head(5, BigInt(d.map.length)), ...entries.flat()] : [0xbf, ...entries.flat(), 0xff]
  }
  const fields = array(
    d.fields.map((x) => looseEncode(x, pick)),
    d.fields.length
  )
  const compact = d.constr < 7n ? 121n + d.constr : d.constr < 128n ? 1280n + d.constr - 7n : undefined
  if (compact !== undefined && pick(2) === 0) return [...head(6, compact), ...fields]
  const inner = [head(0, d.constr), fields]
  return [...head(6, 102n), ...array(inner, 2)]
}

describe('round trips', () => {
  it('decode(encode(x)) equals x and re-encodes identically', () => {
    fc.assert(
      fc.property(plutusData, (d) => {
        const bytes = encodePlutusData(d)
        const back = decodePlutusData(bytes)
        expect(plutusDataEquals(back, d)).toBe(true)
        expect(hex.encode(encodePlutusData(back))).toBe(hex.encode(bytes))
      }),
      { numRuns: 3000 }
    )
  })

  it('decodes non-canonical encodings to the same Data', () => {
    fc.assert(
      fc.property(plutusData, fc.integer(), (d, seed) => {
        let state = seed >>> 0
        const pick = (n: number): number => {
          state = (Math.imul(state, 1664525) + 1013904223) >>> 0
          return state % n
        }
        const loose = Uint8Array.from(looseEncode(d, pick))
        expect(plutusDataEquals(decodePlutusData(loose), d)).toBe(true)
        expect(skipPlutusDataItem(loose, 0)).toBe(loose.length)
      }),
      { numRuns: 3000 }
    )
  })
})

describe('type guards', () => {
  it('tell the Data forms apart, including byte strings from maps', () => {
    const forms: PlutusData[] = [1n, new Uint8Array(), constrData(0, []), { list: [] }, { map: [] }]
    expect(forms.map(isConstrData)).toEqual([false, false, true, false, false])
    expect(forms.map(isListData)).toEqual([false, false, false, true, false])
    expect(forms.map(isMapData)).toEqual([false, false, false, false, true])
  })
})

describe('plutusDataEquals', () => {
  it('compares structure, not identity', () => {
    expect(plutusDataEquals(constrData(1, [hex.decode('ab')]), constrData(1n, [hex.decode('ab')]))).toBe(true)
    expect(plutusDataEquals(constrData(1, []), constrData(2, []))).toBe(false)
    expect(plutusDataEquals({ map: [[1n, 2n]] }, { map: [[1n, 3n]] })).toBe(false)
    expect(plutusDataEquals({ map: [[1n, 2n]] }, { map: [] })).toBe(false)
    expect(plutusDataEquals({ list: [1n] }, { list: [1n, 2n] })).toBe(false)
  })

  it('keeps byte strings, maps and lists apart', () => {
    expect(plutusDataEquals(new Uint8Array(), { map: [] })).toBe(false)
    expect(plutusDataEquals({ map: [] }, new Uint8Array())).toBe(false)
    expect(plutusDataEquals({ list: [] }, { map: [] })).toBe(false)
    expect(plutusDataEquals(1n, new Uint8Array([1]))).toBe(false)
    expect(plutusDataEquals(new Uint8Array([1]), new Uint8Array([2]))).toBe(false)
  })
})
