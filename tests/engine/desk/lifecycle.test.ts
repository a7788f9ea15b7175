/**
 * The desk's whole story on the sandbox, every call through the wire dispatcher: first run (create a wallet —
 * its phrase shown once —, restore, watch-only), faucet, balances, an escrow with roles to the wallets, its
 * review, sign and submit with a password, confirmation, next steps, deposit and choices, payouts, an offline
 * withdrawal (export, import, sign offline, submit the witness), the sandbox clock — and no key material in
 * any answer.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { PreparedTx, WalletSummary } from '../../../src/api/contract'
import { sandboxWallet } from '../../../src/chain/sandbox'
import { bytesToHex } from '../../../src/core/bytes'
import { parseBundle } from '../../../src/core/cardano/bundle'
import { parseTextEnvelope } from '../../../src/core/cardano/envelope'
import { ESCROW_CHOICES } from '../../../src/core/marlowe/examples'
import { stringifyContract, stringifyInputs } from '../../../src/core/marlowe/json'
import { ADA as ADA_TOKEN, type Input, type Party } from '../../../src/core/marlowe/types'
import { Keystore } from '../../../src/engine/keys'
import { rolesEscrow } from '../build/flows'
import { ADA, T0, costCheckNotes } from '../build/support'
import { FAST_SCRYPT } from '../keys/support'
import { deskHarness, PASSWORD, VERSION, type DeskHarness } from './support'

const DAY = 86_400_000n
const role = (name: string): Party => ({ type: 'Role', role: name })
const choice = (name: string, owner: string, chosen: bigint): string =>
  stringifyInputs([{ content: { type: 'IChoice', choice: { name, owner: role(owner) }, chosen } }])
const deposit: Input = {
  content: { type: 'IDeposit', account: role('Seller'), party: role('Buyer'), token: ADA_TOKEN, amount: 100n * ADA }
}

/** The account key of a wallet kept elsewhere: what a user pastes to watch it. */
async function accountKeyOf(mnemonic: string): Promise<string> {
  const other = await Keystore.open({ dir: mkdtempSync(join(tmpdir(), 'marlowe-desk-other-')), scrypt: FAST_SCRYPT })
  const wallet = await other.restore({ name: 'elsewhere', password: PASSWORD, mnemonic })
  return (await other.exportAccountKey(wallet.id)).bech32
}

let h: DeskHarness
let fresh: { wallet: WalletSummary; mnemonic: readonly string[] }
let alice: WalletSummary
let bob: WalletSummary
let carol: WalletSummary
let dave: WalletSummary

beforeAll(async () => {
  h = await deskHarness()
})
afterAll(() => h.close())

