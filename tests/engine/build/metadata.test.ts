/** Runtime's metadata formats: no-schema JSON, tags under 1564, CIP-25 role metadata under 721. */
import { describe, expect, test } from 'vitest'
import { parseJson, type JsonValue } from '../../../src/core/json/lossless'
import {
  chunkText,
  marloweTagsMetadatum,
  metadatumFromJson,
  nftMetadatum,
  transactionMetadataFromJson
} from '../../../src/engine/build/metadata'
import { EngineError } from '../../../src/engine/errors'

const json = (text: string): JsonValue => parseJson(text)

function error(fn: () => unknown): EngineError {
  try {
    fn()
  } catch (e) {
    if (e instanceof EngineError) return e
    throw e
  }
  throw new Error('expected an error')
}

describe('no-schema JSON conversion', () => {
  test('integers stay exact, 0x-hex is bytes, other strings text; object keys sorted ints < bytes < text', () => {
    expect(metadatumFromJson(json('[18446744073709551615, "0xcafe", "hello"]'), 'm')).toEqual([
      18446744073709551615n,
      new Uint8Array([0xca, 0xfe]),
      'hello'
    ])
    expect(metadatumFromJson(json('{"b": 1, "0x01": 2, "10": 3, "a": 4}'), 'm')).toEqual({
      map: [
        [10n, 3n],
        [new Uint8Array([1]), 2n],
        ['a', 4n],
        ['b', 1n]
      ]
    })
  })

  test('refusals name the path', () => {
    expect(error(() => metadatumFromJson(json('{"a": [null]}'), 'metadata.674')).message).toBe(
      'metadata.674.a[0]: null is not allowed in metadata'
    )
    expect(error(() => metadatumFromJson(json('1.5'), 'm')).message).toBe('m: metadata numbers must be integers')
    expect(error(() => metadatumFromJson(json('true'), 'm')).message).toMatch(/booleans/)
    expect(error(() => metadatumFromJson('x'.repeat(65), 'm')).message).toBe('m: text longer than 64 bytes')
    expect(error(() => metadatumFromJson(2n ** 64n, 'm')).message).toMatch(/outside/)
    expect(error(() => transactionMetadataFromJson({ abc: 1n })).code).toBe('BadRequest')
    expect(transactionMetadataFromJson({ '674': 'hi' })).toEqual(new Map([[674n, 'hi']]))
  })
})

describe('Marlowe tags (label 1564)', () => {
  test('version 2, ordered by tag, null means no payload, long tags split into 64-character chunks', () => {
    const long = 'x'.repeat(70)
    expect(marloweTagsMetadatum({ zeta: 5n, alpha: null, [long]: 'p' })).toEqual([
      2n,
      [['alpha'], [['x'.repeat(64), 'x'.repeat(6)], 'p'], ['zeta', 5n]]
    ])
    expect(marloweTagsMetadatum({})).toBeUndefined()
  })

  test('chunks never exceed 64 UTF-8 bytes', () => {
    const chunks = chunkText('é'.repeat(40))
    expect(chunks.map((c) => new TextEncoder().encode(c).length)).toEqual([64, 16])
    expect(chunkText('')).toEqual([''])
  })
})

describe('role token NFT metadata (label 721)', () => {
  test("Runtime's CIP-25 layout: raw-byte keys, chunked image and description, one file as a bare map", () => {
    const m = nftMetadatum('aa'.repeat(28), [
      {
        nameHex: '42',
        metadata: { name: 'B', image: 'ipfs://b', files: [{ name: 'f', mediaType: 'image/png', src: 'ipfs://f' }] }
      },
      {
        nameHex: '41',
        metadata: {
          name: 'A',
          image: 'ipfs://a',
          mediaType: 'image/png',
          description: 'd',
          files: [
            { name: 'f1', mediaType: 'image/png', src: 's1' },
            { name: 'f2', mediaType: 'image/png', src: 's2', extra: { size: 3n } }
          ],
          extra: { zz: 1n, aa: 'x' }
        }
      }
    ])
    const policy = new Uint8Array(28).fill(0xaa)
    expect(m).toEqual({
      map: [
        [
          policy,
          {
            map: [
              [
                new Uint8Array([0x41]),
                {
                  map: [
                    ['name', 'A'],
                    ['image', ['ipfs://a']],
                    ['mediaType', 'image/png'],
                    ['description', ['d']],
                    [
                      'files',
                      [
                        {
                          map: [
                            ['name', 'f1'],
                            ['mediaType', 'image/png'],
                            ['src', ['s1']]
                          ]
                        },
                        {
                          map: [
                            ['name', 'f2'],
                            ['mediaType', 'image/png'],
                            ['src', ['s2']],
                            ['size', 3n]
                          ]
                        }
                      ]
                    ],
                    ['aa', 'x'],
                    ['zz', 1n]
                  ]
                }
              ],
              [
                new Uint8Array([0x42]),
                {
                  map: [
                    ['name', 'B'],
                    ['image', ['ipfs://b']],
                    [
                      'files',
                      {
                        map: [
                          ['name', 'f'],
                          ['mediaType', 'image/png'],
                          ['src', ['ipfs://f']]
                        ]
                      }
                    ]
                  ]
                }
              ]
            ]
          }
        ]
      ]
    })
    expect(nftMetadatum('aa'.repeat(28), [])).toBeUndefined()
  })
})
