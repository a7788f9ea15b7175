/**
 * The one bound on Marlowe arithmetic: every value the semantics evaluates stays below 2^4096 in magnitude.
 *
 * Marlowe integers are unbounded, so `Let x (x * x)` doubles a number's length at every step: thirty steps of
 * a few bytes each ask for a billion-bit number, and each warning, state and answer carrying it costs time to
 * write out. Real contracts stay far below the limit: ledger quantities are under 2^64, POSIX times under 2^42,
 * and a product of three such numbers under 2^192 (the largest number in the Haskell reference vectors is
 * 10^50, 167 bits). The limit is 4096 bits rather than, say, 2^16 because a value is written out once per
 * warning that names it: a 16 KB transaction can rebind one value some 600 times, each `Shadowing` warning
 * carrying it twice, which at 4096 bits is 1.5 MB of decimal digits and 40 ms, and at 2^16 bits would be 25 MB
 * and seconds. A contract that goes beyond the limit is refused (`ValueTooLargeError`) where the validator might
 * still have had the budget for it.
 */
import type { Contract, Input, Observation, Value } from './types'

export const MAX_VALUE_BITS = 4096

/** Exclusive: a value is within the limit when LOWER < value < UPPER (both precomputed: evaluation is hot). */
const UPPER = 1n << BigInt(MAX_VALUE_BITS)
const LOWER = -UPPER

/** Bits of |n| (0 for 0). */
export function bitLength(n: bigint): number {
  const hex = (n < 0n ? -n : n).toString(16)
  if (hex === '0') return 0
  return (hex.length - 1) * 4 + Number.parseInt(hex.charAt(0), 16).toString(2).length
}

export class ValueTooLargeError extends Error {
  readonly limitBits = MAX_VALUE_BITS

  constructor(
    /** The value node (or constant) whose evaluation went beyond the limit. */
    readonly value: Value,
    /** Its length in bits. */
    readonly bits: number,
    /** Where the value sits, as the JSON codec names paths (`contract.then.be`); absent when not found. */
    readonly path?: string
  ) {
    const reason = `a value of ${bits} bits, over the limit of ${MAX_VALUE_BITS} bits`
    super(path === undefined ? reason : `${path}: ${reason}`)
    this.name = 'ValueTooLargeError'
  }

  /** The same error, its path found in `contract` or else in an input's merkleized continuation. */
  in(contract: Contract, inputs: readonly Input[] = []): ValueTooLargeError {
    let path = findValue(contract, this.value, 'contract')
    for (let i = 0; path === undefined && i < inputs.length; i += 1) {
      const continuation = inputs[i]?.merkleized?.continuation
      if (continuation !== undefined) path = findValue(continuation, this.value, `inputs[${i}].merkleized_continuation`)
    }
    return path === undefined ? this : new ValueTooLargeError(this.value, this.bits, path)
  }
}

/** `n` itself when within the limit; `value` is what evaluated to it, for the error. */
export function withinLimit(value: Value, n: bigint): bigint {
  if (n < UPPER && n > LOWER) return n
  throw new ValueTooLargeError(value, bitLength(n))
}

/**
 * The JSON path of `target` in `root`, found by identity (a constant by equality: the first place found). The
 * walk over contracts is iterative (contracts nest deeply); values and observations recurse no deeper than their
 * evaluation did.
 */
export function findValue(root: Contract, target: Value, rootPath: string): string | undefined {
  const pending: Array<readonly [Contract, string]> = [[root, rootPath]]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [c, path] = next
    let found: string | undefined
    switch (c.type) {
      case 'Close':
        break
      case 'Pay':
        found = inValue(c.value, target, `${path}.pay`)
        pending.push([c.then, `${path}.then`])
        break
      case 'If':
        found = inObservation(c.observation, target, `${path}.if`)
        pending.push([c.else, `${path}.else`], [c.then, `${path}.then`])
        break
      case 'When':
        pending.push([c.timeoutContinuation, `${path}.timeout_continuation`])
        for (let i = c.cases.length - 1; i >= 0; i -= 1) {
          const aCase = c.cases[i]!
          if (aCase.type === 'Case') pending.push([aCase.then, `${path}.when[${i}].then`])
        }
        for (let i = 0; found === undefined && i < c.cases.length; i += 1) {
          const action = c.cases[i]!.action
          const at = `${path}.when[${i}].case`
          if (action.type === 'Deposit') found = inValue(action.value, target, `${at}.deposits`)
          else if (action.type === 'Notify') found = inObservation(action.observation, target, `${at}.notify_if`)
        }
        break
      case 'Let':
        found = inValue(c.value, target, `${path}.be`)
        pending.push([c.then, `${path}.then`])
        break
      case 'Assert':
        found = inObservation(c.observation, target, `${path}.assert`)
        pending.push([c.then, `${path}.then`])
        break
    }
    if (found !== undefined) return found
  }
  return undefined
}

function inValue(v: Value, target: Value, path: string): string | undefined {
  if (v === target) return path
  if (typeof v === 'bigint') return undefined
  switch (v.type) {
    case 'NegValue':
      return inValue(v.value, target, `${path}.negate`)
    case 'AddValue':
      return inValue(v.left, target, `${path}.add`) ?? inValue(v.right, target, `${path}.and`)
    case 'SubValue':
      return inValue(v.left, target, `${path}.value`) ?? inValue(v.right, target, `${path}.minus`)
    case 'MulValue':
      return inValue(v.left, target, `${path}.multiply`) ?? inValue(v.right, target, `${path}.times`)
    case 'DivValue':
      return inValue(v.left, target, `${path}.divide`) ?? inValue(v.right, target, `${path}.by`)
    case 'Cond':
      return (
        inObservation(v.observation, target, `${path}.if`) ??
        inValue(v.then, target, `${path}.then`) ??
        inValue(v.else, target, `${path}.else`)
      )
    default:
      return undefined
  }
}

const COMPARISON_KEYS = { ValueGE: 'ge_than', ValueGT: 'gt', ValueLT: 'lt', ValueLE: 'le_than', ValueEQ: 'equal_to' }

function inObservation(o: Observation, target: Value, path: string): string | undefined {
  if (typeof o === 'boolean') return undefined
  switch (o.type) {
    case 'AndObs':
      return inObservation(o.left, target, `${path}.both`) ?? inObservation(o.right, target, `${path}.and`)
    case 'OrObs':
      return inObservation(o.left, target, `${path}.either`) ?? inObservation(o.right, target, `${path}.or`)
    case 'NotObs':
      return inObservation(o.observation, target, `${path}.not`)
    case 'ChoseSomething':
      return undefined
    default:
      return inValue(o.left, target, `${path}.value`) ?? inValue(o.right, target, `${path}.${COMPARISON_KEYS[o.type]}`)
  }
}
