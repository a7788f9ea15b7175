/**
 * The HTTP server (Fastify, Runtime's wire format) on the sandbox, 16 concurrent clients driven by autocannon on
 * its own thread, the server on this process's main thread, as `marlowe-desk serve` runs it:
 * - `POST /contracts` (a `close` contract, X-Change-Address dave) against the same number of builds made by
 *   calling `service.createContract` in-process with the same concurrency: the ratio is the HTTP layer's cost
 *   (decoding, validation, status headers, JSON, loopback).
 * - `GET /contracts/{id}` of a confirmed contract against a bare `node:http` server answering the same bytes
 *   (status, headers and body): the floor of HTTP itself. Every answer after the first comes from the server's
 *   response cache, so a second run spreads its GETs at random over READ_IDS confirmed contracts while
 *   WRITES_PER_SECOND contracts a second are built, submitted and confirmed on the same service (each write
 *   empties the cache, as in use), against the one-id run as its peer.
 * - cold start of `marlowe-desk serve --port 0 --data <fresh dir> --no-token` to its first 200 on /healthcheck,
 *   against `node -e` with a bare http server to its first 200 (Node's own start-up floor): as every start after
 *   the first runs (the executable's code cache made), and as the very first start after a build or upgrade;
 *   and on a used data dir holding USED_HOME_CONTRACTS contracts created through the service (the sandbox's saved
 *   ledger and the service's store, copied afresh for each start), against the fresh data dir.
 *
 * Inputs: every build reserves the wallet UTxOs it spends for 30 minutes and nothing here is submitted, so dave
 * is first given POST_WARMUP + POST_REQUESTS + a margin of 10-ada UTxOs (faucet payments split by a few
 * many-output transactions, far quicker than one `sandbox.fund` per UTxO). The HTTP run and the in-process run
 * each use their own service (own SQLite file, so own reservations) over the one sandbox: both start with no
 * reservation and the same wallet, and neither can run out of inputs. A build reads every UTxO of the wallet,
 * so this wallet's builds are slower than build.bench's (four UTxOs); both sides pay that alike.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { SandboxProvider, sandboxWallet, signWithSandboxWallets } from '../src/chain/sandbox'
import { isJsonObject, parseJson } from '../src/core/json/lossless'
import { swap } from '../src/core/marlowe/examples'
import { ADA as ADA_TOKEN, CLOSE, type Contract } from '../src/core/marlowe/types'
import { openService, type OpenService } from '../src/engine/service'
import { createServer, listen } from '../src/server/app'
import { ADA, buildTx } from '../tests/chain/support/txkit'
import { testWallet, type TestWallet } from '../tests/engine/build/support'
import { witnessed } from '../tests/engine/service/witnesses'
import { printRows, type Row } from './harness'
import { buildCli, CLI, startListening, stop } from './serve-process'
import { bareServer, closeServer, httpGet, portOf } from './http'
import { concurrentCalls, httpLoad, percentile, summarize, type Load, type Samples } from './load'

const CONNECTIONS = 16
const POST_WARMUP = 48
const POST_REQUESTS = 320
/** Ours and the peer run alternately, this many times each, so that machine load falls on both alike. */
const ROUNDS = 4
const GET_WARMUP_SECONDS = 1
const GET_SECONDS = 6
const COLD_STARTS = 5
/** Contracts the spread GETs read, and the used data dir's contracts. */
const READ_IDS = 500
/** Builds, submits and confirmations beside the spread GETs: a busy desk, and every one empties the cache. */
const WRITES_PER_SECOND = 10
const USED_HOME_CONTRACTS = 1000
const COLD_START_TARGET_MS = 500
const START_TIMEOUT_MS = 30_000
/** Outputs per splitting transaction: well inside the 16 KiB transaction size limit. */
const OUTPUTS_PER_TX = 150
const UTXO_LOVELACE = 10n * ADA

const dave = sandboxWallet('dave')
/** Builds and submits beside the spread GETs, and creates the used data dir's contracts: its UTxOs are its own. */
const writer = testWallet('alice')
/** Faucet money for the writer: each swap locks Runtime's worst-case min-UTxO bound until it closes. */
const WRITER_LOVELACE = 50_000n * ADA
const POST_BODY = JSON.stringify({ version: 'v1', contract: 'close', tags: {}, metadata: {} })

