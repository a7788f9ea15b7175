/**
 * Puts a service together over one SQLite file: the store, input reservations in the same file (so they hold
 * across restarts), the builder, and the follower. `close` stops the follower and closes the file.
 */
import type { ChainProvider } from '../../chain/provider'
import { openSqliteStore } from '../../store/open-store'
import type { ServiceStore } from '../../store/service-store'
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

export async function openService(options: OpenServiceOptions): Promise<OpenService> {
  const opened = openSqliteStore(options.databasePath)
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
