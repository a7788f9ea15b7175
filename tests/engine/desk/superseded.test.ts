/**
 * In the app, a build another build superseded (its wallet's only output taken by the newer one) is refused
 * before anything is signed, saying why; the newer build signs and submits.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { WalletSummary } from '../../../src/api/contract'
import type { SandboxProvider } from '../../../src/chain/sandbox'
import { ADA } from '../build/support'
import { deskHarness, notify, PASSWORD, type DeskHarness } from './support'

let h: DeskHarness
let sam: WalletSummary

beforeAll(async () => {
  h = await deskHarness()
  sam = (await h.ok('wallets.create', { name: 'sam', password: PASSWORD })).wallet
  // One output: whatever one build reserves, the next needs.
  await (h.provider as SandboxProvider).fund(sam.address, 40n * ADA)
})
afterAll(() => h.close())

test('a superseded build is refused before signing; the build that took its inputs signs and submits', async () => {
  const build = async (n: bigint): Promise<string> => {
    const built = await h.opened.service.createContract(
      { changeAddress: sam.address },
      { contract: notify(n), tags: {}, metadata: {} }
    )
    const txId = built.contractId.slice(0, 64)
    await h.ok('tx.review', { txId })
    return txId
  }
  const older = await build(2n)
  const newer = await build(3n)
  const refused = await h.fails(
    'tx.signAndSubmit',
    { txId: older, walletId: sam.id, password: PASSWORD },
    'BuildSuperseded'
  )
  expect(refused.message).toContain('newer build of the same wallet needed')
  // Nothing was signed: the wallet stayed locked.
  expect((await h.ok('wallets.list', {})).find((w) => w.id === sam.id)?.locked).toBe(true)
  expect((await h.ok('tx.signAndSubmit', { txId: newer, walletId: sam.id, password: PASSWORD })).status).toBe(
    'submitted'
  )
})
