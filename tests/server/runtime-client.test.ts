/**
 * Wire compatibility with the published Marlowe Runtime client, `@marlowe.io/runtime-rest-client` 0.4.0-beta,
 * in strict mode: every request goes through the client and every response through its io-ts guards. A
 * roles escrow runs from creation to withdrawal, and lists are followed page by page with the client's
 * `Next-Range` handling. The client signs nothing: the witness sets are made as a CIP-30 wallet makes them.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Contract, Input, Party } from '@marlowe.io/language-core-v1'
import * as G from '@marlowe.io/language-core-v1/guards'
import { Choice, Deposit } from '@marlowe.io/language-core-v1/next'
import {
  mkRestClient,
  ItemRangeGuard,
  type ItemRange,
  type Page,
  type RestClient
} from '@marlowe.io/runtime-rest-client'
import {
  addressBech32,
  type Metadata,
  type Tags,
  transactionWitnessSetTextEnvelope,
  unPayoutId,
  unTxOutRef,
  unWithdrawalId,
  type ContractId,
  type TextEnvelope,
  type TxId
} from '@marlowe.io/runtime-core'
import { hexToBytes } from '../../src/core/bytes'
import { ESCROW_CHOICES } from '../../src/core/marlowe/examples'
import { encodeContract } from '../../src/core/marlowe/json/encode'
import { rolesEscrow } from '../engine/build/flows'
import { ADA, T0, costCheckNotes, testWallet, type TestWallet } from '../engine/build/support'
import { witnessEnvelope } from '../engine/service/support'
import { startServer, TOKEN, type TestServer } from './support'

const alice = testWallet('alice')
const bob = testWallet('bob')
const carol = testWallet('carol')
const DAY = 86_400_000n
const ada = { currency_symbol: '', token_name: '' }
const role = (name: string): Party => ({ role_token: name })

let server: TestServer
let client: RestClient

beforeAll(async () => {
  server = await startServer()
  // The client can only be given a base URL: the token travels as its path prefix.
  client = mkRestClient(`${server.base}/t/${TOKEN}`, true)
})
afterAll(async () => {
  await server.close()
})

/** What CIP-30 `signTx(tx, true)` returns for the unsigned tx a build answered with. */
function witnessSet(tx: TextEnvelope, signers: readonly TestWallet[]): string {
  return witnessEnvelope(hexToBytes(tx.cborHex), signers).cborHex
}

function itemRange(text: string): ItemRange {
  if (!ItemRangeGuard.is(text)) throw new Error(`not a range: ${text}`)
  return text
}

/** Every page of a list, following the client's `page.next` until a page comes without one. */
async function allPages<T>(first: ItemRange, get: (range: ItemRange) => Promise<{ items: T[]; page: Page }>) {
  const pages: { items: T[]; page: Page }[] = []
  let range: ItemRange | undefined = first
  while (range !== undefined && pages.length < 10) {
    const page = await get(range)
    pages.push(page)
    range = page.page.next
  }
  return pages
}

/** Polls the contract through the client, letting the follower run between polls, until it is confirmed. */
async function untilConfirmed(contractId: ContractId): Promise<string[]> {
  const seen: string[] = []
  for (let i = 0; i < 5; i += 1) {
    const { status } = await client.getContractById({ contractId })
    seen.push(status)
    if (status === 'confirmed') break
    await server.opened.follower.sync()
  }
  return seen
}

/** The escrow fixture in Marlowe's JSON, as the client's own guard reads it. */
function escrowJson(): Contract {
  const json = encodeContract(rolesEscrow())
  if (!G.Contract.is(json)) throw new Error('the escrow is not a Marlowe contract to the client')
  return json
}

/** A contract where `who` deposits 5 ada by address, for the lists. */
function depositBy(who: TestWallet): Contract {
  const party: Party = { address: who.address }
  return {
    when: [{ case: { party, deposits: 5n * ADA, of_token: ada, into_account: party }, then: 'close' }],
    timeout: T0 + DAY,
    timeout_continuation: 'close'
  }
}

/** Time passes between steps, so each lands in a later block, as on a real chain. */
function later(): void {
  server.clock.ms += 20_000n
}

const iso = (ms: bigint): string => new Date(Number(ms)).toISOString()

/** The next minute, for GET /contracts/{id}/next. */
const nextMinute = (contractId: ContractId) => ({
  contractId,
  validityStart: server.clock.ms,
  validityEnd: server.clock.ms + 60_000n
})