/** Gives dave `count` UTxOs of UTXO_LOVELACE: faucet payments, each split by one many-output transaction. */
async function fundUtxos(sandbox: SandboxProvider, count: number): Promise<void> {
  const params = await sandbox.protocolParameters()
  for (let left = count; left > 0; left -= OUTPUTS_PER_TX) {
    const n = Math.min(OUTPUTS_PER_TX, left)
    const ref = await sandbox.fund(dave.address, BigInt(n) * UTXO_LOVELACE + 5n * ADA)
    const [source] = await sandbox.utxosByRef([ref])
    if (source === undefined) throw new Error('the faucet payment is not on the ledger')
    const outputs = Array.from({ length: n }, () => ({ address: dave.address, lovelace: UTXO_LOVELACE }))
    const tx = buildTx({ params, inputs: [source], changeAddress: dave.address, outputs })
    await sandbox.submit(signWithSandboxWallets(tx, [dave]))
  }
}

/** A swap between the writer and bob, as a contract of the used data dir and the spread GETs. */
function swapContract(sandbox: SandboxProvider): Contract {
  const bob = sandboxWallet('bob')
  const deadline = sandbox.slotToTime(0n) + 365n * 86_400_000n
  return swap({
    first: {
      party: { type: 'Address', address: writer.address },
      token: ADA_TOKEN,
      amount: 10n * ADA,
      depositDeadline: deadline
    },
    second: {
      party: { type: 'Address', address: bob.address },
      token: ADA_TOKEN,
      amount: 20n * ADA,
      depositDeadline: deadline
    }
  }).contract
}

/** `wallet` creates `contract` through the service and submits it; the follower is left to confirm it. */
async function createAndSubmit(opened: OpenService, wallet: TestWallet, contract: Contract): Promise<string> {
  const created = await opened.service.createContract(
    { changeAddress: wallet.address },
    { contract, tags: {}, metadata: {} }
  )
  await opened.service.submitBuild(created.contractId.slice(0, 64), witnessed(created.unsigned.tx, [wallet]))
  return created.contractId
}

/** A created, submitted and confirmed `close` contract: what a client GETs most. */
async function confirmedContract(opened: OpenService): Promise<string> {
  const contractId = await createAndSubmit(opened, testWallet('dave'), CLOSE)
  await opened.follower.sync()
  return contractId
}

/** Builds, submits and confirms WRITES_PER_SECOND contracts a second until `stop` settles; how many it made. */
async function writeUntil(opened: OpenService, contract: Contract, stop: Promise<unknown>): Promise<number> {
  let stopped = false
  const done = (): void => {
    stopped = true
  }
  void stop.then(done, done)
  const start = performance.now()
  let writes = 0
  while (!stopped) {
    // Waiting on a timer, even of 0 ms, also lets the server and the load's end through: each write arrives from the
    // event loop as a request would, not on the microtasks of the one before.
    const due = start + (writes * 1000) / WRITES_PER_SECOND
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())))
    await createAndSubmit(opened, writer, contract)
    await opened.follower.sync()
    writes += 1
  }
  return writes
}

/** Each id's GET answers that very contract, confirmed: the spread reads were answered with what they asked for. */
async function answersEachId(base: string, ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    const answer = await httpGet(`${base}/contracts/${encodeURIComponent(id)}`)
    const body = parseJson(answer.body.toString())
    const resource = isJsonObject(body) ? body['resource'] : undefined
    const named = isJsonObject(resource) && resource['contractId'] === id && resource['status'] === 'confirmed'
    if (answer.status !== 200 || !named) {
      throw new Error(`GET /contracts/${id}: ${answer.status} ${answer.body.toString().slice(0, 200)}`)
    }
  }
}

interface HttpRuns {
  readonly post: Load
  readonly direct: Load
  readonly get: Load
  readonly bareGet: Load
  readonly getBytes: number
  readonly spreadGet: Load
  /** Contracts built, submitted and confirmed while the spread GETs ran (their start-up included). */
  readonly writes: number
}

