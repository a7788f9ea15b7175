import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { BlockfrostProvider } from '../../../src/chain/blockfrost'
import { unusedPort } from '../submit-api/peer'
import { ADDR_A, BLOCK, provider, seededPeer } from './fixtures'
import type { BlockfrostPeer } from './peer'
import { chainFailure } from '../support/failure'

let peer: BlockfrostPeer

beforeEach(async () => {
  peer = await seededPeer()
})
afterEach(() => peer.close())

const TIP = { slot: 75_958_400n, blockNo: 2_800_123n, blockHash: BLOCK }
const LATEST = /^GET \/blocks\/latest$/

describe('Blockfrost unavailable', () => {
  test('down (connection refused) → Unavailable, after the bounded retries', async () => {
    const port = await unusedPort()
    const down = new BlockfrostProvider({
      network: 'preprod',
      projectId: 'x',
      baseUrl: `http://127.0.0.1:${port}/api/v0`,
      retries: 2,
      retryBaseDelayMs: 1
    })
    const e = await chainFailure(down.tip())
    expect(e.kind).toBe('Unavailable')
    expect(e.reason).toContain('ECONNREFUSED')
    expect(e.details['attempts']).toBe(3)
  })

  test('slow → Unavailable after the timeout, not retried; the next call succeeds once it is quick again', async () => {
    peer.faults.push({ match: LATEST, delayMs: 1_500 })
    const p = provider(peer, { timeoutMs: 150 })
    const e = await chainFailure(p.tip())
    expect(e.kind).toBe('Unavailable')
    expect(e.reason).toContain('within 150 ms')
    expect(peer.requestsTo(LATEST)).toHaveLength(1)
    expect(await p.tip()).toEqual(TIP)
  })

  test('a dropped connection is retried and recovers', async () => {
    peer.faults.push({ match: LATEST, hangUp: true, times: 2 })
    expect(await provider(peer).tip()).toEqual(TIP)
    expect(peer.requestsTo(LATEST)).toHaveLength(3)
  })

  test('429 and 5xx on reads are retried with backoff until the answer comes', async () => {
    peer.faults.push(
      { match: LATEST, status: 429, times: 1 },
      { match: LATEST, status: 503, body: 'upstream gone', times: 1 }
    )
    expect(await provider(peer).tip()).toEqual(TIP)
    expect(peer.requestsTo(LATEST)).toHaveLength(3)
  })

  test('evaluation is retried too (it has no side effects)', async () => {
    peer.faults.push({ match: /^POST \/utils\/txs\/evaluate$/, status: 500, times: 1 })
    expect(await provider(peer).evaluate(Uint8Array.of(0x84))).toEqual([])
    expect(peer.requestsTo(/^POST \/utils\/txs\/evaluate$/)).toHaveLength(2)
  })

  test('retries are bounded: a lasting 429 is Unavailable, saying so', async () => {
    peer.faults.push({ match: LATEST, status: 429, times: 100 })
    const e = await chainFailure(provider(peer, { retries: 2 }).tip())
    expect(e.kind).toBe('Unavailable')
    expect(e.reason).toContain('rate-limiting')
    expect(peer.requestsTo(LATEST)).toHaveLength(3)
  })

  test('a Retry-After longer than we would wait ends the retries at once', async () => {
    peer.faults.push({ match: LATEST, status: 429, retryAfter: '3600', times: 100 })
    const e = await chainFailure(provider(peer).tip())
    expect(e.kind).toBe('Unavailable')
    expect(e.details['retryAfterMs']).toBe(3_600_000)
    expect(peer.requestsTo(LATEST)).toHaveLength(1)
  })

  test('402 (daily limit) and 418 (banned) are Unavailable at once', async () => {
    peer.faults.push({ match: LATEST, status: 402 })
    const over = await chainFailure(provider(peer).tip())
    expect(over.kind).toBe('Unavailable')
    expect(over.reason).toContain('daily request limit')
    peer.faults.push({ match: LATEST, status: 418 })
    expect((await chainFailure(provider(peer).tip())).reason).toContain('banned')
    expect(peer.requestsTo(LATEST)).toHaveLength(2)
  })

  test('a wrong project id (403) is Unavailable, naming the project id problem without revealing it', async () => {
    const wrong = new BlockfrostProvider({ network: 'preprod', projectId: 'preprodWRONGsecret', baseUrl: peer.url })
    const e = await chainFailure(wrong.utxosAt([ADDR_A]))
    expect(e.kind).toBe('Unavailable')
    expect(e.reason).toContain('project id')
    expect(e.reason).toContain('Invalid project token.')
    expect(e.reason).toContain('preprod')
    expect(JSON.stringify({ reason: e.reason, details: e.details })).not.toContain('WRONGsecret')
    expect(peer.requestsTo(/utxos/)).toHaveLength(1)
  })
})

describe('Blockfrost bad answers', () => {
  test('malformed JSON is a BadResponse', async () => {
    peer.faults.push({ match: LATEST, status: 200, body: '{"slot": 1, "height": ' })
    const e = await chainFailure(provider(peer).tip())
    expect(e.kind).toBe('BadResponse')
    expect(e.reason).toContain('not JSON')
  })

  test('JSON of the wrong shape is a BadResponse naming the field', async () => {
    peer.faults.push({ match: LATEST, status: 200, body: '{"slot": "soon", "height": 1, "hash": "00"}' })
    const e = await chainFailure(provider(peer).tip())
    expect(e.kind).toBe('BadResponse')
    expect(e.reason).toContain('blocks/latest.slot')
    peer.faults.push({ match: /^GET \/addresses\//, status: 200, body: '{"not": "a list"}' })
    expect((await chainFailure(provider(peer).utxosAt([ADDR_A]))).kind).toBe('BadResponse')
  })

  test("an unexpected status is a BadResponse with Blockfrost's message", async () => {
    peer.faults.push({ match: LATEST, status: 400 })
    const e = await chainFailure(provider(peer).tip())
    expect(e.kind).toBe('BadResponse')
    expect(e.reason).toContain('Backend did not understand your request.')
  })
})
