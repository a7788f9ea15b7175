/**
 * One depth policy, over real HTTP: a contract whose transaction the desk could not read back is refused before
 * anything is built, stored or reserved, with its depth and the limit (on create, and on an apply that would
 * write a deep merkleized continuation); the deepest contract that fits is built and read back, and a deep one
 * goes all the way to the chain and the list; labels are held to what every answer can echo; hostile depth is
 * refused by the JSON reader and the server goes on.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { CborReader } from '../../src/core/cardano/cbor'
import { decodeTransaction } from '../../src/core/cardano/tx'
import { MAX_CBOR_DEPTH, MAX_LABEL_DEPTH, MAX_WRITTEN_DATA_CBOR_DEPTH } from '../../src/core/depth-limits'
import { stringifyJson, type JsonObject, type JsonValue } from '../../src/core/json/lossless'
import { decodeContract } from '../../src/core/marlowe/json/decode'
import { encodeContract, encodeInput } from '../../src/core/marlowe/json/encode'
import { deepMerkleize, inputForCase } from '../../src/core/marlowe/merkle'
import { T0, testWallet, type TestWallet } from '../engine/build/support'
import {
  call,
  createBody,
  createConfirmed,
  expectApiError,
  objectOf,
  startServer,
  storeDump,
  stringOf,
  walletHeaders,
  unsignedTxOf,
  type Answer,
  type TestServer
} from './support'

const alice = testWallet('alice')
const bob = testWallet('bob')
const carol = testWallet('carol')
const dave = testWallet('dave')
const ADA_TOKEN: JsonValue = { currency_symbol: '', token_name: '' }
const LATER = T0 + 10n * 86_400_000n

/** Pays `n` nested negations of 1 from the wallet's account to itself, then closes. */
function negates(n: number, wallet: TestWallet = alice): JsonObject {
  let value: JsonValue = 1n
  for (let i = 0; i < n; i++) value = { negate: value }
  const party = { address: wallet.address }
  return { from_account: party, to: { party }, token: ADA_TOKEN, pay: value, then: 'close' }
}

/** `n` nested Whens, each waiting for a Notify. */
function whens(n: number): JsonValue {
  let contract: JsonValue = 'close'
  for (let i = 0; i < n; i++) {
    contract = { when: [{ case: { notify_if: true }, then: contract }], timeout: LATER, timeout_continuation: 'close' }
  }
  return contract
}

/**
 * The CBOR depth of the datum of `negates(n)`: the MarloweData constructor (2 levels), the Pay (2), each negation
 * (2), the Constant (2) and its integer.
 */
const negatesDatumDepth = (n: number): number => 2 * n + 6

function expectTooDeep(answer: Answer, part: string | RegExp, depth: number): void {
  const body = expectApiError(answer, 400, 'ContractTooDeep')
  const message = stringOf(body.message, 'message')
  expect(message).toContain(`nests ${depth} CBOR levels`)
  expect(message).toContain(`at most ${MAX_WRITTEN_DATA_CBOR_DEPTH} fit`)
  expect(message).toContain(`the transaction reader takes ${MAX_CBOR_DEPTH}`)
  const details = objectOf(body.details, 'details')
  expect(details).toMatchObject({ measure: 'CBOR', depth: BigInt(depth), limit: BigInt(MAX_WRITTEN_DATA_CBOR_DEPTH) })
  expect(stringOf(details.part, 'part')).toMatch(part)
}

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

const postCreate = (body: JsonValue | string, wallet: TestWallet = alice): Promise<Answer> =>
  call(server, 'POST', '/contracts', { body, headers: walletHeaders(wallet) })

describe('a contract deeper than its transaction can be read back', () => {
  test.each<[string, JsonValue, number]>([
    ['700 nested negations', negates(700), negatesDatumDepth(700)],
    ['330 nested Whens', whens(330), 5 * 330 + 5]
  ])('%s: refused before building, nothing stored or reserved', async (_name, contract, depth) => {
    const before = storeDump(server.databasePath)
    expectTooDeep(await postCreate(createBody(contract)), 'the datum of output 0', depth)
    expect(storeDump(server.databasePath)).toEqual(before)
    expect((await call(server, 'GET', '/contracts')).status).toBe(206)
  })

  test('at the JSON limit: refused for its depth, not crashed on; one level more is not JSON the server reads', async () => {
    // The body nests 1000 levels: itself, the Pay, 998 negations.
    const atLimit = stringifyJson(createBody(negates(998)))
    expectTooDeep(await postCreate(atLimit), 'the datum of output 0', negatesDatumDepth(998))
    expectApiError(await postCreate(stringifyJson(createBody(negates(999)))), 400, 'RequestBodyParseError')
  })

  test('hostile depth: refused by the JSON reader, and the server goes on', async () => {
    const n = 150_000
    const hostile = `{"version":"v1","tags":{},"metadata":{},"accounts":{},"contract":${'{"negate":'.repeat(n)}1${'}'.repeat(n)}}`
    const answer = await postCreate(hostile)
    expectApiError(answer, 400, 'RequestBodyParseError')
    expect(answer.text).toContain('nesting deeper than 1000 levels')
    expect((await call(server, 'GET', '/healthcheck')).status).toBe(200)
  })
})