async function httpRuns(dir: string): Promise<HttpRuns> {
  const sandbox = SandboxProvider.open({ clockTickMs: false })
  const opened: OpenService[] = []
  const open = async (name: string): Promise<OpenService> => {
    const o = await openService({ provider: sandbox, databasePath: join(dir, `${name}.sqlite`), followEveryMs: false })
    opened.push(o)
    return o
  }
  try {
    await fundUtxos(sandbox, POST_WARMUP + POST_REQUESTS + 32)
    const served = await open('served')
    const inProcess = await open('in-process')
    const contractId = await confirmedContract(served)
    const app = createServer({ service: (await served).service, logLevel: 'warn' })
    try {
      const base = `http://127.0.0.1:${await listen(app, 0)}`
      const post = {
        url: `${base}/contracts`,
        connections: CONNECTIONS,
        method: 'POST' as const,
        headers: { 'content-type': 'application/json', 'x-change-address': dave.address },
        body: POST_BODY,
        expectStatus: 201
      }
      const create = (service: OpenService): Promise<unknown> =>
        service.service.createContract({ changeAddress: dave.address }, { contract: CLOSE, tags: {}, metadata: {} })
      await httpLoad({ ...post, amount: POST_WARMUP })
      await concurrentCalls(POST_WARMUP, CONNECTIONS, () => create(inProcess))
      const postRuns: Samples[] = []
      const directRuns: Samples[] = []
      for (let round = 0; round < ROUNDS; round += 1) {
        postRuns.push(await httpLoad({ ...post, amount: POST_REQUESTS / ROUNDS }))
        directRuns.push(await concurrentCalls(POST_REQUESTS / ROUNDS, CONNECTIONS, () => create(inProcess)))
      }

      const getUrl = `${base}/contracts/${encodeURIComponent(contractId)}`
      const answer = await httpGet(getUrl)
      if (answer.status !== 200) throw new Error(`GET ${getUrl}: ${answer.status} ${answer.body.toString()}`)
      const bare = await bareServer(answer)
      try {
        const bareUrl = `http://127.0.0.1:${portOf(bare)}/contracts/${encodeURIComponent(contractId)}`
        const get = { connections: CONNECTIONS, expectStatus: 200 }
        await httpLoad({ ...get, url: getUrl, seconds: GET_WARMUP_SECONDS })
        await httpLoad({ ...get, url: bareUrl, seconds: GET_WARMUP_SECONDS })
        const getRuns: Samples[] = []
        const bareRuns: Samples[] = []
        for (let round = 0; round < ROUNDS; round += 1) {
          getRuns.push(await httpLoad({ ...get, url: getUrl, seconds: GET_SECONDS / ROUNDS }))
          bareRuns.push(await httpLoad({ ...get, url: bareUrl, seconds: GET_SECONDS / ROUNDS }))
        }

        await sandbox.fund(writer.address, WRITER_LOVELACE)
        const contract = swapContract(sandbox)
        const ids: string[] = []
        for (let i = 0; i < READ_IDS; i += 1) ids.push(await createAndSubmit(served, writer, contract))
        await (await served).follower.sync()
        const paths = ids.map((id) => `/contracts/${encodeURIComponent(id)}`)
        const spread = { ...get, url: `${base}${paths[0]!}`, paths }
        await httpLoad({ ...spread, seconds: GET_WARMUP_SECONDS })
        const spreadRuns: Samples[] = []
        let writes = 0
        for (let round = 0; round < ROUNDS; round += 1) {
          const load = httpLoad({ ...spread, seconds: GET_SECONDS / ROUNDS })
          writes += await writeUntil(served, contract, load)
          spreadRuns.push(await load)
        }
        await answersEachId(base, ids)
        return {
          post: summarize(postRuns),
          direct: summarize(directRuns),
          get: summarize(getRuns),
          bareGet: summarize(bareRuns),
          getBytes: answer.body.length,
          spreadGet: summarize(spreadRuns),
          writes
        }
      } finally {
        await closeServer(bare)
      }
    } finally {
      await app.close()
    }
  } finally {
    for (const o of opened) await o.close()
    await sandbox.close()
  }
}

const BARE_SERVER = `require('node:http').createServer((q, s) => s.end()).listen(0, '127.0.0.1', function () {
  console.log('listening ' + this.address().port)
})`

/**
 * Spawns `args`, reads the port from its `listening <port>` line, polls /healthcheck: ms to the first 200. Then,
 * not timed, `check` may ask the started server what it holds.
 */
