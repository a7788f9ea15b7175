/**
 * POST /contracts throughput of three `serve` replicas on one PostgreSQL store against one `serve` on its SQLite
 * store, in the same run, all on one shared sandbox (`sandbox share`) so that the chain costs both sides alike.
 * The same requests (a `close` contract from dave, 16 clients) go round-robin over the replicas, or all to the one
 * serve; a 503 (concurrent builds took the inputs a build chose) is retried, as its message asks, and counted;
 * nothing is submitted, and dave holds more outputs than either side builds, so no build waits on another's
 * inputs. The two sides run alternately, ROUNDS times each, so that machine load falls on both alike. On a machine
 * without PostgreSQL (Debian's postgresql package) the group says so and measures nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SandboxProvider, sandboxWallet } from '../src/chain/sandbox'
import type { ChildProcess } from 'node:child_process'
import { ADA } from '../tests/chain/support/txkit'
import { missingPostgresMessage, postgresBinDir, startPostgres } from '../tests/support/postgres-cluster'
import { printRows } from './harness'
import { concurrentCalls, summarize, type Samples } from './load'
import { buildCli, CLI, startListening, stop } from './serve-process'

const CLIENTS = 16
const REQUESTS = 96
const ROUNDS = 2
const TOKEN = 'bench-replicas-token-0123456789abcdef0123'
const dave = sandboxWallet('dave')
const POST_BODY = JSON.stringify({ version: 'v1', contract: 'close', tags: {}, metadata: {} })

interface Started {
  readonly child: ChildProcess
  readonly base: string
}

/** The built CLI running `args` until it prints its port. */
async function startCli(args: readonly string[]): Promise<Started> {
  const { child, port } = await startListening([CLI, ...args])
  return { child, base: `http://127.0.0.1:${port}` }
}

/** 503s (concurrent builds took the inputs this one chose) answered to each side, retried as a client told to. */
const retries = new Map<Started, number>()

async function post(server: Started): Promise<void> {
  for (;;) {
    const response = await fetch(`${server.base}/contracts`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        'x-change-address': dave.address
      },
      body: POST_BODY
    })
    const body = await response.text()
    if (response.status === 201) return
    if (response.status !== 503) throw new Error(`POST /contracts answered ${response.status}: ${body}`)
    retries.set(server, (retries.get(server) ?? 0) + 1)
  }
}

export async function benchReplicas(): Promise<void> {
  if (postgresBinDir() === undefined) {
    console.log(`\n## serve replicas on PostgreSQL\n\nskipped: ${missingPostgresMessage}`)
    return
  }
  const dirs: string[] = []
  const dir = (): string => {
    const d = mkdtempSync(join(tmpdir(), 'marlowe-bench-replicas-'))
    dirs.push(d)
    return d
  }
  const postgres = await startPostgres()
  const servers: Started[] = []
  let shared: Started | undefined
  try {
    buildCli()
    const home = dir()
    const sandbox = SandboxProvider.open({ dataDir: join(home, 'sandbox'), clockTickMs: false })
    // Every build of both sides takes its own output (each side has its own reservations).
    for (let i = 0; i < REQUESTS * ROUNDS + CLIENTS; i += 1) await sandbox.fund(dave.address, 10n * ADA)
    await sandbox.close()
    shared = await startCli(['sandbox', 'share', '--port', '0', '--data', home])
    const chainUrl = `${shared.base}/`
    const store = await postgres.createDatabase()
    const start = async (extra: readonly string[]): Promise<Started> => {
      const data = dir()
      writeFileSync(join(data, 'api-token'), `${TOKEN}\n`, { mode: 0o600 })
      const server = await startCli(['serve', '--port', '0', '--data', data, '--chain', chainUrl, ...extra])
      servers.push(server)
      return server
    }
    const replicas = [await start(['--store', store]), await start(['--store', store]), await start(['--store', store])]
    const single = await start([])
    let turn = 0
    const overReplicas = (): Promise<void> => post(replicas[turn++ % replicas.length]!)
    const onSingle = (): Promise<void> => post(single)
    await concurrentCalls(CLIENTS, CLIENTS, overReplicas)
    await concurrentCalls(CLIENTS, CLIENTS, onSingle)
    const ours: Samples[] = []
    const peer: Samples[] = []
    for (let round = 0; round < ROUNDS; round += 1) {
      ours.push(await concurrentCalls(REQUESTS / ROUNDS, CLIENTS, overReplicas))
      peer.push(await concurrentCalls(REQUESTS / ROUNDS, CLIENTS, onSingle))
    }
    const [replicated, alone] = [summarize(ours), summarize(peer)]
    const retried = (side: readonly Started[]): number => side.reduce((n, s) => n + (retries.get(s) ?? 0), 0)
    console.log(
      `\n503 "try again" answers retried (warm-up included): replicas ${retried(replicas)}, single ${retried([single])}`
    )
    printRows('serve replicas on PostgreSQL (one shared sandbox; ratio = ours / peer)', [
      {
        what: `POST /contracts, 3 replicas on PostgreSQL, ${CLIENTS} clients`,
        unit: 'req/s',
        ours: replicated.perSecond,
        peerName: '1 serve on SQLite',
        peer: alone.perSecond
      },
      {
        what: 'POST /contracts p50 latency, 3 replicas on PostgreSQL',
        unit: 'ms',
        ours: replicated.p50,
        peerName: '1 serve on SQLite',
        peer: alone.p50
      }
    ])
  } finally {
    await Promise.all(servers.map((s) => stop(s.child)))
    if (shared !== undefined) await stop(shared.child)
    postgres.stop()
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
  }
}
