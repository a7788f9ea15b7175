/**
 * Every route over real HTTP on 127.0.0.1: a roles escrow from POST /contracts to a confirmed withdrawal, with
 * Runtime's resource JSON (every field present, `null` for a Maybe), relative links, status headers and Accept
 * negotiation checked on the way; and amounts above 2^53 exact in and out.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { hexToBytes } from '../../src/core/bytes'
import { type JsonObject, type JsonValue } from '../../src/core/json/lossless'
import { ESCROW_CHOICES } from '../../src/core/marlowe/examples'
import { encodeContract, encodeInput } from '../../src/core/marlowe/json/encode'
import { ADA as ADA_TOKEN, type Input, type Party } from '../../src/core/marlowe/types'
import { rolesEscrow } from '../engine/build/flows'
import { ADA, T0, costCheckNotes, testWallet, type TestWallet } from '../engine/build/support'
import { witnessEnvelope } from '../engine/service/support'
import {
  bodyWitnessEnvelope,
  call,
  createBody,
  createConfirmed,
  expectApiError,
  JSON_CONTENT_TYPE,
  objectOf,
  resolveLink,
  signAndPut,
  startServer,
  stringOf,
  unsignedTxOf,
  walletHeaders,
  type Answer,
  type TestServer
} from './support'

const alice = testWallet('alice')
const bob = testWallet('bob')
const carol = testWallet('carol')
const dave = testWallet('dave')

const VENDOR = {
  create: 'application/vendor.iog.marlowe-runtime.contract-tx-json',
  apply: 'application/vendor.iog.marlowe-runtime.apply-inputs-tx-json',
  withdraw: 'application/vendor.iog.marlowe-runtime.withdraw-tx-json'
}

const CONTRACT_STATE_KEYS = [
  'contractId',
  'roleTokenMintingPolicyId',
  'version',
  'tags',
  'metadata',
  'status',
  'block',
  'initialContract',
  'initialState',
  'currentContract',
  'state',
  'utxo',
  'assets',
  'txBody',
  'unclaimedPayouts'
]
const CONTRACT_HEADER_KEYS = [
  'contractId',
  'roleTokenMintingPolicyId',
  'version',
  'tags',
  'metadata',
  'status',
  'block'
]
const TX_KEYS = [
  'contractId',
  'transactionId',
  'tags',
  'metadata',
  'status',
  'block',
  'inputUtxo',
  'inputContract',
  'inputState',
  'inputs',
  'outputUtxo',
  'outputContract',
  'outputState',
  'assets',
  'payouts',
  'consumingTx',
  'invalidBefore',
  'invalidHereafter',
  'reconstructedSemanticInput',
  'reconstructedSemanticOutput',
  'txBody'
]
const TX_HEADER_KEYS = ['contractId', 'transactionId', 'tags', 'metadata', 'status', 'block', 'utxo']
const PAYOUT_HEADER_KEYS = ['payoutId', 'contractId', 'withdrawalId', 'role', 'status']

const sorted = (keys: readonly string[]): string[] => [...keys].sort()
const keysOf = (value: JsonValue | undefined): string[] => Object.keys(objectOf(value)).sort()
const resourceOf = (a: Answer): JsonObject => objectOf(objectOf(a.json).resource, 'resource')
const linksOf = (a: Answer): JsonObject => objectOf(objectOf(a.json).links, 'links')
const resultsOf = (a: Answer): JsonObject[] => {
  const results = objectOf(a.json).results
  if (!Array.isArray(results)) throw new Error(`no results: ${a.text}`)
  return results.map((r) => objectOf(r))
}
const TX_ID = /^[0-9a-f]{64}$/
const REF = /^[0-9a-f]{64}#[0-9]+$/

/** The status headers Runtime puts on every routed answer (runtime-api.md §1.2). */
function expectStatusHeaders(a: Answer): void {
  for (const name of ['x-node-tip', 'x-runtime-chain-tip', 'x-runtime-tip']) {
    const tip = objectOf(JSON.parse(a.headers.get(name) ?? 'null') as JsonValue, name)
    const header = objectOf(tip.blockHeader as JsonValue, `${name}.blockHeader`)
    expect(typeof header.slotNo).toBe('number')
    expect(typeof header.blockNo).toBe('number')
    expect(header.blockHeaderHash).toMatch(TX_ID)
    expect(tip.slotTimeUTC).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/)
  }
  expect(a.headers.get('x-network-id')).toBe('42')
  expect(a.headers.get('x-runtime-version')).toBe('1.0.0')
}

