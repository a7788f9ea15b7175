/**
 * The chain index through Kupo and Ogmios: another service builds straight on a sandbox ledger, and ours learns
 * that chain only through a local Kupo and a local Ogmios telling it (real HTTP and WebSocket): the contract
 * listed, an input applied and confirmed by the index, a payout seen withdrawn — as on a real node with Kupo.
 */
import { afterEach, describe, expect, test } from 'vitest'
import { SandboxProvider } from '../../../src/chain/sandbox'
import { ADA as ADA_TOKEN, type Input } from '../../../src/core/marlowe/types'
import { openService, type OpenService } from '../../../src/engine/service'
import { sandboxKupo, SLOTS_PER_SANDBOX_SLOT, type SandboxKupo } from '../../chain/kupo/sandbox-peers'
import { ADA, ManualClock, T0, testWallet } from '../build/support'
import { applyAs as apply, createEscrow, finishWithOther } from './escrow-steps'
import { role, serviceHarness, type ServiceHarness } from './support'

const alice = testWallet('alice')
const deposit: Input = {
  content: { type: 'IDeposit', account: role('Seller'), party: role('Buyer'), token: ADA_TOKEN, amount: 100n * ADA }
}

let cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const c of cleanup.reverse()) await c()
  cleanup = []
})

async function setup(): Promise<{ peers: SandboxKupo; desk: OpenService; other: ServiceHarness }> {
  const clock = new ManualClock()
  const sandbox = SandboxProvider.open({ zeroTime: T0, clockTickMs: false, now: clock.now })
  const peers = await sandboxKupo(sandbox)
  const other = await serviceHarness({ sandbox, clock })
  const desk = await openService({
    provider: peers.provider,
    databasePath: ':memory:',
    now: clock.now,
    followEveryMs: false
  })
  cleanup.push(
    () => sandbox.close(),
    () => peers.close(),
    () => other.close(),
    () => desk.close()
  )
  return { peers, desk, other }
}

describe('the chain index through Kupo and Ogmios', () => {
  test('a contract another builder created is listed, applied to by ours, and its payout seen withdrawn', async () => {
    const { peers, desk, other } = await setup()
    const contractId = await createEscrow(other)
    expect(await desk.service.listContracts()).toEqual([])

    const first = await desk.follower.sync()
    expect(first.reachedNode).toBe(true)
    expect(first.recorded).toEqual([contractId.slice(0, 64)])
    const seen = desk.service.getContract(contractId)
    const theirs = other.service.getContract(contractId)
    expect((await seen).status).toBe('confirmed')
    expect((await seen).block?.blockHash).toBe((await theirs).block?.blockHash)
    expect((await seen).block?.blockNo).toBe((await theirs).block?.blockNo)
    expect((await seen).block!.slot / SLOTS_PER_SANDBOX_SLOT).toBe((await theirs).block!.slot)
    expect((await seen).initialContract).toEqual((await theirs).initialContract)
    expect((await seen).initialState).toEqual((await theirs).initialState)
    expect((await seen).rolesCurrency).toBe((await theirs).rolesCurrency)
    expect((await seen).current?.utxo).toBe(contractId)
    expect((await seen).tags).toEqual({ 'desk.test': 'from another builder' })
    expect((await desk.follower.sync()).recorded).toEqual([])

    // Ours applies the deposit; the index (Kupo's listing, Ogmios' block) confirms it.
    const paid = await apply(desk, contractId, alice, [deposit])
    expect((await desk.service.getTransaction(contractId, paid)).status).toBe('confirmed')
    expect(peers.kupo.requestsTo(/^\/matches\//).length).toBeGreaterThan(0)
    expect(peers.ogmios.requestsOf('findIntersection').length).toBeGreaterThan(0)
    expect((await other.follower.sync()).recorded).toEqual([paid])
    expect((await other.service.getContract(contractId)).current).toEqual(
      (await desk.service.getContract(contractId)).current
    )

    await finishWithOther(desk, other, contractId)
  })
})
