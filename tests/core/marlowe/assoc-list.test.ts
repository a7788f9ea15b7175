import { describe, expect, it } from 'vitest'
import {
  append,
  indexOfKey,
  insert,
  lookup,
  member,
  remove,
  removeAt,
  replaceValueAt
} from '../../../src/core/marlowe/assoc-list'
import { choiceIdEquals } from '../../../src/core/marlowe/equality'
import type { AssocList, ChoiceId } from '../../../src/core/marlowe/types'

const choice = (name: string, role = 'R'): ChoiceId => ({ name, owner: { type: 'Role', role } })
const a = choice('a')
const b = choice('b')
const c = choice('c')
const list: AssocList<ChoiceId, bigint> = [
  [a, 1n],
  [b, 2n],
  [c, 3n]
]
const names = (l: AssocList<ChoiceId, bigint>): string[] => l.map(([k, v]) => `${k.name}=${v}`)

describe('assoc-list lookups', () => {
  it('finds keys by structural equality, not identity', () => {
    expect(indexOfKey(list, choice('b'), choiceIdEquals)).toBe(1)
    expect(lookup(list, choice('c'), choiceIdEquals)).toBe(3n)
    expect(member(list, choice('a'), choiceIdEquals)).toBe(true)
  })

  it('reports missing keys', () => {
    expect(indexOfKey(list, choice('a', 'other owner'), choiceIdEquals)).toBe(-1)
    expect(lookup(list, choice('z'), choiceIdEquals)).toBeUndefined()
    expect(member(list, choice('z'), choiceIdEquals)).toBe(false)
    expect(lookup([], a, choiceIdEquals)).toBeUndefined()
  })

  it('returns the first entry when a (malformed) list holds a key twice', () => {
    const duplicated: AssocList<ChoiceId, bigint> = [
      [a, 1n],
      [choice('a'), 9n]
    ]
    expect(lookup(duplicated, a, choiceIdEquals)).toBe(1n)
  })
})

describe('assoc-list insert', () => {
  it('replaces an existing key in place, keeping the order', () => {
    const updated = insert(list, choice('b'), 20n, choiceIdEquals)
    expect(names(updated)).toEqual(['a=1', 'b=20', 'c=3'])
    expect(updated[1]?.[0]).toBe(b)
  })

  it('appends a new key at the end', () => {
    expect(names(insert(list, choice('0'), 0n, choiceIdEquals))).toEqual(['a=1', 'b=2', 'c=3', '0=0'])
  })

  it('returns the same list when the value does not change', () => {
    expect(insert(list, choice('c'), 3n, choiceIdEquals)).toBe(list)
  })

  it('never mutates its input', () => {
    insert(list, a, 100n, choiceIdEquals)
    insert(list, choice('d'), 4n, choiceIdEquals)
    expect(names(list)).toEqual(['a=1', 'b=2', 'c=3'])
  })
})

describe('assoc-list remove', () => {
  it('removes the entry and keeps the order of the rest', () => {
    expect(names(remove(list, choice('a'), choiceIdEquals))).toEqual(['b=2', 'c=3'])
    expect(names(remove(list, choice('b'), choiceIdEquals))).toEqual(['a=1', 'c=3'])
    expect(names(list)).toEqual(['a=1', 'b=2', 'c=3'])
  })

  it('returns the same list when the key is absent', () => {
    expect(remove(list, choice('z'), choiceIdEquals)).toBe(list)
  })
})

describe('assoc-list positional helpers', () => {
  it('replaceValueAt keeps the stored key', () => {
    const updated = replaceValueAt(list, 2, 30n)
    expect(names(updated)).toEqual(['a=1', 'b=2', 'c=30'])
    expect(updated[2]?.[0]).toBe(c)
    expect(replaceValueAt(list, 0, 1n)).toBe(list)
  })

  it('append and removeAt copy', () => {
    expect(names(append(list, choice('d'), 4n))).toEqual(['a=1', 'b=2', 'c=3', 'd=4'])
    expect(names(removeAt(list, 2))).toEqual(['a=1', 'b=2'])
    expect(list).toHaveLength(3)
  })
})
