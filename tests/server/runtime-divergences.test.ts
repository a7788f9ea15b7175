/**
 * Where a client could tell this service from Runtime (issue 15 §4), now answered as Runtime answers: the PUT of
 * a transaction the chain already has is Runtime's 409, and a GET whose Accept takes no JSON is Servant's 406.
 * The wrong-type 400 of a PUT keeps Runtime's words and lists in its details every type that is taken.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { encodeContract } from '../../src/core/marlowe/json/encode'
import { NOTIFY_THEN_CLOSE } from '../engine/service/support'
import { sign, testWallet } from '../engine/build/support'
import {
  call,
  createBody,
  createConfirmed,
  expectApiError,
  objectOf,
  startServer,
  stringOf,
  unsignedTxOf,
  walletHeaders,
  type TestServer
} from './support'
import { witnessEnvelope } from '../engine/service/support'

const alice = testWallet('alice')

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server.close()
})

async function buildNotify(): Promise<{ contractId: string; tx: Uint8Array }> {
  const answer = await call(server, 'POST', '/contracts', {
    body: createBody(encodeContract(NOTIFY_THEN_CLOSE)),
    headers: walletHeaders(alice)
  })
  expect(answer.status, answer.text).toBe(201)
  return {
    contractId: stringOf(objectOf(objectOf(answer.json).resource).contractId, 'contractId'),
    tx: unsignedTxOf(answer)
  }
}

describe('PUT of a transaction the chain already has', () => {
  test('the wallet sent it itself: 409 ContractAlreadySubmitted, and it is recorded and followed', async () => {
    const { contractId, tx } = await buildNotify()
    await server.sandbox.submit(sign(tx, [alice]))
    const put = await call(server, 'PUT', `/contracts/${encodeURIComponent(contractId)}`, {
      body: { ...witnessEnvelope(tx, [alice]) }
    })
    expect(expectApiError(put, 409, 'ContractAlreadySubmitted').message).toBe('Contract already submitted')
    expect((await server.opened.service.getContract(contractId)).status).toBe('submitted')
    await server.opened.follower.sync()
    expect((await server.opened.service.getContract(contractId)).status).toBe('confirmed')
  })
})

describe('Accept on the GETs', () => {
  test('an Accept that takes no JSON is a 406, on lists and single resources alike', async () => {
    const contractId = await createConfirmed(server, alice, createBody(encodeContract(NOTIFY_THEN_CLOSE)))
    const paths = ['/contracts', `/contracts/${encodeURIComponent(contractId)}`, '/payouts', '/withdrawals']
    for (const path of paths) {
      for (const accept of ['text/plain', 'application/xml, text/*', 'application/json;q=0']) {
        const answer = await call(server, 'GET', path, { headers: { accept } })
        expect(String(expectApiError(answer, 406, 'NotAcceptable').message), path).toContain(accept)
      }
    }
  })

  test('JSON, anything, or no Accept at all is answered', async () => {
    for (const accept of ['application/json', '*/*', 'application/*', 'application/json, text/plain, */*', '']) {
      const answer = await call(server, 'GET', '/contracts', { headers: { accept } })
      expect(answer.status, accept).toBe(206)
    }
  })

  test('without the token it is still a 401 first', async () => {
    const answer = await call(server, 'GET', '/contracts', { headers: { accept: 'text/plain' }, token: null })
    expect(answer.status).toBe(401)
  })
})

describe('PUT of an envelope of the wrong type', () => {
  test("Runtime's message, and every type this service takes in the details", async () => {
    const { contractId, tx } = await buildNotify()
    const put = await call(server, 'PUT', `/contracts/${encodeURIComponent(contractId)}`, {
      body: { ...witnessEnvelope(tx, [alice]), type: 'ShelleyTxWitness AlonzoEra' }
    })
    const error = expectApiError(put, 400, 'BadRequest')
    expect(error.message).toBe(
      'Unknown envelope type - allowed types are: "Tx ConwayEra", "ShelleyTxWitness ConwayEra"'
    )
    expect(error.details).toEqual({
      type: 'ShelleyTxWitness AlonzoEra',
      accepted: ['Tx ConwayEra', 'ShelleyTxWitness ConwayEra', 'TxWitness ConwayEra', 'ShelleyTxWitness BabbageEra']
    })
  })
})
