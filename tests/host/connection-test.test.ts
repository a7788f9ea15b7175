/**
 * `settings.testConnection` is no way to read other services: against real local servers that are not nodes
 * (HTTP and WebSocket, answering with a marker in every way they can), the test reports only "cannot be reached"
 * in its own words, with none of what they said; a node of the right kind is named with the network it serves;
 * and URLs that are not node URLs are refused without connecting anywhere.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { WebSocketServer } from 'ws'
import type { NodeSettings } from '../../src/api/contract'
import { EngineError } from '../../src/engine/errors'
import { marloweDeployment } from '../../src/chain/deployments'
import { testConnection } from '../../src/host/connection-test'
import { KupoPeer } from '../chain/kupo/peer'
import { dataDir, FAST_OGMIOS, openHost, previewPeer } from './host-support'

const MARKER = 'INTERNAL-SECRET-7f3a'
const TUNING = { ...FAST_OGMIOS, blockfrost: { timeoutMs: 2000, retries: 0 }, submitApiTimeoutMs: 2000 }

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

/** An HTTP service that is no node: every request gets `status` and a body full of the marker. */
async function httpService(status: number): Promise<{ url: string; connections: () => number }> {
  const body = JSON.stringify({ status_code: status, error: MARKER, message: MARKER, network_magic: MARKER })
  const server: Server = createServer((_req, res) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(body)
  )
  let connections = 0
  server.on('connection', () => (connections += 1))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closers.push(() => {
    // fetch keeps its connections alive: close them, or close() waits for them to time out.
    server.closeAllConnections()
    return new Promise<void>((resolve) => server.close(() => resolve()))
  })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections }
}

/** A WebSocket service that is no Ogmios: it answers every message with a JSON-RPC error carrying the marker. */
async function webSocketService(): Promise<string> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  server.on('connection', (socket) =>
    socket.on('message', (data) => {
      const id = (/"id"\s*:\s*("[^"]*"|\d+)/.exec(String(data)) ?? [])[1] ?? 'null'
      socket.send(`{"jsonrpc":"2.0","error":{"code":-32601,"message":"${MARKER}","data":"${MARKER}"},"id":${id}}`)
    })
  )
  await new Promise<void>((resolve) => server.once('listening', () => resolve()))
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe('settings.testConnection against services that are not nodes', () => {
  test.each([200, 400, 403, 404, 500])(
    'a Blockfrost URL answering %i is "cannot be reached", with nothing it said',
    async (status) => {
      const service = await httpService(status)
      const { fails } = await openHost(dataDir(), { testTuning: TUNING })
      const node = { blockfrost: { projectId: 'previewX', url: service.url } }
      const error = await fails('settings.testConnection', { network: 'preview', node }, 'NodeUnavailable')
      expect(error.message).toBe(
        `Blockfrost at ${service.url} cannot be reached, or does not answer as Blockfrost for a preview project id.`
      )
      expect(error.details).toEqual({ url: service.url })
      expect(JSON.stringify(error)).not.toContain(MARKER)
    }
  )

  test('an Ogmios URL to another WebSocket service is "cannot be reached", with nothing it said', async () => {
    const url = await webSocketService()
    const { fails } = await openHost(dataDir(), { testTuning: TUNING })
    const error = await fails(
      'settings.testConnection',
      { network: 'preview', node: { ogmios: url } },
      'NodeUnavailable'
    )
    expect(error.message).toBe(`Ogmios at ${url} cannot be reached, or does not answer as Ogmios.`)
    expect(JSON.stringify(error)).not.toContain(MARKER)
  })

  test('a cardano-submit-api URL is only said to answer, whatever it answered', async () => {
    const peer = await previewPeer()
    const service = await httpService(500)
    const { ok } = await openHost(dataDir(), { testTuning: TUNING })
    const node = { ogmios: peer.url, submitApi: service.url }
    expect(await ok('settings.testConnection', { network: 'preview', node })).toEqual({
      network: 'preview',
      checks: [`Ogmios at ${peer.url} answers and serves preview.`, `cardano-submit-api at ${service.url} answers.`]
    })
  })

  test('a Kupo is said to answer and to index the validators, or what to run it with; a non-Kupo says nothing', async () => {
    const peer = await previewPeer()
    const kupo = await KupoPeer.start(() => peer.chain)
    closers.push(() => kupo.close())
    const { ok, fails } = await openHost(dataDir(), { testTuning: TUNING })
    const node = { ogmios: peer.url, kupo: kupo.url }
    expect(await ok('settings.testConnection', { network: 'preview', node })).toEqual({
      network: 'preview',
      checks: [
        `Ogmios at ${peer.url} answers and serves preview.`,
        `Kupo at ${kupo.url} answers and indexes the Marlowe validators.`
      ]
    })

    const { semantics, payout } = marloweDeployment('preview')
    kupo.patterns = [`${semantics.hash}/*`]
    const narrow = await fails('settings.testConnection', { network: 'preview', node }, 'NodeBadResponse')
    expect(narrow.message).toBe(
      `Kupo at ${kupo.url} answers, but does not index the Marlowe validators of preview: run it with --match "${payout.hash}/*".`
    )

    const service = await httpService(200)
    const other = await fails(
      'settings.testConnection',
      { network: 'preview', node: { ogmios: peer.url, kupo: service.url } },
      'NodeUnavailable'
    )
    expect(other.message).toBe(`Kupo at ${service.url} cannot be reached, or does not answer as Kupo.`)
    expect(JSON.stringify(other)).not.toContain(MARKER)
  })

  test('an Ogmios node of another network is named with the network it serves', async () => {
    const peer = await previewPeer()
    const { fails } = await openHost(dataDir(), { testTuning: TUNING })
    const error = await fails(
      'settings.testConnection',
      { network: 'preprod', node: { ogmios: peer.url } },
      'NodeBadResponse'
    )
    expect(error.message).toBe(`Ogmios at ${peer.url} answers, but serves preview, not preprod.`)
    expect(error.details).toEqual({ url: peer.url })
  })
})

describe('testConnection refuses URLs that are not node URLs, before connecting', () => {
  test.each<[string, (url: string) => NodeSettings]>([
    ['an Ogmios URL over http', (url) => ({ ogmios: url })],
    [
      'a Blockfrost URL over ws',
      (url) => ({ blockfrost: { projectId: 'previewX', url: url.replace('http:', 'ws:') } })
    ],
    ['a Blockfrost file URL', () => ({ blockfrost: { projectId: 'previewX', url: 'file:///etc/passwd' } })],
    ['a submit-api URL over ftp', (url) => ({ ogmios: 'ws://127.0.0.1:9', submitApi: url.replace('http:', 'ftp:') })],
    ['a Kupo URL over ws', (url) => ({ ogmios: 'ws://127.0.0.1:9', kupo: url.replace('http:', 'ws:') })]
  ])('%s', async (_what, nodeOf) => {
    const service = await httpService(200)
    let error: unknown
    try {
      await testConnection('preview', nodeOf(service.url), TUNING)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(EngineError)
    expect(error).toMatchObject({ kind: 'BadRequest', code: 'InvalidRequest' })
    expect((error as EngineError).message).toMatch(
      /^the (Ogmios|Blockfrost|Kupo|cardano-submit-api) URL must start with/
    )
    expect(service.connections()).toBe(0)
  })
})
