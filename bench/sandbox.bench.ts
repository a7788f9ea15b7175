/**
 * Sandbox throughput: build → evaluate → sign → submit cycles of a Marlowe-shaped transaction (spend the script
 * output of the previous cycle through the stand-in validator's reference script, datum in the witness set,
 * continuing output with a new datum, collateral, fee from the previous change), built with CSL in two passes.
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
import { printRows, type Row } from './harness'

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

/** Locks the first script output; each call of the returned function is one measured cycle, in ms. */
async function cycles(chain: Chain, start: Start, params: ProtocolParameters): Promise<(i: number) => Promise<number>> {
  let datum = intDatum(0n)
  const lockTx = buildTx({
    params,
    inputs: [start.funds],
    changeAddress: alice.address,
    outputs: [{ address: scriptAddress, lovelace: 10n * ADA, datum }]
  })
  const lockId = await chain.submit(signWithSandboxWallets(lockTx, [alice]))
  let script = await chain.utxo({ txId: lockId, index: 0 })
  let funds = await chain.utxo({ txId: lockId, index: 1 })
  return async (i) => {
    const began = performance.now()
    const next = intDatum(BigInt(i + 1))
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
    const id = await chain.submit(signWithSandboxWallets(build(budget?.exUnits ?? NO_UNITS), [alice]))
    ;[script, funds] = await Promise.all([chain.utxo({ txId: id, index: 0 }), chain.utxo({ txId: id, index: 1 })])
    datum = next
    return performance.now() - began
  }
}

function timings(durations: readonly number[]): Timings {
  const sorted = [...durations].sort((a, b) => a - b)
  const total = durations.reduce((a, b) => a + b, 0)
  return { perSecond: (durations.length * 1000) / total, p50: percentile(sorted, 50), p95: percentile(sorted, 95) }
}

/** Runs the two chains' cycles alternately, so load on the machine and JIT warm-up hit both alike. */
async function measureBoth(persisted: boolean): Promise<{ ours: Timings; peer: Timings }> {
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
    params
  )
  const peer = await cycles(
    {
      utxo: (ref) =>
        Promise.resolve(toUtxo(toBlazeInput(ref), peerLedger.emulator.getOutput(toBlazeInput(ref))!, () => undefined)),
      evaluate: (tx) => peerLedger.evaluate(tx),
      submit: (tx) => peerLedger.submitAndConfirm(tx)
    },
    start,
    params
  )
  const durations = { ours: [] as number[], peer: [] as number[] }
  for (let i = 0; i < WARM_UP + CYCLES; i += 1) {
    const [o, p] = [await ours(i), await peer(i)]
    if (i >= WARM_UP) {
      durations.ours.push(o)
      durations.peer.push(p)
    }
  }
  await sandbox.close()
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true })
  return { ours: timings(durations.ours), peer: timings(durations.peer) }
}

export async function benchSandbox(): Promise<void> {
  const memory = await measureBoth(false)
  const disk = await measureBoth(true)
  const peerName = 'raw Blaze emulator 0.4.5'
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
    { what: 'cycle p95 (saved to disk after each tx)', unit: 'ms', ours: disk.ours.p95, peerName, peer: disk.peer.p95 }
  ]
  printRows(
    `Sandbox: build → evaluate → sign → submit (${CYCLES} cycles after ${WARM_UP} warm-up, a V2 reference-script spend each)`,
    rows
  )
}
