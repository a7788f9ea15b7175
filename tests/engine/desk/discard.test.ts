/**
 * In the app, an unsigned build can be resumed (reviewed again, then signed) or discarded: a discarded one frees
 * its outputs and is refused before anything is signed. The wallet's balance says what is available and what
 * unsigned builds and submitted transactions hold.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { WalletSummary } from '../../../src/api/contract'
import { DelegatingProvider } from '../../../src/chain/delegating-provider'
import { SandboxProvider } from '../../../src/chain/sandbox'
import { readTransaction } from '../../../src/engine/sign'
import { validatorsFromEnv } from '../../chain/support/sandbox'
import { ADA, ManualClock, T0 } from '../build/support'
import { deskHarness, notify, PASSWORD, type DeskHarness } from './support'

/** A node that takes transactions into its mempool and never puts them in a block. */
class StuckMempool extends DelegatingProvider {
  constructor(readonly sandbox: SandboxProvider) {
    super(sandbox)
  }
  override submit(tx: Uint8Array): Promise<string> {
    return Promise.resolve(readTransaction(tx).txId)
  }
  close(): Promise<void> {
    return this.sandbox.close()
  }
}

let h: DeskHarness
let sam: WalletSummary
let stuck: StuckMempool

async function build(n: bigint): Promise<string> {
  const built = await h.opened.service.createContract(
    { changeAddress: sam.address },
    { contract: notify(n), tags: {}, metadata: {} }
  )
  return built.contractId.slice(0, 64)
}

beforeAll(async () => {
  const clock = new ManualClock()
  stuck = new StuckMempool(
    SandboxProvider.open({ zeroTime: T0, clockTickMs: false, ...validatorsFromEnv(), now: clock.now })
  )
  h = await deskHarness({ provider: stuck })
  sam = (await h.ok('wallets.create', { name: 'sam', password: PASSWORD })).wallet
  // Two outputs: a build holds one of them, the other stays available.
  await stuck.sandbox.fund(sam.address, 40n * ADA)
  await stuck.sandbox.fund(sam.address, 30n * ADA)
})
afterAll(() => h.close())

describe('resuming and discarding unsigned builds', () => {
  test('resume reviews the build again, with the safety findings it was built with', async () => {
    const built = await h.opened.service.createContract(
      { changeAddress: sam.address },
      { contract: notify(2n), tags: {}, metadata: {} }
    )
    const txId = built.contractId.slice(0, 64)
    const resumed = await h.ok('tx.resume', { txId })
    expect(resumed.kind).toBe('create')
    expect(resumed.txId).toBe(txId)
    expect(resumed.contractId?.startsWith(txId)).toBe(true)
    expect(resumed.review.txId).toBe(txId)
    expect(resumed.safetyErrors).toEqual(built.safetyErrors)
    await h.ok('tx.discard', { txId })
  })

  test('a discarded build frees its outputs, is refused before signing, and discarding again is harmless', async () => {
    const before = await h.ok('wallets.balance', { walletId: sam.id })
    const txId = await build(3n)
    await h.ok('tx.review', { txId })
    const drafts = async (): Promise<string[]> =>
      (await h.ok('contracts.list', { walletId: sam.id })).map((c) => c.header.contractId.slice(0, 64))
    expect(await drafts()).toContain(txId)
    const holding = await h.ok('wallets.balance', { walletId: sam.id })
    expect(holding.held.unsigned.count).toBe(1)
    expect(holding.held.unsigned.lovelace).toBeGreaterThan(0n)
    expect(holding.available.lovelace).toBe(before.available.lovelace - holding.held.unsigned.lovelace)

    expect(await h.ok('tx.discard', { txId })).toEqual({ txId })
    expect(await h.ok('tx.discard', { txId })).toEqual({ txId })
    const freed = await h.ok('wallets.balance', { walletId: sam.id })
    expect(freed.held.unsigned).toEqual({ count: 0, lovelace: 0n, assets: [] })
    expect(freed.available.lovelace).toBe(freed.lovelace)
    expect(await drafts()).not.toContain(txId)

    const refused = await h.fails('tx.signAndSubmit', { txId, walletId: sam.id, password: PASSWORD }, 'BuildDiscarded')
    expect(refused.message).toContain('was discarded, so it can no longer be submitted')
    expect((await h.ok('wallets.list', {})).find((w) => w.id === sam.id)?.locked).toBe(true)
    await h.fails('tx.resume', { txId }, 'BuildDiscarded')
  })

  test('a submitted transaction is held apart and cannot be discarded', async () => {
    const txId = await build(4n)
    await h.ok('tx.review', { txId })
    expect((await h.ok('tx.signAndSubmit', { txId, walletId: sam.id, password: PASSWORD })).status).toBe('submitted')
    const refused = await h.fails('tx.discard', { txId }, 'AlreadySubmitted')
    expect(refused.message).toContain('only an unsigned build can be discarded')

    const balance = await h.ok('wallets.balance', { walletId: sam.id })
    expect(balance.held.unsigned.count).toBe(0)
    expect(balance.held.submitted.count).toBe(1)
    expect(balance.available.lovelace + balance.held.submitted.lovelace).toBe(balance.lovelace)
    await h.fails('tx.discard', { txId: 'ab'.repeat(32) }, 'TxNotFound')
  })
})
