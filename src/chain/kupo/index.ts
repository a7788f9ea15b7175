/**
 * # The Kupo index
 *
 * `withKupoIndex` gives a provider (Ogmios' usually) the chain index (`scriptTransactions`) through Kupo, which
 * says which blocks create or spend outputs at the Marlowe scripts, and Ogmios, whose chain sync reads those
 * blocks with their transactions' bytes. See ./script-index.ts for how pages, windows and rollbacks work and what
 * Kupo and Ogmios must be run with.
 */
import { withScriptIndex } from '../delegating-provider'
import { OgmiosBlockReader, rpcClientOptions, type OgmiosProviderOptions } from '../ogmios'
import type { ChainProvider } from '../provider'
import { KupoClient, type KupoClientOptions } from './kupo-client'
import { KupoScriptIndex } from './script-index'

export { KupoClient, type KupoClientOptions, type KupoMatch, type KupoPoint } from './kupo-client'
export { KupoScriptIndex, type BlockSource, type KupoScriptIndexOptions } from './script-index'

export interface KupoIndexOptions {
  readonly kupo: KupoClientOptions
  /** The Ogmios whose chain sync reads the blocks (its own connection). */
  readonly ogmios: Omit<OgmiosProviderOptions, 'network'>
}

export interface IndexedChain {
  readonly provider: ChainProvider
  /** Closes the index's own Ogmios connection (not `inner`'s). */
  close(): Promise<void>
}

/** `inner` for everything, with the chain index read through Kupo and Ogmios. */
export async function withKupoIndex(inner: ChainProvider, options: KupoIndexOptions): Promise<IndexedChain> {
  const kupo = new KupoClient(options.kupo)
  const blocks = await OgmiosBlockReader.connect(rpcClientOptions(options.ogmios))
  return {
    provider: withScriptIndex(inner, new KupoScriptIndex({ kupo, blocks })),
    close: () => blocks.close()
  }
}
