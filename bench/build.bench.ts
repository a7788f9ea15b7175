/**
 * Transaction builds on the sandbox, two ways:
 * - the builder alone: create and apply-inputs builds per second, their p50/p95 latency, and RSS before and after
 *   thousands of builds (every CSL object must be freed). Builds are not submitted; each releases its
 *   reservation so the wallet's UTxOs stay available. The "peer" column is the target.
 * - through the service as `marlowe-desk serve` runs it: `POST /contracts` and `POST /contracts/{id}/transactions`
 *   over HTTP on 127.0.0.1, one request at a time, to the Fastify server over the service with its SQLite store
 *   (WAL, fsync on commit, input reservations in the same file), the follower and the API token, every setting
 *   at its default. Each build is then signed and submitted (not timed), so that the wallet's UTxOs stay as
 *   few as the builder-alone rows' and the contracts pile up on the ledger and in the store as they do in use.
 *   The peer is the builder alone on the same contract and input, measured above in the same run: the ratio is
 *   what the service, its store and HTTP add to a build.
 * Both sandboxes run the default evaluator recycling (a fresh wasm instance every 200 evaluations). The
 * service's sandbox follows the wall clock as `serve`'s does, in memory: its saved ledger is the sandbox's own
 * cost, which a node on a real network does not charge the service.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { SandboxProvider, sandboxWallet, signWithSandboxWallets } from '../src/chain/sandbox'
import { stringifyJson } from '../src/core/json/lossless'
import { escrow, swap } from '../src/core/marlowe/examples'
import { encodeContract, encodeInput } from '../src/core/marlowe/json/encode'
import { ADA, CLOSE, type Contract, type Input, type Party } from '../src/core/marlowe/types'
import { InMemoryInputReservations, MarloweTxBuilder } from '../src/engine/build'
import { openService, type OpenService } from '../src/engine/service'
import { createServer, listen } from '../src/server/app'
import { VENDOR_TYPES } from '../src/server/negotiation'
import { hexToBytes } from '../src/core/bytes'
import { testWallet } from '../tests/engine/build/support'
import { witnessed } from '../tests/engine/service/witnesses'
import { printRows, type Row } from './harness'
import { httpPost } from './http'
import { mib, settledRss } from './memory'

const CREATE_BUILDS = 9500
const ESCROW_BUILDS = 500
const APPLY_BUILDS = 300
/** Enough for the JIT, V8's heap and the sandbox evaluator's recycled wasm to reach their steady sizes. */
const WARMUP_CREATES = 1000
const WARMUP_APPLIES = 100
const P50_TARGET_MS = 15
const RSS_GROWTH_TARGET = 10
const SERVICE_WARMUP = 30
const SERVICE_CREATES = 300
const SERVICE_APPLIES = 100
const TOKEN = 'bench-api-token'

interface Latencies {
  readonly opsPerSecond: number
  readonly p50: number
  readonly p95: number
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0
}

function latencies(samples: number[], elapsedMs: number): Latencies {
  samples.sort((a, b) => a - b)
  return {
    opsPerSecond: (samples.length * 1000) / elapsedMs,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95)
  }
}

/** Runs `build` `count` times in sequence; yields to the event loop now and then, as a server would. */
async function time(count: number, build: () => Promise<unknown>): Promise<Latencies> {
  const samples: number[] = []
  const start = performance.now()
  for (let i = 0; i < count; i += 1) {
    const t = performance.now()
    await build()
    samples.push(performance.now() - t)
    if (i % 50 === 49) await new Promise((resolve) => setImmediate(resolve))
  }
  return latencies(samples, performance.now() - start)
}

/** Runs `build` (timed) then `after` (not timed) `count` times; throughput is over the timed parts only. */
async function timeEach<T>(
  count: number,
  build: (i: number) => Promise<T>,
  after: (built: T) => Promise<unknown>
): Promise<Latencies> {
  const samples: number[] = []
  for (let i = 0; i < count; i += 1) {
    const t = performance.now()
    const built = await build(i)
    samples.push(performance.now() - t)
    await after(built)
  }
  return latencies(
    samples,
    samples.reduce((a, b) => a + b, 0)
  )
}

/** A swap of 10 ada from `first` for 20 ada from `second`, both deposits due a day after `t0`. */
function swapContract(t0: bigint, first: string, second: string): Contract {
  const party = (address: string): Party => ({ type: 'Address', address })
  return swap({
    first: { party: party(first), token: ADA, amount: 10_000_000n, depositDeadline: t0 + 86_400_000n },
    second: { party: party(second), token: ADA, amount: 20_000_000n, depositDeadline: t0 + 86_400_000n }
  }).contract
}

