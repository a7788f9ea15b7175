import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  CborError,
  CborReader,
  decodeCbor,
  encodeHead,
  encodeInt,
  type CborItem
} from '../../../../src/core/cardano/cbor'
import { enc, unhex, type Cbor } from './encode'

function item(bytes: Uint8Array): CborItem {
  return decodeCbor(bytes).item
}

function failure(bytes: Uint8Array, read: (r: CborReader) => unknown = (r) => r.item()): CborError {
  try {
    const r = new CborReader(bytes)
    read(r)
    r.expectEnd('the item')
  } catch (e) {
    expect(e).toBeInstanceOf(CborError)
    return e as CborError
  }
  throw new Error('no error')
}

describe('CborReader: values', () => {
  it.each([
    ['00', 0n],
    ['17', 23n],
    ['1818', 24n],
    ['1903e8', 1000n],
    ['1a000f4240', 1000000n],
    ['1bffffffffffffffff', 2n ** 64n - 1n],
    ['20', -1n],
    ['3bffffffffffffffff', -(2n ** 64n)],
    ['c249010000000000000000', 2n ** 64n],
    ['c349010000000000000000', -(2n ** 64n) - 1n]
  ])('integer %s = %s', (h, value) => {
    expect(new CborReader(unhex(h)).integer('n')).toBe(value)
  })

  it('reads byte and text strings, definite and indefinite', () => {
    expect(item(unhex('43010203'))).toMatchObject({ kind: 'bytes', value: Uint8Array.of(1, 2, 3), indefinite: false })
    expect(item(unhex('5f4201024103ff'))).toMatchObject({
      kind: 'bytes',
      value: Uint8Array.of(1, 2, 3),
      indefinite: true
    })
    expect(item(unhex('6568656c6c6f'))).toMatchObject({ kind: 'text', value: 'hello' })
    expect(item(unhex('7f626865636c6c6fff'))).toMatchObject({ kind: 'text', value: 'hello', indefinite: true })
  })

  it('reads arrays and maps with the byte range of every item', () => {
    const bytes = enc([1, [2, 3], { map: [[4, 'x']] }])
    const top = item(bytes)
    expect(top).toMatchObject({ kind: 'array', start: 0, end: bytes.length })
    if (top.kind !== 'array') throw new Error('not an array')
    const [a, b, c] = top.items
    expect(a).toMatchObject({ kind: 'int', value: 1n, start: 1, end: 2 })
    expect(b).toMatchObject({ kind: 'array', start: 2, end: 5 })
    expect(c).toMatchObject({ kind: 'map', start: 5, end: 9 })
    expect(item(unhex('9f0102ff'))).toMatchObject({ kind: 'array', indefinite: true })
    expect(item(unhex('bf0102ff'))).toMatchObject({ kind: 'map', indefinite: true })
  })

  it('keeps tags as written: 258 sets, 24 embedded CBOR, bignums', () => {
    expect(item(unhex('d901028101'))).toMatchObject({ kind: 'tag', tag: 258, item: { kind: 'array' } })
    expect(item(unhex('d8184101'))).toMatchObject({ kind: 'tag', tag: 24, item: { kind: 'bytes' } })
    const r = new CborReader(enc({ tag: 258, value: [1, 2] }))
    expect(r.setItems('set', () => r.skip())).toBe(true)
    const untagged = new CborReader(enc([1, 2]))
    expect(untagged.setItems('set', () => untagged.skip())).toBe(false)
  })

  it('reads floats and simple values', () => {
    expect(item(unhex('f93c00'))).toMatchObject({ kind: 'float', value: 1 })
    expect(item(unhex('f9fc00'))).toMatchObject({ kind: 'float', value: -Infinity })
    expect(item(unhex('fa47c35000'))).toMatchObject({ kind: 'float', value: 100000 })
    expect(item(unhex('fb3ff199999999999a'))).toMatchObject({ kind: 'float', value: 1.1 })
    expect(item(unhex('f4'))).toMatchObject({ kind: 'simple', value: false })
    expect(item(unhex('f5'))).toMatchObject({ kind: 'simple', value: true })
    expect(item(unhex('f6'))).toMatchObject({ kind: 'simple', value: null })
    expect(item(unhex('f7'))).toMatchObject({ kind: 'simple', value: undefined })
    expect(item(unhex('f820'))).toMatchObject({ kind: 'simple', value: 32 })
  })

  it('checks the shape a schema expects, naming what it got', () => {
    expect(failure(unhex('61'), (r) => r.uint('fee')).message).toBe(
      'fee: expected an unsigned integer, got a text string at byte 0'
    )
    expect(failure(unhex('4100'), (r) => r.hash('policy id', 28)).message).toBe(
      'policy id: expected 28 bytes, got 1 at byte 0'
    )
    expect(failure(unhex('05'), (r) => r.smallUint('network id', 1)).message).toBe('network id: 5 is above 1 at byte 0')
    expect(failure(unhex('83010203'), (r) => r.fixedArray('pair', 2)).message).toBe(
      'pair: expected an array of 2 items, got 3 at byte 0'
    )
    expect(failure(unhex('f6'), (r) => r.bool('flag')).message).toBe('flag: expected a boolean, got null at byte 0')
  })
})