async function toFirst200(
  args: readonly string[],
  codeCache?: string,
  check?: (base: string) => Promise<void>
): Promise<number> {
  const start = performance.now()
  const env = codeCache === undefined ? process.env : { ...process.env, MARLOWE_DESK_CODE_CACHE: codeCache }
  const { child, port } = await startListening(args, env)
  try {
    for (;;) {
      const answer = await httpGet(`http://127.0.0.1:${port}/healthcheck`).catch(() => undefined)
      if (answer?.status === 200) {
        const ms = performance.now() - start
        await check?.(`http://127.0.0.1:${port}`)
        return ms
      }
      if (child.exitCode !== null || performance.now() - start > START_TIMEOUT_MS) {
        throw new Error(`${args.join(' ')}: no 200 from /healthcheck (last answer ${answer?.status ?? 'none'})`)
      }
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
  } finally {
    await stop(child)
  }
}

interface ColdStarts {
  readonly serve: number
  readonly firstServe: number
  readonly bare: number
  readonly usedHome: number
}

/**
 * A data dir as `serve` leaves it once USED_HOME_CONTRACTS contracts were created, submitted and confirmed through
 * it: the sandbox's saved ledger (`sandbox/`) and the service's store (`service-sandbox.sqlite`).
 */
async function usedHome(): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), 'marlowe-desk-bench-used-home-'))
  const sandbox = SandboxProvider.open({ dataDir: join(home, 'sandbox'), clockTickMs: false })
  try {
    const opened = await openService({
      provider: sandbox,
      databasePath: join(home, 'service-sandbox.sqlite'),
      followEveryMs: false
    })
    try {
      await sandbox.fund(writer.address, WRITER_LOVELACE)
      const contract = swapContract(sandbox)
      for (let i = 0; i < USED_HOME_CONTRACTS; i += 1) await createAndSubmit(opened, writer, contract)
      await opened.follower.sync()
    } finally {
      await opened.close()
    }
  } finally {
    await sandbox.close()
  }
  return home
}

/** The used data dir's contracts are all there once `serve` answers. */
async function listsUsedHome(base: string): Promise<void> {
  const answer = await httpGet(`${base}/contracts`)
  const total = answer.headers['total-count']
  if (answer.status !== 206 || total !== String(USED_HOME_CONTRACTS)) {
    throw new Error(`serve on the used data dir lists ${total ?? 'no'} contracts (status ${answer.status})`)
  }
}

/** Medians of COLD_STARTS runs each, alternated so that machine load falls on all alike. */
async function coldStarts(): Promise<ColdStarts> {
  buildCli()
  const template = await usedHome()
  const cacheDir = mkdtempSync(join(tmpdir(), 'marlowe-desk-bench-code-cache-'))
  const serve: number[] = []
  const firstServe: number[] = []
  const bare: number[] = []
  const used: number[] = []
  /** `serve` on a fresh data dir, or on a copy of `from` (checked to list every contract it holds). */
  const serveOnce = async (codeCache: string, from?: string): Promise<number> => {
    const data = mkdtempSync(join(tmpdir(), 'marlowe-desk-bench-serve-'))
    try {
      if (from !== undefined) cpSync(from, data, { recursive: true })
      const args = [CLI, 'serve', '--port', '0', '--data', data, '--no-token']
      return await toFirst200(args, codeCache, from === undefined ? undefined : listsUsedHome)
    } finally {
      rmSync(data, { recursive: true, force: true })
    }
  }
  try {
    await serveOnce(cacheDir)
    for (let i = 0; i < COLD_STARTS; i += 1) {
      serve.push(await serveOnce(cacheDir))
      firstServe.push(await serveOnce('off'))
      bare.push(await toFirst200(['-e', BARE_SERVER]))
      used.push(await serveOnce(cacheDir, template))
    }
  } finally {
    rmSync(cacheDir, { recursive: true, force: true })
    rmSync(template, { recursive: true, force: true })
  }
  const median = (xs: number[]): number =>
    percentile(
      xs.sort((a, b) => a - b),
      50
    )
  return { serve: median(serve), firstServe: median(firstServe), bare: median(bare), usedHome: median(used) }
}

