/**
 * POST /role-tokens/burnTxs and PUT /role-tokens/burnTxs/{txId} (runtime-api.md §3.13) over real HTTP on a
 * sandbox and a SQLite file: two closed contracts and an open one, each with role tokens minted to alice. The
 * filters pick tokens per (contract, token); an open contract's tokens are refused; the burn is signed, PUT,
 * confirmed, and alice keeps her ada but no longer the tokens.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { bytesToHex, hexToBytes, utf8Encode } from '../../src/core/bytes'
import { decodeTransaction } from '../../src/core/cardano/tx/decode'
import type { JsonValue } from '../../src/core/json/lossless'
import { sumValues } from '../../src/engine/build/values'
import { testWallet } from '../engine/build/support'
import {
  applyConfirmed,
  call,
  createBody,
  createConfirmed,
  expectApiError,
  NOTIFY,
  notifyChain,
  objectOf,
  resourceOf,
  signAndPut,
  startServer,
  storeDump,
  stringOf,
  walletHeaders,
  type Answer,
  type TestServer
} from './support'

const VENDOR = 'application/vendor.iog.marlowe-runtime.burn-role-tokens-tx-json'
const alice = testWallet('alice')
const hex = (s: string): string => bytesToHex(utf8Encode(s)!)

let server: TestServer
/** Closed: A (Buyer, Seller) and C (Buyer); open: B (Buyer). */
const contracts = { a: '', b: '', c: '' }
const policies = { a: '', b: '', c: '' }

async function rolesContract(roles: Record<string, string>, close: boolean): Promise<[string, string]> {
  const contractId = await createConfirmed(server, alice, createBody(notifyChain(1), { roles }))
  if (close)
    await applyConfirmed(server, contractId, alice, { version: 'v1', inputs: [NOTIFY], tags: {}, metadata: {} })
  const resource = resourceOf(await call(server, 'GET', `/contracts/${encodeURIComponent(contractId)}`))
  expect(resource.status).toBe('confirmed')
  return [contractId, stringOf(resource.roleTokenMintingPolicyId, 'policy')]
}

function burn(filter: JsonValue, accept = VENDOR): Promise<Answer> {
  return call(server, 'POST', '/role-tokens/burnTxs', { body: filter, headers: walletHeaders(alice, { accept }) })
}

/** The tokens a burn answer's tx burns, as `policy.name` → quantity burned. */
function burnedBy(answer: Answer): Record<string, bigint> {
  expect(answer.status, answer.text).toBe(201)
  const body = objectOf(answer.json)
  expect(Object.keys(body).sort()).toEqual(['tx', 'txId'])
  const tx = hexToBytes(stringOf(objectOf(body.tx, 'tx').cborHex, 'cborHex'))
  const mint = decodeTransaction(tx).body.mint
  return Object.fromEntries(
    mint.flatMap((p) => p.assets.map((a) => [`${p.policyId}.${a.assetName}`, -a.quantity] as const)).sort()
  )
}

const aliceHolds = async () => sumValues((await server.sandbox.utxosAt([alice.address])).map((u) => u.value))

beforeAll(async () => {
  server = await startServer()
  ;[contracts.a, policies.a] = await rolesContract({ Buyer: alice.address, Seller: alice.address }, true)
  ;[contracts.b, policies.b] = await rolesContract({ Buyer: alice.address }, false)
  ;[contracts.c, policies.c] = await rolesContract({ Buyer: alice.address }, true)
}, 240_000)

afterAll(async () => server?.close())

