/**
 * Load for the HTTP benchmarks: autocannon (programmatic API) on its own worker thread, so the client's work
 * does not share the event loop of the server under test, and the same concurrency applied to an in-process
 * async function, for the peer without HTTP. autocannon's own histograms keep whole milliseconds only, so the
 * worker records every response's latency (a float, ms) and the percentiles are taken here.
 */
import { performance } from 'node:perf_hooks'
import { Worker } from 'node:worker_threads'

/** One run: every request's (or call's) latency in ms, and the run's wall time. */
export interface Samples {
  readonly latencies: Float64Array
  readonly seconds: number
}

export interface Load {
  /** Completed requests (or calls) per second of wall time, over all the runs. */
  readonly perSecond: number
  readonly count: number
  readonly p50: number
  readonly p99: number
}

export interface HttpLoad {
  readonly url: string
  readonly connections: number
  readonly method?: 'GET' | 'POST'
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string
  /** Either a number of requests or a number of seconds. */
  readonly amount?: number
  readonly seconds?: number
  /** Every answer must have this status; any other fails the benchmark. */
  readonly expectStatus: number
  /** Paths on `url`'s server, one picked at random for each request (instead of `url`'s own path). */
  readonly paths?: readonly string[]
}

interface WorkerAnswer {
  /** From the first request sent to the last answer received. */
  readonly seconds: number
  readonly latencies: Float64Array
  readonly statuses: Readonly<Record<string, number>>
  readonly errors: number
  readonly error?: string
}

/** Runs in the worker (plain CommonJS: the bench bundle keeps packages external and so does this). */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const { performance } = require('node:perf_hooks')
const autocannon = require(workerData.autocannon)
const paths = workerData.paths
const options = paths === undefined ? workerData.options : {
  ...workerData.options,
  requests: [{ setupRequest: (request) => ({ ...request, path: paths[Math.floor(Math.random() * paths.length)] }) }]
}
const latencies = []
const statuses = {}
let first = Infinity
let last = 0
const instance = autocannon(options, (error, result) => {
  const seconds = (last - first) / 1000
  if (error) parentPort.postMessage({ seconds, latencies: new Float64Array(0), statuses, errors: 0, error: String(error) })
  else parentPort.postMessage({ seconds, latencies: Float64Array.from(latencies), statuses, errors: result.errors })
})
instance.on('response', (_client, status, _bytes, ms) => {
  const now = performance.now()
  first = Math.min(first, now - ms)
  last = now
  latencies.push(ms)
  statuses[status] = (statuses[status] || 0) + 1
})
`

export function percentile(sorted: ArrayLike<number>, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN
}

/** Throughput and percentiles over several runs (alternated with the peer's, so machine load hits both alike). */
export function summarize(runs: readonly Samples[]): Load {
  const sorted = new Float64Array(runs.reduce((n, r) => n + r.latencies.length, 0))
  let at = 0
  for (const r of runs) {
    sorted.set(r.latencies, at)
    at += r.latencies.length
  }
  sorted.sort()
  return {
    perSecond: sorted.length / runs.reduce((t, r) => t + r.seconds, 0),
    count: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99)
  }
}

/** autocannon against `load.url` from a worker thread; fails if any answer is not `expectStatus`. */
export async function httpLoad(load: HttpLoad): Promise<Samples> {
  const options = {
    url: load.url,
    connections: load.connections,
    method: load.method ?? 'GET',
    headers: load.headers ?? {},
    ...(load.body === undefined ? {} : { body: load.body }),
    ...(load.amount === undefined ? { duration: load.seconds ?? 5 } : { amount: load.amount }),
    timeout: 30
  }
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { autocannon: require.resolve('autocannon'), options, paths: load.paths }
  })
  try {
    const answer = await new Promise<WorkerAnswer>((resolve, reject) => {
      worker.once('message', (message: WorkerAnswer) => resolve(message))
      worker.once('error', reject)
      worker.once('exit', (code) => reject(new Error(`the load worker exited (${code}) without an answer`)))
    })
    const unexpected = Object.entries(answer.statuses).filter(([status]) => Number(status) !== load.expectStatus)
    if (answer.error !== undefined || answer.errors > 0 || unexpected.length > 0) {
      throw new Error(
        `${options.method} ${load.url}: ${answer.error ?? ''} ${answer.errors} errors, statuses ${JSON.stringify(answer.statuses)}`
      )
    }
    return { latencies: answer.latencies, seconds: answer.seconds }
  } finally {
    await worker.terminate()
  }
}

/**
 * `count` calls of `call`, `concurrency` at a time (as `connections` clients would make them). Each client yields
 * to the event loop before each call, as a request arriving on a socket does: calls started in one tick would
 * otherwise run their input selections in lockstep, all pick the same UTxOs and retry (measured: ~13 reservation
 * conflicts per build at 16 clients), which no HTTP client can make happen.
 */
export async function concurrentCalls(
  count: number,
  concurrency: number,
  call: () => Promise<unknown>
): Promise<Samples> {
  const latencies = new Float64Array(count)
  let next = 0
  const client = async (): Promise<void> => {
    while (next < count) {
      const i = next
      next += 1
      const t = performance.now()
      await new Promise((resolve) => setImmediate(resolve))
      await call()
      latencies[i] = performance.now() - t
    }
  }
  const start = performance.now()
  await Promise.all(Array.from({ length: concurrency }, client))
  return { latencies, seconds: (performance.now() - start) / 1000 }
}