describe('CborReader: encoding issues', () => {
  it('logs non-shortest heads and indefinite lengths', () => {
    const { issues } = decodeCbor(unhex('9f1801190001ff'))
    expect(issues.counts['indefinite-length']).toBe(1)
    expect(issues.counts['non-shortest-head']).toBe(2)
    expect(issues.recorded).toContainEqual({ kind: 'non-shortest-head', offset: 1 })
    expect(decodeCbor(enc({ wide: 5 })).issues.counts['non-shortest-head']).toBe(1)
  })

  it('logs duplicate map keys, including the same value written two ways', () => {
    expect(
      decodeCbor(
        enc({
          map: [
            [1, 2],
            [1, 3]
          ]
        })
      ).issues.recorded
    ).toEqual([{ kind: 'duplicate-map-key', offset: 3 }])
    const twoWays = decodeCbor(unhex('a20102180103')).issues
    expect(twoWays.counts['duplicate-map-key']).toBe(1)
    expect(
      decodeCbor(
        enc({
          map: [
            ['a', 1],
            ['b', 2]
          ]
        })
      ).issues.counts['duplicate-map-key']
    ).toBe(0)
  })

  it('logs map keys out of canonical order once per map', () => {
    const { issues } = decodeCbor(
      enc({
        map: [
          [3, 0],
          [2, 0],
          [1, 0]
        ]
      })
    )
    expect(issues.counts['unsorted-map-keys']).toBe(1)
    // Canonical order compares encodings: 01 < 20 (−1) < 1818 (24).
    expect(
      decodeCbor(
        enc({
          map: [
            [1, 0],
            [-1, 0],
            [24, 0]
          ]
        })
      ).issues.counts['unsorted-map-keys']
    ).toBe(0)
  })

  it('logs a set element written twice, small or large', () => {
    const r = new CborReader(enc([[1, 2], [3], [1, 2]]))
    r.setItems('set', () => r.skip())
    expect(r.issues.recorded).toEqual([{ kind: 'duplicate-set-element', offset: 6 }])
    const big = new Uint8Array(500).fill(9)
    const other = big.slice()
    other[499] = 8
    const large = new CborReader(enc([big, other, big]))
    large.setItems('set', () => large.skip())
    expect(large.issues.counts['duplicate-set-element']).toBe(1)
  })

  it('knows elements of a keyed set by the identity its reader returns', () => {
    const r = new CborReader(enc([[1, 2], [3], [1, 2], [3, 4]]))
    const identities = ['a', 'b', 'a', 'c']
    r.keyedSetItems('set', (i) => {
      r.skip()
      return identities[i]!
    })
    expect(r.issues.recorded).toEqual([{ kind: 'duplicate-set-element', offset: 6 }])
  })
})