function expectEnvelope(value: JsonValue | undefined, type: string): Uint8Array {
  const env = objectOf(value, type)
  expect(sorted(Object.keys(env))).toEqual(['cborHex', 'description', 'type'])
  expect(env.type).toBe(type)
  expect(env.description).toBe('')
  expect(env.cborHex).toMatch(/^(?:[0-9a-f]{2})+$/)
  return hexToBytes(stringOf(env.cborHex, 'cborHex'))
}

const role = (name: string): Party => ({ type: 'Role', role: name })
const choice = (name: string, owner: string, chosen: bigint): JsonValue =>
  encodeInput({ content: { type: 'IChoice', choice: { name, owner: role(owner) }, chosen } })
const applyBody = (inputs: JsonValue[], extra: JsonObject = {}): JsonObject => ({
  version: 'v1',
  inputs,
  tags: {},
  metadata: {},
  ...extra
})

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server.close()
})

describe('status', () => {
  test('GET /healthcheck: 200, empty body, status headers', async () => {
    const a = await call(server, 'GET', '/healthcheck')
    expect(a.status).toBe(200)
    expect(a.text).toBe('')
    expectStatusHeaders(a)
    const tip = objectOf(JSON.parse(a.headers.get('x-node-tip') ?? '') as JsonValue)
    // The sandbox clock stands 10 s after slot 0 (2025-01-01T00:00:00Z).
    expect(tip.slotTimeUTC).toBe('2025-01-01T00:00:10Z')
  })

  test('GET /openapi.json describes the API', async () => {
    const a = await call(server, 'GET', '/openapi.json')
    expect(a.status).toBe(200)
    expect(a.headers.get('content-type')).toBe(JSON_CONTENT_TYPE)
    const doc = objectOf(a.json)
    expect(String(doc.openapi)).toMatch(/^3\./)
    expect(Object.keys(objectOf(doc.paths))).toEqual(expect.arrayContaining(['/contracts', '/withdrawals', '/payouts']))
  })

  test('an unknown route is a JSON 404 that still carries the status headers', async () => {
    const a = await call(server, 'GET', '/contracts/sources/abc/closure/more')
    expectApiError(a, 404, 'NotFound')
    expectStatusHeaders(a)
  })
})

