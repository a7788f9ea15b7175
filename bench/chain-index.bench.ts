/**
 * The chain index at the size of a real network's Marlowe history: 40,000 transactions (10,000 contracts, each
 * created and moved three times to its close; bench/synthetic-history.ts) read by the service's follower
 * through the sandbox's index, into a SQLite store, as `serve` does; and 10,000 of them (2,500 contracts)
 * through the Blockfrost adapter from a local Blockfrost on 127.0.0.1 serving them as blocks, and through the
 * Kupo adapter from a local Kupo and a local Ogmios on 127.0.0.1 telling the same blocks.
 * - catch-up throughput against decoding the same transactions alone (the floor of reading them); through
 *   Blockfrost or Kupo + Ogmios, against reading the same pages through the adapter without indexing them
 *   (the peers' and the wire's share);
 * - RSS when half and when all of it is indexed, against RSS before: memory stays flat as history grows;
 * - `GET /contracts` (Runtime's first page) over the 10,000 indexed contracts, one client, against a bare
 *   node:http server answering the same bytes.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { marloweDeployment, semanticsValidatorAddress } from '../src/chain/deployments'
import type { BlockPoint, ChainProvider, ScriptTxPage, ScriptTxQuery } from '../src/chain/provider'
import { SandboxProvider, sandboxWallet } from '../src/chain/sandbox'
import { ScriptTxLog } from '../src/chain/sandbox/script-log'
import { decodeTransaction } from '../src/core/cardano/tx'
import { installNativeCodecs } from '../src/engine/native-codecs'
import { openService, type OpenService } from '../src/engine/service'
import { createServer, listen } from '../src/server/app'
import { printRows, type Row } from './harness'
import { bareServer, closeServer, httpGet, portOf } from './http'
import { percentile } from './load'
import { mib, settledRss } from './memory'
import { withScriptIndex } from '../src/chain/delegating-provider'
import { KupoClient, KupoScriptIndex } from '../src/chain/kupo'
import { OgmiosBlockReader, rpcClientOptions } from '../src/chain/ogmios'
import { BlockfrostPeer } from '../tests/chain/blockfrost/peer'
import { KupoPeer } from '../tests/chain/kupo/peer'
import { OgmiosPeer } from '../tests/chain/ogmios/peer'
import { erasJson, genesisJson } from '../tests/chain/blockfrost/sandbox-json'
import { sandboxBlockfrost } from '../tests/chain/blockfrost/sandbox-peer'
import { syntheticHistory, type SyntheticHistory } from './synthetic-history'

const CONTRACTS = 10_000
const BLOCKFROST_CONTRACTS = 2_500
const KUPO_CONTRACTS = 2_500
const GET_REQUESTS = 15

/** The sandbox, with its index answering from the synthetic history instead of its own ledger. */
export function indexedSandbox(sandbox: SandboxProvider, history: SyntheticHistory): ChainProvider {
  const semantics = marloweDeployment('sandbox').semantics.hash
  const log = new ScriptTxLog(history.txs.map((t) => ({ ...t, scripts: [semantics] })))
  const blocks = new Set(history.txs.map((t) => t.block.blockHash))
  return Object.assign(Object.create(sandbox) as SandboxProvider, {
    scriptTransactions: async (query: ScriptTxQuery): Promise<ScriptTxPage> =>
      log.page(query, history.tip, (point) => blocks.has(point.blockHash)),
    tip: async () => history.tip
  })
}

async function latencies(url: string): Promise<number> {
  const samples: number[] = []
  for (let i = 0; i < GET_REQUESTS; i += 1) {
    const start = performance.now()
    const answer = await httpGet(url)
    if (answer.status !== 200 && answer.status !== 206) throw new Error(`GET ${url}: ${answer.status}`)
    samples.push(performance.now() - start)
  }
  return percentile(
    samples.sort((a, b) => a - b),
    50
  )
}

