/**
 * `settings.testConnection`: connects to a node as Settings describe it, checks that it serves the chosen network,
 * and reaches cardano-submit-api when one is given — then disconnects, changing nothing.
 *
 * Whoever holds a session can make this call with any URL, so it must not become a way to read what other
 * services (on this machine, or on networks only it can reach) answer. Only node URLs are taken (ws/wss for
 * Ogmios, http/https for the rest), and the report says only whether each endpoint is reachable as what it
 * should be, plus the network a node of the right kind serves, in sentences of our own: nothing the peer said
 * (bodies, error messages, statuses, socket errors) comes back.
 */
import type { ConnectionReport, NetworkName, NodeSettings } from '../api/contract'
import { exchange } from '../chain/blockfrost'
import { marloweDeployment } from '../chain/deployments'
import { KupoClient } from '../chain/kupo'
import { NETWORK_MAGIC } from '../chain/ogmios'
import { openNodeChain, type ChainTuning, type NodeEndpoints, type OpenedChain } from '../chain/open'
import { ChainError } from '../chain/provider'
import { deskFailure } from '../engine/desk'
import type { EngineError } from '../engine/errors'

/** Short deadlines: a person is waiting for the answer. */
export const TEST_TUNING: ChainTuning = {
  ogmios: { connectTimeoutMs: 5000, requestTimeoutMs: 10_000, followChain: false, heartbeatMs: false },
  blockfrost: { timeoutMs: 10_000, retries: 0 },
  submitApiTimeoutMs: 10_000
}

const WEBSOCKET = ['ws:', 'wss:']
const HTTP = ['http:', 'https:']

export async function testConnection(
  network: NetworkName,
  node: NodeSettings,
  tuning: ChainTuning = TEST_TUNING
): Promise<ConnectionReport> {
  if (network === 'sandbox') {
    throw deskFailure('BadRequest', 'NothingToTest', 'the sandbox runs inside Marlowe Desk: there is no node to test')
  }
  checkSchemes(node)
  const checks = [await checkQueryNode(network, node, tuning)]
  if (node.kupo !== undefined) checks.push(await checkKupo(node.kupo, network, tuning.submitApiTimeoutMs ?? 10_000))
  if (node.submitApi !== undefined) {
    checks.push(await checkSubmitApi(node.submitApi, tuning.submitApiTimeoutMs ?? 10_000))
  }
  return { network, checks }
}

/** The request schema checks these too; this call is the one that connects, so it checks again. */
function checkSchemes(node: NodeSettings): void {
  const urls: ReadonlyArray<readonly [string, string | undefined, readonly string[]]> = [
    ['Ogmios', node.ogmios, WEBSOCKET],
    ['Kupo', node.kupo, HTTP],
    ['Blockfrost', node.blockfrost?.url, HTTP],
    ['cardano-submit-api', node.submitApi, HTTP]
  ]
  for (const [what, url, protocols] of urls) {
    if (url === undefined || (URL.canParse(url) && protocols.includes(new URL(url).protocol))) continue
    const schemes = protocols.map((p) => `${p}//`).join(' or ')
    throw deskFailure('BadRequest', 'InvalidRequest', `the ${what} URL must start with ${schemes}`, { url })
  }
}

/** The node queries go to, as the report names it. */
interface QueryNode {
  readonly kind: 'Ogmios' | 'Blockfrost'
  readonly endpoints: NodeEndpoints
  /** "Ogmios at ws://…", "Blockfrost" (its own service), "Blockfrost at http://…". */
  readonly name: string
  /** The URL the user gave, for the details of a failure. */
  readonly url?: string
}

function queryNodeOf({ ogmios, blockfrost }: NodeSettings): QueryNode {
  if (ogmios !== undefined) return { kind: 'Ogmios', endpoints: { ogmios }, name: `Ogmios at ${ogmios}`, url: ogmios }
  const url = blockfrost?.url
  return {
    kind: 'Blockfrost',
    endpoints: blockfrost === undefined ? {} : { blockfrost },
    name: url === undefined ? 'Blockfrost' : `Blockfrost at ${url}`,
    ...(url === undefined ? {} : { url })
  }
}

