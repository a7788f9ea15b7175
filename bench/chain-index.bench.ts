/**
 * The chain index at the size of a real network's Marlowe history: 40,000 transactions (10,000 contracts, each
 * created and moved three times to its close; bench/synthetic-history.ts) read by the service's follower
 * through the sandbox's index, into a SQLite store, as `serve` does.
 * - catch-up throughput against decoding the same transactions alone (the floor of reading them);
 * - RSS when half and when all of it is indexed, against RSS before: memory stays flat as history grows;
 * - `GET /contracts` (Runtime's first page) over the 10,000 indexed contracts, one client, against a bare
 *   node:http server answering the same bytes.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { marloweDeployment } from '../src/chain/deployments'
import type { ChainProvider, ScriptTxPage, ScriptTxQuery } from '../src/chain/provider'
import { SandboxProvider, sandboxWallet } from '../src/chain/sandbox'
import { ScriptTxLog } from '../src/chain/sandbox/script-log'
import { decodeTransaction } from '../src/core/cardano/tx'
import { installNativeCodecs } from '../src/engine/native-codecs'
import { openService } from '../src/engine/service'
import { createServer, listen } from '../src/server/app'
import { printRows, type Row } from './harness'
import { bareServer, closeServer, httpGet, portOf } from './http'
import { percentile } from './load'
import { mib, settledRss } from './memory'
import { syntheticHistory } from './synthetic-history'

const CONTRACTS = 10_000
const GET_REQUESTS = 15

/** The sandbox, with its index answering from the synthetic history instead of its own ledger. */
function indexedSandbox(sandbox: SandboxProvider, history: ReturnType<typeof syntheticHistory>): ChainProvider {
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
  const opened = openService({
    provider: indexedSandbox(sandbox, history),
    databasePath: join(dir, 'index.sqlite'),
    followEveryMs: false
  })
  try {
    const rssBefore = await settledRss()
    const rssAt: number[] = []
    let indexed = 0
    let indexing = 0
    while (indexed < total) {
      const start = performance.now()
      const round = await opened.follower.sync()
      indexing += performance.now() - start
      if (round.recorded.length === 0) throw new Error(`the index stopped after ${indexed} of ${total} transactions`)
      indexed += round.recorded.length
      rssAt.push(await settledRss())
    }
    const indexRate = (total * 1000) / indexing
    const listed = opened.service.listContracts()
    if (listed.length !== CONTRACTS || listed.some((c) => c.current !== undefined)) {
      throw new Error(`expected ${CONTRACTS} closed contracts, the index lists ${listed.length}`)
    }

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
        printRows('Chain index (sandbox index, synthetic history; ratio = ours / peer)', rows)
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
