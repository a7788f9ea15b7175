/**
 * Whole contract lifecycles on the sandbox through the builder: every tx is signed with plain CSL keys derived
 * from the wallets' mnemonics, accepted by the emulator, and checked against what the real validators demand.
 */
import { afterEach, describe, expect, test } from 'vitest'
import { deploymentOf, payoutValidatorAddress } from '../../../src/chain/deployments'
import { utf8Encode, bytesToHex } from '../../../src/core/bytes'
import { ESCROW_CHOICES, swap } from '../../../src/core/marlowe/examples'
import { merkleHash } from '../../../src/core/marlowe/plutus/hash'
import { decodeMarloweData } from '../../../src/core/marlowe/plutus/marlowe-data'
import { ADA as ADA_TOKEN, type Contract, type Input, type Party, type Token } from '../../../src/core/marlowe/types'
import { CSL, withCsl } from '../../../src/csl'
import {
  balance,
  rolesEscrow,
  expectValidApply,
  expectValidCreate,
  expectValidWithdraw,
  mintTestToken,
  quantity
} from './flows'
import { decodeTx } from './marlowe-validator'
import { ADA, T0, costCheckNotes, harness, testWallet, type Harness } from './support'

const DAY = 86_400_000n
const alice = testWallet('alice')
const bob = testWallet('bob')
const carol = testWallet('carol')
const hex = (s: string): string => bytesToHex(utf8Encode(s)!)

let h: Harness
afterEach(async () => h.close())

const role = (name: string): Party => ({ type: 'Role', role: name })
const address = (w: { address: string }): Party => ({ type: 'Address', address: w.address })
const choose = (name: string, owner: Party, chosen: bigint): Input => ({
  content: { type: 'IChoice', choice: { name, owner }, chosen }
})
const deposit = (account: Party, party: Party, token: Token, amount: bigint): Input => ({
  content: { type: 'IDeposit', account, party, token, amount }
})

