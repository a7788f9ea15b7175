/**
 * The lists of contracts as the number of contracts grows: the same reads over a store of SMALL contracts and one
 * of LARGE, each filled by the service's follower from a synthetic history (bench/synthetic-history.ts: every
 * contract created and moved to its close on chain), served by one HTTP server and one desk each, measured in
 * alternating rounds; each row's ratio is cost(LARGE) / cost(SMALL), and flat costs keep it within 2×. The SQLite
 * stores are measured, then (where PostgreSQL is installed) PostgreSQL copies of them (bench/stores.ts), served
 * over the same chains the same way, their rows printed apart.
 *
 * Rows: GET /contracts (the newest page of PAGE, and a page of PAGE from the middle by its Range start), the
 * desk's contracts.list without a wallet (the app's list when no wallet is chosen) and with the wallet of the
 * address that is a party to every contract (the list of a wallet with a year of contracts), their first page of
 * PAGE; and the process's RSS with both stores open and listed, against the bound for 10,000 contracts
 * (a PostgreSQL store's rows are in its server's memory, not this process's).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { marloweDeployment } from '../src/chain/deployments'
import type { ChainProvider } from '../src/chain/provider'
import { SandboxProvider, sandboxWallet } from '../src/chain/sandbox'
import type { DeskResult, WalletSummary } from '../src/api/contract'
import { decodeWire, encodeWire } from '../src/api/wire'
import { createDesk, handleDeskCall, type DeskHandlers } from '../src/engine/desk'
import { Keystore } from '../src/engine/keys'
import { openService, type OpenService } from '../src/engine/service'
import { openSqliteStore, type Store } from '../src/store/open-store'
import { createServer, listen } from '../src/server/app'
import { catchUp, indexedSandbox } from './chain-index.bench'
import { machineLoad, printRows, type Row } from './harness'
import { httpGet } from './http'
import { percentile } from './load'
import { mib, settledRss } from './memory'
import type { BenchStores } from './stores'
import { syntheticHistory } from './synthetic-history'

const SMALL = 100
const LARGE = 10_000
const PAGE = 100
const ROUNDS = 6
const SAMPLES_PER_ROUND = 5
/** The bound on RSS with 10,000 contracts. */
const RSS_BOUND_MIB = 300
const owner = sandboxWallet('alice')

/** A synthetic history of `contracts` contracts on a sandbox of its own. */
interface Chain {
  readonly contracts: number
  readonly txs: number
  readonly provider: ChainProvider
  /** Where the SQLite store indexed from it is. */
  readonly sqlitePath: string
  close(): Promise<void>
}

function chainOf(dir: string, contracts: number): Chain {
  const party = { type: 'Address' as const, address: owner.address }
  const history = syntheticHistory(contracts, marloweDeployment('sandbox').semantics.hash, party)
  const sandbox = SandboxProvider.open({ clockTickMs: false })
  return {
    contracts,
    txs: history.txs.length,
    provider: indexedSandbox(sandbox, history),
    sqlitePath: join(dir, `contracts-${contracts}.sqlite`),
    close: () => sandbox.close()
  }
}

interface Served {
  readonly contracts: number
  readonly base: string
  readonly desk: DeskHandlers
  /** The desk's wallet of the address that is a party to every contract. */
  readonly walletId: string
  /** A contract id from the middle of the newest-first list. */
  readonly middle: string
  close(): Promise<void>
}

/** A service over `store` on `chain`, with its HTTP server and desk; `indexing`: the store is filled from the chain. */
async function served(dir: string, chain: Chain, store: Store, indexing: boolean): Promise<Served> {
  const { contracts } = chain
  const opened: OpenService = await openService({ provider: chain.provider, store, followEveryMs: false })
  if (indexing) await catchUp(opened, chain.txs)
  const app = createServer({ service: opened.service, logLevel: 'warn' })
  const keystore = await Keystore.open({ dir: mkdtempSync(join(dir, `keys-${contracts}-`)) })
  const desk = createDesk({ service: opened.service, store: opened.store, keystore, version: 'bench' })
  const restored = decodeWire(
    await handleDeskCall(
      desk,
      'wallets.restore',
      encodeWire({ name: 'alice', password: 'bench password', mnemonic: owner.mnemonic })
    )
  ) as DeskResult<WalletSummary>
  if (!restored.ok) throw new Error(`wallets.restore: ${restored.error.message}`)
  const base = `http://127.0.0.1:${await listen(app, 0)}`
  const all = opened.store.contractPage({}, { order: 'desc', offset: Math.floor(contracts / 2), limit: 1 })
  const middle = (await all)?.rows[0]?.contractId
  if (middle === undefined) throw new Error(`the store of ${contracts} contracts has no middle contract`)
  return {
    contracts,
    base,
    desk,
    walletId: restored.value.id,
    middle,
    async close() {
      await app.close()
      await opened.close()
    }
  }
}