describe('first run', () => {
  test('status: the sandbox, its tip and clock, the app version', async () => {
    const status = await h.ok('app.status', {})
    expect(status.network).toBe('sandbox')
    expect(status.version).toBe(VERSION)
    expect(status.chainTime).toBe(T0 + 10_000n)
    expect(status.tip?.time).toBe(status.chainTime)
    expect(status.tip?.slot).toBe(10n)
  })

  test('create a wallet: its phrase comes back once, the wallet is listed locked', async () => {
    expect(await h.ok('wallets.list', {})).toEqual([])
    fresh = await h.ok('wallets.create', { name: 'Fresh', password: PASSWORD, words: 12 })
    expect(fresh.mnemonic).toHaveLength(12)
    expect(fresh.wallet).toMatchObject({ name: 'Fresh', kind: 'mnemonic', locked: true })
    expect(fresh.wallet.address).toMatch(/^addr_test1q/)
    expect(await h.ok('wallets.list', {})).toEqual([fresh.wallet])
  })

  test('restore wallets from their phrases and watch one by its account key', async () => {
    const restore = (name: 'alice' | 'bob' | 'carol') =>
      h.ok('wallets.restore', { name, password: PASSWORD, mnemonic: sandboxWallet(name).mnemonic })
    ;[alice, bob, carol] = [await restore('alice'), await restore('bob'), await restore('carol')]
    expect(alice.address).toBe(sandboxWallet('alice').address)
    dave = await h.ok('wallets.watch', { name: 'dave', accountKey: await accountKeyOf(sandboxWallet('dave').mnemonic) })
    expect(dave).toMatchObject({ kind: 'watch-only', address: sandboxWallet('dave').address })
    expect((await h.ok('wallets.list', {})).map((w) => w.name).sort()).toEqual([
      'Fresh',
      'alice',
      'bob',
      'carol',
      'dave'
    ])
  })

  test('faucet and balances', async () => {
    const { txId } = await h.ok('sandbox.fund', { walletId: fresh.wallet.id, ada: 50n })
    expect(txId).toMatch(/^[0-9a-f]{64}$/)
    expect(await h.ok('wallets.balance', { walletId: fresh.wallet.id })).toEqual({
      walletId: fresh.wallet.id,
      address: fresh.wallet.address,
      lovelace: 50n * ADA,
      assets: [],
      utxoCount: 1,
      utxos: [
        {
          ref: expect.stringMatching(new RegExp(`^${txId}#\\d+$`)),
          address: fresh.wallet.address,
          lovelace: 50n * ADA,
          assets: [],
          hasDatum: false
        }
      ],
      // Nothing built yet: all of it is available.
      available: { lovelace: 50n * ADA, assets: [] },
      held: { unsigned: { count: 0, lovelace: 0n, assets: [] }, submitted: { count: 0, lovelace: 0n, assets: [] } }
    })
    const rich = await h.ok('wallets.balance', { walletId: alice.id })
    expect(rich.lovelace).toBe(10_000n * ADA)
    expect(rich.utxoCount).toBe(4)
    // Each output listed, exact, ordered by reference; together they are the balance.
    expect(rich.utxos).toHaveLength(4)
    expect(rich.utxos.reduce((sum, u) => sum + u.lovelace, 0n)).toBe(rich.lovelace)
    expect(rich.utxos.map((u) => u.ref)).toEqual([...rich.utxos.map((u) => u.ref)].sort())
    for (const u of rich.utxos) expect(u.ref).toMatch(/^[0-9a-f]{64}#\d+$/)
  })

  test('unlock and lock', async () => {
    expect(await h.ok('wallets.unlock', { walletId: alice.id, password: PASSWORD })).toMatchObject({ locked: false })
    expect((await h.ok('wallets.list', {})).find((w) => w.id === alice.id)?.locked).toBe(false)
    expect(await h.ok('wallets.lock', { walletId: alice.id })).toMatchObject({ locked: true })
  })
})

describe('an escrow from creation to withdrawal', () => {
  let contractId: string
  let created: PreparedTx

  test('create: a build with its review — fee, outputs, role tokens, the Marlowe datum decoded', async () => {
    created = await h.ok('contracts.create', {
      walletId: carol.id,
      contractJson: stringifyContract(rolesEscrow()),
      roles: [
        { role: 'Buyer', address: alice.address },
        { role: 'Seller', address: bob.address },
        { role: 'Mediator', address: carol.address }
      ],
      tags: ['desk.test']
    })
    expect(created.kind).toBe('create')
    // The CBOR the renderer shows is the stored build, byte for byte.
    const exported = parseTextEnvelope((await h.ok('tx.exportUnsigned', { txId: created.txId })).text)
    expect(created.cborHex).toBe(bytesToHex(exported.cbor))
    expect(created.contractId).toMatch(new RegExp(`^${created.txId}#\\d+$`))
    contractId = created.contractId!
    const { review } = created
    expect(review.txId).toBe(created.txId)
    expect(review.fee.fee).toBeGreaterThan(150_000n)
    expect(review.fee.fee).toBeLessThan(2n * ADA)
    const marlowe = review.outputs.find((o) => o.datum?.content?.type === 'marlowe-data')
    expect(marlowe?.address.owner).toBe('script')
    expect(marlowe?.address.scriptName).toBe('marlowe-semantics')
    expect(review.marlowe.created).toHaveLength(1)
    expect(review.marlowe.created[0]?.nextTimeout).toBe(T0 + DAY)
    expect(review.mint.flatMap((m) => m.assets.map((a) => [a.assetNameText, a.quantity])).sort()).toEqual([
      ['Buyer', 1n],
      ['Mediator', 1n],
      ['Seller', 1n]
    ])
    // Role tokens go to the wallets; the review knows them as the user's own.
    const tokenOwners = review.outputs
      .filter((o) => o.value.assets.some((a) => a.assetNameText === 'Buyer'))
      .map((o) => o.address.wallet)
    expect(tokenOwners).toEqual([alice.id])
    expect(review.inputs.every((i) => i.resolved && i.owner === 'own' && i.wallet === carol.id)).toBe(true)
    const carolEffect = review.netEffect.find((e) => e.wallet === carol.id)
    expect(carolEffect?.complete && carolEffect.lovelace).toBeGreaterThan(review.fee.fee)
    expect(review.warnings.filter((w) => w.severity === 'danger')).toEqual([])
    expect(created.safetyErrors).toEqual(costCheckNotes(h.provider))
  })

  test('review and status of the stored build', async () => {
    expect(await h.ok('tx.review', { txId: created.txId })).toEqual(created.review)
    expect(await h.ok('tx.status', { txId: created.txId })).toEqual({ txId: created.txId, status: 'unsigned' })
    const [item] = await h.ok('contracts.list', {})
    expect(item?.header).toMatchObject({ contractId, status: 'unsigned', tags: { 'desk.test': null } })
  })

  test('sign and submit: a locked wallet needs its password, and is locked again after', async () => {
    await h.fails('tx.signAndSubmit', { txId: created.txId, walletId: carol.id }, 'WalletLocked')
    await h.fails(
      'tx.signAndSubmit',
      { txId: created.txId, walletId: carol.id, password: 'not the password' },
      'WrongPassword'
    )
    expect(await h.ok('tx.signAndSubmit', { txId: created.txId, walletId: carol.id, password: PASSWORD })).toEqual({
      txId: created.txId,
      status: 'submitted'
    })
    expect((await h.ok('wallets.list', {})).find((w) => w.id === carol.id)?.locked).toBe(true)
    await h.fails(
      'tx.signAndSubmit',
      { txId: created.txId, walletId: carol.id, password: PASSWORD },
      'AlreadySubmitted'
    )
    await h.opened.follower.sync()
    expect(await h.ok('tx.status', { txId: created.txId })).toEqual({ txId: created.txId, status: 'confirmed' })
    expect(await h.ok('contracts.list', {})).toEqual([
      {
        header: expect.objectContaining({ contractId, status: 'confirmed' }),
        closed: false,
        nextTimeout: T0 + DAY,
        createdAt: expect.any(BigInt)
      }
    ])
    // Carol paid the fee and the min-UTxO deposit; the tokens reached their holders.
    const aliceBalance = await h.ok('wallets.balance', { walletId: alice.id })
    expect(aliceBalance.assets.map((a) => [a.displayName, a.quantity])).toEqual([['Buyer', 1n]])
  })

  test("a wallet's contracts: those it is a party of, with what each waits for from it", async () => {
    expect(await h.ok('contracts.list', { walletId: alice.id })).toEqual([
      {
        header: expect.objectContaining({ contractId, status: 'confirmed' }),
        closed: false,
        nextTimeout: T0 + DAY,
        createdAt: expect.any(BigInt),
        parties: ['role:Buyer'],
        awaiting: [
          {
            kind: 'deposit',
            party: 'role:Buyer',
            amount: 100n * ADA,
            token: { currencySymbol: '', tokenName: '' },
            before: T0 + DAY
          }
        ]
      }
    ])
    // bob holds the Seller token: a party, with nothing to do before the deposit.
    expect((await h.ok('contracts.list', { walletId: bob.id })).map((c) => [c.header.contractId, c.awaiting])).toEqual([
      [contractId, []]
    ])
    // dave holds no role token and no address of his is in the contract.
    expect(await h.ok('contracts.list', { walletId: dave.id })).toEqual([])
    await h.fails('contracts.list', { walletId: 'no such wallet' }, 'InvalidRequest')
    await h.fails('contracts.list', { walletId: '0'.repeat(40) }, 'WalletNotFound')
  })

  test('next steps: what the wallet can do now, by its address and the role tokens it holds', async () => {
    const deposits = async (walletId?: string) =>
      (await h.ok('contracts.next', walletId === undefined ? { contractId } : { contractId, walletId }))
        .applicableInputs.deposits
    const forAlice = await deposits(alice.id)
    expect(forAlice).toHaveLength(1)
    expect(forAlice[0]).toMatchObject({ party: { type: 'Role', role: 'Buyer' }, canDeposit: 100n * ADA })
    expect(await deposits(bob.id)).toEqual([])
    expect(await deposits()).toHaveLength(1)
  })

  async function applyAndSubmit(wallet: WalletSummary, inputsJson: string): Promise<PreparedTx> {
    const built = await h.ok('contracts.apply', { walletId: wallet.id, contractId, inputsJson })
    expect(built).toMatchObject({ kind: 'apply', contractId })
    const steps = built.review.marlowe.steps
    expect(steps).toHaveLength(1)
    expect(steps[0]?.result.type).toBe('success')
    expect(await h.ok('tx.signAndSubmit', { txId: built.txId, walletId: wallet.id, password: PASSWORD })).toEqual({
      txId: built.txId,
      status: 'submitted'
    })
    await h.opened.follower.sync()
    expect((await h.ok('tx.status', { txId: built.txId })).status).toBe('confirmed')
    return built
  }

  test('deposit and choices (one wallet unlocked beforehand signs without a password)', async () => {
    await h.ok('wallets.unlock', { walletId: alice.id, password: PASSWORD })
    const paid = await h.ok('contracts.apply', {
      walletId: alice.id,
      contractId,
      inputsJson: stringifyInputs([deposit])
    })
    expect(paid.review.marlowe.steps[0]?.inputs).toHaveLength(1)
    expect(await h.ok('tx.signAndSubmit', { txId: paid.txId, walletId: alice.id })).toMatchObject({
      status: 'submitted'
    })
    await h.opened.follower.sync()
    const c = ESCROW_CHOICES
    await applyAndSubmit(alice, choice(c.reportProblem.name, 'Buyer', c.reportProblem.chosen))
    await h.ok('wallets.lock', { walletId: alice.id })
    await applyAndSubmit(bob, choice(c.disputeProblem.name, 'Seller', c.disputeProblem.chosen))
    const closing = await applyAndSubmit(carol, choice(c.dismissClaim.name, 'Mediator', c.dismissClaim.chosen))
    const step = closing.review.marlowe.steps[0]?.result
    expect(step?.type === 'success' && step.closes).toBe(true)

    const detail = await h.ok('contracts.get', { contractId })
    expect(detail.contract).toMatchObject({ contractId, status: 'confirmed' })
    expect(detail.contract.current).toBeUndefined()
    expect(detail.transactions.map((t) => t.transactionId)).toEqual([
      paid.txId,
      expect.any(String),
      expect.any(String),
      closing.txId
    ])
    expect(detail.nextTimeout).toBeUndefined()
    expect((await h.ok('contracts.list', {}))[0]).toMatchObject({ closed: true })
  })

  test('payouts: only the holder of the role token sees its payout', async () => {
    const payouts = await h.ok('payouts.list', { walletId: bob.id })
    expect(payouts).toEqual([
      expect.objectContaining({
        contractId,
        role: 'Seller',
        status: 'available'
      })
    ])
    expect(await h.ok('payouts.list', { walletId: alice.id })).toEqual([])
    expect(await h.ok('payouts.list', { walletId: fresh.wallet.id })).toEqual([])
  })

  test('withdraw offline: export, import the bundle, sign into a witness, submit the witness', async () => {
    const [payout] = await h.ok('payouts.list', { walletId: bob.id })
    const withdrawal = await h.ok('payouts.withdraw', { walletId: bob.id, payoutIds: [payout!.payoutId] })
    expect(withdrawal.kind).toBe('withdraw')
    expect(withdrawal.review.marlowe.withdrawals).toEqual([expect.objectContaining({ role: 'Seller' })])

    const unsigned = await h.ok('tx.exportUnsigned', { txId: withdrawal.txId })
    expect(parseTextEnvelope(unsigned.text).type).toBe('Tx ConwayEra')
    expect(unsigned.fileName).toContain(withdrawal.txId)
    const bundle = await h.ok('tx.exportBundle', { txId: withdrawal.txId })
    expect(parseBundle(bundle.text)).toMatchObject({ network: 'sandbox', era: 'Conway' })

    const imported = await h.ok('tx.import', { text: bundle.text })
    expect(imported).toMatchObject({ txId: withdrawal.txId, known: true })
    expect(imported.cborHex).toBe(bytesToHex(parseBundle(bundle.text).tx))
    expect(imported.review.inputs.every((i) => i.resolved)).toBe(true)
    expect((await h.ok('tx.import', { text: unsigned.text })).txId).toBe(withdrawal.txId)

    await h.fails('tx.signOffline', { text: bundle.text, walletId: bob.id }, 'WalletLocked')
    const witness = await h.ok('tx.signOffline', { text: bundle.text, walletId: bob.id, password: PASSWORD })
    expect(parseTextEnvelope(witness.text).type).toBe('ShelleyTxWitness ConwayEra')
    expect(await h.ok('tx.submitWitness', { txId: withdrawal.txId, text: witness.text })).toEqual({
      txId: withdrawal.txId,
      status: 'submitted'
    })
    await h.opened.follower.sync()
    expect((await h.ok('tx.status', { txId: withdrawal.txId })).status).toBe('confirmed')
    expect(await h.ok('payouts.list', { walletId: bob.id })).toEqual([])
  })

  test('the sandbox clock moves ahead, never back', async () => {
    const status = await h.ok('sandbox.advance', { toTime: T0 + 5n * DAY })
    expect(status.chainTime).toBe(T0 + 5n * DAY)
    expect((await h.ok('sandbox.advance', { toTime: T0 })).chainTime).toBe(T0 + 5n * DAY)
  })
})

describe('secrets', () => {
  test('no answer carries key material; the new phrase appears in exactly one answer', () => {
    const all = h.answers.join('\n')
    for (const name of ['alice', 'bob', 'carol', 'dave'] as const) {
      const w = sandboxWallet(name)
      expect(all).not.toContain(w.mnemonic)
      expect(all).not.toContain(w.mnemonic.split(' ').slice(0, 4).join(' '))
      expect(all).not.toContain(bytesToHex(w.paymentSigningKey))
      expect(all).not.toContain(bytesToHex(w.paymentSigningKey.subarray(0, 32)))
    }
    expect(all).not.toContain(PASSWORD)
    const phrase = fresh.mnemonic.join('","')
    expect(h.answers.filter((a) => a.includes(phrase))).toHaveLength(1)
    expect(h.logged).toEqual([])
  })
})
