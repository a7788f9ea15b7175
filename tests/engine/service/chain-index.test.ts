/**
 * The chain index: a service learns every Marlowe contract on its sandbox ledger, whoever built it — another
 * service with its own store, or a transaction made directly with CSL — and lists, shows and acts on it. Our own
 * builds submitted around the service are confirmed; a rollback rewinds a contract's history and it moves on.
 */
import { afterEach, describe, expect, test } from 'vitest'
import { deploymentOf, semanticsValidatorAddress } from '../../../src/chain/deployments'
import type { BlockPoint, ChainProvider, ScriptTxPage, ScriptTxQuery } from '../../../src/chain/provider'
import { SandboxProvider } from '../../../src/chain/sandbox'
import { GENESIS_ID } from '../../../src/chain/sandbox/genesis'
import { encodeMarloweData } from '../../../src/core/marlowe/plutus/marlowe-data'
import { ADA as ADA_TOKEN, type Contract, type Input, type Party } from '../../../src/core/marlowe/types'
import { openService } from '../../../src/engine/service'
import { validatorsFromEnv } from '../../chain/support/sandbox'
import { buildTx } from '../../chain/support/txkit'
import { rolesEscrow } from '../build/flows'
import { ADA, ManualClock, T0, sign, testWallet } from '../build/support'
import { applyAs as apply, createEscrow, finishWithOther } from './escrow-steps'
import { expectSameContract, role, serviceHarness, type ServiceHarness, storeKinds, storeOption } from './support'

const alice = testWallet('alice')
const bob = testWallet('bob')
const carol = testWallet('carol')
const deposit: Input = {
  content: { type: 'IDeposit', account: role('Seller'), party: role('Buyer'), token: ADA_TOKEN, amount: 100n * ADA }
}

let cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const c of cleanup.reverse()) await c()
  cleanup = []
})

/** Two services with their own stores on one sandbox ledger: ours (`desk`) and an independent builder. */
async function twoBuilders(storeUrl: string | undefined): Promise<{ desk: ServiceHarness; other: ServiceHarness }> {
  const desk = await serviceHarness({ storeUrl })
  const other = await serviceHarness({ sandbox: desk.sandbox, clock: desk.clock })
  cleanup.push(
    () => desk.sandbox.close(),
    () => desk.close(),
    () => other.close()
  )
  return { desk, other }
}

async function oneBuilder(storeUrl: string | undefined): Promise<ServiceHarness> {
  const h = await serviceHarness({ storeUrl })
  cleanup.push(
    () => h.sandbox.close(),
    () => h.close()
  )
  return h
}