describe('escrow with minted role tokens', () => {
  test('create → deposit → report → dispute → dismiss → role payout → withdraw', async () => {
    h = harness()
    const contract = rolesEscrow()
    const created = await h.builder.create(
      { changeAddress: carol.address },
      {
        contract,
        roles: {
          type: 'Mint',
          roles: [
            { name: 'Buyer', recipients: [{ destination: { address: alice.address }, quantity: 1n }] },
            {
              name: 'Seller',
              recipients: [{ destination: { address: bob.address }, quantity: 1n }],
              metadata: { name: 'Seller token', image: 'ipfs://' + 'x'.repeat(80), mediaType: 'image/png' }
            },
            { name: 'Mediator', recipients: [{ destination: { address: carol.address }, quantity: 1n }] }
          ]
        },
        tags: { 'desk.test.escrow': null }
      }
    )
    expectValidCreate(h, created)
    expect(created.safetyErrors).toEqual(costCheckNotes(h.sandbox))
    const policy = created.rolesCurrency
    expect(policy).toMatch(/^[0-9a-f]{56}$/)
    expect(created.contractId).toEqual({ txId: created.txId, index: 0 })
    // CIP-25 metadata of the Seller token and the tag, as Runtime writes them.
    const aux = withCsl((s) => {
      const meta = s.own(s.own(s.own(CSL.Transaction.from_bytes(created.tx)).auxiliary_data()!).metadata()!)
      return {
        nft: CSL.decode_metadatum_to_json_str(
          s.own(meta.get(s.own(CSL.BigNum.from_str('721')))!),
          CSL.MetadataJsonSchema.DetailedSchema
        ),
        tags: CSL.decode_metadatum_to_json_str(
          s.own(meta.get(s.own(CSL.BigNum.from_str('1564')))!),
          CSL.MetadataJsonSchema.DetailedSchema
        )
      }
    })
    expect(aux.tags).toBe('{"list":[{"int":2},{"list":[{"list":[{"string":"desk.test.escrow"}]}]}]}')
    expect(aux.nft).toContain(`{"k":{"bytes":"${policy}"}`)
    expect(aux.nft).toContain(`{"k":{"bytes":"${hex('Seller')}"}`)
    expect(aux.nft).toContain(
      '{"k":{"string":"image"},"v":{"list":[{"string":"ipfs://' +
        'x'.repeat(57) +
        '"},{"string":"' +
        'x'.repeat(23) +
        '"}]}}'
    )
    await h.submit(created, [carol])
    expect(quantity(await balance(h, alice.address), policy, hex('Buyer'))).toBe(1n)
    expect(quantity(await balance(h, bob.address), policy, hex('Seller'))).toBe(1n)

    let current = created.contractId
    let datum = created.datumBytes
    const step = async (wallet: typeof alice, inputs: Input[]) => {
      const built = await h.builder.applyInputs(
        { changeAddress: wallet.address },
        { contractId: created.contractId, marloweUtxo: current, datum, inputs }
      )
      await expectValidApply(h, built, inputs)
      await h.submit(built, [wallet])
      if (built.output !== undefined) {
        current = built.output.ref
        datum = built.output.datumBytes
      }
      return built
    }
    const c = ESCROW_CHOICES
    const paid = await step(alice, [deposit(role('Seller'), role('Buyer'), ADA_TOKEN, 100n * ADA)])
    expect(paid.output?.assets.lovelace).toBe(100n * ADA + created.minUTxODeposit)
    // The role token was spent and given back unchanged.
    expect(quantity(await balance(h, alice.address), policy, hex('Buyer'))).toBe(1n)
    await step(alice, [choose(c.reportProblem.name, role('Buyer'), c.reportProblem.chosen)])
    await step(bob, [choose(c.disputeProblem.name, role('Seller'), c.disputeProblem.chosen)])
    const carolBefore = (await balance(h, carol.address)).lovelace
    const dismissed = await step(carol, [choose(c.dismissClaim.name, role('Mediator'), c.dismissClaim.chosen)])
    expect(dismissed.output).toBeUndefined()
    expect(dismissed.payouts).toEqual([
      {
        ref: { txId: dismissed.txId, index: 0 },
        rolesCurrency: policy,
        role: 'Seller',
        assets: { lovelace: 100n * ADA, assets: {} }
      }
    ])
    // The creator's deposit came back to the creator's address (an address payout of the Close).
    expect((await balance(h, carol.address)).lovelace).toBe(carolBefore + created.minUTxODeposit - dismissed.fee)
    const [payout] = await h.sandbox.utxosByRef([dismissed.payouts[0]!.ref])
    expect(payout?.address).toBe(payoutValidatorAddress(deploymentOf(h.sandbox)))

    const bobBefore = (await balance(h, bob.address)).lovelace
    const withdrawn = await h.builder.withdraw({ changeAddress: bob.address }, { payouts: [dismissed.payouts[0]!.ref] })
    await expectValidWithdraw(h, withdrawn)
    await h.submit(withdrawn, [bob])
    expect((await balance(h, bob.address)).lovelace).toBe(bobBefore + 100n * ADA - withdrawn.fee)
    expect(quantity(await balance(h, bob.address), policy, hex('Seller'))).toBe(1n)
    expect(await h.sandbox.utxosByRef([dismissed.payouts[0]!.ref])).toEqual([])
  })
})

