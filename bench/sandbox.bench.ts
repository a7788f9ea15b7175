/**
 * Sandbox throughput: build → evaluate → sign → submit cycles of a Marlowe-shaped transaction (spend the script
 * output of the previous cycle through the stand-in validator's reference script, datum in the witness set,
 * continuing output with a new datum, collateral, fee from the previous change), built with CSL in two passes:
 * with an integer datum, and with real Marlowe datums (MarloweData of nested choices) of 1, 4 and 7.5 KB, the
 * last making a 16 KB transaction, as a Marlowe apply near the ledger's limit is.
 *
 * Peer: the raw Blaze emulator on the same ledger and the same transactions — its own evaluator, no pre-submit
 * checks, no queue, confirmed with `awaitTransactionConfirmation` (which moves its clock 20 slots a block). The
 * two run alternately, cycle by cycle, so machine load and JIT warm-up fall on both alike.
 */
import { rmSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import type { ExUnits, ProtocolParameters, RedeemerBudget, TxOutRef, Utxo } from '../src/chain/provider'
import { semanticsValidatorAddress } from '../src/chain/deployments'
import { SANDBOX_REFERENCE_SCRIPTS, SandboxProvider, sandboxWallet, signWithSandboxWallets } from '../src/chain/sandbox'
import { toBlazeInput, toUtxo } from '../tests/chain/support/blaze-convert'
import { RawEmulator } from '../tests/chain/support/raw-emulator'
import { adaUtxos, ManualClock, tempDir, T0 } from '../tests/chain/support/sandbox'
import { ADA, buildTx, intDatum, NO_UNITS } from '../tests/chain/support/txkit'
import { encodeMarloweData } from '../src/core/marlowe/plutus/marlowe-data'
import { blake2b256Hex } from '../src/core/cardano/tx'
import { printRows, type Row } from './harness'
import { largeContract } from './sandbox-scale.bench'

const WARM_UP = 20
const CYCLES = 200
const alice = sandboxWallet('alice')
const scriptAddress = semanticsValidatorAddress('sandbox')

interface Chain {
  utxo(ref: TxOutRef): Promise<Utxo>
  evaluate(tx: Uint8Array): Promise<RedeemerBudget[]>
  submit(tx: Uint8Array): Promise<string>
}

interface Timings {
  readonly perSecond: number
  readonly p50: number
  readonly p95: number
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN
}

interface Start {
  readonly funds: Utxo
  readonly collateral: Utxo
  readonly reference: Utxo
}

/** The datum of cycle `i`'s script output. */
type DatumOf = (i: number) => Uint8Array

/**
 * Two Marlowe datums (MarloweData of the review group's contract, nested choices) of at least `bytes` bytes,
 * differing in their state's time: a cycle spends one and continues with the other, so both are in its witness set.
 */
function marloweDatums(bytes: number): readonly [Uint8Array, Uint8Array] {
  const datum = (levels: number, minTime: bigint): Uint8Array =>
    encodeMarloweData({
      params: { rolesCurrency: '' },
      state: { accounts: [], choices: [], boundValues: [], minTime },
      contract: largeContract(levels, T0)
    })
  let levels = 1
  while (datum(levels, T0).length < bytes) levels += 1
  return [datum(levels, T0), datum(levels, T0 + 1n)]
}

/** Locks the first script output; each call of the returned function is one measured cycle, in ms. */
async function cycles(
  chain: Chain,
  start: Start,
  params: ProtocolParameters,
  datumOf: DatumOf
): Promise<{
  readonly cycle: (i: number) => Promise<number>
  readonly txBytes: () => number
  /** The datum hash the script output of the last cycle holds, as the chain tells it. */
  readonly datumHash: () => string | undefined
}> {
  let datum = datumOf(0)
  const lockTx = buildTx({
    params,
    inputs: [start.funds],
    changeAddress: alice.address,
    outputs: [{ address: scriptAddress, lovelace: 10n * ADA, datum }]
  })
  const lockId = await chain.submit(signWithSandboxWallets(lockTx, [alice]))
  let script = await chain.utxo({ txId: lockId, index: 0 })
  let funds = await chain.utxo({ txId: lockId, index: 1 })
  let txBytes = 0
  const cycle = async (i: number): Promise<number> => {
    const began = performance.now()
    const next = datumOf(i + 1)
    const build = (exUnits: ExUnits): Uint8Array =>
      buildTx({
        params,
        inputs: [funds],
        changeAddress: alice.address,
        scriptSpend: { utxo: script, reference: start.reference, datum, redeemer: intDatum(BigInt(i)), exUnits },
        outputs: [{ address: scriptAddress, lovelace: 10n * ADA, datum: next }],
        collateral: start.collateral
      })
    const [budget] = await chain.evaluate(build(NO_UNITS))
    const signed = signWithSandboxWallets(build(budget?.exUnits ?? NO_UNITS), [alice])
    txBytes = signed.length
    const id = await chain.submit(signed)
    ;[script, funds] = await Promise.all([chain.utxo({ txId: id, index: 0 }), chain.utxo({ txId: id, index: 1 })])
    datum = next
    return performance.now() - began
  }
  return { cycle, txBytes: () => txBytes, datumHash: () => script.datumHash }
}

function timings(durations: readonly number[]): Timings {
  const sorted = [...durations].sort((a, b) => a - b)
  const total = durations.reduce((a, b) => a + b, 0)
  return { perSecond: (durations.length * 1000) / total, p50: percentile(sorted, 50), p95: percentile(sorted, 95) }
}

interface Run {
  readonly persisted: boolean
  readonly datumOf: DatumOf
  readonly warmUp: number
  readonly cycles: number
}

/** Runs the two chains' cycles alternately, so load on the machine and JIT warm-up hit both alike. */
async function measureBoth(run: Run): Promise<{ ours: Timings; peer: Timings; txBytes: number }> {
  const persisted = run.persisted
  const clock = new ManualClock()
  const dataDir = persisted ? tempDir() : undefined
  const sandbox = SandboxProvider.open({
    zeroTime: T0,
    now: clock.now,
    clockTickMs: false,
    ...(dataDir === undefined ? {} : { dataDir })
  })
  const peerLedger = RawEmulator.genesis(T0, (await sandbox.tip()).slot)
  const params = await sandbox.protocolParameters()
  const utxos = await adaUtxos(sandbox, alice.address)
  const [reference] = await sandbox.utxosByRef([SANDBOX_REFERENCE_SCRIPTS.semantics.ref])
  const start = {
    funds: utxos[0]!,
    collateral: utxos.find((u) => u.value.lovelace === 5n * ADA)!,
    reference: reference!
  }
  const ours = await cycles(
    {
      utxo: async (ref) => (await sandbox.utxosByRef([ref]))[0]!,
      evaluate: (tx) => sandbox.evaluate(tx),
      submit: (tx) => sandbox.submit(tx)
    },
    start,
    params,
    run.datumOf
  )
  const peer = await cycles(
    {
      utxo: (ref) =>
        Promise.resolve(toUtxo(toBlazeInput(ref), peerLedger.emulator.getOutput(toBlazeInput(ref))!, () => undefined)),
      evaluate: (tx) => peerLedger.evaluate(tx),
      submit: (tx) => peerLedger.submitAndConfirm(tx)
    },
    start,
    params,
    run.datumOf
  )
  const durations = { ours: [] as number[], peer: [] as number[] }
  for (let i = 0; i < run.warmUp + run.cycles; i += 1) {
    const [o, p] = [await ours.cycle(i), await peer.cycle(i)]
    if (i >= run.warmUp) {
      durations.ours.push(o)
      durations.peer.push(p)
    }
  }
  const last = blake2b256Hex(run.datumOf(run.warmUp + run.cycles))
  if (ours.datumHash() !== last)
    throw new Error(`the sandbox's last script output holds ${ours.datumHash()}, not ${last}`)
  await sandbox.close()
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true })
  return { ours: timings(durations.ours), peer: timings(durations.peer), txBytes: ours.txBytes() }
}

