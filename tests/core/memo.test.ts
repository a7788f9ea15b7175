import { describe, expect, it } from 'vitest'
import { TextsByBytes, memoByText } from '../../src/core/memo'

describe('memoByText', () => {
  it('parses a text once, shares the frozen result, forgets everything when full, and keeps no failures', () => {
    const calls: string[] = []
    const parse = memoByText(2, (text: string) => {
      calls.push(text)
      if (text === 'bad') throw new Error('bad text')
      return { text }
    })
    const a = parse('a')
    expect(parse('a')).toBe(a)
    expect(Object.isFrozen(a)).toBe(true)
    expect(() => parse('bad')).toThrow('bad text')
    expect(() => parse('bad')).toThrow('bad text')
    parse('b')
    parse('c')
    expect(parse('c')).toEqual({ text: 'c' })
    expect(parse('a')).not.toBe(a)
    expect(calls).toEqual(['a', 'bad', 'bad', 'b', 'c', 'a'])
  })
})

describe('TextsByBytes', () => {
  const bytes = (n: number): Uint8Array => Uint8Array.of(n)

  it('files texts under their fingerprint, at most four under one, and forgets them all when full', () => {
    const texts = new TextsByBytes(6)
    for (let n = 0; n < 5; n += 1) texts.keep(7, bytes(n), `t${n}`)
    expect(texts.under(7)?.map((e) => e.text)).toEqual(['t0', 't1', 't2', 't3'])
    texts.keep(8, bytes(9), 'nine')
    expect(texts.under(8)).toEqual([{ bytes: bytes(9), text: 'nine' }])
    texts.keep(9, bytes(10), 'ten')
    texts.keep(10, bytes(11), 'eleven')
    expect(texts.under(7)).toBeUndefined()
    expect(texts.under(9)).toBeUndefined()
    expect(texts.under(10)?.map((e) => e.text)).toEqual(['eleven'])
  })
})
