import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { SubmitApiClient } from '../../../src/chain/submit-api'
import { ledgerRejection, sampleTx, sampleTxId, SubmitApiPeer, unusedPort } from './peer'
import { chainFailure } from '../support/failure'

let peer: SubmitApiPeer

beforeEach(async () => {
  peer = await SubmitApiPeer.start()
})
afterEach(() => peer.close())

const TX = sampleTx(200_000n)

describe('cardano-submit-api accepts', () => {
  test('the raw bytes go to /api/submit/tx as application/cbor; 202 answers the tx id', async () => {
    const client = new SubmitApiClient({ url: peer.url })
    expect(await client.submit(TX)).toBe(sampleTxId(TX))
    expect(peer.received).toHaveLength(1)
    expect(peer.received[0]).toMatchObject({ path: '/api/submit/tx', contentType: 'application/cbor', body: TX })
    expect(peer.mempool.has(sampleTxId(TX))).toBe(true)
  })

  test('the URL may be the root (with a trailing slash) or the full endpoint', async () => {
    for (const url of [`${peer.url}/`, `${peer.url}/api/submit/tx`]) {
      expect(await new SubmitApiClient({ url }).submit(TX)).toBe(sampleTxId(TX))
    }
    expect(peer.received.map((r) => r.path)).toEqual(['/api/submit/tx', '/api/submit/tx'])
  })

  test('an accepting answer without a usable id still yields the id; one naming another tx is a BadResponse', async () => {
    peer.behaviour = { kind: 'accept-with', body: 'OK' }
    expect(await new SubmitApiClient({ url: peer.url }).submit(TX)).toBe(sampleTxId(TX))
    peer.behaviour = { kind: 'accept-with', body: JSON.stringify('ab'.repeat(32)) }
    const e = await chainFailure(new SubmitApiClient({ url: peer.url }).submit(TX))
    expect(e.kind).toBe('BadResponse')
    expect(e.details['computed']).toBe(sampleTxId(TX))
  })
})

describe('cardano-submit-api rejects', () => {
  test("400 with the node's ledger errors → Rejected with those lines", async () => {
    const lines = ['ConwayUtxowFailure (PPViewHashesDontMatch (SJust (SafeHash "5db5")) (SJust (SafeHash "46e1")))']
    peer.behaviour = { kind: 'reject', body: ledgerRejection(lines) }
    const e = await chainFailure(new SubmitApiClient({ url: peer.url }).submit(TX))
    expect(e.kind).toBe('Rejected')
    expect(e.reason).toBe(lines[0])
    expect(e.details['answer']).toBe(ledgerRejection(lines))
  })

  test('400 with a JSON string (older submit-api) or plain text → Rejected with that text', async () => {
    peer.behaviour = { kind: 'reject', body: JSON.stringify('transaction submit error ShelleyTxValidationError …') }
    expect(await chainFailure(new SubmitApiClient({ url: peer.url }).submit(TX))).toMatchObject({
      kind: 'Rejected',
      reason: 'transaction submit error ShelleyTxValidationError …'
    })
    peer.behaviour = { kind: 'reject', body: 'bad tx' }
    expect((await chainFailure(new SubmitApiClient({ url: peer.url }).submit(TX))).reason).toBe('bad tx')
  })

  test('an undecodable transaction is Rejected by the service', async () => {
    expect((await chainFailure(new SubmitApiClient({ url: peer.url }).submit(Uint8Array.of(1, 2, 3)))).kind).toBe(
      'Rejected'
    )
  })
})

describe('cardano-submit-api unavailable', () => {
  test('415, 5xx and a wrong path are Unavailable, sent once', async () => {
    peer.behaviour = { kind: 'fail', status: 415, body: '' }
    expect((await chainFailure(new SubmitApiClient({ url: peer.url }).submit(TX))).reason).toContain('HTTP 415')
    peer.behaviour = { kind: 'fail', status: 503, body: 'node socket not available' }
    const e = await chainFailure(new SubmitApiClient({ url: peer.url }).submit(TX))
    expect(e).toMatchObject({
      kind: 'Unavailable',
      reason: 'cardano-submit-api answered HTTP 503: node socket not available'
    })
    expect((await chainFailure(new SubmitApiClient({ url: `${peer.url}/elsewhere/tx` }).submit(TX))).kind).toBe(
      'Unavailable'
    )
    expect(peer.received).toHaveLength(3)
  })

  test('down (connection refused) → Unavailable', async () => {
    const port = await unusedPort()
    const e = await chainFailure(new SubmitApiClient({ url: `http://127.0.0.1:${port}` }).submit(TX))
    expect(e.kind).toBe('Unavailable')
    expect(e.reason).toContain('ECONNREFUSED')
  })

  test('slow → Unavailable after the timeout; after recovery the next submission goes through', async () => {
    peer.delayMs = 1_500
    peer.slowAnswers = 1
    const client = new SubmitApiClient({ url: peer.url, timeoutMs: 150 })
    const e = await chainFailure(client.submit(TX))
    expect(e.kind).toBe('Unavailable')
    expect(e.reason).toContain('150 ms')
    expect(await client.submit(TX)).toBe(sampleTxId(TX))
  })

  test('extra headers are sent (a hosted API key), and cannot change the content type', async () => {
    const client = new SubmitApiClient({
      url: peer.url,
      headers: { 'dmtr-api-key': 'k', 'Content-Type': 'text/plain' }
    })
    await client.submit(TX)
    expect(peer.received[0]?.headers['dmtr-api-key']).toBe('k')
    expect(peer.received[0]?.contentType).toBe('application/cbor')
  })
})
