/**
 * Unlocked wallets: their decrypted secrets, held in memory until locked by hand or after a stretch of
 * inactivity. Locking zeroes the secret's bytes. Time comes from an injected clock and scheduler, and expiry
 * is checked against the clock on every use as well as by the timer, since timers fire late after a sleep.
 */

/** Milliseconds since the epoch. */
export interface Clock {
  now(): number
}

/** Runs `task` after `delayMs`; returns a function that cancels it. */
export type Schedule = (task: () => void, delayMs: number) => () => void

export const systemClock: Clock = { now: () => Date.now() }

/** setTimeout, unref'd: an unlocked wallet must not keep a command-line process alive. */
export const systemSchedule: Schedule = (task, delayMs) => {
  const timer = setTimeout(task, delayMs)
  timer.unref()
  return () => clearTimeout(timer)
}

export type SessionSecret =
  | {
      readonly kind: 'hd'
      readonly accountIndex: number
      readonly accountXvk: Uint8Array
      /** Account extended private key ‖ chain code, 96 bytes. */
      readonly accountXprv: Uint8Array
    }
  | {
      readonly kind: 'single-key'
      readonly verificationKey: Uint8Array
      /** A 32-byte Ed25519 seed, or a 64-byte extended secret. */
      readonly signingKey: Uint8Array
    }

export interface SessionOptions {
  readonly clock: Clock
  readonly schedule: Schedule
  readonly idleMs: number
  /** Called when a wallet locks itself after inactivity (not when locked by hand). */
  readonly onAutoLock?: (walletId: string) => void
}

interface Session {
  readonly secret: SessionSecret
  lastUsed: number
  cancel: () => void
}

export class Sessions {
  private readonly open = new Map<string, Session>()

  constructor(private readonly options: SessionOptions) {}

  /** Holds `secret` for `walletId` (taking ownership of its bytes), replacing any earlier session. */
  start(walletId: string, secret: SessionSecret): void {
    this.end(walletId)
    const session: Session = { secret, lastUsed: this.options.clock.now(), cancel: () => undefined }
    this.open.set(walletId, session)
    this.arm(walletId, session, this.options.idleMs)
  }

  /** The secret of an unlocked wallet, counting this as activity; undefined when locked. */
  use(walletId: string): SessionSecret | undefined {
    const session = this.live(walletId)
    if (session === undefined) return undefined
    session.lastUsed = this.options.clock.now()
    return session.secret
  }

  isOpen(walletId: string): boolean {
    return this.live(walletId) !== undefined
  }

  /** When an unlocked wallet locks itself unless used before (ms since the epoch); undefined when locked. */
  locksAt(walletId: string): number | undefined {
    const session = this.live(walletId)
    return session === undefined ? undefined : session.lastUsed + this.options.idleMs
  }

  /** Locks a wallet; returns whether it was unlocked. */
  end(walletId: string): boolean {
    const session = this.open.get(walletId)
    if (session === undefined) return false
    this.open.delete(walletId)
    session.cancel()
    zero(session.secret)
    return true
  }

  endAll(): void {
    for (const walletId of [...this.open.keys()]) this.end(walletId)
  }

  private live(walletId: string): Session | undefined {
    const session = this.open.get(walletId)
    if (session === undefined) return undefined
    if (this.idleFor(session) < this.options.idleMs) return session
    this.expire(walletId)
    return undefined
  }

  private idleFor(session: Session): number {
    return this.options.clock.now() - session.lastUsed
  }

  private arm(walletId: string, session: Session, delayMs: number): void {
    session.cancel = this.options.schedule(() => {
      if (this.open.get(walletId) !== session) return
      const remaining = this.options.idleMs - this.idleFor(session)
      if (remaining > 0) this.arm(walletId, session, remaining)
      else this.expire(walletId)
    }, delayMs)
  }

  private expire(walletId: string): void {
    if (this.end(walletId)) this.options.onAutoLock?.(walletId)
  }
}

function zero(secret: SessionSecret): void {
  if (secret.kind === 'hd') secret.accountXprv.fill(0)
  else secret.signingKey.fill(0)
}