describe('a roles escrow, end to end over HTTP', () => {
  let contractId = ''
  let contractPath = ''
  let rolesCurrency = ''
  let createdTxBody: Uint8Array = new Uint8Array()
  let createdTx: Uint8Array = new Uint8Array()
  const applied: string[] = []
  let payoutId = ''
  let withdrawalId = ''

  test('POST /contracts (no Accept): 201 with contractId, txBody, tx, safetyErrors and a %23 link', async () => {
    const a = await call(server, 'POST', '/contracts', {
      body: createBody(encodeContract(rolesEscrow()), {
        roles: { Buyer: alice.address, Seller: bob.address, Mediator: carol.address },
        tags: { 'desk.http': null, 'desk.payload': { n: 18446744073709551615n } },
        metadata: { '674': { msg: ['escrow over HTTP'] } }
      }),
      headers: walletHeaders(carol)
    })
    expect(a.status, a.text).toBe(201)
    expect(a.headers.get('content-type')).toBe(JSON_CONTENT_TYPE)
    expectStatusHeaders(a)
    const r = resourceOf(a)
    expect(keysOf(r)).toEqual(['contractId', 'safetyErrors', 'tx', 'txBody'])
    contractId = stringOf(r.contractId, 'contractId')
    expect(contractId).toMatch(REF)
    createdTxBody = expectEnvelope(r.txBody, 'TxBodyConway')
    createdTx = expectEnvelope(r.tx, 'Tx ConwayEra')
    expect(r.safetyErrors).toEqual(costCheckNotes(server.sandbox))
    expect(linksOf(a)).toEqual({ contract: `contracts/${contractId.replace('#', '%23')}` })
    contractPath = resolveLink(server.base, stringOf(linksOf(a).contract, 'link'))
    expect(contractPath).toBe(`/contracts/${contractId.slice(0, 64)}%23${contractId.slice(65)}`)
  })

  test('GET the unsigned contract: every ContractState field, nulls for block and utxo, the txBody', async () => {
    const a = await call(server, 'GET', contractPath)
    expect(a.status).toBe(200)
    expectStatusHeaders(a)
    const r = resourceOf(a)
    expect(keysOf(r)).toEqual(sorted(CONTRACT_STATE_KEYS))
    expect(r).toMatchObject({
      contractId,
      version: 'v1',
      status: 'unsigned',
      block: null,
      utxo: null,
      tags: { 'desk.http': null, 'desk.payload': { n: 18446744073709551615n } },
      metadata: { '674': { msg: ['escrow over HTTP'] } },
      initialContract: encodeContract(rolesEscrow()),
      currentContract: encodeContract(rolesEscrow()),
      unclaimedPayouts: []
    })
    rolesCurrency = stringOf(r.roleTokenMintingPolicyId, 'roleTokenMintingPolicyId')
    expect(rolesCurrency).toMatch(/^[0-9a-f]{56}$/)
    expect(expectEnvelope(r.txBody, 'TxBodyConway')).toEqual(createdTxBody)
    expect(r.state).toEqual(r.initialState)
    // Only a confirmed contract links to its transactions.
    expect(linksOf(a)).toEqual({})
  })

  test('unsigned and submitted contracts are not listed', async () => {
    const a = await call(server, 'GET', '/contracts')
    expect(a.status).toBe(206)
    expect(resultsOf(a)).toEqual([])
    expect(a.headers.get('total-count')).toBe('0')
  })

  test('PUT the witness set (labelled Babbage, as the ts-sdk does): 202, then submitted and a 409', async () => {
    const a = await call(server, 'PUT', contractPath, { body: { ...witnessEnvelope(createdTx, [carol], 'Babbage') } })
    expect(a.status, a.text).toBe(202)
    expect(a.text).toBe('')
    expectStatusHeaders(a)
    const got = await call(server, 'GET', contractPath)
    expect(resourceOf(got)).toMatchObject({ status: 'submitted', txBody: null, block: null })
    const again = await call(server, 'PUT', contractPath, { body: { ...witnessEnvelope(createdTx, [carol]) } })
    expectApiError(again, 409, 'ContractAlreadySubmitted')
    expectStatusHeaders(again)
  })

  test('the follower confirms it: block, utxo, the transactions link, listed', async () => {
    expect((await server.opened.follower.sync()).confirmed).toEqual([contractId.slice(0, 64)])
    const a = await call(server, 'GET', contractPath)
    const r = resourceOf(a)
    expect(r.status).toBe('confirmed')
    expect(keysOf(r.block)).toEqual(['blockHeaderHash', 'blockNo', 'slotNo'])
    expect(objectOf(r.block).blockHeaderHash).toMatch(TX_ID)
    expect(r.utxo).toBe(contractId)
    expect(r.txBody).toBeNull()
    expect(linksOf(a)).toEqual({ transactions: `contracts/${contractId.replace('#', '%23')}/transactions` })
    expect(objectOf(r.assets).lovelace).toBeGreaterThan(0n)

    const list = await call(server, 'GET', '/contracts')
    expect(list.status).toBe(206)
    const [item] = resultsOf(list)
    expect(keysOf(item!.resource)).toEqual(sorted(CONTRACT_HEADER_KEYS))
    expect(objectOf(item!.resource).contractId).toBe(contractId)
    expect(item!.links).toEqual({
      contract: `contracts/${contractId.replace('#', '%23')}`,
      transactions: `contracts/${contractId.replace('#', '%23')}/transactions`
    })
    const transactions = await call(server, 'GET', `${contractPath}/transactions`)
    expect(transactions.status).toBe(206)
    expect(resultsOf(transactions)).toEqual([])
  })

  test('GET …/next: the Buyer may deposit 100 ada', async () => {
    const a = await call(
      server,
      'GET',
      `${contractPath}/next?validityStart=2025-01-01T00:00:10Z&validityEnd=2025-01-01T00:10:00Z&party=Buyer`
    )
    expect(a.status, a.text).toBe(200)
    expectStatusHeaders(a)
    const body = objectOf(a.json)
    // A When waiting for a deposit before its timeout cannot be reduced without an input.
    expect(body.can_reduce).toBe(false)
    const inputs = objectOf(body.applicable_inputs)
    expect(inputs.deposits).toEqual([
      {
        party: { role_token: 'Buyer' },
        can_deposit: 100n * ADA,
        of_token: { currency_symbol: '', token_name: '' },
        into_account: { role_token: 'Seller' },
        case_index: 0n,
        is_merkleized_continuation: false
      }
    ])
    // The Seller has nothing to do yet.
    const seller = await call(
      server,
      'GET',
      `${contractPath}/next?validityStart=2025-01-01T00:00:10Z&validityEnd=2025-01-01T00:10:00Z&party=Seller`
    )
    expect(objectOf(objectOf(seller.json).applicable_inputs).deposits).toEqual([])
  })

  /**
   * Builds with the given Accept, signs the variant's unsigned form, PUTs by the link, follows. A step that closes
   * the contract leaves nothing for the safety analysis.
   */
  async function step(wallet: TestWallet, input: JsonValue, accept?: string, closes = false): Promise<string> {
    const a = await call(server, 'POST', `${contractPath}/transactions`, {
      body: applyBody([input]),
      headers: walletHeaders(wallet, accept === undefined ? {} : { accept })
    })
    expect(a.status, a.text).toBe(201)
    const r = resourceOf(a)
    const transactionId = stringOf(r.transactionId, 'transactionId')
    expect(transactionId).toMatch(TX_ID)
    expect(r.contractId).toBe(contractId)
    expect(r.safetyErrors).toEqual(closes ? [] : costCheckNotes(server.sandbox))
    expect(linksOf(a)).toEqual({
      transaction: `contracts/${contractId.replace('#', '%23')}/transactions/${transactionId}`
    })
    const path = resolveLink(server.base, stringOf(linksOf(a).transaction, 'link'))
    if (accept === VENDOR.apply) {
      expect(keysOf(r)).toEqual(['contractId', 'safetyErrors', 'transactionId', 'tx'])
      await signAndPut(server, path, expectEnvelope(r.tx, 'Tx ConwayEra'), [wallet])
    } else {
      // The JSON variant carries only the body: a wallet signs its hash.
      expect(keysOf(r)).toEqual(['contractId', 'safetyErrors', 'transactionId', 'txBody'])
      const body = expectEnvelope(r.txBody, 'TxBodyConway')
      const unsigned = resourceOf(await call(server, 'GET', path))
      expect(unsigned.status).toBe('unsigned')
      expect(expectEnvelope(unsigned.txBody, 'TxBodyConway')).toEqual(body)
      const put = await call(server, 'PUT', path, { body: bodyWitnessEnvelope(body, [wallet]) })
      expect(put.status, put.text).toBe(202)
    }
    expect(resourceOf(await call(server, 'GET', path)).status).toBe('submitted')
    await server.opened.follower.sync()
    applied.push(transactionId)
    // The next step lands in a later slot, as on a real chain.
    server.clock.ms += 2_000n
    return transactionId
  }

  test('deposit (vendor Accept) → GET the tx: every Tx field, confirmed, no previous link', async () => {
    const deposit: Input = {
      content: { type: 'IDeposit', account: role('Seller'), party: role('Buyer'), token: ADA_TOKEN, amount: 100n * ADA }
    }
    const txId = await step(alice, encodeInput(deposit), VENDOR.apply)
    const a = await call(server, 'GET', `${contractPath}/transactions/${txId}`)
    expect(a.status).toBe(200)
    const r = resourceOf(a)
    expect(keysOf(r)).toEqual(sorted(TX_KEYS))
    expect(r).toMatchObject({
      contractId,
      transactionId: txId,
      status: 'confirmed',
      inputUtxo: contractId,
      inputs: [encodeInput(deposit)],
      consumingTx: null,
      txBody: null,
      payouts: []
    })
    expect(r.outputUtxo).toMatch(new RegExp(`^${txId}#\\d+$`))
    expect(r.invalidBefore).toMatch(/^2025-01-01T/)
    expect(r.invalidHereafter).toMatch(/^2025-01-0\dT/)
    const semantic = objectOf(r.reconstructedSemanticInput)
    expect(semantic.tx_inputs).toEqual([encodeInput(deposit)])
    expect(keysOf(semantic.tx_interval)).toEqual(['from', 'to'])
    expect(linksOf(a)).toEqual({})
  })

  test('three choices (JSON Accept, signing the txBody) close the contract with a payout to the Seller', async () => {
    const c = ESCROW_CHOICES
    await step(alice, choice(c.reportProblem.name, 'Buyer', c.reportProblem.chosen))
    await step(bob, choice(c.disputeProblem.name, 'Seller', c.disputeProblem.chosen))
    const last = await step(carol, choice(c.dismissClaim.name, 'Mediator', c.dismissClaim.chosen), undefined, true)

    const a = await call(server, 'GET', `${contractPath}/transactions/${last}`)
    const r = resourceOf(a)
    expect(r).toMatchObject({ outputUtxo: null, outputContract: null, outputState: null, status: 'confirmed' })
    const payouts = r.payouts as JsonValue[]
    expect(payouts).toHaveLength(1)
    const payout = objectOf(payouts[0])
    expect(keysOf(payout)).toEqual(['assets', 'payoutId', 'role'])
    expect(payout.role).toBe('Seller')
    expect(payout.assets).toEqual({ lovelace: 100n * ADA, tokens: {} })
    payoutId = stringOf(payout.payoutId, 'payoutId')
    expect(payoutId).toMatch(new RegExp(`^${last}#\\d+$`))
    expect(linksOf(a)).toEqual({ previous: `contracts/${contractId.replace('#', '%23')}/transactions/${applied[2]}` })

    // The first step now links on to the second.
    const first = await call(server, 'GET', `${contractPath}/transactions/${applied[0]}`)
    expect(resourceOf(first).consumingTx).toBe(applied[1])
    expect(linksOf(first)).toEqual({ next: `contracts/${contractId.replace('#', '%23')}/transactions/${applied[1]}` })
  })

  test('the closed contract: null current contract, state and utxo, empty assets, the unclaimed payout', async () => {
    const r = resourceOf(await call(server, 'GET', contractPath))
    expect(r).toMatchObject({
      currentContract: null,
      state: null,
      utxo: null,
      assets: { lovelace: 0n, tokens: {} },
      unclaimedPayouts: [{ payoutId, role: 'Seller', assets: { lovelace: 100n * ADA, tokens: {} } }]
    })
    const next = await call(
      server,
      'GET',
      `${contractPath}/next?validityStart=2025-01-01T00:00:10Z&validityEnd=2025-01-01T00:10:00Z`
    )
    expectApiError(next, 404, 'contractClosed')
  })

  test('GET …/transactions lists the four applications newest first, with links', async () => {
    const a = await call(server, 'GET', `${contractPath}/transactions`)
    expect(a.status).toBe(206)
    expect(a.headers.get('total-count')).toBe('4')
    const results = resultsOf(a)
    expect(results.map((t) => objectOf(t.resource).transactionId)).toEqual([...applied].reverse())
    for (const item of results) {
      const r = objectOf(item.resource)
      expect(keysOf(r)).toEqual(sorted(TX_HEADER_KEYS))
      expect(item.links).toEqual({
        transaction: `contracts/${contractId.replace('#', '%23')}/transactions/${String(r.transactionId)}`
      })
    }
    // The closing transaction has no Marlowe output; the others do.
    expect(objectOf(results[0]!.resource).utxo).toBeNull()
    expect(objectOf(results[1]!.resource).utxo).toMatch(REF)
  })

  test('GET /payouts and /payouts/{id}: the available payout, its links', async () => {
    const list = await call(server, 'GET', `/payouts?status=available&contractId=${encodeURIComponent(contractId)}`)
    expect(list.status).toBe(206)
    const [item] = resultsOf(list)
    expect(keysOf(item!.resource)).toEqual(sorted(PAYOUT_HEADER_KEYS))
    expect(item!.resource).toEqual({
      payoutId,
      contractId,
      withdrawalId: null,
      role: { policyId: rolesCurrency, assetName: 'Seller' },
      status: 'available'
    })
    expect(item!.links).toEqual({ payout: `payouts/${payoutId.replace('#', '%23')}` })
    const byRole = await call(server, 'GET', `/payouts?roleToken=${rolesCurrency}.Seller`)
    expect(resultsOf(byRole)).toHaveLength(1)
    expect(resultsOf(await call(server, 'GET', `/payouts?roleToken=${rolesCurrency}.Buyer`))).toEqual([])
    expect(resultsOf(await call(server, 'GET', '/payouts?status=WITHDRAWN'))).toEqual([])

    const a = await call(
      server,
      'GET',
      resolveLink(server.base, stringOf(item!.links ? objectOf(item!.links).payout : '', 'link'))
    )
    expect(a.status).toBe(200)
    const r = resourceOf(a)
    expect(keysOf(r)).toEqual(sorted([...PAYOUT_HEADER_KEYS, 'payoutValidatorAddress', 'assets']))
    expect(r.payoutValidatorAddress).toMatch(/^addr_test1/)
    expect(r.assets).toEqual({ lovelace: 100n * ADA, tokens: {} })
    expect(linksOf(a)).toEqual({
      contract: `contracts/${contractId.replace('#', '%23')}`,
      transaction: `contracts/${contractId.replace('#', '%23')}/transactions/${payoutId.slice(0, 64)}`
    })
  })

  test('POST /withdrawals: 406 for a foreign Accept, 201 with the vendor type; GET is a bare Withdrawal', async () => {
    expectApiError(
      await call(server, 'POST', '/withdrawals', {
        body: { payouts: [payoutId] },
        headers: walletHeaders(bob, { accept: VENDOR.create })
      }),
      406,
      'NotAcceptable'
    )
    const a = await call(server, 'POST', '/withdrawals', {
      body: { payouts: [payoutId, payoutId] },
      headers: walletHeaders(bob, { accept: VENDOR.withdraw })
    })
    expect(a.status, a.text).toBe(201)
    const r = resourceOf(a)
    expect(keysOf(r)).toEqual(['tx', 'withdrawalId'])
    withdrawalId = stringOf(r.withdrawalId, 'withdrawalId')
    expect(linksOf(a)).toEqual({ withdrawal: `withdrawals/${withdrawalId}` })
    const path = resolveLink(server.base, `withdrawals/${withdrawalId}`)

    const unsigned = await call(server, 'GET', path)
    expect(unsigned.status).toBe(200)
    expect(keysOf(unsigned.json)).toEqual(['block', 'payouts', 'status', 'withdrawalId'])
    expect(objectOf(unsigned.json)).toMatchObject({ withdrawalId, status: 'unsigned', block: null })

    await signAndPut(server, path, expectEnvelope(r.tx, 'Tx ConwayEra'), [bob])
    expectApiError(
      await call(server, 'PUT', path, { body: { ...witnessEnvelope(unsignedTxOf(a), [bob]) } }),
      409,
      'WithdrawalAlreadySubmitted'
    )
    await server.opened.follower.sync()
    const done = objectOf((await call(server, 'GET', path)).json)
    expect(done.status).toBe('confirmed')
    expect(done.payouts).toEqual([
      {
        payoutId,
        contractId,
        withdrawalId,
        role: { policyId: rolesCurrency, assetName: 'Seller' },
        status: 'withdrawn'
      }
    ])
  })

  test('the status headers follow the chain: the tip is the block of the withdrawal', async () => {
    server.clock.ms += 2_000n
    const a = await call(server, 'GET', '/healthcheck')
    const tip = objectOf(objectOf(JSON.parse(a.headers.get('x-node-tip') ?? '') as JsonValue).blockHeader)
    const block = objectOf(objectOf((await call(server, 'GET', `/withdrawals/${withdrawalId}`)).json).block)
    expect(BigInt(Number(tip.blockNo))).toBe(block.blockNo)
    expect(tip.blockHeaderHash).toBe(block.blockHeaderHash)
    expect(BigInt(Number(tip.slotNo))).toBeGreaterThanOrEqual(block.slotNo as bigint)
  })

  test('after the withdrawal: lists, filters and links reflect it', async () => {
    const list = await call(server, 'GET', '/withdrawals')
    expect(list.status).toBe(206)
    const [item, ...more] = resultsOf(list)
    expect(more).toEqual([])
    expect(item!.resource).toEqual({
      withdrawalId,
      status: 'confirmed',
      block: expect.objectContaining({ blockNo: expect.any(BigInt) })
    })
    expect(objectOf(item!.links).withdrawal).toBe(`withdrawals/${withdrawalId}`)
    expect(resultsOf(await call(server, 'GET', `/withdrawals?roleCurrency=${rolesCurrency}`))).toHaveLength(1)
    expect(resultsOf(await call(server, 'GET', `/withdrawals?roleCurrency=${'00'.repeat(28)}`))).toEqual([])
    expect(resultsOf(await call(server, 'GET', '/payouts?status=available'))).toEqual([])
    expect(resultsOf(await call(server, 'GET', '/payouts?status=withdrawn'))).toHaveLength(1)
    const payout = await call(server, 'GET', `/payouts/${payoutId.replace('#', '%23')}`)
    expect(resourceOf(payout)).toMatchObject({ status: 'withdrawn', withdrawalId })
    expect(linksOf(payout).withdrawal).toBe(`withdrawals/${withdrawalId}`)
    expect(resourceOf(await call(server, 'GET', contractPath)).unclaimedPayouts).toEqual([])
    // Contract filters: by role currency, by party role, by tag.
    const one = (q: string) => call(server, 'GET', `/contracts?${q}`).then(resultsOf)
    expect(await one(`roleCurrency=${rolesCurrency}`)).toHaveLength(1)
    expect(await one(`partyRole=${rolesCurrency}.Mediator`)).toHaveLength(1)
    expect(await one(`partyRole=${rolesCurrency}.Nobody`)).toEqual([])
    expect(await one('tag=desk.http')).toHaveLength(1)
    expect(await one('tag=desk.other')).toEqual([])
    expect(await one(`tag=desk.http&roleCurrency=${'00'.repeat(28)}`)).toEqual([])
  })
})