/** Marlowe datums of these sizes, with cycles fewer as they grow: the peer decodes each tx in seconds at 16 KB. */
const MARLOWE_DATUMS = [
  { kb: 1, warmUp: 5, cycles: 40 },
  { kb: 4, warmUp: 2, cycles: 12 },
  // The spent and the continuing datum both sit in the witness set: 7.5 KB each is a 16 KB transaction.
  { kb: 7.5, warmUp: 1, cycles: 4 }
] as const

export async function benchSandbox(): Promise<void> {
  const integer: DatumOf = (i) => intDatum(BigInt(i))
  const memory = await measureBoth({ persisted: false, datumOf: integer, warmUp: WARM_UP, cycles: CYCLES })
  const disk = await measureBoth({ persisted: true, datumOf: integer, warmUp: WARM_UP, cycles: CYCLES })
  const peerName = 'raw Blaze emulator 0.4.5'
  const marlowe: Row[] = []
  for (const { kb, warmUp, cycles: count } of MARLOWE_DATUMS) {
    const datums = marloweDatums(kb * 1024)
    const m = await measureBoth({ persisted: false, datumOf: (i) => datums[i % 2]!, warmUp, cycles: count })
    const size = (datums[0].length / 1024).toFixed(1)
    const what = `cycle p50, ${size} KB Marlowe datums spent and continued (${(m.txBytes / 1024).toFixed(1)} KB tx, ${count} cycles)`
    marlowe.push({ what, unit: 'ms', ours: m.ours.p50, peerName, peer: m.peer.p50 })
  }
  const rows: Row[] = [
    {
      what: 'cycles per second (in memory)',
      unit: 'cycles/s',
      ours: memory.ours.perSecond,
      peerName,
      peer: memory.peer.perSecond
    },
    { what: 'cycle p50 (in memory)', unit: 'ms', ours: memory.ours.p50, peerName, peer: memory.peer.p50 },
    { what: 'cycle p95 (in memory)', unit: 'ms', ours: memory.ours.p95, peerName, peer: memory.peer.p95 },
    {
      what: 'cycles per second (saved to disk after each tx)',
      unit: 'cycles/s',
      ours: disk.ours.perSecond,
      peerName,
      peer: disk.peer.perSecond
    },
    { what: 'cycle p95 (saved to disk after each tx)', unit: 'ms', ours: disk.ours.p95, peerName, peer: disk.peer.p95 },
    ...marlowe
  ]
  printRows(
    `Sandbox: build → evaluate → sign → submit (${CYCLES} cycles after ${WARM_UP} warm-up, a V2 reference-script spend each)`,
    rows,
    [
      'every transaction of every cycle is accepted by both ledgers (a refusal stops the run)',
      "after each run the sandbox's script output holds the hash of the last cycle's datum: every datum went through"
    ]
  )
}
