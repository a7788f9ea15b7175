/**
 * Contracts whose arithmetic grows without bound unless the engine bounds it (issue 13): each `Let` squares the
 * value bound before, so n steps of a few bytes ask for a number of about 2^n bits; and `Let`s that rebind a value
 * to itself, each reporting a `Shadowing` warning that carries it twice.
 */
import { CLOSE, type Contract, type Value } from '../../src/core/marlowe/types'

const X = 'x'
const useX: Value = { type: 'UseValue', id: X }

/** `Let x seed`, then `times` times `Let x (x * x)`, then `then`. */
export function squaring(times: number, then: Contract = CLOSE, seed: Value = 3n): Contract {
  let contract = then
  for (let i = 0; i < times; i += 1) {
    contract = { type: 'Let', id: X, value: { type: 'MulValue', left: useX, right: useX }, then: contract }
  }
  return { type: 'Let', id: X, value: seed, then: contract }
}

/** `Let x seed`, then `times` times `Let x x`: as many warnings that each carry the value twice. */
export function rebinding(times: number, seed: Value, then: Contract = CLOSE): Contract {
  let contract = then
  for (let i = 0; i < times; i += 1) contract = { type: 'Let', id: X, value: useX, then: contract }
  return { type: 'Let', id: X, value: seed, then: contract }
}

/** The largest value of `bits` bits, computed: 2^(bits-1) + (2^(bits-1) - 1). */
export function largestWithin(bits: number): Value {
  const half = 2n ** BigInt(bits - 1)
  return { type: 'AddValue', left: half, right: { type: 'SubValue', left: half, right: 1n } }
}
