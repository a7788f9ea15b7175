/**
 * Builds never fail because of our own unsigned builds (issue 15, section 1): a wallet with one output, whose
 * only output an abandoned unsigned build holds, still gets its next build; the abandoned one is superseded, and
 * its submit refused saying so, while the new one is submitted and confirmed. What cannot be freed — an output a
 * submitted transaction spends — is named in the failure, with the transaction that holds it.
 */
import { afterEach, describe, expect, test } from 'vitest'
import { DelegatingProvider } from '../../../src/chain/delegating-provider'
import { SandboxProvider } from '../../../src/chain/sandbox'
import { openService, type OpenService } from '../../../src/engine/service'
import { readTransaction } from '../../../src/engine/sign'
import { ADA, failure, ManualClock, T0, type TestWallet } from '../build/support'
import { NOTIFY_THEN_CLOSE as notify, oneKeyWallet, storeKinds, storeOption, witnessed } from './support'

/** A node that takes transactions into its mempool and never puts them in a block. */
class StuckMempool extends DelegatingProvider {
  override submit(tx: Uint8Array): Promise<string> {
    return Promise.resolve(readTransaction(tx).txId)
  }
}

let cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const c of cleanup.reverse()) await c()
  cleanup = []
})

async function setup(
  storeUrl: string | undefined,
  stuck = false
): Promise<{ sandbox: SandboxProvider; opened: OpenService; wallet: TestWallet }> {
  const clock = new ManualClock()
  const sandbox = SandboxProvider.open({ zeroTime: T0, clockTickMs: false, now: clock.now })
  const opened = await openService({
    provider: stuck ? new StuckMempool(sandbox) : sandbox,
    ...(await storeOption(storeUrl)),
    now: clock.now,
    followEveryMs: false
  })
  cleanup.push(
    () => sandbox.close(),
    () => opened.close()
  )
  const wallet = oneKeyWallet()
  await sandbox.fund(wallet.address, 50n * ADA)
  return { sandbox, opened, wallet }
}

describe.each(storeKinds())(
  'builds that never fail because of our own unsigned builds ($name)',
  ({ available, storeUrl }) => {
    test.skipIf(!available)(
      "an abandoned unsigned build's only output is taken: it is superseded, and the new build goes through",
      async () => {
        const { sandbox, opened, wallet } = await setup(await storeUrl())
        const { service, follower } = opened
        const create = (tag: string) =>
          service.createContract(
            { changeAddress: wallet.address },
            { contract: notify, tags: { [tag]: null }, metadata: {} }
          )
        const abandoned = await create('abandoned')
        const next = await create('next')
        expect(next.contractId).not.toBe(abandoned.contractId)

        // The abandoned one cannot be submitted any more, and says why.
        const refused = await failure(
          service.submitBuild(abandoned.contractId.slice(0, 64), witnessed(abandoned.unsigned.tx, [wallet]))
        )
        expect(refused.code).toBe('BuildSuperseded')
        expect(refused.kind).toBe('Conflict')
        expect(refused.message).toContain('a newer build of the same wallet needed its inputs')
        expect((await service.getContract(abandoned.contractId)).status).toBe('unsigned')

        await service.submitBuild(next.contractId.slice(0, 64), witnessed(next.unsigned.tx, [wallet]))
        await follower.sync()
        expect((await service.getContract(next.contractId)).status).toBe('confirmed')
        expect((await sandbox.txStatus(abandoned.contractId.slice(0, 64))).status).toBe('unknown')
      }
    )

    test.skipIf(!available)(
      'the oldest unsigned build is superseded first; one built again from the same inputs is whole again',
      async () => {
        const { opened, wallet } = await setup(await storeUrl())
        const { service } = opened
        const create = (n: bigint) =>
          service.createContract({ changeAddress: wallet.address }, { contract: notify, tags: { n }, metadata: {} })
        const refusedOf = async (id: string, tx: Uint8Array): Promise<string> =>
          (await failure(service.submitBuild(id.slice(0, 64), witnessed(tx, [wallet])))).code
        const first = await create(1n)
        const second = await create(2n)
        expect(await refusedOf(first.contractId, first.unsigned.tx)).toBe('BuildSuperseded')
        // The same contract, tags and inputs make the same transaction: it takes the output back, whole again.
        const again = await create(1n)
        expect(again.contractId).toBe(first.contractId)
        expect(await refusedOf(second.contractId, second.unsigned.tx)).toBe('BuildSuperseded')
        await service.submitBuild(first.contractId.slice(0, 64), witnessed(first.unsigned.tx, [wallet]))
        expect((await service.getContract(first.contractId)).status).toBe('submitted')
      }
    )

    test.skipIf(!available)(
      'an output a submitted transaction spends is not taken: the failure names it and the transaction',
      async () => {
        const { opened, wallet } = await setup(await storeUrl(), true)
        const { service } = opened
        const sent = await service.createContract(
          { changeAddress: wallet.address },
          { contract: notify, tags: {}, metadata: {} }
        )
        await service.submitBuild(sent.contractId.slice(0, 64), witnessed(sent.unsigned.tx, [wallet]))
        expect((await service.getContract(sent.contractId)).status).toBe('submitted')

        const refused = await failure(
          service.createContract({ changeAddress: wallet.address }, { contract: notify, tags: {}, metadata: {} })
        )
        expect(refused.code).toBe('CoinSelectionFailed')
        const txId = sent.contractId.slice(0, 64)
        expect(refused.message).toMatch(
          new RegExp(
            `1 pending transaction\\(s\\) hold 50000000 lovelace of this wallet's outputs: ${txId} \\(submitted\\)$`
          )
        )
        expect(refused.details['heldBy']).toEqual([
          { txId, status: 'submitted', outputs: [expect.stringMatching(/#0$/)] }
        ])
      }
    )
  }
)