/** The first deposit of `swapContract`. */
function firstDeposit(first: string): Input {
  const party: Party = { type: 'Address', address: first }
  return { content: { type: 'IDeposit', account: party, party, token: ADA, amount: 10_000_000n } }
}

interface Alone {
  readonly rows: Row[]
  readonly creates: Latencies
  /** With the datum given, as the service calls the builder. */
  readonly applies: Latencies
}

/** The builder alone on a sandbox with the hand-moved clock: the original rows. */
async function builderAlone(): Promise<Alone> {
  const sandbox = SandboxProvider.open({ clockTickMs: false })
  try {
    const reservations = new InMemoryInputReservations()
    const builder = new MarloweTxBuilder({ provider: sandbox, reservations })
    const alice = sandboxWallet('alice')
    const bob = sandboxWallet('bob')

    const create = async (): Promise<void> => {
      const built = await builder.create({ changeAddress: alice.address }, { contract: CLOSE })
      await builder.release(built.reservation.key)
    }
    const day = 86_400_000n
    const t0 = sandbox.slotToTime(0n)
    const role = (name: string): Party => ({ type: 'Role', role: name })
    const escrowContract = escrow({
      seller: role('Seller'),
      buyer: role('Buyer'),
      mediator: role('Mediator'),
      price: 100_000_000n,
      token: ADA,
      paymentDeadline: t0 + day,
      complaintDeadline: t0 + 2n * day,
      disputeDeadline: t0 + 3n * day,
      mediationDeadline: t0 + 4n * day
    }).contract
    // An existing roles policy: no minting script to evaluate, the safety walk over every escrow path.
    const createEscrow = async (): Promise<void> => {
      const built = await builder.create(
        { changeAddress: alice.address },
        { contract: escrowContract, roles: { type: 'UsePolicy', policyId: 'ab'.repeat(28) } }
      )
      await builder.release(built.reservation.key)
    }
    const created = await builder.create(
      { changeAddress: alice.address },
      { contract: swapContract(t0, alice.address, bob.address) }
    )
    await sandbox.submit(signWithSandboxWallets(created.tx, [alice]))
    await builder.release(created.reservation.key)
    const inputs = [firstDeposit(alice.address)]
    let evaluateMs = 0
    const evaluate = sandbox.evaluate.bind(sandbox)
    sandbox.evaluate = async (tx, extra) => {
      const t = performance.now()
      try {
        return await evaluate(tx, extra)
      } finally {
        evaluateMs += performance.now() - t
      }
    }
    const apply = async (): Promise<void> => {
      const built = await builder.applyInputs(
        { changeAddress: alice.address },
        { contractId: created.contractId, inputs }
      )
      await builder.release(built.reservation.key)
    }
    // The service passes the datum it stored rather than have the builder resolve it from the chain.
    const applyWithDatum = async (): Promise<void> => {
      const built = await builder.applyInputs(
        { changeAddress: alice.address },
        { contractId: created.contractId, datum: created.datumBytes, inputs }
      )
      await builder.release(built.reservation.key)
    }

    await time(WARMUP_CREATES, create)
    await time(WARMUP_APPLIES, apply)
    const rssBefore = await settledRss()
    const creates = await time(CREATE_BUILDS, create)
    const escrows = await time(ESCROW_BUILDS, createEscrow)
    const rssAfterCreates = await settledRss()
    evaluateMs = 0
    const applies = await time(APPLY_BUILDS, apply)
    const evaluatePerApply = evaluateMs / APPLY_BUILDS
    const rssAfter = await settledRss()
    const appliesWithDatum = await time(APPLY_BUILDS, applyWithDatum)
    const growth = (after: number): number => ((after - rssBefore) / rssBefore) * 100

    const rows: Row[] = [
      {
        what: 'create build (no scripts), throughput',
        unit: 'builds/s',
        ours: creates.opsPerSecond,
        peerName: 'target',
        peer: 1000 / P50_TARGET_MS
      },
      { what: 'create build, p50 latency', unit: 'ms', ours: creates.p50, peerName: 'target', peer: P50_TARGET_MS },
      {
        what: 'create build, p95 latency',
        unit: 'ms',
        ours: creates.p95,
        peerName: 'target (p50)',
        peer: P50_TARGET_MS
      },
      {
        what: 'create build, escrow with roles (safety walk included), p50 latency',
        unit: 'ms',
        ours: escrows.p50,
        peerName: 'target',
        peer: P50_TARGET_MS
      },
      {
        what: 'create build, escrow, p95 latency',
        unit: 'ms',
        ours: escrows.p95,
        peerName: 'target (p50)',
        peer: P50_TARGET_MS
      },
      {
        what: 'apply build (two passes + evaluate), throughput',
        unit: 'builds/s',
        ours: applies.opsPerSecond,
        peerName: 'create target',
        peer: 1000 / P50_TARGET_MS
      },
      {
        what: 'apply build, p50 latency',
        unit: 'ms',
        ours: applies.p50,
        peerName: 'create target',
        peer: P50_TARGET_MS
      },
      {
        what: 'apply build, p95 latency',
        unit: 'ms',
        ours: applies.p95,
        peerName: 'create target',
        peer: P50_TARGET_MS
      },
      {
        what: 'apply build, datum given as the service gives it, p50 latency',
        unit: 'ms',
        ours: appliesWithDatum.p50,
        peerName: 'create target',
        peer: P50_TARGET_MS
      },
      {
        what: 'apply build, datum given, p95 latency',
        unit: 'ms',
        ours: appliesWithDatum.p95,
        peerName: 'create target',
        peer: P50_TARGET_MS
      },
      {
        what: 'apply build, of which sandbox evaluate',
        unit: 'ms',
        ours: evaluatePerApply,
        peerName: 'apply p50',
        peer: applies.p50
      },
      {
        what: `RSS growth over ${CREATE_BUILDS + ESCROW_BUILDS} create builds (${mib(rssBefore).toFixed(0)} → ${mib(rssAfterCreates).toFixed(0)} MiB)`,
        unit: '%',
        ours: growth(rssAfterCreates),
        peerName: 'target',
        peer: RSS_GROWTH_TARGET
      },
      {
        what: `RSS growth over all ${CREATE_BUILDS + ESCROW_BUILDS + APPLY_BUILDS} builds, sandbox evaluator included (→ ${mib(rssAfter).toFixed(0)} MiB)`,
        unit: '%',
        ours: growth(rssAfter),
        peerName: 'target',
        peer: RSS_GROWTH_TARGET
      }
    ]
    return { rows, creates, applies: appliesWithDatum }
  } finally {
    await sandbox.close()
  }
}