describe('CborReader: hostile input', () => {
  it.each<[string, string]>([
    ['', 'unexpected end of input at byte 0'],
    ['1a0001', 'unexpected end of input at byte 1'],
    ['5bffffffffffffffff', 'string declares over 2^53 bytes but only 0 remain at byte 0'],
    ['9bffffffffffffffff', 'item: array declares over 2^53 items but only 0 bytes remain at byte 0'],
    ['8a01', 'item: array declares 10 items but only 1 bytes remain at byte 0'],
    ['a201', 'item: map declares 2 items but only 1 bytes remain at byte 0'],
    ['1c', 'reserved additional information 28 at byte 0'],
    ['ff', 'unexpected break at byte 0'],
    ['9f01', 'unexpected end of input: missing break at byte 2'],
    ['62c328', 'a text string is not valid UTF-8 at byte 0'],
    ['5f01ff', 'item chunk: expected a byte string, got an unsigned integer at byte 1'],
    ['5f5f4100ffff', 'a chunk of an indefinite string must be definite at byte 1'],
    ['f801', 'simple value 1 must use the one-byte form at byte 0'],
    ['0101', '1 unexpected byte after the item at byte 1']
  ])('%s → %s', (h, message) => {
    expect(failure(unhex(h)).message).toBe(message)
  })

  it('caps nesting depth', () => {
    const deep = new Uint8Array(5000).fill(0x81)
    expect(failure(deep).message).toMatch(/^CBOR is nested deeper than 1200 levels at byte 1201$/)
    const nested = enc([[[[1]]]])
    const r = new CborReader(nested, 0, nested.length, { maxDepth: 2 })
    expect(() => r.item()).toThrow('CBOR is nested deeper than 2 levels')
  })

  it('caps bignum size', () => {
    const big = enc({ tag: 2, value: new Uint8Array(2000).fill(1) })
    expect(failure(big, (r) => r.integer('amount')).message).toBe(
      'amount: bignum of 2000 bytes exceeds the 1024-byte limit at byte 0'
    )
  })

  it('reads within a range of the input', () => {
    const bytes = enc([1, 2, 3])
    const r = new CborReader(bytes, 2, 3)
    expect(r.uint('n')).toBe(2n)
    expect(r.atEnd()).toBe(true)
    expect(() => new CborReader(bytes, 3, 10)).toThrow(CborError)
  })

  it('never throws anything but CborError on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        try {
          decodeCbor(bytes)
        } catch (e) {
          if (!(e instanceof CborError)) throw e
        }
      }),
      { numRuns: 3000 }
    )
  })

  it('never throws anything but CborError on mutations of valid items', () => {
    const sample: Cbor = [
      1,
      -5,
      'text',
      unhex('0102'),
      {
        map: [
          [1, [2, 3]],
          ['k', { tag: 258, value: [1] }]
        ]
      },
      { indefinite: [1, 2] }
    ]
    const base = enc(sample)
    fc.assert(
      fc.property(fc.nat(base.length - 1), fc.integer({ min: 0, max: 255 }), (at, byte) => {
        const bytes = base.slice()
        bytes[at] = byte
        try {
          decodeCbor(bytes)
        } catch (e) {
          if (!(e instanceof CborError)) throw e
        }
      }),
      { numRuns: 3000 }
    )
  })
})

