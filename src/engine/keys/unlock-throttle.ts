/**
 * Backoff on wrong passwords, per wallet. Whoever can call the keystore (a UI session, a script holding it)
 * could otherwise guess as fast as scrypt allows: a few slips are free, then each further wrong password
 * doubles the wait before the next try. A try within the wait is refused at once, saying when to come back:
 * nothing is held open and no scrypt runs for it. One try per wallet runs at a time, so a burst of parallel
 * guesses cannot all start before the first wrong one counts.
 */
import { EngineError } from '../errors'
import { keystoreError } from './errors'
import type { Clock } from './sessions'

/** Wrong passwords in a row that cost no wait: typing slips. */
const FREE_MISSES = 3
const FIRST_WAIT_MS = 1000
const MAX_WAIT_MS = 15 * 60_000

interface Misses {
  readonly count: number
  /** Epoch ms before which the next try is refused. */
  readonly until: number
}

export class UnlockThrottle {
  private readonly misses = new Map<string, Misses>()
  private readonly trying = new Set<string>()

  /**
   * Runs `check` as a password try for `walletId`: refused when one is running or the wallet is waiting out its
   * backoff. A `WrongPassword` from `check` counts as a miss; success forgets the misses.
   * The refusals are decided before the first await, so calls made together are refused in call order.
   */
  async attempt<T>(walletId: string, clock: Clock, check: () => Promise<T>): Promise<T> {
    if (this.trying.has(walletId)) {
      throw keystoreError(
        'UnlockInProgress',
        'a password for this wallet is being checked already: try again once that is done',
        { walletId }
      )
    }
    const now = clock.now()
    const waitMs = (this.misses.get(walletId)?.until ?? 0) - now
    if (waitMs > 0) {
      const retryAt = new Date(now + waitMs).toISOString()
      throw keystoreError(
        'UnlockThrottled',
        `too many wrong passwords for this wallet: try again in ${spoken(waitMs)} (at ${retryAt})`,
        { walletId, retryAfterMs: waitMs, retryAt }
      )
    }
    this.trying.add(walletId)
    try {
      const result = await check()
      this.misses.delete(walletId)
      return result
    } catch (e) {
      if (e instanceof EngineError && e.code === 'WrongPassword') this.missed(walletId, clock.now())
      throw e
    } finally {
      this.trying.delete(walletId)
    }
  }

  private missed(walletId: string, now: number): void {
    const count = (this.misses.get(walletId)?.count ?? 0) + 1
    const waitMs = count < FREE_MISSES ? 0 : Math.min(MAX_WAIT_MS, FIRST_WAIT_MS * 2 ** (count - FREE_MISSES))
    this.misses.set(walletId, { count, until: now + waitMs })
  }
}

function spoken(ms: number): string {
  const seconds = Math.ceil(ms / 1000)
  if (seconds < 120) return seconds === 1 ? '1 second' : `${seconds} seconds`
  return `${Math.ceil(seconds / 60)} minutes`
}