/** Ogmios or Blockfrost: answers the queries the engine starts with, and serves `network`. */
async function checkQueryNode(network: NetworkName, settings: NodeSettings, tuning: ChainTuning): Promise<string> {
  const node = queryNodeOf(settings)
  let chain: OpenedChain | undefined
  try {
    chain = await openNodeChain(network, node.endpoints, tuning)
    // Blockfrost checks its network when it reads the genesis (for the era summaries); Ogmios on connecting.
    await Promise.all([chain.provider.tip(), chain.provider.eraSummaries()])
  } catch (e) {
    throw notReached(node, network, e)
  } finally {
    await chain?.close()
  }
  return `${node.name} answers and serves ${network}.`
}

function notReached(node: QueryNode, network: NetworkName, e: unknown): EngineError {
  const details = node.url === undefined ? {} : { url: node.url }
  const served = servedNetwork(e)
  if (served !== undefined) {
    const message = `${node.name} answers, but serves ${served}, not ${network}`
    return deskFailure('BadRequest', 'NodeBadResponse', message, details)
  }
  const message =
    node.kind === 'Ogmios'
      ? `${node.name} cannot be reached, or does not answer as Ogmios`
      : `${node.name} cannot be reached, or does not answer as Blockfrost for a ${network} project id`
  return deskFailure('Unavailable', 'NodeUnavailable', message, details)
}

/**
 * The network a node of the right kind said it serves, when that is why it failed: Ogmios names the network magic
 * of its genesis. A name we know, else "another network" — never a value of the peer's.
 */
function servedNetwork(e: unknown): string | undefined {
  if (!(e instanceof ChainError) || e.kind !== 'BadResponse') return undefined
  const magic = e.details['networkMagic']
  const network = e.details['network']
  if ((typeof magic !== 'number' && typeof magic !== 'bigint') || (network !== 'mainnet' && network !== 'testnet')) {
    return undefined
  }
  const known = Object.entries(NETWORK_MAGIC).find(
    ([name, value]) => BigInt(value) === BigInt(magic) && (name === 'mainnet') === (network === 'mainnet')
  )
  return known?.[0] ?? 'another network'
}

/** Kupo answers as Kupo, and indexes the network's Marlowe validators (else the index would find nothing). */
async function checkKupo(url: string, network: NetworkName, timeoutMs: number): Promise<string> {
  const kupo = new KupoClient({ url, timeoutMs, maxResponseBytes: 1024 * 1024 })
  const { semantics, payout } = marloweDeployment(network)
  const missing: string[] = []
  try {
    await kupo.tip()
    for (const hash of [semantics.hash, payout.hash]) {
      if ((await kupo.patternsIncluding(`${hash}/*`)).length === 0) missing.push(hash)
    }
  } catch {
    throw deskFailure(
      'Unavailable',
      'NodeUnavailable',
      `Kupo at ${url} cannot be reached, or does not answer as Kupo`,
      {
        url
      }
    )
  }
  if (missing.length > 0) {
    const matches = missing.map((hash) => `--match "${hash}/*"`).join(' ')
    throw deskFailure(
      'BadRequest',
      'NodeBadResponse',
      `Kupo at ${url} answers, but does not index the Marlowe validators of ${network}: run it with ${matches}.`,
      { url }
    )
  }
  return `Kupo at ${url} answers and indexes the Marlowe validators.`
}

async function checkSubmitApi(url: string, timeoutMs: number): Promise<string> {
  // cardano-submit-api has no status endpoint: any HTTP answer from its root shows it is there.
  const result = await exchange(url, { method: 'GET' }, timeoutMs)
  if (result.kind !== 'answer') {
    throw deskFailure('Unavailable', 'NodeUnavailable', `the cardano-submit-api at ${url} cannot be reached`, { url })
  }
  return `cardano-submit-api at ${url} answers.`
}