interface Served {
  readonly creates: Latencies
  readonly applies: Latencies
  /** Builds submitted through the service, every one found confirmed in its store at the end. */
  readonly confirmed: { readonly creates: number; readonly applies: number }
}

/** What a 201 from a build route carries when asked for Runtime's vendor type: the ids and the unsigned tx. */
interface BuildAnswer {
  readonly contractId: string
  readonly transactionId?: string
  readonly tx: Uint8Array
}

function buildAnswer(what: string, status: number, body: Buffer): BuildAnswer {
  if (status !== 201) throw new Error(`${what}: ${status} ${body.toString()}`)
  const { resource } = JSON.parse(body.toString()) as {
    resource: { contractId: string; transactionId?: string; tx: { cborHex: string } }
  }
  return {
    contractId: resource.contractId,
    ...(resource.transactionId === undefined ? {} : { transactionId: resource.transactionId }),
    tx: hexToBytes(resource.tx.cborHex)
  }
}

/** Every build submitted is on the ledger and confirmed in the service's store: none was timed in vain. */
async function allConfirmed(
  service: OpenService['service'],
  created: readonly string[],
  applied: readonly BuildAnswer[]
): Promise<void> {
  for (const id of created) {
    const { status } = await service.getContract(id)
    if (status !== 'confirmed') throw new Error(`contract ${id} is ${status} after the follower's sync`)
  }
  for (const built of applied) {
    const { status } = await service.getTransaction(built.contractId, built.transactionId!)
    if (status !== 'confirmed') throw new Error(`apply ${built.transactionId!} is ${status} after the follower's sync`)
  }
}