describe('Accept negotiation on POST /contracts', () => {
  const body = createBody('close')
  const cases: ReadonlyArray<[string, string | undefined, string[]]> = [
    ['no Accept', undefined, ['contractId', 'safetyErrors', 'tx', 'txBody']],
    ['application/json', 'application/json', ['contractId', 'safetyErrors', 'tx', 'txBody']],
    ['*/*', '*/*', ['contractId', 'safetyErrors', 'tx', 'txBody']],
    ['the vendor type', VENDOR.create, ['contractId', 'safetyErrors', 'tx']],
    ['the vendor type among others', `text/html, ${VENDOR.create};q=0.9`, ['contractId', 'safetyErrors', 'tx']]
  ]
  // Each unsigned build holds its inputs until it is submitted: spread the builds over the wallets.
  const wallets = [dave, alice, bob, carol, dave]
  test.each(cases.map((c, i) => [...c, wallets[i]!] as const))('%s → 201 with %j', async (_n, accept, keys, wallet) => {
    const a = await call(server, 'POST', '/contracts', {
      body,
      headers: walletHeaders(wallet, accept === undefined ? {} : { accept })
    })
    expect(a.status, a.text).toBe(201)
    expect(keysOf(resourceOf(a))).toEqual(keys)
    expect(objectOf(resourceOf(a).tx).type).toBe('Tx ConwayEra')
  })

  test.each([
    ['text/html'],
    [VENDOR.apply],
    ['application/xml, text/plain'],
    ['application/json;q=0'],
    [`${VENDOR.create};q=0`]
  ])('Accept %s → 406 NotAcceptable', async (accept) => {
    expectApiError(
      await call(server, 'POST', '/contracts', { body, headers: walletHeaders(dave, { accept }) }),
      406,
      'NotAcceptable'
    )
  })

  test('Accept on apply: the create vendor type is not the apply one', async () => {
    const contractId = await createConfirmed(server, bob, createBody(notifyContract()))
    const path = `/contracts/${encodeURIComponent(contractId)}/transactions`
    const notify = applyBody([encodeInput({ content: { type: 'INotify' } })])
    expectApiError(
      await call(server, 'POST', path, { body: notify, headers: walletHeaders(bob, { accept: VENDOR.create }) }),
      406,
      'NotAcceptable'
    )
    const a = await call(server, 'POST', path, { body: notify, headers: walletHeaders(bob) })
    expect(a.status, a.text).toBe(201)
    expect(keysOf(resourceOf(a))).toEqual(['contractId', 'safetyErrors', 'transactionId', 'txBody'])
  })
})