describe('POST /role-tokens/burnTxs', () => {
  test('filters pick tokens per contract and token', async () => {
    expect(burnedBy(await burn({ contract_id: contracts.a }))).toEqual({
      [`${policies.a}.${hex('Buyer')}`]: 1n,
      [`${policies.a}.${hex('Seller')}`]: 1n
    })
    expect(burnedBy(await burn({ roles_currency: [policies.c] }))).toEqual({ [`${policies.c}.${hex('Buyer')}`]: 1n })
    const sellerOfA = { role_tokens: { policyId: policies.a, assetName: 'Seller' } }
    expect(burnedBy(await burn({ and: [{ roles_currency: policies.a }, { not: sellerOfA }] }))).toEqual({
      [`${policies.a}.${hex('Buyer')}`]: 1n
    })
    expect(burnedBy(await burn({ or: [{ contract_id: [contracts.c] }, sellerOfA] }))).toEqual({
      [`${policies.a}.${hex('Seller')}`]: 1n,
      [`${policies.c}.${hex('Buyer')}`]: 1n
    })
  })

  test('the JSON Accept answers a bare {txId, txBody}', async () => {
    const answer = await burn({ contract_id: contracts.c }, 'application/json')
    expect(answer.status, answer.text).toBe(201)
    const body = objectOf(answer.json)
    expect(Object.keys(body).sort()).toEqual(['txBody', 'txId'])
    expect(objectOf(body.txBody).type).toBe('TxBodyConway')
  })

  test("an open contract's tokens are refused, naming its policy", async () => {
    const refused = expectApiError(await burn(true), 400, 'BurnRolesActive')
    expect(objectOf(refused.details).policyIds).toEqual([policies.b])
    expectApiError(await burn({ contract_id: contracts.b }), 400, 'BurnRolesActive')
  })

  test('nothing to burn, and malformed filters, are 400s', async () => {
    expectApiError(await burn(false), 400, 'BurnNoTokensToBurn')
    expectApiError(await burn({ contract_id: `${'0'.repeat(64)}#0` }), 400, 'BurnNoTokensToBurn')
    const bad = expectApiError(await burn({}), 400, 'RequestBodyParseError')
    expect(bad.message).toBe('$: Parsing RoleTokenFilter failed, Unexpected number of keys, expected exactly 1.')
    expectApiError(await burn({ roles_currency: 'xyz' }), 400, 'RequestBodyParseError')
    expectApiError(await call(server, 'POST', '/role-tokens/burnTxs', { body: true }), 400, 'BadRequest')
  })

  test('a burn signed, PUT and confirmed: the tokens are gone, the ada is back', async () => {
    const before = await aliceHolds()
    const answer = await burn({ not: { roles_currency: policies.b } })
    expect(burnedBy(answer)).toEqual({
      [`${policies.a}.${hex('Buyer')}`]: 1n,
      [`${policies.a}.${hex('Seller')}`]: 1n,
      [`${policies.c}.${hex('Buyer')}`]: 1n
    })
    const txId = stringOf(objectOf(answer.json).txId, 'txId')
    const tx = hexToBytes(stringOf(objectOf(objectOf(answer.json).tx).cborHex, 'cborHex'))
    await signAndPut(server, `/role-tokens/burnTxs/${txId}`, tx, [alice])
    await server.opened.follower.sync()
    expect(await server.sandbox.txStatus(txId)).toMatchObject({ status: 'confirmed' })
    const row = storeDump(server.databasePath).txs?.find((t) => objectOf(t as JsonValue).tx_id === txId)
    expect(row).toMatchObject({ kind: 'burn', status: 'confirmed', contract_id: null })

    const after = await aliceHolds()
    expect(after.assets[policies.a]).toBeUndefined()
    expect(after.assets[policies.c]).toBeUndefined()
    expect(after.assets[policies.b]).toEqual({ [hex('Buyer')]: 1n })
    expect(after.lovelace).toBe(before.lovelace - decodeTransaction(tx).body.fee)

    const again = await call(server, 'PUT', `/role-tokens/burnTxs/${txId}`, {
      body: { type: 'Tx ConwayEra', description: '', cborHex: bytesToHex(tx) }
    })
    expectApiError(again, 409, 'TxAlreadySubmitted')
    expectApiError(await burn({ contract_id: contracts.a }), 400, 'BurnNoTokensToBurn')
  })

  test('a closed contract whose policy an open contract also uses keeps its tokens', async () => {
    const [closed, policy] = await rolesContract({ Buyer: alice.address }, true)
    expect(burnedBy(await burn({ contract_id: closed }))).toEqual({ [`${policy}.${hex('Buyer')}`]: 1n })
    await createConfirmed(server, alice, createBody(notifyChain(1), { roles: policy }))
    const refused = expectApiError(await burn({ contract_id: closed }), 400, 'BurnRolesActive')
    expect(objectOf(refused.details).policyIds).toEqual([policy])
  })

  test('the OpenAPI document describes both routes and the filter', async () => {
    const paths = objectOf(objectOf((await call(server, 'GET', '/openapi.json')).json).paths)
    const post = objectOf(objectOf(paths['/role-tokens/burnTxs']).post)
    expect(JSON.stringify(post.requestBody)).toContain('#/components/schemas/RoleTokenFilter')
    expect(Object.keys(objectOf(objectOf(objectOf(post.responses)['201']).content))).toContain(VENDOR)
    expect(objectOf(paths['/role-tokens/burnTxs/{txId}']).put).toBeDefined()
  })

  test('PUT of an unknown burn is 400 "Transaction not found"', async () => {
    const unknown = await call(server, 'PUT', `/role-tokens/burnTxs/${'ab'.repeat(32)}`, {
      body: { type: 'Tx ConwayEra', description: '', cborHex: '00' }
    })
    expect(expectApiError(unknown, 400, 'TxNotFound').message).toBe('Transaction not found')
  })
})