describe('swap between two address parties', () => {
  test('ada for a native token; each deposit signed by its party; payouts to addresses', async () => {
    h = harness()
    const dollarPolicy = await mintTestToken(h, bob, 'Dollar', 1_000_000n)
    const dollar: Token = { currencySymbol: dollarPolicy, tokenName: 'Dollar' }
    const { contract } = swap({
      first: { party: address(alice), token: ADA_TOKEN, amount: 25n * ADA, depositDeadline: T0 + DAY },
      second: { party: address(bob), token: dollar, amount: 500n, depositDeadline: T0 + DAY }
    })
    const created = await h.builder.create({ changeAddress: alice.address }, { contract })
    expectValidCreate(h, created)
    await h.submit(created, [alice])
    const first = [deposit(address(alice), address(alice), ADA_TOKEN, 25n * ADA)]
    const a = await h.builder.applyInputs(
      { changeAddress: alice.address },
      { contractId: created.contractId, inputs: first }
    )
    expect(decodeTx(a.tx).requiredSigners).toEqual([alice.paymentKeyHash])
    await expectValidApply(h, a, first)
    await h.submit(a, [alice])
    const second = [deposit(address(bob), address(bob), dollar, 500n)]
    const aliceBefore = await balance(h, alice.address)
    const b = await h.builder.applyInputs(
      { changeAddress: bob.address },
      { contractId: created.contractId, marloweUtxo: a.output!.ref, inputs: second }
    )
    expect(decodeTx(b.tx).requiredSigners).toEqual([bob.paymentKeyHash])
    await expectValidApply(h, b, second)
    await h.submit(b, [bob])
    expect(b.output).toBeUndefined()
    const aliceAfter = await balance(h, alice.address)
    expect(quantity(aliceAfter, dollarPolicy, hex('Dollar'))).toBe(500n)
    // The dollars and the refunded deposit both pay alice, so the validator wants one merged payout.
    expect(aliceAfter.lovelace).toBe(aliceBefore.lovelace + created.minUTxODeposit)
    expect(b.payments.filter((p) => p.to.type === 'Party').length).toBe(3)
    expect(decodeTx(b.tx).outputs.filter((o) => o.address === alice.address).length).toBe(1)
    expect(quantity(await balance(h, bob.address), dollarPolicy, hex('Dollar'))).toBe(1_000_000n - 500n)
  })
})

describe('timeouts', () => {
  test('after the deadline, an empty input list closes the contract and refunds the deposit', async () => {
    h = harness()
    const { contract } = swap({
      first: { party: address(alice), token: ADA_TOKEN, amount: 40n * ADA, depositDeadline: T0 + DAY },
      second: { party: address(bob), token: ADA_TOKEN, amount: 5n * ADA, depositDeadline: T0 + 2n * DAY }
    })
    const created = await h.builder.create({ changeAddress: alice.address }, { contract })
    await h.submit(created, [alice])
    const first = [deposit(address(alice), address(alice), ADA_TOKEN, 40n * ADA)]
    const a = await h.builder.applyInputs(
      { changeAddress: alice.address },
      { contractId: created.contractId, inputs: first }
    )
    // Runtime's default bounds: from the tip slot to the next timeout.
    expect(a.invalidBefore?.slot).toBe((await h.sandbox.tip()).slot)
    expect(a.invalidHereafter?.time).toBe(T0 + DAY)
    expect(a.interval).toEqual({ from: a.invalidBefore!.time, to: T0 + DAY - 1n })
    await h.submit(a, [alice])
    await h.sandbox.advanceTo(T0 + 2n * DAY + 60_000n)
    const before = (await balance(h, alice.address)).lovelace
    const refund = await h.builder.applyInputs(
      { changeAddress: alice.address },
      { contractId: created.contractId, marloweUtxo: a.output!.ref, inputs: [] }
    )
    await expectValidApply(h, refund, [])
    expect(refund.output).toBeUndefined()
    // alice's deposit went into the account that already held her min-UTxO deposit: one refund.
    expect(refund.payments.map((p) => p.amount)).toEqual([40n * ADA + created.minUTxODeposit])
    await h.submit(refund, [alice])
    expect((await balance(h, alice.address)).lovelace).toBe(before + 40n * ADA + created.minUTxODeposit - refund.fee)
  })
})

