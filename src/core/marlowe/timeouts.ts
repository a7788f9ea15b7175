/** Static timeout analysis of a contract, without state or inputs. */
import type { Contract } from './types'

/**
 * The timeout of every `When` anywhere in the contract, each once. Merkleized continuations are not known, so
 * they are not followed; subtrees the contract shares (builders reuse them) are walked once.
 */
export function contractTimeouts(contract: Contract): Set<bigint> {
  const timeouts = new Set<bigint>()
  const seen = new Set<Contract>()
  const pending: Contract[] = [contract]
  for (let c = pending.pop(); c !== undefined; c = pending.pop()) {
    if (seen.has(c)) continue
    seen.add(c)
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
        timeouts.add(c.timeout)
        pending.push(c.timeoutContinuation)
        for (const aCase of c.cases) if (aCase.type === 'Case') pending.push(aCase.then)
        break
    }
  }
  return timeouts
}

/** The largest timeout anywhere in the contract, 0 for a contract without `When` (Haskell `contractLifespanUpperBound`). */
export function contractLifespanUpperBound(contract: Contract): bigint {
  let max = 0n
  for (const timeout of contractTimeouts(contract)) if (timeout > max) max = timeout
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
