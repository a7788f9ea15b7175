/**
 * How long the heaviest builds hold the thread that serves HTTP, with `serve`'s server in this process on the
 * sandbox: the longest event-loop stall (perf_hooks' `monitorEventLoopDelay`) while the build runs, and the
 * slowest of the GET /healthcheck requests sent every few milliseconds beside it.
 * - the heaviest create the desk accepts: HEAVY_ROLES role tokens minted by the one-shot policy (its script run
 *   by the sandbox's evaluator) and sent to their holders, a contract waiting for each role's deposit in turn and
 *   closing with a payout to every role (a large datum, and costly transactions for the cost check to build and
 *   evaluate);
 * - an apply on that contract: its first deposit, the whole datum spent and paid again.
 * Each against a `close` create on the same server, the stall of a trivial request; the create's stall also
 * against the same create on a sandbox evaluating its scripts on the serving thread, as before they moved to the
 * engine's worker (the CSL assembly runs on the worker in both).
 *
 * A stall measured by the clock grows with whatever else the machine runs: on a loaded machine a thread waits for
 * a CPU as long as it runs. On Linux each stall is also measured in the serving thread's own CPU time (its
 * schedstat), read at every turn of its loop: the work that held the loop, whatever the load.
 */
import { existsSync, readFileSync } from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { Worker } from 'node:worker_threads'
import { SandboxProvider, type SandboxOptions } from '../src/chain/sandbox'
import { parseJson, stringifyJson, type JsonObject, type JsonValue } from '../src/core/json/lossless'
import { encodeContract, encodeInput } from '../src/core/marlowe/json/encode'
import { ADA as ADA_TOKEN, CLOSE, type Contract, type Input, type Party } from '../src/core/marlowe/types'
import { openService } from '../src/engine/service'
import { installNativeCodecs } from '../src/engine/native-codecs'
import { evaluatePlutusOffThread } from '../src/engine/worker'
import { createServer, listen } from '../src/server/app'
import { testWallet } from '../tests/engine/build/support'
import { HEAVY_DEPOSIT, HEAVY_ROLES, heavyContract, heavyRole, heavyRoles } from '../tests/support/heavy-builds'
import { witnessed } from '../tests/engine/service/witnesses'
import { printRows, type Row } from './harness'
import { httpPost, type Answer } from './http'

/** A GET /healthcheck is sent this often while a build runs. */
const PROBE_EVERY_MS = 5

const creator = testWallet('alice')

export interface Stall {
  /** The longest event-loop delay while the request ran, ms. */
  readonly stallMs: number
  /** The most CPU time the serving thread used between two turns of its event loop, ms (Linux only). */
  readonly cpuMs?: number
  /** The slowest GET /healthcheck answered while it ran, ms. */
  readonly healthMs: number
  readonly answer: Answer
}

/** The serving thread's CPU time is read from here (the main thread's id is the process id). */
const SCHEDSTAT = `/proc/${process.pid}/task/${process.pid}/schedstat`
/** The serving thread reads its CPU time this often while watched, so at every turn of its loop that waited. */
const TURN_EVERY_MS = 1

/** The serving thread's CPU time so far, ms. */
const cpuTimeMs = (): number => Number(readFileSync(SCHEDSTAT, 'utf8').split(' ')[0]) / 1e6

/** The most CPU time the serving thread uses between two of its readings, until `stop`; undefined off Linux. */
function watchCpu(): { stop(): number | undefined } {
  if (!existsSync(SCHEDSTAT)) return { stop: () => undefined }
  let last = cpuTimeMs()
  let worst = 0
  const read = (): void => {
    const now = cpuTimeMs()
    worst = Math.max(worst, now - last)
    last = now
  }
  const timer = setInterval(read, TURN_EVERY_MS)
  return {
    stop() {
      clearInterval(timer)
      read()
      return worst
    }
  }
}

/**
 * GET /healthcheck every PROBE_EVERY_MS from a thread of its own (a client on the server's thread would wait out
 * the same stalls before sending), until told to stop; it answers with every request's latency in ms.
 */
const PROBE_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const { get } = require('node:http')
const { performance } = require('node:perf_hooks')
const pending = new Set()
const latencies = []
let running = true
function send() {
  const t0 = performance.now()
  const done = new Promise((resolve) => {
    const request = get(workerData.url, { agent: false }, (response) => {
      response.resume()
      response.on('end', () => resolve(performance.now() - t0))
    })
    request.on('error', () => resolve(performance.now() - t0))
  }).then((ms) => { latencies.push(ms); pending.delete(done) })
  pending.add(done)
  if (running) setTimeout(send, workerData.everyMs)
}
parentPort.once('message', async () => {
  running = false
  await Promise.all(pending)
  parentPort.postMessage(latencies)
})
send()
`

/** Runs `request` with the event loop watched and GET /healthcheck sent beside it from another thread. */
export async function watched(base: string, request: () => Promise<Answer>): Promise<Stall> {
  const monitor = monitorEventLoopDelay({ resolution: 1 })
  const prober = new Worker(PROBE_SOURCE, {
    eval: true,
    workerData: { url: `${base}/healthcheck`, everyMs: PROBE_EVERY_MS }
  })
  const latencies = new Promise<number[]>((resolve, reject) => {
    prober.once('message', resolve)
    prober.once('error', reject)
  })
  await new Promise((resolve) => prober.once('online', resolve))
  monitor.enable()
  const cpu = watchCpu()
  let answer: Answer
  let cpuMs: number | undefined
  try {
    answer = await request()
  } finally {
    cpuMs = cpu.stop()
    monitor.disable()
    prober.postMessage('stop')
  }
  const healthMs = Math.max(...(await latencies))
  await prober.terminate()
  return { stallMs: monitor.max / 1e6, ...(cpuMs === undefined ? {} : { cpuMs }), healthMs, answer }
}

function expectStatus(answer: Answer, status: number, what: string): Answer {
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${answer.body.toString()}`)
  return answer
}

