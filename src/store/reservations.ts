/**
 * Input reservations kept in the store, so they hold across restarts and across processes sharing it. In SQLite
 * the check for conflicts and the insert happen in one IMMEDIATE transaction, which SQLite serialises. A store's
 * reservations have the shape of the engine's `InputReservations` (src/engine/build/reservations.ts), which the
 * engine is handed; the store itself imports nothing above core.
 */
import { formatRef } from '../core/cardano/refs'
import type { TxIn as OutRef } from '../core/cardano/tx'
import type { Db } from './database'
import type { SqliteGate } from './sqlite-gate'

export interface StoredReservation {
  readonly key: string
  readonly spend: readonly OutRef[]
  readonly collateral: readonly OutRef[]
  /** Epoch milliseconds. */
  readonly expiresAt: number
}

export type ReserveOutcome = { readonly ok: true } | { readonly ok: false; readonly conflicts: readonly string[] }

/** Refs held by live reservations, by how they are held. */
export interface HeldRefs {
  readonly spent: ReadonlySet<string>
  readonly collateral: ReadonlySet<string>
}

export interface StoredReservations {
  /**
   * Frees the reservations no stored build holds: a process killed between reserving a build's inputs and
   * storing the build leaves one behind, which would keep those inputs from every build until it lapsed. Run
   * when the store is opened, before any build of this process; how many were freed.
   */
  releaseOrphans(): Promise<number>
  /** The refs held by reservations live at `now`, by how they are held. */
  reserved(now: number): Promise<HeldRefs>
  /** Records `reservation` unless it would share a spent input with a live one; then reports the conflicts. */
  tryReserve(reservation: StoredReservation, now: number): Promise<ReserveOutcome>
  release(key: string): Promise<void>
}

/** Live reservation rows (`reservation_refs`), by how each ref is held. */
export function heldRefs(rows: readonly { ref: string; mode: string }[]): HeldRefs {
  const spent = new Set<string>()
  const collateral = new Set<string>()
  for (const { ref, mode } of rows) (mode === 'spend' ? spent : collateral).add(ref)
  return { spent, collateral }
}

export class SqliteInputReservations implements StoredReservations {
  private readonly deleteExpired
  private readonly selectLive
  private readonly selectConflicts
  private readonly insertReservation
  private readonly insertRef
  private readonly deleteReservation
  private readonly deleteOrphans

  private readonly db: Db

  constructor(private readonly gate: SqliteGate) {
    const db = gate.db
    this.db = db
    this.deleteExpired = db.prepare('DELETE FROM reservations WHERE expires_at <= ?')
    this.selectLive = db.prepare<[], { ref: string; mode: string }>('SELECT ref, mode FROM reservation_refs')
    // A spend conflicts with any live use of the ref; a collateral use only with a live spend.
    this.selectConflicts = db.prepare<[string, string], { ref: string }>(
      `SELECT DISTINCT r.ref FROM reservation_refs r, json_each(?) j
        WHERE r.ref = j.value
          AND (r.mode = 'spend' OR j.value IN (SELECT value FROM json_each(?)))`
    )
    this.insertReservation = db.prepare('INSERT INTO reservations (key, expires_at) VALUES (?, ?)')
    this.insertRef = db.prepare('INSERT OR IGNORE INTO reservation_refs (key, ref, mode) VALUES (?, ?, ?)')
    this.deleteReservation = db.prepare('DELETE FROM reservations WHERE key = ?')
    this.deleteOrphans = db.prepare('DELETE FROM reservations WHERE key NOT IN (SELECT reservation_key FROM txs)')
  }

  /**
   * (A second process building on the same file at that very moment would lose its reservation for that build:
   * at worst two builds then spend one input, and the node refuses the second at submit.)
   */
  releaseOrphans(): Promise<number> {
    return this.gate.run(() => this.deleteOrphans.run().changes)
  }

  async reserved(now: number): Promise<HeldRefs> {
    const rows = await this.gate.run(() =>
      this.db.transaction(() => {
        this.deleteExpired.run(now)
        return this.selectLive.all()
      })()
    )
    return heldRefs(rows)
  }

  tryReserve(reservation: StoredReservation, now: number): Promise<ReserveOutcome> {
    const spend = reservation.spend.map(formatRef)
    const collateral = reservation.collateral.map(formatRef)
    // A reservation needs no sync of its own: the build stored after it commits with one, which takes the
    // reservation's earlier WAL frames to the disk too, and one lost to a power cut before that is what
    // `releaseOrphans` frees anyway. Skipping it spares one of a service build's two syncs.
    return this.gate.run(() => {
      const level = this.db.pragma('synchronous', { simple: true }) as number
      this.db.pragma('synchronous = NORMAL')
      try {
        return this.reserveNow(spend, collateral, reservation, now)
      } finally {
        this.db.pragma(`synchronous = ${level}`)
      }
    })
  }

  private reserveNow(
    spend: readonly string[],
    collateral: readonly string[],
    reservation: StoredReservation,
    now: number
  ): ReserveOutcome {
    return this.db
      .transaction((): ReserveOutcome => {
        this.deleteExpired.run(now)
        const all = JSON.stringify([...spend, ...collateral])
        const conflicts = this.selectConflicts.all(all, JSON.stringify(spend)).map((r) => r.ref)
        if (conflicts.length > 0) return { ok: false, conflicts }
        this.insertReservation.run(reservation.key, reservation.expiresAt)
        for (const ref of spend) this.insertRef.run(reservation.key, ref, 'spend')
        for (const ref of collateral) this.insertRef.run(reservation.key, ref, 'collateral')
        return { ok: true }
      })
      .immediate()
  }

  release(key: string): Promise<void> {
    return this.gate.run(() => void this.deleteReservation.run(key))
  }
}
