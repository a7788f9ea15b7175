/**
 * The uplc wasm grows its memory on every evaluation and never gives it back (tooling notes §3.4.7). With the
 * recycling evaluator the memory of the instance in use stays bounded; without recycling it keeps growing.
 * Memory is measured, not time.
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
  test('keeps the wasm memory bounded where the stock instance keeps growing', async () => {
    const { samples: stock } = await memoryOverEvaluations(Number.MAX_SAFE_INTEGER)
    expect(sandbox.evaluatorStats().reloads).toBe(0)
    await sandbox.close()
    const { samples: recycled, budgets } = await memoryOverEvaluations(RECYCLE_EVERY)
    // One more evaluation than the loop's: the emulator evaluates the locking transaction too.
    expect(sandbox.evaluatorStats().reloads).toBe(Math.floor((EVALUATIONS + 1) / RECYCLE_EVERY))
    expect(budgets).toHaveLength(1)

    const growth = (s: number[]): number => Math.max(...s) - s[0]!
    // The stock instance grows by some 25–32 KiB an evaluation; the recycled one only within one cycle of 50.
    expect(growth(stock)).toBeGreaterThan(4 * MIB)
    expect(growth(recycled)).toBeLessThan(growth(stock) / 3)
    expect(recycled.at(-1)!).toBeLessThan(stock.at(-1)!)
  })
})
