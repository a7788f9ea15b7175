/**
 * Puts a service together over its store (one SQLite file, or a store opened by the caller, e.g. PostgreSQL
 * shared with other processes): input reservations in the same store (so they hold across restarts and
 * processes), the builder, and the follower. `close` stops the follower and closes the store.
 */
import type { ChainProvider } from '../../chain/provider'
import { openSqliteStore, type Store } from '../../store/open-store'
import type { ServiceStore } from '../../store/service-store'
import { MarloweTxBuilder, type BuilderOptions } from '../build'
import { ChainIndex } from './chain-index'
import { Follower } from './follower'
import { recordMissingParties } from './parties'
import { MarloweService } from './service'
import { ContractSources } from './sources'

/** Where the service keeps its records: a SQLite file, or a store already open. */
export type ServiceStoreOption =
  /** The SQLite file; `:memory:` for a throw-away service. */
  | { readonly databasePath: string; readonly store?: never }
  /** A store opened by the caller (PostgreSQL: `openPostgresStore`); the service closes it. */
  | { readonly store: Store; readonly databasePath?: never }

export type OpenServiceOptions = ServiceStoreOption & {
  readonly provider: ChainProvider
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

export async function openService(options: OpenServiceOptions): Promise<OpenService> {
  const opened = options.store ?? openSqliteStore(options.databasePath)
  const now = options.now ?? Date.now
  const { reservations, records: store } = opened
  await reservations.releaseOrphans()
  const builder = new MarloweTxBuilder({ ...options.builder, provider: options.provider, reservations, now })
  await recordMissingParties(store)
  const sources = new ContractSources(opened.sources)
  const service = new MarloweService({ provider: options.provider, store, builder, sources, now })
  const release = (key: string): Promise<void> => builder.release(key)
  const index = new ChainIndex({ provider: options.provider, store, release, now })
  const follower = new Follower({
    provider: options.provider,
    store,
    index,
    now,
    // One of the services sharing a store follows at a time; the others take over when its process is gone.
    mayLead: () => opened.tryLeadFollower(),
    ...(options.dropAfterMs === undefined ? {} : { dropAfterMs: options.dropAfterMs })
  })
  if (options.followEveryMs !== false) follower.start(options.followEveryMs ?? 1000)
  return {
    service,
    follower,
    store,
    close: async () => {
      await follower.stop()
      await opened.close()
    }
  }
}
