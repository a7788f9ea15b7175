/**
 * Transaction builders on the sandbox: create and apply-inputs builds per second, their p50/p95 latency, and
 * RSS before and after thousands of builds (every CSL object must be freed). Builds are not submitted; each
 * releases its reservation so the wallet's UTxOs stay available. The "peer" column is the target.
 */
import { performance } from 'node:perf_hooks'
import { SandboxProvider, sandboxWallet, signWithSandboxWallets } from '../src/chain/sandbox'
import { escrow, swap } from '../src/core/marlowe/examples'
import { ADA, CLOSE, type Input, type Party } from '../src/core/marlowe/types'
import { InMemoryInputReservations, MarloweTxBuilder } from '../src/engine/build'
import { printRows, type Row } from './harness'
import { mib, settledRss } from './memory'

const CREATE_BUILDS = 9500
const ESCROW_BUILDS = 500
const APPLY_BUILDS = 300
/** Enough for the JIT, V8's heap and the sandbox evaluator's recycled wasm to reach their steady sizes. */
const WARMUP_CREATES = 1000
const WARMUP_APPLIES = 100
const P50_TARGET_MS = 15
const RSS_GROWTH_TARGET = 10

interface Latencies {
  readonly opsPerSecond: number
  readonly p50: number
  readonly p95: number
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0
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
  const elapsed = performance.now() - start
  samples.sort((a, b) => a - b)
  return { opsPerSecond: (count * 1000) / elapsed, p50: percentile(samples, 50), p95: percentile(samples, 95) }
}

export async function benchBuild(): Promise<void> {
  const sandbox = SandboxProvider.open({ clockTickMs: false, recycleEvaluatorEvery: 50 })
  try {
    const reservations = new InMemoryInputReservations()
    const builder = new MarloweTxBuilder({ provider: sandbox, reservations })
    const alice = sandboxWallet('alice')
    const bob = sandboxWallet('bob')
    const party = (address: string): Party => ({ type: 'Address', address })

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
    const { contract } = swap({
      first: {
        party: party(alice.address),
        token: ADA,
        amount: 10_000_000n,
        depositDeadline: sandbox.slotToTime(0n) + 86_400_000n
      },
      second: {
        party: party(bob.address),
        token: ADA,
        amount: 20_000_000n,
        depositDeadline: sandbox.slotToTime(0n) + 86_400_000n
      }
    })
    const created = await builder.create({ changeAddress: alice.address }, { contract })
    await sandbox.submit(signWithSandboxWallets(created.tx, [alice]))
    await builder.release(created.reservation.key)
    const inputs: Input[] = [
      {
        content: {
          type: 'IDeposit',
          account: party(alice.address),
          party: party(alice.address),
          token: ADA,
          amount: 10_000_000n
        }
      }
    ]
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
    printRows('Transaction builders on the sandbox (peer = target; ratio < 1 is within it)', rows)
  } finally {
    await sandbox.close()
  }
}