/** The escrow, minting its roles to the three wallets (both of the client's mint forms); carol creates it. */
function buildEscrow(labels: { tags?: Tags; metadata?: Metadata } = {}) {
  return client.buildCreateContractTx({
    version: 'v1',
    contract: escrowJson(),
    changeAddress: addressBech32(carol.address),
    roles: {
      Buyer: addressBech32(alice.address),
      Seller: { recipients: { [addressBech32(bob.address)]: 1n } },
      Mediator: addressBech32(carol.address)
    },
    // Runtime reads `threadTokenName` and drops this, as the server does: it only names an open-role thread token.
    threadRoleName: 'unused',
    accounts: {},
    ...labels
  })
}

/** Builds, signs, submits and confirms one input application through the client; its transaction id. */
async function apply(
  contractId: ContractId,
  wallet: TestWallet,
  inputs: Input[],
  validity: { invalidBefore?: string; invalidHereafter?: string } = {}
): Promise<TxId> {
  later()
  const built = await client.applyInputsToContract({
    contractId,
    changeAddress: addressBech32(wallet.address),
    inputs,
    ...validity
  })
  expect(built.contractId).toBe(contractId)
  expect(built.tx.type).toBe('Tx ConwayEra')
  const txId = built.transactionId
  const before = await client.getContractTransactionById({ contractId, txId })
  expect(before.status).toBe('unsigned')
  expect(before.txBody).toMatchObject({ _tag: 'Some', value: { type: 'TxBodyConway' } })
  expect(before.inputs).toEqual(inputs)
  await client.submitContractTransaction({
    contractId,
    transactionId: txId,
    hexTransactionWitnessSet: witnessSet(built.tx, [wallet])
  })
  expect((await client.getContractTransactionById({ contractId, txId })).status).toBe('submitted')
  await server.opened.follower.sync()
  const after = await client.getContractTransactionById({ contractId, txId })
  expect(after.status).toBe('confirmed')
  expect(after.txBody).toEqual({ _tag: 'None' })
  expect(after.block._tag).toBe('Some')
  return txId
}

/** The choice input `who` may make now, as the client turns a `CanChoose` of GET /next into one. */
async function choice(contractId: ContractId, who: string, name: string, chosen: bigint): Promise<Input> {
  const steps = await client.getNextStepsForContract({ ...nextMinute(contractId), parties: [role(who)] })
  const canChoose = steps.applicable_inputs.choices.find((c) => c.for_choice.choice_name === name)
  expect(canChoose?.can_choose_between).toContainEqual({ from: chosen, to: chosen })
  return Choice.toInput(canChoose!)(chosen)
}

