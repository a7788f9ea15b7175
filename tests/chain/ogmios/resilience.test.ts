import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { OgmiosProvider } from '../../../src/chain/ogmios'
import { ChainError } from '../../../src/chain/provider'
import { stringifyJson, type JsonValue } from '../../../src/core/json/lossless'
import { ADDRESS_A } from './fixtures'
import { connect, failure, startPeer } from './support'

// Every failure below must surface as a rejected call, never as an unhandled rejection.
const unhandled: unknown[] = []
const onUnhandled = (reason: unknown): void => {
  unhandled.push(reason)
}
beforeAll(() => {
  process.on('unhandledRejection', onUnhandled)
})
afterAll(() => {
  process.off('unhandledRejection', onUnhandled)
  expect(unhandled).toEqual([])
})

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

function expectChainError(e: unknown, kind: ChainError['kind'], reason?: RegExp): void {
  expect(e).toBeInstanceOf(ChainError)
  expect((e as ChainError).kind).toBe(kind)
  if (reason !== undefined) expect((e as ChainError).reason).toMatch(reason)
}

describe('deadlines', () => {
  test('a request without an answer fails with Unavailable; the connection keeps serving', async () => {
    const peer = await startPeer()
    const provider = await connect(peer, { requestTimeoutMs: 150 })
    peer.fault('queryLedgerState/protocolParameters', { kind: 'hang' })
    expectChainError(
      await failure(provider.protocolParameters()),
      'Unavailable',
      /no answer to queryLedgerState\/protocolParameters within 150 ms/
    )
    expect((await provider.protocolParameters()).minFeeA).toBe(44n)
  })

  test('an answer that comes after its deadline is dropped, not given to a later request', async () => {
    const peer = await startPeer()
    const provider = await connect(peer, { requestTimeoutMs: 300, followChain: false })
    peer.fault('queryLedgerState/utxo', { kind: 'hold' })
    expectChainError(await failure(provider.utxosAt([ADDRESS_A])), 'Unavailable', /within 300 ms/)
    peer.fault('queryLedgerState/protocolParameters', { kind: 'hold' })
    const params = provider.protocolParameters()
    await vi.waitFor(() =>
      expect(peer.holding).toEqual(['queryLedgerState/utxo', 'queryLedgerState/protocolParameters'])
    )
    // The late UTxO answer arrives while the parameters are awaited; each answer goes to its own request only.
    peer.release('queryLedgerState/utxo')
    peer.release('queryLedgerState/protocolParameters')
    expect((await params).coinsPerUtxoByte).toBe(4310n)
  })

  test('a peer that stops answering even pings is disconnected by the heartbeat', async () => {
    const peer = await startPeer()
    const provider = await connect(peer, { requestTimeoutMs: 10_000, heartbeatMs: 50, followChain: false })
    peer.freeze()
    expectChainError(await failure(provider.protocolParameters()), 'Unavailable', /closed/)
  })
})

describe('disconnections', () => {
  test('a connection dropped mid-request fails that request; the next call reconnects', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    peer.fault('queryLedgerState/utxo', { kind: 'drop' })
    expectChainError(await failure(provider.utxosAt([ADDRESS_A])), 'Unavailable', /connection to Ogmios closed/)
    expect(await provider.utxosAt([ADDRESS_A])).toHaveLength(2)
  })

  test('every pending request fails when the connection drops', async () => {
    const peer = await startPeer()
    const provider = await connect(peer, { followChain: false })
    peer.fault('queryLedgerState/protocolParameters', { kind: 'hang' })
    peer.fault('queryLedgerState/eraSummaries', { kind: 'hang' })
    const calls = [provider.protocolParameters(), provider.eraSummaries()]
    await vi.waitFor(() => expect(peer.requestsOf('queryLedgerState/eraSummaries')).toHaveLength(1))
    peer.dropConnections()
    for (const call of calls) expectChainError(await failure(call), 'Unavailable')
  })

  test('both connections come back by themselves, without a call', async () => {
    const peer = await startPeer()
    await connect(peer)
    await peer.followersIdle()
    peer.dropConnections()
    await vi.waitFor(() => expect(peer.connections).toBe(2))
    await peer.followersIdle()
    expect(peer.requestsOf('findIntersection')).toHaveLength(2)
  })
})

