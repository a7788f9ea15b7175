/**
 * Runtime's status headers (runtime-api.md §1.2), on every routed answer: the tips as JSON text, the network
 * and the Runtime version this API is compatible with. This service has no separate chain indexer, so the
 * node tip is also the runtime's chain tip and runtime tip.
 */
import type { NetworkName } from '../chain/provider'
import { stringifyJson } from '../core/json/lossless'
import type { MarloweService } from '../engine/service'
import { isoTime } from './runtime-json'

export const RUNTIME_VERSION = '1.0.0'

/** `mainnet`, or the testnet's network magic; the sandbox uses 42, the usual magic of local devnets. */
const NETWORK_ID: Readonly<Record<NetworkName, string>> = {
  mainnet: 'mainnet',
  preprod: '1',
  preview: '2',
  sandbox: '42'
}

export async function statusHeaders(service: MarloweService): Promise<Record<string, string>> {
  const { tip, tipTime } = await service.chainStatus()
  const tipJson = stringifyJson({
    blockHeader: { slotNo: tip.slot, blockNo: tip.blockNo, blockHeaderHash: tip.blockHash },
    slotTimeUTC: isoTime(tipTime)
  })
  return {
    'X-Node-Tip': tipJson,
    'X-Runtime-Chain-Tip': tipJson,
    'X-Runtime-Tip': tipJson,
    'X-Runtime-Version': RUNTIME_VERSION,
    'X-Network-Id': NETWORK_ID[service.provider.network]
  }
}
