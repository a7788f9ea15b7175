/**
 * Puts a service together over one SQLite file: the store, input reservations in the same file (so they hold
 * across restarts), the builder, and the follower. `close` stops the follower and closes the file.
 */
import type { ChainProvider } from '../../chain/provider'
import { openDatabase } from '../../store/database'
import { ContractSourceStore } from '../../store/contract-sources'
import { SqliteInputReservations } from '../../store/reservations'
import { ServiceStore } from '../../store/service-store'
import { MarloweTxBuilder, type BuilderOptions } from '../build'
import { ChainIndex } from './chain-index'
import { Follower } from './follower'
import { recordMissingParties } from './parties'
import { MarloweService } from './service'
import { ContractSources } from './sources'

export interface OpenServiceOptions {
  readonly provider: ChainProvider
  /** The SQLite file; `:memory:` for a throw-away service. */
  readonly databasePath: string
  readonly now?: () => number
  /** How often the follower asks the node about submitted txs, in ms; `false` to sync only on demand. */
  readonly followEveryMs?: number | false
  readonly dropAfterMs?: number
  readonly builder?: Partial<Omit<BuilderOptions, 'provider' | 'reservations' | 'now'>>
}

export interface OpenService {
  readonly service: MarloweService
  readonly follower: Follower
  /** The stored builds and contracts, for callers that look a build up by its tx id (the desktop app). */
  readonly store: ServiceStore
  close(): Promise<void>
}

export function openService(options: OpenServiceOptions): OpenService {
  const db = openDatabase(options.databasePath)
  const now = options.now ?? Date.now
  const reservations = new SqliteInputReservations(db)
  reservations.releaseOrphans()
  const builder = new MarloweTxBuilder({ ...options.builder, provider: options.provider, reservations, now })
  const store = new ServiceStore(db)
  recordMissingParties(store)
  const sources = new ContractSources(new ContractSourceStore(db))
  const service = new MarloweService({ provider: options.provider, store, builder, sources, now })
  const release = (key: string): Promise<void> => builder.release(key)
  const index = new ChainIndex({ provider: options.provider, store, release, now })
  const follower = new Follower({
    provider: options.provider,
    store,
    index,
    now,
    ...(options.dropAfterMs === undefined ? {} : { dropAfterMs: options.dropAfterMs })
  })
  if (options.followEveryMs !== false) follower.start(options.followEveryMs ?? 1000)
  return {
    service,
    follower,
    store,
    close: async () => {
      await follower.stop()
      db.close()
    }
  }
}
