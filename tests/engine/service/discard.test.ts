/**
 * An unsigned build the user gives up (issue 15, section 1): discarding it frees the outputs it reserved for the
 * next build at once, and its submit is refused saying it was discarded. Discarding it again changes nothing;
 * a submitted transaction cannot be discarded.
 */
import { afterEach, describe, expect, test } from 'vitest'
import { SandboxProvider } from '../../../src/chain/sandbox'
import { openService, type OpenService } from '../../../src/engine/service'
import { ADA, failure, ManualClock, T0, type TestWallet } from '../build/support'
import { NOTIFY_THEN_CLOSE as notify, oneKeyWallet, storeKinds, storeOption, witnessed } from './support'

let cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const c of cleanup.reverse()) await c()
  cleanup = []
})

async function setup(
  storeUrl: string | undefined
): Promise<{ opened: OpenService; wallet: TestWallet; clock: ManualClock }> {
  const clock = new ManualClock()
  const sandbox = SandboxProvider.open({ zeroTime: T0, clockTickMs: false, now: clock.now })
  const opened = await openService({
    provider: sandbox,
    ...(await storeOption(storeUrl)),
    now: clock.now,
    followEveryMs: false
  })
  cleanup.push(
    () => sandbox.close(),
    () => opened.close()
  )
  const wallet = oneKeyWallet()
  // One output: whatever one build reserves, the next needs.
  await sandbox.fund(wallet.address, 50n * ADA)
  return { opened, wallet, clock }
}

describe.each(storeKinds())('discarding an unsigned build ($name)', ({ available, storeUrl }) => {
  test.skipIf(!available)(
    'frees its inputs for the next build and refuses its submit, saying it was discarded',
    async () => {
      const { opened, wallet } = await setup(await storeUrl())
      const { service } = opened
      const create = (n: bigint) =>
        service.createContract({ changeAddress: wallet.address }, { contract: notify, tags: { n }, metadata: {} })
      const first = await create(1n)
      const txId = first.contractId.slice(0, 64)

      const row = await service.discard(txId)
      expect(row.discardedAt).toBeDefined()
      expect(row.status).toBe('unsigned')

      // The next build takes the freed output without superseding anything.
      const second = await create(2n)
      expect((await opened.store.tx(second.contractId.slice(0, 64)))?.supersededAt).toBeUndefined()
      expect((await opened.store.tx(txId))?.supersededAt).toBeUndefined()

      const refused = await failure(
        service.submitBuild(first.contractId.slice(0, 64), witnessed(first.unsigned.tx, [wallet]))
      )
      expect(refused.kind).toBe('Conflict')
      expect(refused.code).toBe('BuildDiscarded')
      expect(refused.message).toContain('was discarded, so it can no longer be submitted')

      await service.submitBuild(second.contractId.slice(0, 64), witnessed(second.unsigned.tx, [wallet]))
      expect((await service.getContract(second.contractId)).status).toBe('submitted')
    }
  )

  test.skipIf(!available)('twice is harmless: the second keeps the first one’s time', async () => {
    const { opened, wallet, clock } = await setup(await storeUrl())
    const built = await opened.service.createContract(
      { changeAddress: wallet.address },
      { contract: notify, tags: {}, metadata: {} }
    )
    const txId = built.contractId.slice(0, 64)
    const once = await opened.service.discard(txId)
    clock.ms += 1000n
    const twice = await opened.service.discard(txId.toUpperCase())
    expect(twice.discardedAt).toBe(once.discardedAt)
  })

  test.skipIf(!available)('a submitted transaction is refused, and so is one never built here', async () => {
    const { opened, wallet } = await setup(await storeUrl())
    const { service } = opened
    const built = await service.createContract(
      { changeAddress: wallet.address },
      { contract: notify, tags: {}, metadata: {} }
    )
    await service.submitBuild(built.contractId.slice(0, 64), witnessed(built.unsigned.tx, [wallet]))
    const txId = built.contractId.slice(0, 64)
    const refused = await failure(service.discard(txId))
    expect(refused.kind).toBe('Conflict')
    expect(refused.code).toBe('AlreadySubmitted')
    expect(refused.message).toBe(`transaction ${txId} is submitted: only an unsigned build can be discarded`)
    expect((await opened.store.tx(txId))?.discardedAt).toBeUndefined()

    const unknown = await failure(service.discard('ab'.repeat(32)))
    expect(unknown.kind).toBe('NotFound')
  })

  test.skipIf(!available)('a build whose submit another process sharing the store has started is refused', async () => {
    const { opened, wallet } = await setup(await storeUrl())
    const built = await opened.service.createContract(
      { changeAddress: wallet.address },
      { contract: notify, tags: {}, metadata: {} }
    )
    const txId = built.contractId.slice(0, 64)
    // What another replica records just before it hands the signed tx to the node.
    expect(await opened.store.recordSubmitAttempt(txId, built.unsigned.tx)).toBe(true)
    const refused = await failure(opened.service.discard(txId))
    expect(refused.code).toBe('AlreadySubmitted')
    expect(refused.message).toBe(`transaction ${txId} is being submitted: only an unsigned build can be discarded`)
    expect((await opened.store.tx(txId))?.discardedAt).toBeUndefined()
  })
})