describe('the published Runtime REST client against this server (strict)', () => {
  test('healthcheck: tips, network and a Runtime version the client accepts', async () => {
    const status = await client.healthcheck()
    expect(status.version).toBe('1.0.0')
    expect(await client.version()).toBe('1.0.0')
    expect(status.networkId).toBe('42')
    const tip = await server.sandbox.tip()
    for (const t of [status.tips.node, status.tips.runtimeChain, status.tips.runtime]) {
      expect(t.blockHeader).toEqual({ slotNo: tip.slot, blockNo: tip.blockNo, blockHeaderHash: tip.blockHash })
      expect(new Date(t.slotTimeUTC).getTime()).toBe(server.clock.now() - (server.clock.now() % 1000))
    }
  })

  test('the strict request guards check addresses (lucid-cardano stands in for the client)', () => {
    expect(addressBech32(alice.address)).toBe(alice.address)
    expect(() => addressBech32(alice.address.slice(0, -1))).toThrow()
    expect(() => addressBech32('addr_test1')).toThrow()
  })

  test('roles escrow: create → submit → confirmed → next → deposit and choices → payout → withdrawal', async () => {
    // ---- create ----
    const created = await buildEscrow({ tags: { 'desk.client': { run: 1n } }, metadata: { 674: [1n, { 2: 3n }] } })
    expect(created.contractId).toMatch(/^[0-9a-f]{64}#[0-9]+$/)
    expect(created.tx.type).toBe('Tx ConwayEra')
    expect(created.safetyErrors).toEqual(costCheckNotes(server.sandbox))
    const contractId = created.contractId

    const unsigned = await client.getContractById({ contractId })
    expect(unsigned).toMatchObject({ status: 'unsigned', contractId, version: 'v1', unclaimedPayouts: [] })
    expect(unsigned.txBody?.type).toBe('TxBodyConway')
    expect(unsigned.block).toBeUndefined()
    expect(unsigned.utxo).toBeUndefined()
    expect(unsigned.tags).toEqual({ 'desk.client': { run: 1n } })
    expect(unsigned.metadata).toEqual({ 674: [1n, { 2: 3n }] })

    // The client labels every witness set Babbage; the tx is Conway, and the server takes it.
    const envelope = transactionWitnessSetTextEnvelope(witnessSet(created.tx, [carol]))
    expect(envelope.type).toBe('ShelleyTxWitness BabbageEra')
    await client.submitContract({ contractId, txEnvelope: envelope })
    await expect(client.submitContract({ contractId, txEnvelope: envelope })).rejects.toMatchObject({
      response: { status: 409 }
    })
    expect(await untilConfirmed(contractId)).toEqual(['submitted', 'confirmed'])

    const contract = await client.getContractById({ contractId })
    expect(contract.txBody).toBeUndefined()
    expect(contract.utxo).toBe(contractId)
    expect(contract.block?.blockHeaderHash).toMatch(/^[0-9a-f]{64}$/)
    expect(contract.state?.accounts).toEqual([[[{ address: carol.address }, ada], expect.any(BigInt)]])
    expect(contract.initialContract).toEqual(contract.currentContract)
    const rolesCurrency = contract.roleTokenMintingPolicyId
    expect(rolesCurrency).toMatch(/^[0-9a-f]{56}$/)

    // ---- next steps, with the client's party filter ----
    const minute = () => nextMinute(contractId)
    const next = await client.getNextStepsForContract(minute())
    expect(next.can_reduce).toBe(false)
    expect(next.applicable_inputs.deposits).toEqual([
      {
        case_index: 0n,
        party: role('Buyer'),
        can_deposit: 100n * ADA,
        of_token: ada,
        into_account: role('Seller'),
        is_merkleized_continuation: false
      }
    ])
    expect(next.applicable_inputs.notify).toEqual({ _tag: 'None' })
    const forBuyer = await client.getNextStepsForContract({ ...minute(), parties: [role('Buyer')] })
    expect(forBuyer.applicable_inputs.deposits).toHaveLength(1)
    const forSeller = await client.getNextStepsForContract({ ...minute(), parties: [role('Seller')] })
    expect(forSeller.applicable_inputs.deposits).toEqual([])
    const forAlice = await client.getNextStepsForContract({ ...minute(), parties: [{ address: alice.address }] })
    expect(forAlice.applicable_inputs.deposits).toEqual([])

    // ---- apply inputs: each built, signed, submitted and confirmed through the client ----
    const c = ESCROW_CHOICES
    const validity = {
      invalidBefore: iso(server.clock.ms + 20_000n),
      invalidHereafter: iso(server.clock.ms + 600_000n)
    }
    const deposit = Deposit.toInput(forBuyer.applicable_inputs.deposits[0]!)
    const deposited = await apply(contractId, alice, [deposit], validity)
    const report = await choice(contractId, 'Buyer', c.reportProblem.name, c.reportProblem.chosen)
    const reported = await apply(contractId, alice, [report])
    const dispute = await choice(contractId, 'Seller', c.disputeProblem.name, c.disputeProblem.chosen)
    const disputed = await apply(contractId, bob, [dispute])
    const dismiss = await choice(contractId, 'Mediator', c.dismissClaim.name, c.dismissClaim.chosen)
    const dismissed = await apply(contractId, carol, [dismiss])

    const first = await client.getContractTransactionById({ contractId, txId: deposited })
    expect(first.inputUtxo).toBe(contractId)
    expect(first.consumingTx).toEqual({ _tag: 'Some', value: reported })
    expect(first.outputUtxo._tag).toBe('Some')
    expect(Date.parse(first.invalidBefore)).toBe(Date.parse(validity.invalidBefore))
    expect(Date.parse(first.invalidHereafter)).toBe(Date.parse(validity.invalidHereafter))
    const last = await client.getContractTransactionById({ contractId, txId: dismissed })
    expect(last.outputContract).toEqual({ _tag: 'None' })
    expect(last.outputUtxo).toEqual({ _tag: 'None' })
    expect(last.consumingTx).toEqual({ _tag: 'None' })

    // ---- the transactions of the contract, two to a page ----
    const txPages = await allPages(itemRange('transactionId;limit 2'), async (range) => {
      const r = await client.getTransactionsForContract({ contractId, range })
      return { items: r.transactions, page: r.page }
    })
    expect(txPages.map((p) => p.items.map((t) => t.transactionId))).toEqual([
      [dismissed, disputed],
      [reported, deposited],
      []
    ])
    expect(txPages.map((p) => p.page.total)).toEqual([4, 4, 4])
    expect(txPages[0]!.items[0]!.utxo).toEqual({ _tag: 'None' })
    expect(txPages[1]!.items.every((t) => t.status === 'confirmed' && t.utxo._tag === 'Some')).toBe(true)
    const all = await client.getTransactionsForContract({ contractId })
    expect(all.transactions.map((t) => t.transactionId)).toEqual([dismissed, disputed, reported, deposited])
    expect(all.page.next).toBeUndefined()

    // ---- the closed contract and its payout ----
    const closed = await client.getContractById({ contractId })
    expect(closed.currentContract).toBeUndefined()
    expect(closed.state).toBeUndefined()
    expect(closed.utxo).toBeUndefined()
    expect(closed.unclaimedPayouts.map((p) => p.role)).toEqual(['Seller'])

    const seller = { policyId: rolesCurrency, assetName: 'Seller' }
    const available = await client.getPayouts({ contractIds: [contractId], roleTokens: [], status: 'available' })
    const payoutId = available.payouts[0]!.payoutId
    expect(unPayoutId(payoutId)).toBe(unTxOutRef(closed.unclaimedPayouts[0]!.payoutId))
    expect(available.payouts).toEqual([
      { payoutId, contractId, withdrawalId: { _tag: 'None' }, role: seller, status: 'available' }
    ])
    expect(available.page.total).toBe(1)
    expect((await client.getPayouts({ contractIds: [], roleTokens: [seller] })).payouts).toHaveLength(1)
    const buyer = { policyId: rolesCurrency, assetName: 'Buyer' }
    expect((await client.getPayouts({ contractIds: [], roleTokens: [buyer] })).payouts).toEqual([])
    expect((await client.getPayouts({ contractIds: [], roleTokens: [], status: 'withdrawn' })).payouts).toEqual([])
    const payout = await client.getPayoutById({ payoutId })
    expect(payout).toMatchObject({ payoutId, contractId, role: seller, status: 'available' })
    expect(payout.withdrawalId).toBeUndefined()
    expect(payout.assets).toEqual({ lovelace: 100n * ADA, tokens: {} })
    expect(payout.payoutValidatorAddress).toMatch(/^addr_test1w/)

    // ---- a second escrow, settled at once: the Seller is paid when the Buyer says all is well ----
    const other = await buildEscrow()
    await client.submitContract({
      contractId: other.contractId,
      txEnvelope: transactionWitnessSetTextEnvelope(witnessSet(other.tx, [carol]))
    })
    expect(await untilConfirmed(other.contractId)).toEqual(['submitted', 'confirmed'])
    const otherSteps = await client.getNextStepsForContract({
      ...nextMinute(other.contractId),
      parties: [role('Buyer')]
    })
    await apply(other.contractId, alice, [Deposit.toInput(otherSteps.applicable_inputs.deposits[0]!)])
    const fine = await choice(other.contractId, 'Buyer', c.everythingIsAlright.name, c.everythingIsAlright.chosen)
    const settled = await apply(other.contractId, alice, [fine])

    // ---- both payouts, newest first, one to a page ----
    const payoutPages = await allPages(itemRange('payoutId;limit 1'), async (range) => {
      const r = await client.getPayouts({ contractIds: [], roleTokens: [], status: 'available', range })
      return { items: r.payouts, page: r.page }
    })
    expect(payoutPages.map((p) => p.items.map((x) => x.contractId))).toEqual([[other.contractId], [contractId], []])
    expect(payoutPages.map((p) => p.page.total)).toEqual([2, 2, 2])
    const otherPayoutId = payoutPages[0]!.items[0]!.payoutId
    expect(unPayoutId(otherPayoutId)).toMatch(new RegExp(`^${settled}#[0-9]+$`))

    // ---- withdraw both in one transaction ----
    const withdrawal = await client.withdrawPayouts({
      payoutIds: [payoutId, otherPayoutId],
      changeAddress: addressBech32(bob.address)
    })
    expect(withdrawal.tx.type).toBe('Tx ConwayEra')
    const withdrawalId = withdrawal.withdrawalId
    expect(await client.getWithdrawalById({ withdrawalId })).toMatchObject({ withdrawalId, status: 'unsigned' })
    await client.submitWithdrawal({ withdrawalId, hexTransactionWitnessSet: witnessSet(withdrawal.tx, [bob]) })
    expect((await client.getWithdrawalById({ withdrawalId })).status).toBe('submitted')
    await server.opened.follower.sync()
    const done = await client.getWithdrawalById({ withdrawalId })
    expect(done.status).toBe('confirmed')
    expect(done.block?.blockHeaderHash).toMatch(/^[0-9a-f]{64}$/)
    const withdrawnBy = { _tag: 'Some', value: withdrawalId }
    expect(new Set(done.payouts)).toEqual(
      new Set([
        { payoutId, contractId, withdrawalId: withdrawnBy, role: seller, status: 'withdrawn' },
        {
          payoutId: otherPayoutId,
          contractId: other.contractId,
          withdrawalId: withdrawnBy,
          role: {
            policyId: (await client.getContractById({ contractId: other.contractId })).roleTokenMintingPolicyId,
            assetName: 'Seller'
          },
          status: 'withdrawn'
        }
      ])
    )
    const withdrawn = await client.getPayoutById({ payoutId })
    expect(withdrawn.status).toBe('withdrawn')
    expect(withdrawn.withdrawalId && unWithdrawalId(withdrawn.withdrawalId)).toBe(unWithdrawalId(withdrawalId))
    expect((await client.getPayouts({ contractIds: [], roleTokens: [], status: 'available' })).payouts).toEqual([])
    expect((await client.getPayouts({ contractIds: [], roleTokens: [], status: 'withdrawn' })).page.total).toBe(2)
    expect((await client.getContractById({ contractId })).unclaimedPayouts).toEqual([])

    const withdrawals = await client.getWithdrawals({})
    expect(withdrawals.withdrawals).toEqual([
      { withdrawalId, status: 'confirmed', block: { _tag: 'Some', value: done.block } }
    ])
    expect(withdrawals.page).toMatchObject({ total: 1 })
    expect(unPayoutId(payoutId)).toMatch(new RegExp(`^${dismissed}#[0-9]+$`))

    // ---- the contract list's filters ----
    expect((await client.getContracts({ partyRoles: [buyer] })).contracts.map((h) => h.contractId)).toEqual([
      contractId
    ])
    expect((await client.getContracts({ tags: ['desk.client'] })).contracts).toEqual([
      {
        contractId,
        roleTokenMintingPolicyId: rolesCurrency,
        version: 'v1',
        tags: { 'desk.client': { run: 1n } },
        metadata: { 674: [1n, { 2: 3n }] },
        status: 'confirmed',
        block: { _tag: 'Some', value: contract.block }
      }
    ])
  })

  test('contract lists: filters and pages followed with Next-Range', async () => {
    const makers = [alice, bob, alice]
    const ids: ContractId[] = []
    for (const [i, who] of makers.entries()) {
      later()
      const built = await client.buildCreateContractTx({
        version: 'v1',
        contract: depositBy(who),
        changeAddress: addressBech32(who.address),
        accounts: {},
        tags: { 'desk.page': i }
      })
      expect(built.safetyErrors).toEqual(costCheckNotes(server.sandbox))
      await client.submitContract({
        contractId: built.contractId,
        txEnvelope: transactionWitnessSetTextEnvelope(witnessSet(built.tx, [who]))
      })
      expect(await untilConfirmed(built.contractId)).toEqual(['submitted', 'confirmed'])
      ids.push(built.contractId)
    }

    const everything = await client.getContracts({ tags: ['desk.page'] })
    expect(everything.page).toMatchObject({ total: 3, next: undefined })
    expect(everything.contracts.map((h) => h.contractId)).toEqual([...ids].reverse())
    expect(everything.contracts.every((h) => h.roleTokenMintingPolicyId === '' && h.block._tag === 'Some')).toBe(true)

    const pages = await allPages(itemRange('contractId;limit 2'), async (range) => {
      const r = await client.getContracts({ tags: ['desk.page'], range })
      return { items: r.contracts, page: r.page }
    })
    expect(pages.map((p) => p.items.map((h) => h.contractId))).toEqual([[ids[2], ids[1]], [ids[0]]])
    expect(pages.map((p) => p.page.total)).toEqual([3, 3])
    expect(pages[0]!.page.current).toBe(
      `contractId ${encodeURIComponent(pages[0]!.items[0]!.contractId)}..${encodeURIComponent(pages[0]!.items[1]!.contractId)}`
    )
    expect(pages[1]!.page.next).toBeUndefined()

    const ascending = await client.getContracts({ tags: ['desk.page'], range: itemRange('contractId;order asc') })
    expect(ascending.contracts.map((h) => h.contractId)).toEqual(ids)

    const byBob = await client.getContracts({ tags: ['desk.page'], partyAddresses: [addressBech32(bob.address)] })
    expect(byBob.contracts.map((h) => h.contractId)).toEqual([ids[1]])
    const byAlice = await client.getContracts({ partyAddresses: [addressBech32(alice.address)] })
    expect(byAlice.contracts.map((h) => h.contractId)).toEqual([ids[2], ids[0]])
    expect((await client.getContracts({ tags: ['desk.none'] })).contracts).toEqual([])
  })
})
