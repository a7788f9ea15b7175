/**
 * The chain index through the Blockfrost adapter: another service builds straight on a sandbox ledger, and ours
 * sees that ledger only through a local Blockfrost serving it (real HTTP), so everything ours learns and does
 * — the contract listed, an input applied and confirmed, a payout seen withdrawn — goes through the adapter.
 */
import { afterEach, describe, expect, test } from 'vitest'
import type { BlockfrostProvider } from '../../../src/chain/blockfrost'
import { marloweDeployment } from '../../../src/chain/deployments'
import type { Utxo } from '../../../src/chain/provider'
import { SandboxProvider } from '../../../src/chain/sandbox'
import { ADA as ADA_TOKEN, type Input } from '../../../src/core/marlowe/types'
import { openService, type OpenService } from '../../../src/engine/service'
import type { BlockfrostPeer } from '../../chain/blockfrost/peer'
import { sandboxBlockfrost, sandboxPeer } from '../../chain/blockfrost/sandbox-peer'
import { chainFailure } from '../../chain/support/failure'
import { buildTx } from '../../chain/support/txkit'
import { ADA, ManualClock, T0, testWallet } from '../build/support'
import { applyAs as apply, createEscrow, finishWithOther } from './escrow-steps'
import { expectSameContract, role, serviceHarness, type ServiceHarness } from './support'

const alice = testWallet('alice')
const deposit: Input = {
  content: { type: 'IDeposit', account: role('Seller'), party: role('Buyer'), token: ADA_TOKEN, amount: 100n * ADA }
}

let cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const c of cleanup.reverse()) await c()
  cleanup = []
})

interface Setup {
  readonly sandbox: SandboxProvider
  readonly peer: BlockfrostPeer
  readonly blockfrost: BlockfrostProvider
  /** Ours: a service over the Blockfrost adapter. */
  readonly desk: OpenService
  /** The other builder, straight on the sandbox. */
  readonly other: ServiceHarness
}

async function setup(): Promise<Setup> {
  const clock = new ManualClock()
  const sandbox = SandboxProvider.open({ zeroTime: T0, clockTickMs: false, now: clock.now })
  const peer = await sandboxPeer(sandbox)
  const blockfrost = sandboxBlockfrost(peer)
  const other = await serviceHarness({ sandbox, clock })
  const desk = await openService({
    provider: blockfrost,
    databasePath: ':memory:',
    now: clock.now,
    followEveryMs: false
  })
  cleanup.push(
    () => sandbox.close(),
    () => peer.close(),
    () => other.close(),
    () => desk.close()
  )
  return { sandbox, peer, blockfrost, desk, other }
}

describe('the chain index through Blockfrost', () => {
  test("the peer serves the sandbox's own parameters, eras, tip and outputs", async () => {
    const { sandbox, blockfrost } = await setup()
    expect(await blockfrost.protocolParameters()).toEqual(await sandbox.protocolParameters())
    expect(await blockfrost.eraSummaries()).toEqual(await sandbox.eraSummaries())
    expect(await blockfrost.era()).toBe(await sandbox.era())
    const tip = await blockfrost.tip()
    expect(tip.blockNo).toBe((await sandbox.tip()).blockNo)
    const byRef = (a: { ref: { txId: string; index: number } }, b: { ref: { txId: string; index: number } }): number =>
      `${a.ref.txId}#${a.ref.index}`.localeCompare(`${b.ref.txId}#${b.ref.index}`)
    expect((await blockfrost.utxosAt([alice.address])).sort(byRef)).toEqual(
      (await sandbox.utxosAt([alice.address])).sort(byRef)
    )
    // The reference scripts, served as Blockfrost serves scripts, come back byte for byte.
    const { semantics, payout } = marloweDeployment('sandbox')
    const refs = [semantics.reference, payout.reference]
    expect(await blockfrost.utxosByRef(refs)).toEqual(await sandbox.utxosByRef(refs))
  })

  test('evaluation with and without additional UTxOs reach the ledger, failures included', async () => {
    const { sandbox, peer, blockfrost } = await setup()
    const offLedger: Utxo = {
      ref: { txId: 'ee'.repeat(32), index: 0 },
      address: alice.address,
      value: { lovelace: 50n * ADA, assets: {} }
    }
    const tx = buildTx({
      params: await sandbox.protocolParameters(),
      inputs: [offLedger],
      changeAddress: alice.address
    })
    expect(await blockfrost.evaluate(tx, [offLedger])).toEqual([])
    expect(peer.requestsTo(/^POST \/utils\/txs\/evaluate\/utxos$/)).toHaveLength(1)
    const e = await chainFailure(blockfrost.evaluate(tx))
    expect(e.kind).toBe('EvaluationFailed')
    expect(e.reason).toContain('neither on the ledger nor among the additional UTxOs')
  })

  test('a contract another builder created is listed, applied to by ours, and its payout seen withdrawn', async () => {
    const { peer, desk, other } = await setup()
    const contractId = await createEscrow(other)
    expect(await desk.service.listContracts()).toEqual([])

    const first = await desk.follower.sync()
    expect(first.reachedNode).toBe(true)
    expect(first.recorded).toEqual([contractId.slice(0, 64)])
    const seen = await desk.service.getContract(contractId)
    expectSameContract(seen, await other.service.getContract(contractId), contractId)
    expect((await desk.service.listContracts({ tags: ['desk.test'] })).map((c) => c.contractId)).toEqual([contractId])
    expect((await desk.follower.sync()).recorded).toEqual([])

    // Ours applies the deposit, built, evaluated and submitted through Blockfrost, and confirmed by its index.
    const paid = await apply(desk, contractId, alice, [deposit])
    expect((await desk.service.getTransaction(contractId, paid)).status).toBe('confirmed')
    // Confirmed by the index, which read its bytes, not only by asking about it.
    expect(peer.requestsTo(new RegExp(`^GET /txs/${paid}/cbor$`))).toHaveLength(1)
    expect(peer.requestsTo(/^POST \/tx\/submit$/)).toHaveLength(1)
    expect(peer.requestsTo(/^POST \/utils\/txs\/evaluate$/).length).toBeGreaterThan(0)
    expect((await other.follower.sync()).recorded).toEqual([paid])
    expect((await other.service.getContract(contractId)).current).toEqual(
      (await desk.service.getContract(contractId)).current
    )
    expect((await desk.service.getTransaction(contractId, paid)).block).toEqual(
      (await other.service.getTransaction(contractId, paid)).block
    )

    await finishWithOther(desk, other, contractId)

    // Everything ours read of the chain came through the address listings of the Marlowe scripts.
    expect(peer.requestsTo(/^GET \/addresses\/[^/]+\/transactions$/).length).toBeGreaterThan(0)
  })
})
