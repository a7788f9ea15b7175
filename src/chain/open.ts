/**
 * Opening a real network's provider from its node endpoints: Ogmios or Blockfrost for queries, Kupo beside
 * Ogmios for the chain index, optionally cardano-submit-api for submission. Shared by the CLI (`--ogmios …` flags) and the desk host (Settings), so
 * both connect the same way; each caller checks its own input and words its own errors.
 */
import { BlockfrostProvider, type BlockfrostOptions } from './blockfrost'
import { withKupoIndex } from './kupo'
import { OgmiosProvider, type OgmiosProviderOptions } from './ogmios'
import type { ChainProvider, NetworkName } from './provider'
import { SubmitApiClient, withSubmitter } from './submit-api'

/** Exactly one of `ogmios` and `blockfrost` (the caller checks); `kupo` goes with `ogmios`; `submitApi` is optional. */
export interface NodeEndpoints {
  readonly ogmios?: string
  /** Kupo's HTTP root, for the chain index (its blocks are read through `ogmios`). */
  readonly kupo?: string
  readonly blockfrost?: { readonly projectId: string; readonly url?: string }
  readonly submitApi?: string
}

export interface OpenedChain {
  readonly provider: ChainProvider
  readonly network: NetworkName
  close(): Promise<void>
}

/** Options a caller may tune (a connection test wants short deadlines, no retries and no chain following). */
export interface ChainTuning {
  readonly ogmios?: Partial<Omit<OgmiosProviderOptions, 'url' | 'network'>>
  readonly blockfrost?: Partial<Omit<BlockfrostOptions, 'network' | 'projectId' | 'baseUrl'>>
  readonly submitApiTimeoutMs?: number
}

export async function openNodeChain(
  network: NetworkName,
  endpoints: NodeEndpoints,
  tuning: ChainTuning = {}
): Promise<OpenedChain> {
  let query: ChainProvider
  const closers: (() => Promise<void>)[] = []
  if (endpoints.ogmios !== undefined) {
    const ogmios = await OgmiosProvider.connect({ ...tuning.ogmios, url: endpoints.ogmios, network })
    closers.push(() => ogmios.close())
    query = ogmios
    if (endpoints.kupo !== undefined) {
      const indexed = await withKupoIndex(ogmios, {
        kupo: { url: endpoints.kupo },
        ogmios: { ...tuning.ogmios, url: endpoints.ogmios }
      }).catch(async (e: unknown) => {
        await ogmios.close()
        throw e
      })
      closers.push(() => indexed.close())
      query = indexed.provider
    }
  } else {
    const blockfrost = endpoints.blockfrost ?? { projectId: '' }
    query = new BlockfrostProvider({
      ...tuning.blockfrost,
      network,
      projectId: blockfrost.projectId,
      ...(blockfrost.url === undefined ? {} : { baseUrl: blockfrost.url })
    })
  }
  const submitApi = endpoints.submitApi
  const provider =
    submitApi === undefined
      ? query
      : withSubmitter(
          query,
          new SubmitApiClient({
            url: submitApi,
            ...(tuning.submitApiTimeoutMs === undefined ? {} : { timeoutMs: tuning.submitApiTimeoutMs })
          })
        )
  return { provider, network, close: async () => void (await Promise.all(closers.map((close) => close()))) }
}