/** A local Blockfrost serving the history as blocks of one transaction each, on the sandbox's eras. */
async function blockfrostPeer(sandbox: SandboxProvider, history: SyntheticHistory): Promise<BlockfrostPeer> {
  const peer = await BlockfrostPeer.start()
  const eras = await sandbox.eraSummaries()
  peer.state.eras = erasJson(eras, eras[0]!.start.time)
  peer.state.genesis = genesisJson(eras[0]!.start.time)
  const address = semanticsValidatorAddress('sandbox')
  for (const tx of history.txs) peer.appendBlock({ txs: [{ cbor: tx.cbor, addresses: [address] }] })
  return peer
}

/** Reads every page through the provider without indexing: what the catch-up spends on the provider itself. */
async function readPages(provider: ChainProvider, total: number): Promise<number> {
  const scriptHashes = [marloweDeployment('sandbox').semantics.hash, marloweDeployment('sandbox').payout.hash]
  let after: BlockPoint | undefined
  let read = 0
  const start = performance.now()
  while (read < total) {
    const page = await provider.scriptTransactions!({
      scriptHashes,
      limit: 100,
      ...(after === undefined ? {} : { after })
    })
    if (page.kind !== 'forward' || page.txs.length === 0) throw new Error(`the pages ended after ${read} of ${total}`)
    read += page.txs.length
    after = page.until
  }
  return (total * 1000) / (performance.now() - start)
}

/** The service's follower reading the whole history; its rate, and settled RSS after each round. */
export async function catchUp(opened: OpenService, total: number): Promise<{ rate: number; rss: number[] }> {
  const rss: number[] = []
  let indexed = 0
  let indexing = 0
  while (indexed < total) {
    const start = performance.now()
    const round = await opened.follower.sync()
    indexing += performance.now() - start
    if (round.recorded.length === 0) throw new Error(`the index stopped after ${indexed} of ${total} transactions`)
    indexed += round.recorded.length
    rss.push(await settledRss())
  }
  return { rate: (total * 1000) / indexing, rss }
}

async function throughBlockfrost(dir: string): Promise<{ rate: number; pages: number; total: number }> {
  const owner = { type: 'Address' as const, address: sandboxWallet('alice').address }
  const history = syntheticHistory(BLOCKFROST_CONTRACTS, marloweDeployment('sandbox').semantics.hash, owner)
  const sandbox = SandboxProvider.open({ clockTickMs: false })
  const peer = await blockfrostPeer(sandbox, history)
  const provider = sandboxBlockfrost(peer)
  const opened = await openService({ provider, databasePath: join(dir, 'blockfrost.sqlite'), followEveryMs: false })
  try {
    const pages = await readPages(provider, history.txs.length)
    const { rate } = await catchUp(opened, history.txs.length)
    return { rate, pages, total: history.txs.length }
  } finally {
    await opened.close()
    await peer.close()
    await sandbox.close()
  }
}

/** A local Ogmios telling the history's blocks (with their transactions' bytes) and a local Kupo indexing them. */
async function throughKupo(dir: string): Promise<{ rate: number; pages: number; total: number }> {
  const owner = { type: 'Address' as const, address: sandboxWallet('alice').address }
  const history = syntheticHistory(KUPO_CONTRACTS, marloweDeployment('sandbox').semantics.hash, owner)
  const sandbox = SandboxProvider.open({ clockTickMs: false })
  const ogmios = await OgmiosPeer.start()
  ogmios.chain.splice(0)
  for (const tx of history.txs) {
    ogmios.addBlockAt({ slot: tx.block.slot, height: tx.block.blockNo, id: tx.block.blockHash }, [tx.cbor])
  }
  const kupo = await KupoPeer.start(() => ogmios.chain)
  const reader = await OgmiosBlockReader.connect(rpcClientOptions({ url: ogmios.url, heartbeatMs: false }))
  const index = new KupoScriptIndex({ kupo: new KupoClient({ url: kupo.url }), blocks: reader })
  const provider = withScriptIndex(indexedSandbox(sandbox, history), index)
  const opened = await openService({ provider, databasePath: join(dir, 'kupo.sqlite'), followEveryMs: false })
  try {
    const pages = await readPages(provider, history.txs.length)
    const { rate } = await catchUp(opened, history.txs.length)
    return { rate, pages, total: history.txs.length }
  } finally {
    await opened.close()
    await reader.close()
    await kupo.close()
    await ogmios.close()
    await sandbox.close()
  }
}

