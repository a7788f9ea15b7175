/**
 * Signing acts only on what this engine reviewed: a stored build made elsewhere (the Runtime API) or a file
 * never imported is refused with NotReviewed; once reviewed (tx.review, tx.import) it signs.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { WalletSummary } from '../../../src/api/contract'
import { CLOSE } from '../../../src/core/marlowe/types'
import { T0 } from '../build/support'
import { deskHarness, restoreSandboxWallet, PASSWORD, type DeskHarness } from './support'

let h: DeskHarness
let alice: WalletSummary

beforeAll(async () => {
  h = await deskHarness()
  alice = await restoreSandboxWallet(h, 'alice')
})
afterAll(() => h.close())

/** A build stored through the service (as a Runtime client's POST /contracts would), never shown here. */
async function buildElsewhere(): Promise<string> {
  const built = await h.opened.service.createContract(
    { changeAddress: alice.address },
    {
      contract: { type: 'When', cases: [], timeout: T0 + 3_600_000n, timeoutContinuation: CLOSE },
      tags: {},
      metadata: {}
    }
  )
  return built.contractId.slice(0, 64)
}

describe('signing needs a review', () => {
  test('a build never reviewed here is refused; after tx.review it signs and submits', async () => {
    const txId = await buildElsewhere()
    const refused = await h.fails('tx.signAndSubmit', { txId, walletId: alice.id, password: PASSWORD }, 'NotReviewed')
    expect(refused.message).toContain('has not been reviewed here')
    await h.ok('tx.review', { txId })
    expect((await h.ok('tx.signAndSubmit', { txId, walletId: alice.id, password: PASSWORD })).status).toBe('submitted')
  })

  test('a file never imported is refused offline; after tx.import it signs into a witness', async () => {
    const txId = await buildElsewhere()
    const file = await h.ok('tx.exportUnsigned', { txId })
    await h.fails('tx.signOffline', { text: file.text, walletId: alice.id, password: PASSWORD }, 'NotReviewed')
    expect((await h.ok('tx.import', { text: file.text })).txId).toBe(txId)
    const witness = await h.ok('tx.signOffline', { text: file.text, walletId: alice.id, password: PASSWORD })
    expect(witness.text).toContain('TxWitness')
  })
})
