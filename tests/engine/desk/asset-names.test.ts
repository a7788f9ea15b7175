/**
 * The wallet screen names tokens as the review does (issue 13): a token whose name holds a bidirectional override
 * (it would show reversed, as another name) keeps its hex there too, while a plain name reads as text. The tokens
 * are role tokens minted to the wallet on the sandbox, read back through the desk's `wallets.balance`.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { WalletSummary } from '../../../src/api/contract'
import { bytesToHex, utf8Encode } from '../../../src/core/bytes'
import { deskHarness, notify, PASSWORD, type DeskHarness } from './support'

let h: DeskHarness
let sam: WalletSummary
const hex = (s: string): string => bytesToHex(utf8Encode(s)!)
/** U+202E RIGHT-TO-LEFT OVERRIDE: "\u202eyreB" is shown as "Beyr…" reversed, i.e. what looks like another role. */
const REVERSED = '\u202eyreB'

beforeAll(async () => {
  h = await deskHarness()
  sam = (await h.ok('wallets.create', { name: 'sam', password: PASSWORD })).wallet
  await h.ok('sandbox.fund', { walletId: sam.id, ada: 100n })
  await h.opened.follower.sync()
})
afterAll(() => h.close())

test('a token named with a bidi override shows its hex on the wallet screen; a plain name shows as text', async () => {
  const to = [{ destination: { address: sam.address }, quantity: 1n }]
  const created = await h.opened.service.createContract(
    { changeAddress: sam.address },
    {
      contract: notify(1n),
      roles: {
        type: 'Mint',
        roles: [
          { name: REVERSED, recipients: to },
          { name: 'Seller', recipients: to }
        ]
      },
      tags: {},
      metadata: {}
    }
  )
  const txId = created.contractId.slice(0, 64)
  const review = await h.ok('tx.review', { txId })
  await h.ok('tx.signAndSubmit', { txId, walletId: sam.id, password: PASSWORD })
  await h.opened.follower.sync()

  const balance = await h.ok('wallets.balance', { walletId: sam.id })
  const shown = balance.assets.map((a): [string, string] => [a.assetName, a.displayName])
  expect(shown).toEqual([
    [hex('Seller'), 'Seller'],
    [hex(REVERSED), hex(REVERSED)]
  ])
  // The same as the review of the transaction that minted them.
  const minted = review.mint.flatMap((m) =>
    m.assets.map((a): [string, string] => [a.assetName, a.assetNameText ?? a.assetName])
  )
  expect(new Map(minted)).toEqual(new Map(shown))
})