/** A contract anyone can move on with a Notify, timing out after ten days. */
function notifyContract(): JsonValue {
  return {
    when: [{ case: { notify_if: true }, then: 'close' }],
    timeout: T0 + 10n * 86_400_000n,
    timeout_continuation: 'close'
  }
}

describe('amounts above 2^53 stay exact', () => {
  const HUGE = 18446744073709551615n
  /** Alice deposits HUGE lovelace within a day, or the contract closes. */
  const hugeDeposit = (): JsonValue => ({
    when: [
      {
        case: {
          party: { address: alice.address },
          deposits: HUGE,
          of_token: { currency_symbol: '', token_name: '' },
          into_account: { address: alice.address }
        },
        then: 'close'
      }
    ],
    timeout: T0 + 86_400_000n,
    timeout_continuation: 'close'
  })

  test('a contract constant, a tag payload and a metadata integer of 2^64-1 read back exactly', async () => {
    const contract = hugeDeposit()
    const a = await call(server, 'POST', '/contracts', {
      body: createBody(contract, { tags: { huge: HUGE }, metadata: { '9': { n: HUGE, m: -HUGE } } }),
      headers: walletHeaders(alice)
    })
    expect(a.status, a.text).toBe(201)
    // The raw text has the digits as JSON numbers, not as strings or rounded doubles.
    const got = await call(server, 'GET', `/contracts/${encodeURIComponent(stringOf(resourceOf(a).contractId, 'id'))}`)
    expect(got.text).toContain(`"deposits":${HUGE}`)
    expect(got.text).toContain(`"huge":${HUGE}`)
    expect(got.text).toContain(`"n":${HUGE}`)
    expect(got.text).toContain(`"m":-${HUGE}`)
    expect(got.text).not.toContain('18446744073709552000')
    const r = resourceOf(got)
    expect(r.initialContract).toEqual(contract)
    expect(r.metadata).toEqual({ '9': { n: HUGE, m: -HUGE } })
  })

  test('a minUTxODeposit above 2^53 is used exactly: the lovelace required moves by exactly 1', async () => {
    const required = async (deposit: bigint): Promise<bigint> => {
      const a = await call(server, 'POST', '/contracts', {
        body: createBody('close', { minUTxODeposit: deposit }),
        headers: walletHeaders(carol)
      })
      const details = objectOf(expectApiError(a, 400, 'CoinSelectionFailed').details)
      const failed = objectOf(details.coinSelectionFailed)
      expect(failed.tag).toBe('InsufficientLovelace')
      if (typeof failed.required !== 'bigint') throw new Error(`required is not an integer: ${a.text}`)
      return failed.required
    }
    // 2^53 + 1 is not a double: a server that read it as one would see 2^53 and answer the same for both.
    const base = await required(9007199254740992n)
    expect(await required(9007199254740993n)).toBe(base + 1n)
    expect(await required(9007199254740995n)).toBe(base + 3n)
    expect(base).toBeGreaterThan(9007199254740992n)
  })

  test('2^53+1 minted role tokens, then an initial account holding them all: exact in the state and assets', async () => {
    const MANY = 9007199254740993n
    const minted = await call(server, 'POST', '/contracts', {
      body: createBody('close', { roles: { Big: { recipients: { [alice.address]: MANY } } } }),
      headers: walletHeaders(alice)
    })
    expect(minted.status, minted.text).toBe(201)
    const mintId = stringOf(resourceOf(minted).contractId, 'contractId')
    await signAndPut(server, `/contracts/${encodeURIComponent(mintId)}`, unsignedTxOf(minted), [alice])
    await server.opened.follower.sync()
    const policy = stringOf(
      resourceOf(await call(server, 'GET', `/contracts/${encodeURIComponent(mintId)}`)).roleTokenMintingPolicyId,
      'policy'
    )
    server.clock.ms += 2_000n

    const contractId = await createConfirmed(
      server,
      alice,
      createBody(notifyContract(), {
        accounts: { [alice.address]: { lovelace: 0n, tokens: { [policy]: { Big: MANY } } } }
      })
    )
    const got = await call(server, 'GET', `/contracts/${encodeURIComponent(contractId)}`)
    expect(got.status).toBe(200)
    const r = resourceOf(got)
    expect(objectOf(objectOf(r.assets).tokens)).toEqual({ [policy]: { Big: MANY } })
    expect(got.text).toContain(`"Big":${MANY}`)
    expect(got.text).toContain(`,${MANY}]`)
    const accounts = objectOf(r.state).accounts as JsonValue[]
    expect(accounts).toContainEqual([
      [{ address: alice.address }, { currency_symbol: policy, token_name: 'Big' }],
      MANY
    ])
  })

  test('the next step of a contract with a huge deposit reports it exactly', async () => {
    const contract = hugeDeposit()
    const contractId = await createConfirmed(server, alice, createBody(contract))
    const a = await call(
      server,
      'GET',
      `/contracts/${encodeURIComponent(contractId)}/next?validityStart=2025-01-01T00:00:10Z&validityEnd=2025-01-01T00:01:00Z`
    )
    expect(a.status, a.text).toBe(200)
    expect(a.text).toContain(`"can_deposit":${HUGE}`)
  })
})
