/**
 * The review on hostile bytes, as the fuzz test runs it but over 100,000 cases: random bytes, and byte and
 * length mutations of real transactions reviewed with their context (tests/core/cardano/review/hostile-cases.ts).
 * Every case must end in a review or a TxDecodeError; anything else stops the run. Throughput is set against
 * `decodeTransaction` alone on the same bytes, and the slowest case against the median one: a case that hangs, or
 * takes far longer than the rest, shows there. (CSL is no peer here: its wasm module traps on such bytes and is
 * left unusable, which ends the process.) Then the worst of those and of the Marlowe arithmetic cases (`Let`
 * squaring, values at the limit rebound hundreds of times), against an ordinary Marlowe review, the escrow's
 * deposit: before the core bounded its numbers, one squaring step more doubled that time.
 */
import { performance } from 'node:perf_hooks'
import fc from 'fast-check'
import { TxDecodeError, reviewTransaction } from '../src/core/cardano/review'
import { decodeTransaction } from '../src/core/cardano/tx'
import { encodeWire } from '../src/api/wire'
import { bytesToHex } from '../src/core/bytes'
import { installNativeCodecs } from '../src/engine/native-codecs'
import {
  ESCROW_DEPOSIT,
  PARAMS,
  arithmeticCases,
  byteMutations,
  lengthMutations,
  manyInputsTx,
  randomBytes,
  type HostileCase
} from '../tests/core/cardano/review/hostile-cases'
import { measure, printRows } from './harness'

/** Cases of each kind; fixed seeds, so every run reviews the same bytes. */
const KINDS = [
  { arbitrary: randomBytes, runs: 30_000, seed: 1 },
  { arbitrary: byteMutations, runs: 40_000, seed: 2 },
  { arbitrary: lengthMutations, runs: 40_000, seed: 3 }
] as const

export async function benchReviewFuzz(): Promise<void> {
  await installNativeCodecs()
  const cases: HostileCase[] = KINDS.flatMap(({ arbitrary, runs, seed }) =>
    fc.sample(arbitrary, { numRuns: runs, seed })
  )
  // Warmed up first, so the slowest case is not the first one the JIT sees.
  for (const { bytes, context } of cases.slice(0, 2000)) review(bytes, context)
  const times = new Float64Array(cases.length)
  let reviewed = 0
  const started = performance.now()
  cases.forEach(({ bytes, context }, i) => {
    const t0 = performance.now()
    if (review(bytes, context)) reviewed += 1
    times[i] = performance.now() - t0
  })
  const ours = performance.now() - started
  const decodeStarted = performance.now()
  for (const { bytes } of cases) {
    try {
      decodeTransaction(bytes)
    } catch (e) {
      if (!(e instanceof TxDecodeError)) throw e
    }
  }
  const decode = performance.now() - decodeStarted
  const median = Float64Array.from(times).sort()[Math.floor(times.length / 2)]!
  const slowestCases = Array.from(times.keys())
    .sort((a, b) => times[b]! - times[a]!)
    .slice(0, 20)
    .map((i) => cases[i]!)
  const slowest = Math.max(...slowestCases.map((c) => bestOfFive(() => review(c.bytes, c.context))))
  const refused = cases.length - reviewed
  printRows(`Review on hostile bytes, ${cases.length.toLocaleString('en-US')} cases`, [
    {
      what: `throughput: ${reviewed} reviewed, ${refused} refused with a TxDecodeError, nothing else`,
      unit: 'cases/s',
      ours: (cases.length * 1000) / ours,
      peerName: 'decodeTransaction alone on the same bytes',
      peer: (cases.length * 1000) / decode
    },
    { what: 'slowest case (the 20 slowest re-timed)', unit: 'ms', ours: slowest, peerName: 'median case', peer: median }
  ])
  // With the answer the desk sends the window: a number's cost is in writing it out as much as in computing it.
  const arithmetic = arithmeticCases()
  for (const c of arithmetic) answer(c)
  const worst = Math.max(...[...slowestCases, ...arithmetic].map((c) => bestOfFive(() => answer(c))))
  const ordinary = measure(() => answer(ESCROW_DEPOSIT))
  printRows(`Review and its answer, on hostile bytes and Marlowe arithmetic (${arithmetic.length} arithmetic cases)`, [
    {
      what: 'worst review input in the fuzz + arithmetic set',
      unit: 'ms',
      ours: worst,
      peerName: "the escrow deposit's review",
      peer: 1000 / ordinary.opsPerSecond
    }
  ])
  // Linear in the size of what a transaction lists: ten times the inputs should take about ten times as long.
  const large = manyInputsTx(4000)
  const small = manyInputsTx(400)
  const many = measure(() => reviewTransaction(large, { protocolParameters: PARAMS }))
  const few = measure(() => reviewTransaction(small, { protocolParameters: PARAMS }))
  printRows('Review of a transaction listing many inputs, redeemers and required signers', [
    {
      what: `4,000 of each (${(1000 / many.opsPerSecond).toFixed(1)} ms)`,
      unit: 'ms',
      ours: 1000 / many.opsPerSecond,
      peerName: '400 of each',
      peer: 1000 / few.opsPerSecond
    }
  ])
}

/**
 * A case's own time, the best of five runs: the slowest cases of the pass are timed again this way, so that a
 * collection or the machine pausing during one case is not taken for that case being slow.
 */
function bestOfFive(run: () => unknown): number {
  let best = Infinity
  for (let i = 0; i < 5; i += 1) {
    const t0 = performance.now()
    run()
    best = Math.min(best, performance.now() - t0)
  }
  return best
}

/** The review as the desk answers it: reviewed, then written as the wire text the window receives. */
function answer({ bytes, context }: HostileCase): void {
  try {
    encodeWire(reviewTransaction(bytes, context))
  } catch (e) {
    if (!(e instanceof TxDecodeError)) throw e
  }
}

/** Whether the bytes were reviewed (false: refused with a TxDecodeError); anything else is thrown. */
function review(bytes: Uint8Array, context: HostileCase['context']): boolean {
  try {
    reviewTransaction(bytes, context)
    return true
  } catch (e) {
    if (e instanceof TxDecodeError) return false
    throw new Error(`the review failed otherwise than with a TxDecodeError on ${bytesToHex(bytes)}`, { cause: e })
  }
}