describe('the deepest contract that fits', () => {
  const deepest = (MAX_WRITTEN_DATA_CBOR_DEPTH - 6) / 2

  test('one level deeper is refused', async () => {
    expect(negatesDatumDepth(deepest + 1)).toBeGreaterThan(MAX_WRITTEN_DATA_CBOR_DEPTH)
    expectTooDeep(await postCreate(createBody(negates(deepest + 1, bob)), bob), 'the datum of output 0', 1198)
  })

  test('is built, and its transaction and contract read back', async () => {
    const contract = negates(deepest, bob)
    const created = await postCreate(createBody(contract), bob)
    expect(created.status, created.text.slice(0, 300)).toBe(201)
    const datums = decodeTransaction(unsignedTxOf(created)).witnessSet.datums
    expect(datums.map((d) => new CborReader(d.bytes).nesting().depth)).toEqual([MAX_WRITTEN_DATA_CBOR_DEPTH])
    const contractId = stringOf(objectOf(objectOf(created.json).resource).contractId, 'contractId')
    const got = await call(server, 'GET', `/contracts/${encodeURIComponent(contractId)}`)
    expect(got.status, got.text.slice(0, 300)).toBe(200)
    const resource = objectOf(objectOf(got.json).resource, 'resource')
    expect(resource.status).toBe('unsigned')
    expect(decodeContract(resource.initialContract)).toEqual(decodeContract(contract))
  })
})

// The sandbox's ledger library reads Plutus Data in time quadratic in its depth (a minute at the limit), so the
// way to the chain is walked with a contract a sixth as deep.
test('a deep contract is signed, submitted, confirmed and listed', async () => {
  const contractId = await createConfirmed(server, carol, createBody(negates(100, carol)))
  const got = await call(server, 'GET', `/contracts/${encodeURIComponent(contractId)}`)
  expect(objectOf(objectOf(got.json).resource, 'resource').status).toBe('confirmed')
  const list = await call(server, 'GET', '/contracts')
  expect(list.status).toBe(206)
  const results = (objectOf(list.json).results as JsonValue[]).map(
    (r) => objectOf(objectOf(r, 'result').resource, 'resource').contractId
  )
  expect(results).toContain(contractId)
})

describe('an apply that would write a deep merkleized continuation', () => {
  test('is refused with the depth of the continuation, nothing reserved', async () => {
    const { contract, continuations } = deepMerkleize(
      decodeContract({
        when: [{ case: { notify_if: true }, then: negates(700, carol) }],
        timeout: LATER,
        timeout_continuation: 'close'
      })
    )
    if (contract.type !== 'When') throw new Error('expected a When')
    const contractId = await createConfirmed(server, carol, createBody(encodeContract(contract)))
    const input = inputForCase(contract, 0, { type: 'INotify' }, continuations)
    const before = storeDump(server.databasePath)
    const answer = await call(server, 'POST', `/contracts/${encodeURIComponent(contractId)}/transactions`, {
      body: { version: 'v1', inputs: [encodeInput(input)], tags: {}, metadata: {} },
      headers: walletHeaders(carol)
    })
    // The continuation's own datum: the Pay, 700 negations and the Constant, two levels each, and the integer.
    expectTooDeep(answer, /^the datum of output \d+$/, 2 * 700 + 4)
    expect(storeDump(server.databasePath)).toEqual(before)
  })
})

describe('labels', () => {
  /** A value nested `levels` objects deep around an integer: the deepest echo a label has (the review's). */
  const nested = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`
  const bodyWith = (metadata: string, tags: string): string =>
    `{"version":"v1","contract":"close","accounts":{},"metadata":${metadata},"tags":${tags}}`

  test('as deep as every answer can echo: built, and the contract reads back', async () => {
    const created = await postCreate(
      bodyWith(`{"1":${nested(MAX_LABEL_DEPTH)}}`, `{"t":${nested(MAX_LABEL_DEPTH)}}`),
      dave
    )
    expect(created.status, created.text.slice(0, 300)).toBe(201)
    const contractId = stringOf(objectOf(objectOf(created.json).resource).contractId, 'contractId')
    const got = await call(server, 'GET', `/contracts/${encodeURIComponent(contractId)}`)
    expect(got.status).toBe(200)
    // Our own reader, with its limits, reads the answer back.
    expect(got.json).toBeDefined()
  })

  test.each([
    ['metadata', bodyWith(`{"1":${nested(MAX_LABEL_DEPTH + 1)}}`, '{}'), 'Invalid metadata value'],
    ['a tag', bodyWith('{}', `{"t":${nested(MAX_LABEL_DEPTH + 1)}}`), 'Invalid tags value']
  ])('%s one level deeper is refused', async (_name, body, message) => {
    const answer = expectApiError(await postCreate(body, dave), 400, 'BadRequest')
    expect(answer.message).toMatch(new RegExp(`^${message}: .*: metadata nests deeper than ${MAX_LABEL_DEPTH} levels$`))
  })
})