async function get(url: string, range: string): Promise<void> {
  const answer = await httpGet(url, { range })
  if (answer.status !== 206) throw new Error(`GET ${url} (${range}): ${answer.status}`)
}

async function deskList(desk: DeskHandlers, walletId?: string): Promise<void> {
  const request = walletId === undefined ? { limit: PAGE } : { limit: PAGE, walletId }
  const answer = await handleDeskCall(desk, 'contracts.list', encodeWire(request))
  if (!answer.startsWith('{"ok":true')) throw new Error(`contracts.list: ${answer.slice(0, 200)}`)
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await run()
  return performance.now() - start
}

export async function benchContractLists(stores: BenchStores): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-bench-lists-'))
  const chains: Chain[] = []
  try {
    const fillStart = performance.now()
    for (const size of [SMALL, LARGE]) chains.push(chainOf(dir, size))
    const onSqlite: Served[] = []
    try {
      for (const chain of chains) onSqlite.push(await served(dir, chain, openSqliteStore(chain.sqlitePath), true))
      const filled = `indexed from the chain in ${((performance.now() - fillStart) / 1000).toFixed(0)} s`
      await measureLists('SQLite', filled, onSqlite)
    } finally {
      for (const s of onSqlite) await s.close()
    }
    if (stores.postgres === undefined) return
    const copyStart = performance.now()
    const onPostgres: Served[] = []
    try {
      for (const chain of chains) {
        onPostgres.push(await served(dir, chain, await stores.postgres.copyOf(chain.sqlitePath), false))
      }
      const copied = `copied from the SQLite stores in ${((performance.now() - copyStart) / 1000).toFixed(0)} s`
      await measureLists('PostgreSQL', copied, onPostgres)
    } finally {
      for (const s of onPostgres) await s.close()
    }
  } finally {
    for (const chain of chains) await chain.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Measures and prints the rows over `stores` (the SMALL one, then the LARGE), filled as `filled` says. */
async function measureLists(storeName: string, filled: string, stores: readonly Served[]): Promise<void> {
  const ops = {
    page: (s: Served) => get(`${s.base}/contracts`, `contractId;limit ${PAGE}`),
    middlePage: (s: Served) => get(`${s.base}/contracts`, `contractId ${s.middle};limit ${PAGE}`),
    desk: (s: Served) => deskList(s.desk),
    deskWallet: (s: Served) => deskList(s.desk, s.walletId)
  }
  type Op = keyof typeof ops
  const measured = new Map<Served, Record<Op, number[]>>(
    stores.map((s) => [s, { page: [], middlePage: [], desk: [], deskWallet: [] }])
  )
  for (const s of stores) for (const op of Object.keys(ops) as Op[]) await ops[op](s)
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const s of round % 2 === 0 ? stores : [...stores].reverse()) {
      for (const op of Object.keys(ops) as Op[]) {
        for (let i = 0; i < SAMPLES_PER_ROUND; i += 1) measured.get(s)![op].push(await timed(() => ops[op](s)))
      }
    }
  }
  const rss = mib(await settledRss())
  const at = (s: Served, op: Op): number =>
    percentile(
      measured.get(s)![op].sort((a, b) => a - b),
      50
    )
  const [small, large] = stores as [Served, Served]
  // The middle of SMALL holds half a page: its middle page is measured beside the same-sized newest page instead.
  const row = (what: string, op: Op, peerOp: Op = op): Row => ({
    what: `${what}, ${LARGE.toLocaleString('en-US')} contracts`,
    unit: 'ms',
    ours: at(large, op),
    peerName: `${op === peerOp ? 'the same' : 'the newest page'} at ${SMALL.toLocaleString('en-US')} contracts`,
    peer: at(small, peerOp)
  })
  printRows(
    `Scale: lists of contracts on ${storeName} (${SMALL} vs ${LARGE.toLocaleString('en-US')} contracts, ${filled}; ${machineLoad()}; p50; ratio = ${LARGE.toLocaleString('en-US')} / ${SMALL})`,
    [
      row(`GET /contracts, newest page of ${PAGE}`, 'page'),
      row(`GET /contracts, a page of ${PAGE} from the middle (Range start)`, 'middlePage', 'page'),
      row(`desk contracts.list without a wallet, first page of ${PAGE}`, 'desk'),
      row(`desk contracts.list of the wallet that is a party to every contract, first page of ${PAGE}`, 'deskWallet'),
      {
        what: `RSS with the ${SMALL} and the ${LARGE.toLocaleString('en-US')} contracts' services open and listed`,
        unit: 'MiB',
        ours: rss,
        peerName: 'the bound',
        peer: RSS_BOUND_MIB
      }
    ]
  )
}