/** `POST /contracts` and `POST /contracts/{id}/transactions` through the service over HTTP, each then submitted. */
async function throughService(dir: string): Promise<Served> {
  const sandbox = SandboxProvider.open({})
  let opened: OpenService | undefined
  try {
    opened = await openService({ provider: sandbox, databasePath: join(dir, 'service-sandbox.sqlite') })
    const { service, follower } = opened
    const app = createServer({ service, token: TOKEN, logLevel: 'warn' })
    try {
      const base = `http://127.0.0.1:${await listen(app, 0)}`
      const alice = testWallet('alice')
      const bob = testWallet('bob')
      const headers = { authorization: `Bearer ${TOKEN}`, 'x-change-address': alice.address }
      // Runtime's vendor types answer with the whole unsigned tx, which a wallet signs (the SDK asks for them).
      const createHeaders = { ...headers, accept: VENDOR_TYPES.create }
      const applyHeaders = { ...headers, accept: VENDOR_TYPES.apply }
      const post = (contract: Contract): Promise<BuildAnswer> => {
        const body = { version: 'v1', contract: encodeContract(contract), tags: {}, metadata: {} }
        return httpPost(`${base}/contracts`, stringifyJson(body), createHeaders).then((a) =>
          buildAnswer('POST /contracts', a.status, a.body)
        )
      }
      const created: string[] = []
      const applied: BuildAnswer[] = []
      const submitCreate = (built: BuildAnswer): Promise<unknown> => {
        created.push(built.contractId)
        return service.submitBuild(built.contractId.slice(0, 64), witnessed(built.tx, [alice]))
      }

      await timeEach(SERVICE_WARMUP, () => post(CLOSE), submitCreate)
      const creates = await timeEach(SERVICE_CREATES, () => post(CLOSE), submitCreate)

      const swaps: string[] = []
      const swapContractNow = swapContract(sandbox.slotToTime(0n), alice.address, bob.address)
      for (let i = 0; i < SERVICE_WARMUP + SERVICE_APPLIES; i += 1) {
        const built = await post(swapContractNow)
        await submitCreate(built)
        swaps.push(built.contractId)
      }
      // Applies need the creates confirmed in the store; the follower's timer would get there within a second.
      await follower.sync()
      const body = stringifyJson({
        version: 'v1',
        inputs: [encodeInput(firstDeposit(alice.address))],
        tags: {},
        metadata: {}
      })
      const apply = (i: number): Promise<BuildAnswer> => {
        const id = swaps[i]!
        return httpPost(`${base}/contracts/${encodeURIComponent(id)}/transactions`, body, applyHeaders).then((a) =>
          buildAnswer('POST /contracts/{id}/transactions', a.status, a.body)
        )
      }
      const submitApply = (built: BuildAnswer): Promise<unknown> => {
        applied.push(built)
        return service.submitBuild(built.transactionId!, witnessed(built.tx, [alice]))
      }
      await timeEach(SERVICE_WARMUP, apply, submitApply)
      const applies = await timeEach(SERVICE_APPLIES, (i) => apply(SERVICE_WARMUP + i), submitApply)
      await follower.sync()
      await allConfirmed(service, created, applied)
      return { creates, applies, confirmed: { creates: created.length, applies: applied.length } }
    } finally {
      await app.close()
    }
  } finally {
    await opened?.close()
    await sandbox.close()
  }
}

export async function benchBuild(): Promise<void> {
  const alone = await builderAlone()
  const dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-bench-build-'))
  let served: Served
  try {
    served = await throughService(dir)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  const createPeer = 'builder alone, create build (close)'
  const applyPeer = 'builder alone, apply build (same input, datum given)'
  const service: Row[] = [
    {
      what: `POST /contracts (close) through the service + SQLite over HTTP, ${SERVICE_CREATES} in sequence, each submitted: p50`,
      unit: 'ms',
      ours: served.creates.p50,
      peerName: `${createPeer}, p50`,
      peer: alone.creates.p50
    },
    {
      what: 'POST /contracts, p95 latency',
      unit: 'ms',
      ours: served.creates.p95,
      peerName: `${createPeer}, p95`,
      peer: alone.creates.p95
    },
    {
      what: `POST /contracts/{id}/transactions (a swap's deposit), ${SERVICE_APPLIES} contracts, each submitted: p50`,
      unit: 'ms',
      ours: served.applies.p50,
      peerName: `${applyPeer}, p50`,
      peer: alone.applies.p50
    },
    {
      what: 'POST /contracts/{id}/transactions, p95 latency',
      unit: 'ms',
      ours: served.applies.p95,
      peerName: `${applyPeer}, p95`,
      peer: alone.applies.p95
    }
  ]
  printRows(
    'Transaction builds on the sandbox (peer = target or the builder alone; ratio < 1 is within a target)',
    [...alone.rows, ...service],
    [
      `through the service: every build answered 201 with its unsigned tx, and all ${served.confirmed.creates} creates and ${served.confirmed.applies} applies built over HTTP were signed, accepted by the ledger and found confirmed in the store`
    ]
  )
}