describe('initial accounts and big amounts', () => {
  test('initial accounts are funded by the creator and paid out on close', async () => {
    h = harness()
    const contract: Contract = {
      type: 'When',
      cases: [{ type: 'Case', action: { type: 'Notify', observation: true }, then: { type: 'Close' } }],
      timeout: T0 + DAY,
      timeoutContinuation: { type: 'Close' }
    }
    const bobBefore = (await balance(h, bob.address)).lovelace
    const created = await h.builder.create(
      { changeAddress: alice.address },
      { contract, accounts: [{ party: address(bob), token: ADA_TOKEN, amount: 7n * ADA }] }
    )
    expectValidCreate(h, created)
    // Runtime's order: by account (address bytes: alice's key hash sorts first), then by token.
    expect(created.datum.state.accounts).toEqual([
      [{ account: address(alice), token: ADA_TOKEN }, created.minUTxODeposit],
      [{ account: address(bob), token: ADA_TOKEN }, 7n * ADA]
    ])
    expect(created.assets.lovelace).toBe(created.minUTxODeposit + 7n * ADA)
    await h.submit(created, [alice])
    const notify = [{ content: { type: 'INotify' } } as const]
    const closed = await h.builder.applyInputs(
      { changeAddress: alice.address },
      { contractId: created.contractId, inputs: notify }
    )
    await expectValidApply(h, closed, notify)
    await h.submit(closed, [alice])
    expect((await balance(h, bob.address)).lovelace).toBe(bobBefore + 7n * ADA)
  })

  test('quantities above 2^53 reach the datum and the ledger exactly', async () => {
    h = harness()
    const big = 2n ** 53n + 1n
    const policy = await mintTestToken(h, alice, 'Big', 2n ** 62n)
    const token: Token = { currencySymbol: policy, tokenName: 'Big' }
    const contract: Contract = {
      type: 'When',
      cases: [
        {
          type: 'Case',
          action: { type: 'Deposit', account: address(alice), party: address(alice), token, value: big },
          then: {
            type: 'When',
            cases: [{ type: 'Case', action: { type: 'Notify', observation: true }, then: { type: 'Close' } }],
            timeout: T0 + 2n * DAY,
            timeoutContinuation: { type: 'Close' }
          }
        }
      ],
      timeout: T0 + DAY,
      timeoutContinuation: { type: 'Close' }
    }
    const created = await h.builder.create(
      { changeAddress: alice.address },
      { contract, accounts: [{ party: address(alice), token, amount: big + 2n }] }
    )
    expectValidCreate(h, created)
    await h.submit(created, [alice])
    const inputs = [deposit(address(alice), address(alice), token, big)]
    const applied = await h.builder.applyInputs(
      { changeAddress: alice.address },
      { contractId: created.contractId, inputs }
    )
    await expectValidApply(h, applied, inputs)
    await h.submit(applied, [alice])
    const [out] = await h.sandbox.utxosByRef([applied.output!.ref])
    expect(quantity(out!.value, policy, hex('Big'))).toBe(2n * big + 2n)
    const onChain = decodeMarloweData(decodeTx(applied.tx).datums.get(out!.datumHash!)!)
    const account = onChain.state.accounts.find(([k]) => k.token.currencySymbol === policy)
    expect(account?.[1]).toBe(2n * big + 2n)
    expect(onChain).toEqual(applied.output!.datum)
  })
})

describe('merkleized contracts', () => {
  test('a merkleized case: the continuation travels in the witness set, the redeemer names it by hash', async () => {
    h = harness()
    const continuation: Contract = {
      type: 'When',
      cases: [{ type: 'Case', action: { type: 'Notify', observation: true }, then: { type: 'Close' } }],
      timeout: T0 + 2n * DAY,
      timeoutContinuation: { type: 'Close' }
    }
    const hash = merkleHash(continuation)
    const contract: Contract = {
      type: 'When',
      cases: [{ type: 'MerkleizedCase', action: { type: 'Notify', observation: true }, hash }],
      timeout: T0 + DAY,
      timeoutContinuation: { type: 'Close' }
    }
    const unknown = await h.builder.create({ changeAddress: alice.address }, { contract })
    expect(unknown.safetyErrors).toEqual([
      expect.objectContaining({ error: 'MissingContinuation' }),
      ...costCheckNotes(h.sandbox)
    ])
    await h.builder.release(unknown.reservation.key)
    const created = await h.builder.create(
      { changeAddress: alice.address },
      { contract, continuations: new Map([[hash, continuation]]) }
    )
    expect(created.safetyErrors).toEqual(costCheckNotes(h.sandbox))
    await h.submit(created, [alice])
    const inputs: Input[] = [{ content: { type: 'INotify' }, merkleized: { hash, continuation } }]
    const applied = await h.builder.applyInputs(
      { changeAddress: alice.address },
      { contractId: created.contractId, inputs }
    )
    await expectValidApply(h, applied, inputs)
    expect(applied.output?.datum.contract).toEqual(continuation)
    await h.submit(applied, [alice])
  })
})
