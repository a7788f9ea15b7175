/**
 * Input reservations in PostgreSQL, shared by every process on the database. Two processes building at once must
 * never both reserve one output, and a check for conflicts followed by an insert is not atomic by itself under
 * PostgreSQL's READ COMMITTED. So a reservation first takes a transaction-scoped advisory lock per output it names
 * (lock_refs: in one order for everyone, so two reservations never deadlock): a second reservation naming any of
 * those outputs waits there until the first commits, and its conflict check, a statement that starts after the
 * wait, sees the first one's rows. Reservations of disjoint outputs never wait on each other (a hash collision of
 * two refs only makes them wait, never lets them through). Row locks could not do this alone: the conflicting rows
 * do not exist yet when both look, and a unique index cannot say that collateral may be shared but not spent.
 */
import type pg from 'pg'
import { formatRef } from '../../core/cardano/refs'
import {
  heldRefs,
  type HeldRefs,
  type ReserveOutcome,
  type StoredReservation,
  type StoredReservations
} from '../reservations'
import { LOCKS } from './database'
import { PoolSession } from './session'

/**
 * How long a reservation no stored build holds is left alone on open: another process may be between reserving a
 * build's inputs and storing the build, which takes far less.
 */
const ORPHAN_AFTER = '1 minute'

export class PgInputReservations implements StoredReservations {
  private readonly session: PoolSession

  constructor(pool: pg.Pool) {
    this.session = new PoolSession(pool)
  }

  releaseOrphans(): Promise<number> {
    return this.session.run(
      `DELETE FROM reservations v
        WHERE v.reserved_at < now() - interval '${ORPHAN_AFTER}'
          AND NOT EXISTS (SELECT 1 FROM txs t WHERE t.reservation_key = v.key)`
    )
  }

  async reserved(now: number): Promise<HeldRefs> {
    await this.session.run('DELETE FROM reservations WHERE expires_at <= $1', [now])
    const rows = await this.session.rows<{ ref: string; mode: string }>(
      `SELECT r.ref, r.mode FROM reservation_refs r JOIN reservations v ON v.key = r.key WHERE v.expires_at > $1`,
      [now]
    )
    return heldRefs(rows)
  }

  tryReserve(reservation: StoredReservation, now: number): Promise<ReserveOutcome> {
    const spend = reservation.spend.map(formatRef)
    const collateral = reservation.collateral.map(formatRef)
    return this.session.transaction(async (s): Promise<ReserveOutcome> => {
      await s.run('SELECT lock_refs($1, $2::text[])', [LOCKS.reservedRefs, [...spend, ...collateral]])
      await s.run('DELETE FROM reservations WHERE expires_at <= $1', [now])
      // A spend conflicts with any live use of the ref; a collateral use only with a live spend.
      const conflicts = await s.rows<{ ref: string }>(
        `SELECT DISTINCT r.ref FROM reservation_refs r
          WHERE r.ref = ANY($1::text[]) AND (r.mode = 'spend' OR r.ref = ANY($2::text[]))
          ORDER BY r.ref`,
        [[...spend, ...collateral], spend]
      )
      if (conflicts.length > 0) return { ok: false, conflicts: conflicts.map((r) => r.ref) }
      await s.run('INSERT INTO reservations (key, expires_at) VALUES ($1, $2)', [
        reservation.key,
        reservation.expiresAt
      ])
      await s.run(
        `INSERT INTO reservation_refs (key, ref, mode)
         SELECT $1, ref, 'spend' FROM unnest($2::text[]) AS ref
         UNION SELECT $1, ref, 'collateral' FROM unnest($3::text[]) AS ref
         ON CONFLICT DO NOTHING`,
        [reservation.key, spend, collateral]
      )
      return { ok: true }
    })
  }

  async release(key: string): Promise<void> {
    await this.session.run('DELETE FROM reservations WHERE key = $1', [key])
  }
}
