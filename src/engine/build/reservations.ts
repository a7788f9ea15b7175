/**
 * Inputs held by our pending builds, so concurrent builds for one wallet never pick the same UTxO.
 *
 * A build reserves the UTxOs it spends exclusively, and its collateral in a shared mode: two pending txs may
 * both name one UTxO as collateral (collateral is only taken if a script fails), but no pending tx may spend a
 * UTxO that another one spends or uses as collateral, since that would invalidate the other. Reservations
 * expire on their own (an abandoned unsigned tx must not lock funds forever) and are released on submit.
 * `tryReserve` is the atomic step: a store backed by a database implements it in one transaction.
 */
import type { TxOutRef } from '../../chain/provider'
import { formatRef } from '../../core/cardano/refs'
import type { ReserveOutcome } from '../../store/reservations'

export type { ReserveOutcome }

export interface Reservation {
  readonly key: string
  readonly spend: readonly TxOutRef[]
  readonly collateral: readonly TxOutRef[]
  /** Epoch milliseconds. */
  readonly expiresAt: number
}

export interface ReservedRefs {
  /** `txid#ix` of every UTxO a live reservation spends. */
  readonly spent: ReadonlySet<string>
  /** `txid#ix` of every UTxO a live reservation uses as collateral. */
  readonly collateral: ReadonlySet<string>
}

export interface InputReservations {
  /** The refs held by reservations that have not expired at `now`. */
  reserved(now: number): Promise<ReservedRefs>
  /** Records `reservation` unless it would share a spent input with a live one; then reports the conflicts. */
  tryReserve(reservation: Reservation, now: number): Promise<ReserveOutcome>
  release(key: string): Promise<void>
}

interface Held {
  readonly spend: readonly string[]
  readonly collateral: readonly string[]
  readonly expiresAt: number
}

export class InMemoryInputReservations implements InputReservations {
  private readonly held = new Map<string, Held>()

  reserved(now: number): Promise<ReservedRefs> {
    this.expire(now)
    const spent = new Set<string>()
    const collateral = new Set<string>()
    for (const h of this.held.values()) {
      for (const r of h.spend) spent.add(r)
      for (const r of h.collateral) collateral.add(r)
    }
    return Promise.resolve({ spent, collateral })
  }

  tryReserve(reservation: Reservation, now: number): Promise<ReserveOutcome> {
    this.expire(now)
    const spend = reservation.spend.map(formatRef)
    const collateral = reservation.collateral.map(formatRef)
    const conflicts: string[] = []
    for (const h of this.held.values()) {
      for (const r of spend) if (h.spend.includes(r) || h.collateral.includes(r)) conflicts.push(r)
      for (const r of collateral) if (h.spend.includes(r)) conflicts.push(r)
    }
    if (conflicts.length > 0) return Promise.resolve({ ok: false, conflicts })
    this.held.set(reservation.key, { spend, collateral, expiresAt: reservation.expiresAt })
    return Promise.resolve({ ok: true })
  }

  release(key: string): Promise<void> {
    this.held.delete(key)
    return Promise.resolve()
  }

  private expire(now: number): void {
    for (const [key, h] of this.held) if (h.expiresAt <= now) this.held.delete(key)
  }
}