export async function benchChainIndex(): Promise<void> {
  await installNativeCodecs()
  const owner = { type: 'Address' as const, address: sandboxWallet('alice').address }
  const history = syntheticHistory(CONTRACTS, marloweDeployment('sandbox').semantics.hash, owner)
  const total = history.txs.length

  const decodeStart = performance.now()
  for (const tx of history.txs) decodeTransaction(tx.cbor)
  const decodeRate = (total * 1000) / (performance.now() - decodeStart)

  const dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-bench-index-'))
  const sandbox = SandboxProvider.open({ clockTickMs: false })
  const opened = await openService({
    provider: indexedSandbox(sandbox, history),
    databasePath: join(dir, 'index.sqlite'),
    followEveryMs: false
  })
  try {
    const rssBefore = await settledRss()
    const { rate: indexRate, rss: rssAt } = await catchUp(opened, total)
    const listed = opened.service.listContracts()
    if ((await listed).length !== CONTRACTS || (await listed).some((c) => c.current !== undefined)) {
      throw new Error(`expected ${CONTRACTS} closed contracts, the index lists ${(await listed).length}`)
    }

    const blockfrost = await throughBlockfrost(dir)
    const kupo = await throughKupo(dir)
    const app = createServer({ service: opened.service, logLevel: 'warn' })
    try {
      const url = `http://127.0.0.1:${await listen(app, 0)}/contracts`
      const answer = await httpGet(url)
      const bare = await bareServer(answer)
      try {
        const ours = await latencies(url)
        const floor = await latencies(`http://127.0.0.1:${portOf(bare)}/contracts`)
        const half = rssAt[Math.floor((rssAt.length - 1) / 2)]!
        const all = rssAt[rssAt.length - 1]!
        const rows: Row[] = [
          {
            what: `index catch-up, ${total.toLocaleString('en-US')} Marlowe txs (${CONTRACTS.toLocaleString('en-US')} contracts) into SQLite`,
            unit: 'tx/s',
            ours: indexRate,
            peerName: 'decodeTransaction of the same txs',
            peer: decodeRate
          },
          {
            what: `index catch-up through Blockfrost (local, 127.0.0.1), ${blockfrost.total.toLocaleString('en-US')} Marlowe txs (${BLOCKFROST_CONTRACTS.toLocaleString('en-US')} contracts)`,
            unit: 'tx/s',
            ours: blockfrost.rate,
            peerName: 'the same pages read through the adapter, not indexed',
            peer: blockfrost.pages
          },
          {
            what: `index catch-up through Kupo + Ogmios (local, 127.0.0.1), ${kupo.total.toLocaleString('en-US')} Marlowe txs (${KUPO_CONTRACTS.toLocaleString('en-US')} contracts)`,
            unit: 'tx/s',
            ours: kupo.rate,
            peerName: 'the same pages read through the adapter, not indexed',
            peer: kupo.pages
          },
          {
            what: `RSS with all indexed (${mib(all).toFixed(0)} MiB) vs half (${mib(half).toFixed(0)} MiB)`,
            unit: 'MiB',
            ours: mib(all),
            peerName: 'RSS with half indexed',
            peer: mib(half)
          },
          {
            what: `RSS with all indexed vs before (${mib(rssBefore).toFixed(0)} MiB)`,
            unit: 'MiB',
            ours: mib(all),
            peerName: 'RSS before the catch-up',
            peer: mib(rssBefore)
          },
          {
            what: `GET /contracts over ${CONTRACTS.toLocaleString('en-US')} indexed contracts (${answer.body.length} B), p50 of ${GET_REQUESTS}, one client`,
            unit: 'ms',
            ours,
            peerName: 'bare node:http, same answer',
            peer: floor
          }
        ]
        printRows('Chain index (synthetic history; ratio = ours / peer)', rows)
      } finally {
        await closeServer(bare)
      }
    } finally {
      await app.close()
    }
  } finally {
    await opened.close()
    await sandbox.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
