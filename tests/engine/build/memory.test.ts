/**
 * Every CSL object a build makes is freed by its scope: CSL's wasm heap (which never shrinks) does not grow
 * over a thousand builds made back to back, with no turn of the event loop for CSL's finalizers to run — on this
 * thread nor on the engine's worker, where the transactions are assembled.
 */
import { afterEach, expect, test } from 'vitest'
import { swap } from '../../../src/core/marlowe/examples'
import { ADA as ADA_TOKEN, type Input, type Party } from '../../../src/core/marlowe/types'
import { cslMemoryBytes } from '../../../src/csl'
import { engineWorker } from '../../../src/engine/worker'
import { ADA, T0, harness, testWallet, type Harness } from './support'

const alice = testWallet('alice')
const bob = testWallet('bob')
const address = (w: { address: string }): Party => ({ type: 'Address', address: w.address })
/** CSL's memory here and on the worker (which must stay the same one). */
const wasmBytes = async (): Promise<unknown> => ({
  here: cslMemoryBytes(),
  worker: await engineWorker().run('cslMemoryBytes', null, 'Reading the worker’s memory size'),
  workersStarted: engineWorker().status().workersStarted
})

let h: Harness
afterEach(async () => h.close())

test('CSL memory stays flat over 1,000 create builds and 30 apply builds', async () => {
  h = harness()
  const { contract } = swap({
    first: { party: address(alice), token: ADA_TOKEN, amount: 10n * ADA, depositDeadline: T0 + 86_400_000n },
    second: { party: address(bob), token: ADA_TOKEN, amount: 20n * ADA, depositDeadline: T0 + 86_400_000n }
  })
  const created = await h.builder.create({ changeAddress: alice.address }, { contract })
  await h.submit(created, [alice])
  const inputs: Input[] = [
    {
      content: { type: 'IDeposit', account: address(alice), party: address(alice), token: ADA_TOKEN, amount: 10n * ADA }
    }
  ]
  const create = async () =>
    h.builder.release((await h.builder.create({ changeAddress: alice.address }, { contract })).reservation.key)
  const apply = async () =>
    h.builder.release(
      (await h.builder.applyInputs({ changeAddress: alice.address }, { contractId: created.contractId, inputs }))
        .reservation.key
    )
  for (let i = 0; i < 50; i += 1) await create()
  for (let i = 0; i < 3; i += 1) await apply()
  const before = await wasmBytes()
  for (let i = 0; i < 1000; i += 1) await create()
  for (let i = 0; i < 30; i += 1) await apply()
  expect(await wasmBytes()).toEqual(before)
})