const objectOf = (v: JsonValue | undefined): JsonObject => v as JsonObject

function resourceOf(answer: Answer): JsonObject {
  return objectOf(objectOf(parseJson(answer.body.toString())).resource)
}

const envelopeBytes = (resource: JsonObject, key: 'tx' | 'txBody'): Uint8Array =>
  Buffer.from(objectOf(resource[key]).cborHex as string, 'hex')

export interface EventLoopRuns {
  readonly trivial: Stall
  readonly create: Stall
  readonly apply: Stall
  readonly createBytes: number
  readonly applyBytes: number
}

/** The three requests on a fresh in-memory sandbox and service; `sandbox` options choose its evaluator. */
export async function eventLoopRuns(options: SandboxOptions): Promise<EventLoopRuns> {
  const sandbox = SandboxProvider.open({ clockTickMs: false, ...options })
  const opened = await openService({ provider: sandbox, databasePath: ':memory:', followEveryMs: false })
  const app = createServer({ service: opened.service, logLevel: 'warn' })
  try {
    await sandbox.fund(creator.address, 10_000n * 1_000_000n)
    const base = `http://127.0.0.1:${await listen(app, 0)}`
    const headers = { 'x-change-address': creator.address }
    const post = (path: string, body: JsonObject): Promise<Answer> =>
      httpPost(`${base}${path}`, stringifyJson(body), headers)
    const createBody = (contract: Contract, extra: JsonObject = {}): JsonObject => ({
      version: 'v1',
      contract: encodeContract(contract),
      tags: {},
      metadata: {},
      ...extra
    })
    // Warm: the server, CSL, the worker.
    expectStatus(await post('/contracts', createBody(CLOSE)), 201, 'warm-up create')
    const trivial = await watched(base, () => post('/contracts', createBody(CLOSE)))
    expectStatus(trivial.answer, 201, 'trivial create')

    const deadline = sandbox.slotToTime(0n) + 365n * 86_400_000n
    const contract = heavyContract(deadline)
    const create = await watched(base, () =>
      post('/contracts', createBody(contract, { roles: heavyRoles(creator.address) }))
    )
    const created = resourceOf(expectStatus(create.answer, 201, 'heavy create'))
    const createTx = envelopeBytes(created, 'tx')
    const contractId = created.contractId as string
    await opened.service.submitBuild(contractId.slice(0, 64), witnessed(createTx, [creator]))
    await opened.follower.sync()

    const party: Party = { type: 'Role', role: heavyRole(0) }
    const input: Input = {
      content: { type: 'IDeposit', account: party, party, token: ADA_TOKEN, amount: HEAVY_DEPOSIT }
    }
    const apply = await watched(base, () =>
      post(`/contracts/${encodeURIComponent(contractId)}/transactions`, {
        version: 'v1',
        inputs: [encodeInput(input)],
        tags: {},
        metadata: {}
      })
    )
    const applied = resourceOf(expectStatus(apply.answer, 201, 'apply'))
    return { trivial, create, apply, createBytes: createTx.length, applyBytes: envelopeBytes(applied, 'txBody').length }
  } finally {
    await app.close()
    await opened.close()
    await sandbox.close()
  }
}

export async function benchEventLoop(): Promise<void> {
  // As `serve` runs: its native codecs installed, the sandbox's scripts on the engine's worker. The peer run
  // evaluates them on the serving thread, as before they moved (the CSL assembly is on the worker in both).
  await installNativeCodecs()
  const runs = await eventLoopRuns({ evaluate: evaluatePlutusOffThread })
  const inThread = await eventLoopRuns({})
  const row = (what: string, stall: Stall, measure: 'stallMs' | 'healthMs'): Row => ({
    what,
    unit: 'ms',
    ours: stall[measure],
    peerName: 'a `close` create',
    peer: runs.trivial[measure]
  })
  const cpuRow = (what: string, stall: Stall): Row[] =>
    stall.cpuMs === undefined || runs.trivial.cpuMs === undefined
      ? []
      : [{ what, unit: 'ms', ours: stall.cpuMs, peerName: 'a `close` create', peer: runs.trivial.cpuMs }]
  printRows(`The serving thread during the heaviest builds (${HEAVY_ROLES} roles minted)`, [
    row(`heaviest create (${runs.createBytes} B): longest event-loop stall`, runs.create, 'stallMs'),
    {
      what: 'heaviest create: longest event-loop stall',
      unit: 'ms',
      ours: runs.create.stallMs,
      peerName: "the same, the sandbox's scripts run on the serving thread",
      peer: inThread.create.stallMs
    },
    ...cpuRow('heaviest create: most CPU time of the serving thread between two turns of its loop', runs.create),
    row('heaviest create: slowest GET /healthcheck beside it', runs.create, 'healthMs'),
    row(`apply on its datum (${runs.applyBytes} B body): longest event-loop stall`, runs.apply, 'stallMs'),
    ...cpuRow('apply on its datum: most CPU time of the serving thread between two turns of its loop', runs.apply),
    row('apply on its datum: slowest GET /healthcheck beside it', runs.apply, 'healthMs')
  ])
}
