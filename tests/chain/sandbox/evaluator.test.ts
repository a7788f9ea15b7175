/**
 * The uplc wasm grows its memory on every evaluation and never gives it back (tooling notes §3.4.7). With the
 * recycling evaluator the memory of the instance in use stays bounded: every cycle after the first stays within
 * the first one's peak, however many evaluations run, and the budgets do not change across reloads. Memory is
 * measured, not time.
 */
import { afterEach, describe, expect, test } from 'vitest'
import { semanticsValidatorAddress } from '../../../src/chain/deployments'
import {
  SANDBOX_REFERENCE_SCRIPTS,
  sandboxWallet,
  signWithSandboxWallets,
  type SandboxProvider
} from '../../../src/chain/sandbox'
import { adaUtxos, openSandbox } from '../support/sandbox'
import { ADA, buildTx, intDatum, NO_UNITS } from '../support/txkit'

const alice = sandboxWallet('alice')
const EVALUATIONS = 250
const RECYCLE_EVERY = 50
const MIB = 1024 * 1024

let sandbox: SandboxProvider
afterEach(async () => {
  await sandbox.close()
})

/** A draft spend through the stand-in validator's reference script, evaluated `EVALUATIONS` times. */
async function memoryOverEvaluations(recycleEvaluatorEvery: number): Promise<{ samples: number[]; budgets: string[] }> {
  ;({ sandbox } = openSandbox(undefined, { recycleEvaluatorEvery }))
  const params = await sandbox.protocolParameters()
  const d0 = intDatum(0n)
  const [funds] = await adaUtxos(sandbox, alice.address)
  const lock = buildTx({
    params,
    inputs: [funds!],
    changeAddress: alice.address,
    outputs: [{ address: semanticsValidatorAddress('sandbox'), lovelace: 10n * ADA, datum: d0 }]
  })
  const [locked] = await sandbox.utxosByRef([
    { txId: await sandbox.submit(signWithSandboxWallets(lock, [alice])), index: 0 }
  ])
  const [reference] = await sandbox.utxosByRef([SANDBOX_REFERENCE_SCRIPTS.semantics.ref])
  const utxos = await adaUtxos(sandbox, alice.address)
  const draft = buildTx({
    params,
    inputs: [utxos[0]!],
    changeAddress: alice.address,
    scriptSpend: { utxo: locked!, reference: reference!, datum: d0, redeemer: intDatum(1n), exUnits: NO_UNITS },
    collateral: utxos.find((u) => u.value.lovelace === 5n * ADA)!
  })
  const samples: number[] = []
  const budgets = new Set<string>()
  for (let i = 0; i < EVALUATIONS; i += 1) {
    const [budget] = await sandbox.evaluate(draft)
    budgets.add(`${budget!.exUnits.mem}/${budget!.exUnits.steps}`)
    samples.push(sandbox.evaluatorStats().wasmMemoryBytes)
  }
  return { samples, budgets: [...budgets] }
}

describe('the recycling evaluator', () => {
  test('keeps the wasm memory of the instance in use within one cycle’s growth, however many evaluations run', async () => {
    const { samples, budgets } = await memoryOverEvaluations(RECYCLE_EVERY)
    // One more evaluation than the loop's: the emulator evaluates the locking transaction too.
    expect(sandbox.evaluatorStats().reloads).toBe(Math.floor((EVALUATIONS + 1) / RECYCLE_EVERY))
    expect(budgets).toHaveLength(1)

    // The first cycle (the locking transaction's evaluation, then these) sets the peak; four more cycles of the
    // same work stay under it, give or take a wasm page or so of allocator noise.
    const firstCycle = Math.max(...samples.slice(0, RECYCLE_EVERY - 1))
    const later = samples.slice(RECYCLE_EVERY - 1)
    expect(later).toHaveLength(EVALUATIONS - RECYCLE_EVERY + 1)
    expect(Math.max(...later)).toBeLessThanOrEqual(firstCycle + MIB / 4)
    // A reload is seen: the memory drops back below the first cycle's peak after it.
    expect(Math.min(...later)).toBeLessThan(firstCycle)
  })
})