describe('a server that is down', () => {
  test('connecting fails with Unavailable', async () => {
    const url = `ws://127.0.0.1:${await closedPort()}`
    const e = await failure(OgmiosProvider.connect({ url, network: 'preprod' }))
    expectChainError(e, 'Unavailable', /cannot connect to ws:\/\/127\.0\.0\.1:\d+/)
    expect((e as ChainError).details).toMatchObject({ url })
  })

  test('calls fail fast with Unavailable while it is down, and succeed once it is back', async () => {
    const peer = await startPeer()
    const provider = await connect(peer, { requestTimeoutMs: 5000 })
    await peer.stop()
    expectChainError(await failure(provider.tip()), 'Unavailable')
    expectChainError(await failure(provider.submit(Uint8Array.of(0x84))), 'Unavailable', /cannot connect/)
    await peer.restart()
    expect((await provider.tip()).blockNo).toBe(3n)
  })

  test('a URL that is not a WebSocket address is Unavailable too', async () => {
    expectChainError(await failure(OgmiosProvider.connect({ url: 'not a url', network: 'preview' })), 'Unavailable')
  })
})

describe('malformed answers', () => {
  test('an answer of the wrong shape is BadResponse naming the method and the path', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    peer.fault('queryLedgerState/utxo', { kind: 'answer', answer: { result: { not: 'a list' } } })
    const e = await failure(provider.utxosAt([ADDRESS_A]))
    expectChainError(e, 'BadResponse', /queryLedgerState\/utxo .*result: expected an array/)
    peer.fault('queryLedgerState/protocolParameters', { kind: 'answer', answer: { result: 'nonsense' } })
    expectChainError(await failure(provider.protocolParameters()), 'BadResponse', /result: expected an object/)
  })

  test('text that is not JSON fails the pending requests with BadResponse; the next call works', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    peer.fault('queryLedgerState/protocolParameters', { kind: 'raw', text: '{"jsonrpc":"2.0","result":' })
    expectChainError(await failure(provider.protocolParameters()), 'BadResponse', /not JSON/)
    expect((await provider.protocolParameters()).minFeeB).toBe(155381n)
  })

  test('an envelope with neither result nor error, or not JSON-RPC 2.0, is BadResponse', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    const envelope = (fields: Record<string, JsonValue>) => (id: JsonValue) => stringifyJson({ ...fields, id })
    peer.fault('queryNetwork/startTime', {
      kind: 'raw',
      text: envelope({ jsonrpc: '2.0', method: 'queryNetwork/startTime' })
    })
    expectChainError(await failure(provider.eraSummaries()), 'BadResponse', /neither "result" nor "error"/)
    peer.fault('queryNetwork/startTime', {
      kind: 'raw',
      text: envelope({ jsonrpc: '1.0', result: '2022-06-01T00:00:00Z' })
    })
    expectChainError(await failure(provider.eraSummaries()), 'BadResponse', /"jsonrpc": "2.0"/)
    peer.fault('queryNetwork/startTime', {
      kind: 'raw',
      text: envelope({ jsonrpc: '2.0', error: { message: 'no code' } })
    })
    expectChainError(await failure(provider.eraSummaries()), 'BadResponse', /without an integer "code"/)
  })

  test('an unknown method (not an Ogmios v6 server) is BadResponse', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    peer.fault('queryLedgerState/eraSummaries', {
      kind: 'answer',
      answer: { error: { code: -32601, message: 'Method not found' } }
    })
    expectChainError(await failure(provider.era()), 'BadResponse', /Method not found/)
  })
})
