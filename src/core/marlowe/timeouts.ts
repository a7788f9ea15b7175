/** Static timeout analysis of a contract, without state or inputs. */
import type { Contract } from './types'

/**
 * The largest timeout anywhere in the contract, 0 for a contract without `When` (Haskell
 * `contractLifespanUpperBound`). Merkleized continuations are not known, so they are not followed.
 */
export function contractLifespanUpperBound(contract: Contract): bigint {
  let max = 0n
  const pending: Contract[] = [contract]
  for (let c = pending.pop(); c !== undefined; c = pending.pop()) {
    switch (c.type) {
      case 'Close':
        break
      case 'Pay':
      case 'Let':
      case 'Assert':
        pending.push(c.then)
        break
      case 'If':
        pending.push(c.then, c.else)
        break
      case 'When':
        if (c.timeout > max) max = c.timeout
        pending.push(c.timeoutContinuation)
        for (const aCase of c.cases) if (aCase.type === 'Case') pending.push(aCase.then)
        break
    }
  }
  return max
}

/**
 * The earliest timeout strictly after `time` of a `When` the contract can be waiting on without any input:
 * both branches of an `If` are considered, and a `When` whose timeout is at or before `time` has already
 * timed out (the semantics times out once `timeout <= start`), so its timeout continuation is followed.
 * Undefined when the contract can only close.
 */
export function nextTimeout(contract: Contract, time: bigint): bigint | undefined {
  for (let c = contract; ;) {
    switch (c.type) {
      case 'Close':
        return undefined
      case 'Pay':
      case 'Let':
      case 'Assert':
        c = c.then
        break
      case 'If': {
        const whenThen = nextTimeout(c.then, time)
        const whenElse = nextTimeout(c.else, time)
        if (whenThen === undefined) return whenElse
        return whenElse === undefined || whenThen < whenElse ? whenThen : whenElse
      }
      case 'When':
        if (c.timeout > time) return c.timeout
        c = c.timeoutContinuation
        break
    }
  }
}
