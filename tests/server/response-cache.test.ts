/**
 * The server's cache of single-resource answers is capped by the characters it holds: past the cap the least
 * recently used answers are made again, a recent one is still answered from the cache, an answer larger than the
 * cap is never kept, and a change of the store's version makes every answer again.
 */
import { describe, expect, test } from 'vitest'
import { ResponseCache } from '../../src/server/response-cache'

/** A cache of `maxChars` and a `get` that counts how often each answer had to be made. */
function counting(maxChars: number) {
  const cache = new ResponseCache(maxChars)
  const made = new Map<string, number>()
  const get = (key: string, chars: number, version = 1): Promise<string> =>
    cache.get(key, version, async () => {
      made.set(key, (made.get(key) ?? 0) + 1)
      return key.padEnd(chars, '.')
    })
  return { get, made: (key: string) => made.get(key) ?? 0 }
}

describe('ResponseCache', () => {
  test('holds at most its cap of characters, forgetting the least recently used', async () => {
    const { get, made } = counting(1000)
    for (const key of ['a', 'b', 'c']) await get(key, 300)
    await get('a', 300) // a is now the most recently used
    await get('d', 300) // 1,200 characters: b, the least recently used, goes
    expect(made('a')).toBe(1)
    await get('a', 300)
    await get('c', 300)
    await get('d', 300)
    expect([made('a'), made('c'), made('d')]).toEqual([1, 1, 1])
    await get('b', 300)
    expect(made('b')).toBe(2)
  })

  test('an answer larger than the cap is made each time and pushes nothing out', async () => {
    const { get, made } = counting(1000)
    await get('small', 400)
    await get('huge', 5000)
    await get('huge', 5000)
    await get('small', 400)
    expect([made('huge'), made('small')]).toEqual([2, 1])
  })

  test('a new store version makes the answer again, and the old one no longer counts against the cap', async () => {
    const { get, made } = counting(1000)
    await get('a', 600, 1)
    await get('a', 600, 2)
    expect(made('a')).toBe(2)
    await get('b', 400, 2)
    await get('a', 600, 2)
    await get('b', 400, 2)
    expect([made('a'), made('b')]).toEqual([2, 1])
  })
})
