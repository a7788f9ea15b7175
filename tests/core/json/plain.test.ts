import { describe, expect, it } from 'vitest'
import { toJsonValue } from '../../../src/core/json/plain'

describe('toJsonValue', () => {
  it('converts plain data, dropping undefined fields', () => {
    expect(toJsonValue({ a: 1, b: [2n, 'x', null, true], c: undefined, d: new Uint8Array([1, 255]) })).toEqual({
      a: 1n,
      b: [2n, 'x', null, true],
      d: '01ff'
    })
  })

  it.each([
    [{ a: 1.5 }, '$.a: 1.5 is not an integer'],
    [{ a: [new Map()] }, '$.a[0]: object is not plain data'],
    [{ f: () => 1 }, '$.f: function is not plain data']
  ])('refuses %j', (value, message) => {
    expect(() => toJsonValue(value)).toThrow(message)
  })
})