describe.each(storeKinds())('the chain index on the sandbox, ours stored in $name', ({ available, storeUrl }) => {
  test.skipIf(!available)(
    'a contract another builder created is listed, shown, applied to and paid out by ours',
    async () => {
      const { desk, other } = await twoBuilders(await storeUrl())
      const contractId = await createEscrow(other)
      expect(await desk.service.listContracts()).toEqual([])

      const first = await desk.follower.sync()
      expect(first.recorded).toEqual([contractId.slice(0, 64)])
      const seen = await desk.service.getContract(contractId)
      expectSameContract(seen, await other.service.getContract(contractId), contractId)
      expect(seen.metadata['674']).toEqual({ msg: ['an escrow'] })
      expect((await desk.service.listContracts({ tags: ['desk.test'] })).map((c) => c.contractId)).toEqual([contractId])
      expect(
        await desk.service.listContracts({ partyRoles: [{ policyId: seen.rolesCurrency, role: 'Buyer' }] })
      ).toHaveLength(1)
      // Read once: a second round records nothing again.
      expect((await desk.follower.sync()).recorded).toEqual([])

      // Ours applies the deposit; the other builder sees our transaction on chain.
      const paid = await apply(desk, contractId, alice, [deposit])
      expect((await desk.service.getTransaction(contractId, paid)).status).toBe('confirmed')
      expect((await other.follower.sync()).recorded).toEqual([paid])
      expect((await other.service.getContract(contractId)).current).toEqual(
        (await desk.service.getContract(contractId)).current
      )
      const theirView = other.service.getTransaction(contractId, paid)
      expect((await theirView).inputs).toEqual([deposit])
      expect((await theirView).interval).toEqual((await desk.service.getTransaction(contractId, paid)).interval)
      expect((await theirView).invalidBefore).toEqual(
        (await desk.service.getTransaction(contractId, paid)).invalidBefore
      )

      await finishWithOther(desk, other, contractId)
    }
  )

  test.skipIf(!available)('a contract made directly with CSL is found and acted on', async () => {
    const h = await oneBuilder(await storeUrl())
    const deadline = T0 + 3_600_000n
    const toBob: Party = { type: 'Address', address: bob.address }
    const fromAlice: Party = { type: 'Address', address: alice.address }
    const contract: Contract = {
      type: 'When',
      cases: [
        {
          type: 'Case',
          action: { type: 'Deposit', account: toBob, party: fromAlice, token: ADA_TOKEN, value: 5n * ADA },
          then: { type: 'Close' }
        }
      ],
      timeout: deadline,
      timeoutContinuation: { type: 'Close' }
    }
    const datum = encodeMarloweData({
      params: { rolesCurrency: '' },
      state: {
        accounts: [[{ account: toBob, token: ADA_TOKEN }, 2n * ADA]],
        choices: [],
        boundValues: [],
        minTime: 0n
      },
      contract
    })
    const params = await h.sandbox.protocolParameters()
    const tx = buildTx({
      params,
      inputs: await h.sandbox.utxosAt([bob.address]),
      changeAddress: bob.address,
      outputs: [{ address: semanticsValidatorAddress(deploymentOf(h.sandbox)), lovelace: 2n * ADA, datum }]
    })
    const txId = await h.sandbox.submit(sign(tx, [bob]))
    expect((await h.follower.sync()).recorded).toEqual([txId])
    const contractId = `${txId}#0`
    const view = h.service.getContract(contractId)
    expect((await view).initialContract).toEqual(contract)
    expect((await view).rolesCurrency).toBe('')
    expect((await view).tags).toEqual({})

    const paid = await apply(h, contractId, alice, [
      { content: { type: 'IDeposit', account: toBob, party: fromAlice, token: ADA_TOKEN, amount: 5n * ADA } }
    ])
    expect((await h.service.getTransaction(contractId, paid)).status).toBe('confirmed')
    expect((await h.service.getContract(contractId)).current).toBeUndefined()
  })

  test.skipIf(!available)('our build submitted around the service (straight to the node) is confirmed', async () => {
    const h = await oneBuilder(await storeUrl())
    const created = await h.service.createContract(
      { changeAddress: carol.address },
      {
        contract: rolesEscrow(),
        roles: {
          type: 'Mint',
          roles: [{ name: 'Buyer', recipients: [{ destination: { address: alice.address }, quantity: 1n }] }]
        },
        tags: {},
        metadata: {}
      }
    )
    await h.sandbox.submit(sign(created.unsigned.tx, [carol]))
    const report = await h.follower.sync()
    expect(report.confirmed).toEqual([created.contractId.slice(0, 64)])
    expect(report.recorded).toEqual([])
    expect((await h.service.getContract(created.contractId)).status).toBe('confirmed')
    expect((await h.service.listContracts()).map((c) => c.contractId)).toEqual([created.contractId])
  })

  test.skipIf(!available).each([
    ['names the fork point', true],
    ['only says the cursor is gone', false]
  ])(
    'a rollback (the provider %s) rewinds what was read after the fork, and the chain moves on again',
    async (_, named) => {
      const clock = new ManualClock()
      const sandbox = SandboxProvider.open({ zeroTime: T0, clockTickMs: false, ...validatorsFromEnv(), now: clock.now })
      const forked = forkable(sandbox, named)
      const other = await serviceHarness({ sandbox, clock })
      const desk = await openService({
        provider: forked.provider,
        ...(await storeOption(await storeUrl())),
        now: clock.now,
        followEveryMs: false
      })
      cleanup.push(
        () => sandbox.close(),
        () => other.close(),
        () => desk.close()
      )
      const contractId = await createEscrow(other)
      await desk.follower.sync()
      const forkPoint = (await sandbox.tip()) as BlockPoint
      const paid = await apply(other, contractId, alice, [deposit])
      await desk.follower.sync()
      expect((await desk.service.getContract(contractId)).current?.utxo).toBe(`${paid}#0`)

      // The block holding the deposit is rolled back: the contract is where it was before it.
      forked.hideAfter(forkPoint)
      await desk.follower.sync()
      expect((await desk.service.getContract(contractId)).current?.utxo).toBe(contractId)
      expect(await desk.service.listTransactions(contractId)).toEqual([])
      const firstPage = { order: 'desc', offset: 0, limit: 10 } as const
      expect(await desk.service.pageTransactions(contractId, firstPage)).toEqual({ ids: [], headers: [], total: 0 })
      await expect(desk.service.getTransaction(contractId, paid)).rejects.toThrow(
        expect.objectContaining({ kind: 'NotFound' })
      )

      // And the chain moves on again with it.
      forked.hideAfter(undefined)
      expect((await desk.follower.sync()).recorded).toEqual([paid])
      expect((await desk.service.getContract(contractId)).current?.utxo).toBe(`${paid}#0`)
      expect((await desk.service.listTransactions(contractId)).map((t) => t.transactionId)).toEqual([paid])
      expect(await desk.service.pageTransactions(contractId, firstPage)).toMatchObject({ ids: [paid], total: 1 })

      // Forking before the creation forgets the contract altogether.
      forked.hideAfter({ slot: 0n, blockNo: 0n, blockHash: GENESIS_ID })
      await desk.follower.sync()
      expect(await desk.service.listContracts()).toEqual([])
      await expect(desk.service.getContract(contractId)).rejects.toThrow(expect.objectContaining({ kind: 'NotFound' }))
    }
  )
})

/**
 * The sandbox's index seen through a fork: while `hideAfter` is set, the chain ends at that block — a cursor
 * past it is told to roll back (to that block when `named`, else with no point, as Blockfrost can only say),
 * and nothing after it is listed.
 */
function forkable(
  sandbox: SandboxProvider,
  named: boolean
): {
  provider: ChainProvider
  hideAfter(point: BlockPoint | undefined): void
} {
  let fork: BlockPoint | undefined
  const provider: ChainProvider = Object.assign(Object.create(sandbox) as SandboxProvider, {
    async scriptTransactions(query: ScriptTxQuery): Promise<ScriptTxPage> {
      if (fork === undefined) return sandbox.scriptTransactions(query)
      if (query.after !== undefined && query.after.blockNo > fork.blockNo) {
        return named && fork.blockNo > 0n ? { kind: 'rollback', to: fork } : { kind: 'rollback' }
      }
      const page = await sandbox.scriptTransactions(query)
      if (page.kind === 'rollback') return page
      const limit = fork.blockNo
      const txs = page.txs.filter((t) => t.block.blockNo <= limit)
      return {
        kind: 'forward',
        txs,
        until: txs.length < page.txs.length || page.until.blockNo > limit ? fork : page.until
      }
    }
  })
  return {
    provider,
    hideAfter: (point) => {
      fork = point
    }
  }
}