describe('CborReader.nesting', () => {
  /** The nesting of a tree read by `item`: what `nesting` must find without building it. */
  function treeNesting(i: CborItem): { depth: number; containers: number } {
    const children =
      i.kind === 'array' ? i.items : i.kind === 'map' ? i.entries.flat() : i.kind === 'tag' ? [i.item] : []
    const inner = children.map(treeNesting)
    const container = i.kind === 'array' || i.kind === 'map' ? 1 : 0
    return {
      depth: inner.length === 0 ? 0 : 1 + Math.max(...inner.map((n) => n.depth)),
      containers: container + Math.max(0, ...inner.map((n) => n.containers))
    }
  }

  it.each<[string, number, number]>([
    ['01', 0, 0],
    ['80', 0, 1],
    ['8101', 1, 1],
    ['c24101', 1, 0],
    ['a1018102', 2, 2],
    ['9f01ff', 1, 1],
    ['9f9fffff', 1, 2],
    ['5f4101ff', 0, 0],
    ['d87981d87a80', 3, 2]
  ])('%s nests %i levels, %i containers', (h, depth, containers) => {
    const r = new CborReader(unhex(h))
    expect(r.nesting()).toEqual({ depth, containers })
    expect(r.atEnd()).toBe(true)
  })

  it('agrees with the tree the reader builds, and ends where the item ends', () => {
    const { tree } = fc.letrec<{ tree: Cbor }>((t) => ({
      tree: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.integer(),
        fc.string(),
        fc.uint8Array({ maxLength: 4 }),
        fc.constantFrom<Cbor>(true, null),
        fc.array(t('tree'), { maxLength: 3 }),
        fc.record({ indefinite: fc.array(t('tree'), { maxLength: 3 }) }),
        fc.record({ map: fc.array(fc.tuple(fc.integer(), t('tree')), { maxLength: 3 }) }),
        fc.record({ tag: fc.constantFrom(2, 121, 258), value: t('tree') })
      )
    }))
    fc.assert(
      fc.property(tree, (x) => {
        const bytes = Uint8Array.of(...enc(x), 0x07)
        const r = new CborReader(bytes)
        const measured = r.nesting()
        expect(r.pos).toBe(bytes.length - 1)
        expect(measured).toEqual(treeNesting(decodeCbor(bytes.subarray(0, -1)).item))
      }),
      { numRuns: 1000 }
    )
  })

  it('measures what `item` refuses as too deep, without recursion', () => {
    const deep = new Uint8Array(1_000_001).fill(0x81)
    deep[1_000_000] = 0
    expect(new CborReader(deep).nesting()).toEqual({ depth: 1_000_000, containers: 1_000_000 })
    expect(failure(deep).message).toMatch(/^CBOR is nested deeper than 1200 levels/)
  })

  it.each([
    ['8181', 'item: array declares 1 items but only 0 bytes remain at byte 1'],
    ['81ff', 'unexpected break at byte 1'],
    ['9f01', 'unexpected end of input: missing break at byte 2'],
    ['1c', 'reserved additional information 28 at byte 0']
  ])('refuses malformed %s: %s', (h, message) => {
    expect(failure(unhex(h), (r) => r.nesting()).message).toBe(message)
  })
})

describe('encodeHead / encodeInt', () => {
  it('writes the shortest head', () => {
    expect(Array.from(encodeHead(0, 23n))).toEqual([0x17])
    expect(Array.from(encodeHead(0, 24n))).toEqual([0x18, 24])
    expect(Array.from(encodeHead(4, 256))).toEqual([0x99, 1, 0])
    expect(Array.from(encodeHead(2, 0x10000))).toEqual([0x5a, 0, 1, 0, 0])
    expect(Array.from(encodeHead(0, 2n ** 32n))).toEqual([0x1b, 0, 0, 0, 1, 0, 0, 0, 0])
    expect(Array.from(encodeInt(-1n))).toEqual([0x20])
    expect(Array.from(encodeInt(-500n))).toEqual([0x39, 1, 0xf3])
    expect(() => encodeHead(0, 2n ** 64n)).toThrow(RangeError)
  })

  it('round-trips through the reader', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n - 1n }), (n) => {
        const r = new CborReader(encodeInt(n))
        expect(r.int('n')).toBe(n)
        expect(r.issues.counts['non-shortest-head']).toBe(0)
      })
    )
  })
})
