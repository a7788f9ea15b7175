/**
 * `settings.testConnection`: connects to a node as Settings describe it, asks for its tip, checks that it serves
 * the chosen network, and reaches cardano-submit-api when one is given — then disconnects, changing nothing.
 */
import type { ConnectionReport, NetworkName, NodeSettings } from '../api/contract'
import { exchange } from '../chain/blockfrost/http'
import { openNodeChain, type ChainTuning } from '../chain/open'
import { ChainError } from '../chain/provider'
import { deskFailure } from '../engine/desk'

/** Short deadlines: a person is waiting for the answer. */
export const TEST_TUNING: ChainTuning = {
  ogmios: { connectTimeoutMs: 5000, requestTimeoutMs: 10_000, followChain: false, heartbeatMs: false },
  blockfrost: { timeoutMs: 10_000, retries: 0 },
  submitApiTimeoutMs: 10_000
}

async function checkSubmitApi(url: string, timeoutMs: number): Promise<string> {
  // cardano-submit-api has no status endpoint: any HTTP answer from its root shows it is there.
  const result = await exchange(url, { method: 'GET' }, timeoutMs)
  if (result.kind === 'answer') return `cardano-submit-api at ${url} answers.`
  const why = result.kind === 'timeout' ? `no answer within ${timeoutMs} ms` : result.cause
  throw new ChainError('Unavailable', `cannot reach cardano-submit-api at ${url} (${why})`, { url })
}

export async function testConnection(
  network: NetworkName,
  node: NodeSettings,
  tuning: ChainTuning = TEST_TUNING
): Promise<ConnectionReport> {
  if (network === 'sandbox') {
    throw deskFailure('BadRequest', 'NothingToTest', 'the sandbox runs inside Marlowe Desk: there is no node to test')
  }
  const chain = await openNodeChain(network, node, tuning)
  try {
    // Blockfrost checks its network when it reads the genesis (for the era summaries); Ogmios on connecting.
    const [tip] = await Promise.all([chain.provider.tip(), chain.provider.eraSummaries()])
    const checks = [
      node.ogmios !== undefined
        ? `Ogmios at ${node.ogmios} answers and serves ${network}.`
        : `Blockfrost${node.blockfrost?.url === undefined ? '' : ` at ${node.blockfrost.url}`} answers and serves ${network}.`
    ]
    if (node.submitApi !== undefined)
      checks.push(await checkSubmitApi(node.submitApi, tuning.submitApiTimeoutMs ?? 10_000))
    return { network, tip: { slot: tip.slot, blockNo: tip.blockNo, blockHash: tip.blockHash }, checks }
  } finally {
    await chain.close()
  }
}
