/**
 * Marlowe arithmetic beyond the core's limit, over HTTP on a real server (issue 13): `Let` squaring used to block
 * the server for seconds per step and answer tens of megabytes; now a create or an apply that meets a value
 * beyond MAX_VALUE_BITS is a 400 `MarloweValueTooLarge` naming the value's path and size, the safety analysis of
 * what may follow an apply reports it, and the analysis's answer stays bounded however many warnings it finds.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { hexToBytes } from '../../src/core/bytes'
import { stringifyJson, type JsonValue } from '../../src/core/json/lossless'
import { encodeContract, encodeInput } from '../../src/core/marlowe/json/encode'
import { CLOSE, type Contract, type Party, type Value } from '../../src/core/marlowe/types'
import { T0, costCheckNotes, testWallet } from '../engine/build/support'
import { rebinding, squaring } from '../support/arithmetic'
import {
  bodyWitnessEnvelope,
  call,
  createBody,
  createConfirmed,
  expectApiError,
  objectOf,
  startServer,
  storeDump,
  stringOf,
  walletHeaders,
  type TestServer
} from './support'

const alice = testWallet('alice')
const ALICE: Party = { type: 'Address', address: alice.address }
const CHOICE = { name: 'n', owner: ALICE }
const DAY = 86_400_000n
/** Where the 12th squaring sits below `at`: 3^(2^12) is the first power past 4096 bits. */
const twelfth = (at: string): string => `${at}${'.then'.repeat(12)}.be`

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server.close()
})

function notify(then: Contract, timeout = T0 + DAY): Contract {
  return {
    type: 'When',
    cases: [{ type: 'Case', action: { type: 'Notify', observation: true }, then }],
    timeout,
    timeoutContinuation: CLOSE
  }
}

async function post(contract: Contract) {
  return call(server, 'POST', '/contracts', {
    body: createBody(encodeContract(contract)),
    headers: walletHeaders(alice)
  })
}

describe('POST /contracts', () => {
  test('squaring with Let: a 400 naming the path and the size, and nothing built or reserved', async () => {
    const before = storeDump(server.databasePath)
    for (const steps of [12, 30, 60]) {
      const a = await post(squaring(steps))
      const body = expectApiError(a, 400, 'MarloweValueTooLarge')
      const path = twelfth('contract')
      expect(body.details).toEqual({ path, bits: 6493n, limitBits: 4096n })
      expect(body.message).toBe(
        `The Marlowe contract computes a value of 6493 bits at ${path}, over the limit of 4096 bits`
      )
    }
    expect(storeDump(server.databasePath)).toEqual(before)
  })

  test('on a path the safety analysis takes after a case, named in the whole contract', async () => {
    const body = expectApiError(await post(notify(squaring(40))), 400, 'MarloweValueTooLarge')
    expect(objectOf(body.details).path).toBe(twelfth('contract.when[0].then'))
  })

  test('a contract within the limit is built; the analysis of its many warnings answers a bounded report', async () => {
    const a = await post(rebinding(400, 1n))
    expect(a.status, a.text.slice(0, 300)).toBe(201)
    const errors = objectOf(objectOf(a.json).resource).safetyErrors
    if (!Array.isArray(errors)) throw new Error('no safetyErrors')
    const kinds = errors.map((e) => objectOf(e).error)
    // The warnings, then what the cost check says of the transactions walked, the timeout last.
    const after = [...costCheckNotes(server.sandbox).map((e) => e.error), 'SafetyAnalysisTimeout']
    const warnings = kinds.length - after.length
    expect(kinds.slice(warnings)).toEqual(after)
    expect(kinds.slice(0, warnings).every((k) => k === 'TransactionWarning')).toBe(true)
    expect(warnings).toBeGreaterThan(0)
    // Each warning carries the transaction with its 400 warnings: 1 MB of them, then the timeout.
    expect(stringifyJson(errors).length).toBeLessThan(1.1 * 1024 * 1024)
  })
})

describe('POST /contracts/{id}/transactions', () => {
  // A choice, then a notify, then `n` squared 30 times: the analysis at creation chooses 0, which stays 0.
  const seed: Value = { type: 'ChoiceValue', choice: CHOICE }
  const contract: Contract = {
    type: 'When',
    cases: [
      {
        type: 'Case',
        action: { type: 'Choice', choice: CHOICE, bounds: [{ from: 0n, to: 1000n }] },
        then: notify(squaring(30, CLOSE, seed), T0 + 2n * DAY)
      }
    ],
    timeout: T0 + DAY,
    timeoutContinuation: CLOSE
  }
  let contractPath = ''

  const apply = (input: JsonValue) =>
    call(server, 'POST', `${contractPath}/transactions`, {
      body: { version: 'v1', inputs: [input], tags: {}, metadata: {} },
      headers: walletHeaders(alice)
    })

  test('choosing 3 is built, and the analysis of what follows reports the value beyond the limit', async () => {
    const contractId = await createConfirmed(server, alice, createBody(encodeContract(contract)))
    contractPath = `/contracts/${encodeURIComponent(contractId)}`
    const a = await apply(encodeInput({ content: { type: 'IChoice', choice: CHOICE, chosen: 3n } }))
    expect(a.status, a.text.slice(0, 300)).toBe(201)
    const resource = objectOf(objectOf(a.json).resource)
    expect(resource.safetyErrors).toEqual([
      {
        error: 'ValueTooLarge',
        detail: 'A transaction of this contract computes a value of 6493 bits, over the limit of 4096 bits.',
        path: twelfth('contract.when[0].then'),
        bits: 6493n,
        'limit-bits': 4096n,
        fatal: true
      }
    ])
    const transactionId = stringOf(resource.transactionId, 'transactionId')
    const txBody = hexToBytes(stringOf(objectOf(resource.txBody).cborHex, 'cborHex'))
    const put = await call(server, 'PUT', `${contractPath}/transactions/${transactionId}`, {
      body: bodyWitnessEnvelope(txBody, [alice])
    })
    expect(put.status, put.text).toBe(202)
    await server.opened.follower.sync()
    server.clock.ms += 2_000n
  })

  test('the notify that would square 3 thirty times is a 400; next steps still answer', async () => {
    const txs = storeDump(server.databasePath).txs
    const body = expectApiError(await apply('input_notify'), 400, 'MarloweValueTooLarge')
    expect(body.details).toEqual({ path: twelfth('contract.when[0].then'), bits: 6493n, limitBits: 4096n })
    expect(storeDump(server.databasePath).txs).toEqual(txs)
    const from = new Date(Number(server.clock.ms)).toISOString()
    const to = new Date(Number(server.clock.ms + 60_000n)).toISOString()
    const next = await call(server, 'GET', `${contractPath}/next?validityStart=${from}&validityEnd=${to}`)
    expect(next.status, next.text).toBe(200)
    expect(objectOf(objectOf(next.json).applicable_inputs).notify).toEqual({
      case_index: 0n,
      is_merkleized_continuation: false
    })
  })
})
