/**
 * A store is three parts over one database: the service's records, the input reservations, and the contract
 * sources. SQLite (one file) is the default.
 */
import type { ContractSourceStore } from './contract-sources'
import { SqliteContractSources } from './contract-sources'
import { openDatabase } from './database'
import { SqliteInputReservations, type StoredReservations } from './reservations'
import type { ServiceStore } from './service-store'
import { SqliteGate } from './sqlite-gate'
import { sqliteServiceStore } from './sqlite-service-store'

export interface Store {
  readonly records: ServiceStore
  readonly reservations: StoredReservations
  readonly sources: ContractSourceStore
  close(): Promise<void>
}

/** Opens (creating and migrating if needed) the SQLite store at `path`; `:memory:` for a throw-away one. */
export function openSqliteStore(path: string): Store {
  const gate = new SqliteGate(openDatabase(path))
  return {
    records: sqliteServiceStore(gate),
    reservations: new SqliteInputReservations(gate),
    sources: new SqliteContractSources(gate),
    close: () => gate.run(() => void gate.db.close())
  }
}
