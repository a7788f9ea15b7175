/**
 * PlutusTx AssocMap operations on an insertion-ordered association list: keys are found by a linear scan
 * with an equality function, an insert replaces in place or appends, a delete keeps the order of the rest.
 * The lists are immutable; an operation that changes nothing returns the list it was given.
 */
import type { AssocList } from './types'

export type KeyEquals<K> = (a: K, b: K) => boolean

/** Position of the first entry whose key equals `key`, or -1. */
export function indexOfKey<K, V>(list: AssocList<K, V>, key: K, equals: KeyEquals<K>): number {
  for (let i = 0; i < list.length; i++) {
    const entry = list[i] as readonly [K, V]
    if (equals(entry[0], key)) return i
  }
  return -1
}

export function lookup<K, V>(list: AssocList<K, V>, key: K, equals: KeyEquals<K>): V | undefined {
  const i = indexOfKey(list, key, equals)
  return i < 0 ? undefined : (list[i] as readonly [K, V])[1]
}

export function member<K, V>(list: AssocList<K, V>, key: K, equals: KeyEquals<K>): boolean {
  return indexOfKey(list, key, equals) >= 0
}

/** Replaces the value at `index` (which must exist), keeping that entry's key and position. */
export function replaceValueAt<K, V>(list: AssocList<K, V>, index: number, value: V): AssocList<K, V> {
  const entry = list[index] as readonly [K, V]
  if (entry[1] === value) return list
  const copy = list.slice()
  copy[index] = [entry[0], value]
  return copy
}

export function append<K, V>(list: AssocList<K, V>, key: K, value: V): AssocList<K, V> {
  const copy = list.slice()
  copy.push([key, value])
  return copy
}

export function removeAt<K, V>(list: AssocList<K, V>, index: number): AssocList<K, V> {
  const copy = list.slice()
  copy.splice(index, 1)
  return copy
}

/** Replaces the value in place when the key is present, otherwise appends the entry at the end. */
export function insert<K, V>(list: AssocList<K, V>, key: K, value: V, equals: KeyEquals<K>): AssocList<K, V> {
  const i = indexOfKey(list, key, equals)
  return i < 0 ? append(list, key, value) : replaceValueAt(list, i, value)
}

export function remove<K, V>(list: AssocList<K, V>, key: K, equals: KeyEquals<K>): AssocList<K, V> {
  const i = indexOfKey(list, key, equals)
  return i < 0 ? list : removeAt(list, i)
}
