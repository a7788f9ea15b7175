/**
 * A store is three parts over one database: the service's records, the input reservations, and the contract
 * sources. SQLite (one file, one process) is the default; PostgreSQL is shared by several processes.
 */
import type { ContractSourceStore } from './contract-sources'
import { SqliteContractSources } from './contract-sources'
import { openDatabase } from './database'
import { PgContractSources } from './postgres/contract-sources'
import { openPool } from './postgres/database'
import { FollowerLead } from './postgres/follower-lead'
import { PgInputReservations } from './postgres/reservations'
import { PgServiceStore } from './postgres/service-store'
import { SqliteInputReservations, type StoredReservations } from './reservations'
import type { ServiceStore } from './service-store'
import { SqliteGate } from './sqlite-gate'
import { sqliteServiceStore } from './sqlite-service-store'

export interface Store {
  readonly records: ServiceStore
  readonly reservations: StoredReservations
  readonly sources: ContractSourceStore
  /**
   * Whether this process is the one that runs the follower (one per database): true while it holds the lead, and
   * false while another process does; ask again (each follower tick) to take over once that process is gone.
   */
  tryLeadFollower(): Promise<boolean>
  close(): Promise<void>
}

/** Opens (creating and migrating if needed) the SQLite store at `path`; `:memory:` for a throw-away one. */
export function openSqliteStore(path: string): Store {
  const gate = new SqliteGate(openDatabase(path))
  return {
    records: sqliteServiceStore(gate),
    reservations: new SqliteInputReservations(gate),
    sources: new SqliteContractSources(gate),
    // One process per file: it always leads.
    tryLeadFollower: () => Promise.resolve(true),
    close: () => gate.run(() => void gate.db.close())
  }
}

/** Opens (creating and migrating its schema if needed) the PostgreSQL store at `url` (`postgres://…`). */
export async function openPostgresStore(url: string): Promise<Store> {
  const pool = await openPool(url)
  const lead = new FollowerLead(url)
  let closed: Promise<void> | undefined
  const close = async (): Promise<void> => {
    await lead.close()
    await pool.end()
  }
  return {
    records: new PgServiceStore(pool),
    reservations: new PgInputReservations(pool),
    sources: new PgContractSources(pool),
    tryLeadFollower: () => lead.tryLead(),
    // Closing twice is closing once, as with SQLite.
    close: () => (closed ??= close())
  }
}