export async function benchServer(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-bench-server-'))
  let runs: HttpRuns
  try {
    runs = await httpRuns(dir)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  const cold = await coldStarts()
  const c = `${CONNECTIONS} clients`
  const inProcess = `service.createContract in-process, ${CONNECTIONS} at a time`
  const bare = `bare node:http, same ${runs.getBytes} B answer`
  const oneId = 'GET one id, no writes (above)'
  const rows: Row[] = [
    {
      what: `POST /contracts (close), ${POST_REQUESTS} builds, ${c}: throughput`,
      unit: 'req/s',
      ours: runs.post.perSecond,
      peerName: inProcess,
      peer: runs.direct.perSecond
    },
    {
      what: 'POST /contracts, p50 latency',
      unit: 'ms',
      ours: runs.post.p50,
      peerName: inProcess,
      peer: runs.direct.p50
    },
    {
      what: 'POST /contracts, p99 latency',
      unit: 'ms',
      ours: runs.post.p99,
      peerName: inProcess,
      peer: runs.direct.p99
    },
    {
      what: `GET /contracts/{id} (confirmed), ${GET_SECONDS} s, ${c}: throughput`,
      unit: 'req/s',
      ours: runs.get.perSecond,
      peerName: bare,
      peer: runs.bareGet.perSecond
    },
    {
      what: 'GET /contracts/{id}, p50 latency',
      unit: 'ms',
      ours: runs.get.p50,
      peerName: bare,
      peer: runs.bareGet.p50
    },
    {
      what: 'GET /contracts/{id}, p99 latency',
      unit: 'ms',
      ours: runs.get.p99,
      peerName: bare,
      peer: runs.bareGet.p99
    },
    {
      what: `GET /contracts/{id} over ${READ_IDS} ids at random while ${WRITES_PER_SECOND} contracts/s are built, submitted and confirmed (${runs.writes} over the runs and their start-up), ${GET_SECONDS} s, ${c}: throughput`,
      unit: 'req/s',
      ours: runs.spreadGet.perSecond,
      peerName: oneId,
      peer: runs.get.perSecond
    },
    {
      what: 'GET /contracts/{id} spread, with writes, p50 latency',
      unit: 'ms',
      ours: runs.spreadGet.p50,
      peerName: oneId,
      peer: runs.get.p50
    },
    {
      what: 'GET /contracts/{id} spread, with writes, p99 latency',
      unit: 'ms',
      ours: runs.spreadGet.p99,
      peerName: oneId,
      peer: runs.get.p99
    },
    {
      what: `serve cold start to first 200 (fresh data dir, median of ${COLD_STARTS})`,
      unit: 'ms',
      ours: cold.serve,
      peerName: 'node -e bare http server',
      peer: cold.bare
    },
    {
      what: 'serve cold start to first 200',
      unit: 'ms',
      ours: cold.serve,
      peerName: 'target',
      peer: COLD_START_TARGET_MS
    },
    {
      what: 'first start after a build or upgrade (no code cache yet) to first 200',
      unit: 'ms',
      ours: cold.firstServe,
      peerName: 'node -e bare http server',
      peer: cold.bare
    },
    {
      what: `serve cold start to first 200, data dir with ${USED_HOME_CONTRACTS.toLocaleString('en-US')} contracts (median of ${COLD_STARTS})`,
      unit: 'ms',
      ours: cold.usedHome,
      peerName: 'serve cold start, fresh data dir',
      peer: cold.serve
    },
    {
      what: `serve cold start to first 200, data dir with ${USED_HOME_CONTRACTS.toLocaleString('en-US')} contracts`,
      unit: 'ms',
      ours: cold.usedHome,
      peerName: 'target',
      peer: COLD_START_TARGET_MS
    }
  ]
  printRows('HTTP server on the sandbox (autocannon on its own thread; ratio = ours / peer)', rows, [
    'every answer under load had the status its row expects (201 for POST, 200 for GET), or the run stops',
    `after the spread runs, each of the ${READ_IDS} ids' GET answers that contract, confirmed; every write was built, submitted and confirmed before the next`,
    `serve on the used data dir lists all ${USED_HOME_CONTRACTS.toLocaleString('en-US')} contracts (Total-Count of GET /contracts) at every start timed`
  ])
}
