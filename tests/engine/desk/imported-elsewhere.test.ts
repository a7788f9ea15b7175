/**
 * A transaction built on another Desk and imported here: only its own Desk holds its status, so this one asks the
 * chain. Once the chain has it, the import says so (the review then shows it confirmed and offers no signing);
 * before, and on a Desk that cannot reach its node, it says nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DelegatingProvider } from '../../../src/chain/delegating-provider'
import { depositFiles, type DepositFiles } from './deposit-files'
import { PASSWORD, deskHarness, restoreSandboxWallet, unreachableNode, type DeskHarness } from './support'

let builder: DeskHarness
let other: DeskHarness
let offline: DeskHarness
let files: DepositFiles

beforeAll(async () => {
  builder = await deskHarness()
  // The same sandbox ledger behind a second Desk with its own store: it never built this transaction.
  other = await deskHarness({
    provider: Object.assign(new DelegatingProvider(builder.provider), { close: async () => {} })
  })
  offline = await deskHarness({ provider: unreachableNode() })
  files = await depositFiles(builder, await restoreSandboxWallet(builder, 'alice'))
}, 120_000)
afterAll(async () => {
  await other.close()
  await offline.close()
  await builder.close()
})

describe('a transaction built on another Desk, imported', () => {
  test('before it is submitted: not known here and not on chain, so it may be signed', async () => {
    const imported = await other.ok('tx.import', { text: files.bundleText })
    expect(imported.txId).toBe(files.txId)
    expect(imported.known).toBe(false)
    expect(imported.chainStatus).toBeUndefined()
    // Nothing to follow yet: neither built here nor on chain.
    await other.fails('tx.status', { txId: files.txId }, 'TxNotFound')
  })

  test('after its Desk submitted it: confirmed on chain, from its bundle and from its bare file alike', async () => {
    const [alice] = await builder.ok('wallets.list', {})
    await builder.ok('tx.signAndSubmit', { txId: files.txId, walletId: alice!.id, password: PASSWORD })
    await builder.opened.follower.sync()
    expect((await builder.ok('tx.status', { txId: files.txId })).status).toBe('confirmed')
    for (const text of [files.bundleText, files.unsignedText]) {
      const imported = await other.ok('tx.import', { text })
      expect(imported).toMatchObject({ txId: files.txId, known: false, chainStatus: 'confirmed' })
    }
    // The review follows it by the chain's word, the only one this Desk has.
    expect(await other.ok('tx.status', { txId: files.txId })).toEqual({ txId: files.txId, status: 'confirmed' })
    // Its own Desk answers the status it keeps, not the chain's word.
    expect((await builder.ok('tx.import', { text: files.bundleText })).chainStatus).toBeUndefined()
  })

  test('offline nothing can be known: the import says nothing of the chain, and the review still reads', async () => {
    const imported = await offline.ok('tx.import', { text: files.bundleText })
    expect(imported.known).toBe(false)
    expect(imported.chainStatus).toBeUndefined()
    expect(imported.review.inputs.every((i) => i.resolved)).toBe(true)
    await offline.fails('tx.status', { txId: files.txId }, 'TxNotFound')
  })

  test('nothing above was an unexpected error', () => {
    expect([...builder.logged, ...other.logged, ...offline.logged]).toEqual([])
  })
})
