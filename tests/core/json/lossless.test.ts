import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { JsonDecimal, JsonSyntaxError, parseJson, stringifyJson, type JsonValue } from '../../../src/core/json/lossless'

function syntaxError(text: string, limits?: Parameters<typeof parseJson>[1]): JsonSyntaxError {
  try {
    parseJson(text, limits)
  } catch (e) {
    if (e instanceof JsonSyntaxError) return e
    throw e
  }
  throw new Error(`parsed without error: ${text}`)
}

describe('parseJson', () => {
  it('keeps integers above 2^53 exact', () => {
    const big = '123456789012345678901234567890123456789012345678901'
    expect(parseJson(`{"a":[${big},-${big},9007199254740993]}`)).toEqual({
      a: [BigInt(big), -BigInt(big), 9007199254740993n]
    })
  })

  it('reads integral numbers with a fraction or exponent as integers, as Haskell does', () => {
    expect(parseJson('[1.0, 1e3, 1E+3, 25e-1, 2.50e1, -0.0, 0e999999999, 1.000]')).toEqual([
      1n,
      1000n,
      1000n,
      new JsonDecimal('25e-1'),
      25n,
      0n,
      0n,
      1n
    ])
  })

  it('keeps non-integral numbers as decimals', () => {
    const v = parseJson('1.5')
    expect(v).toBeInstanceOf(JsonDecimal)
    expect(stringifyJson(v)).toBe('1.5')
  })

  it('decodes strings with escapes, including surrogate pairs', () => {
    expect(parseJson('"a\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00"')).toBe('a"b\\c/d\b\f\n\r\té😀')
  })

  it('gives back every key exactly, whether or not it was read before', () => {
    // Keys are remembered by first character and length: ones sharing that, escaped spellings of a remembered
    // key and a key that ends the text must each come back as written.
    const v = parseJson('[{"ab":1,"ac":2},{"ac":3,"ab":4},{"a\\u0062":5},{"ab\\n":6},{"é😀":7}]')
    expect(v).toEqual([{ ab: 1n, ac: 2n }, { ac: 3n, ab: 4n }, { ab: 5n }, { 'ab\n': 6n }, { 'é😀': 7n }])
    expect(syntaxError('[{"ab":1},{"ab":1,"a\\u0062":2}]').message).toContain('duplicate key "ab"')
    expect(syntaxError('{"ab').message).toContain('unterminated string')
    // Many keys to one slot, each object's keys in another order.
    const keys = ['a', 'b', 'é', '😀', '"', '\\'].flatMap((x) => ['a', 'b', 'c', 'é'].map((y) => x + y))
    const objects = keys.map((_, i) =>
      Object.fromEntries(keys.map((_, j) => [keys[(i + j) % keys.length]!, BigInt(j)]))
    )
    expect(parseJson(stringifyJson(objects))).toEqual(objects)
  })

  it('treats __proto__ as an ordinary key', () => {
    const v = parseJson('{"__proto__": {"polluted": true}}') as Record<string, JsonValue>
    expect(Object.keys(v)).toEqual(['__proto__'])
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })

  it.each([
    ['', 'line 1, column 1: unexpected end of input, expected a value'],
    ['{"a":1,}', 'expected a string key'],
    ['[1 2]', "expected ',' or ']' in an array"],
    ['{"a" 1}', "expected ':' after an object key"],
    ['{"a":1 "b":2}', "expected ',' or '}' in an object"],
    ['{"a":1,"a":2}', 'duplicate key "a"'],
    ['01', 'unexpected text after the JSON value'],
    ['-', 'expected a digit'],
    ['1.', 'expected a digit after the decimal point'],
    ['1e', 'expected a digit in the exponent'],
    ['"abc', 'unterminated string'],
    ['"a\nb"', 'control character in a string'],
    ['"\\x"', 'invalid escape \\x'],
    ['"\\u12g4"', 'invalid \\u escape'],
    ['tru', 'unexpected character "t", expected a value'],
    ['NaN', 'unexpected character "N", expected a value'],
    ['[1]]', 'unexpected text after the JSON value'],
    ['1e5000', 'number has more than 4096 digits'],
    ['1e99999999999999999999', 'number has more than 4096 digits']
  ])('rejects %j with a clear message', (text, message) => {
    expect(syntaxError(text).message).toContain(message)
  })

  it('reports line and column', () => {
    const e = syntaxError('{\n  "a": 1,\n  "b": ?\n}')
    expect([e.line, e.column]).toEqual([3, 8])
  })

  it('rejects deep nesting without overflowing the stack', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000)
    expect(syntaxError(deep).message).toContain('nesting deeper than 1000 levels')
    expect(parseJson('['.repeat(1000) + ']'.repeat(1000))).toBeInstanceOf(Array)
  })

  it('rejects documents over the size limit', () => {
    expect(syntaxError('[1,2,3]', { maxLength: 5 }).message).toContain('over the limit of 5')
  })

  it('never throws anything but JsonSyntaxError on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (s) => {
        try {
          parseJson(s)
        } catch (e) {
          expect(e).toBeInstanceOf(JsonSyntaxError)
        }
      }),
      { numRuns: 3000 }
    )
  })
})

describe('stringifyJson', () => {
  const jsonValue: fc.Arbitrary<JsonValue> = fc.letrec<{ v: JsonValue }>((tie) => ({
    v: fc.oneof(
      { depthSize: 'small' },
      fc.constant(null),
      fc.boolean(),
      fc.bigInt(),
      fc.string(),
      fc.array(tie('v'), { maxLength: 4 }),
      fc.dictionary(fc.string({ maxLength: 5 }), tie('v'), { maxKeys: 4 }).map((d) => ({ ...d }))
    )
  })).v

  it('round-trips through parseJson, compact and indented', () => {
    fc.assert(
      fc.property(jsonValue, (v) => {
        expect(parseJson(stringifyJson(v))).toEqual(v)
        expect(parseJson(stringifyJson(v, { indent: 2 }))).toEqual(v)
      }),
      { numRuns: 500 }
    )
  })

  it('writes bigints as plain digits', () => {
    expect(stringifyJson({ n: 10n ** 50n })).toBe('{"n":100000000000000000000000000000000000000000000000000}')
  })
})
