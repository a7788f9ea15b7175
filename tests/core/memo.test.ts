import { describe, expect, it } from 'vitest'
import { memoByText } from '../../src/core/memo'

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
