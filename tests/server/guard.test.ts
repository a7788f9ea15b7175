/**
 * Who may talk to the server, over real sockets: loopback Host only (DNS rebinding), listed Origins only (with
 * CORS and a preflight that works without the token), the token as Bearer or as a `/t/<token>` path prefix
 * (relative links still resolve under it), no token configured → open; limits (413, 415, 431) in the API's
 * error shape; status headers only for admitted callers; and the listening socket is 127.0.0.1 alone.
 */
import { connect } from 'node:net'
import { networkInterfaces } from 'node:os'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { testWallet } from '../engine/build/support'
import { witnessEnvelope } from '../engine/service/support'
import {
  call,
  createBody,
  expectApiError,
  objectOf,
  rawCall,
  resolveLink,
  startServer,
  stringOf,
  TOKEN,
  unsignedTxOf,
  walletHeaders,
  type Answer,
  type TestServer
} from './support'

const carol = testWallet('carol')
const APP = 'http://app.example'

let guarded: TestServer
let open: TestServer
beforeAll(async () => {
  guarded = await startServer({ corsOrigins: [APP], bodyLimit: 64 * 1024 })
  open = await startServer({ token: null })
})
afterAll(async () => {
  await guarded.close()
  await open.close()
})

const hasStatusHeaders = (a: Answer): boolean => a.headers.get('x-node-tip') !== null

/** Bytes over a raw socket, for requests no HTTP client would send; resolves with what came back. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let data = ''
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')))
    socket.on('end', () => resolve(data))
    socket.on('close', () => resolve(data))
    socket.on('error', reject)
    socket.write(request)
  })
}

function parseRawResponse(text: string): { status: number; headers: string; body: string } {
  const split = text.indexOf('\r\n\r\n')
  const head = text.slice(0, split)
  return {
    status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1]),
    headers: head.toLowerCase(),
    body: text.slice(split + 4)
  }
}

describe('Host (DNS rebinding)', () => {
  test.each([
    ['127.0.0.1 with the port', (port: number) => `127.0.0.1:${port}`],
    ['localhost with the port', (port: number) => `localhost:${port}`],
    ['LOCALHOST in capitals', (port: number) => `LOCALHOST:${port}`],
    ['127.0.0.1 without a port', () => '127.0.0.1'],
    ['[::1] with the port', (port: number) => `[::1]:${port}`]
  ])('%s is this server', async (_name, host) => {
    const a = await rawCall(guarded, 'GET', '/healthcheck', { headers: { host: host(guarded.port) } })
    expect(a.status).toBe(200)
  })

  test.each([
    ['a rebinding name', () => 'evil.example'],
    ['a rebinding name with the port', (port: number) => `evil.example:${port}`],
    ['localhost on another port', (port: number) => `localhost:${port + 1}`],
    ['a suffix of localhost', (port: number) => `localhost.evil.example:${port}`],
    ['localhost with a trailing dot', (port: number) => `localhost.:${port}`],
    ['0.0.0.0', (port: number) => `0.0.0.0:${port}`],
    ['another loopback address', (port: number) => `127.0.0.2:${port}`],
    ['userinfo', (port: number) => `127.0.0.1@evil.example:${port}`],
    ['an empty port', () => '127.0.0.1:']
  ])('%s is refused with 403 ForbiddenHost, without status headers', async (_name, host) => {
    const a = await rawCall(guarded, 'GET', '/contracts', { headers: { host: host(guarded.port) } })
    expectApiError(a, 403, 'ForbiddenHost')
    expect(hasStatusHeaders(a)).toBe(false)
  })

  test('the Host check applies with no token configured too', async () => {
    expectApiError(
      await rawCall(open, 'GET', '/contracts', { headers: { host: 'evil.example' } }),
      403,
      'ForbiddenHost'
    )
  })

  test('no Host over HTTP/1.1: Node refuses it (400)', async () => {
    const text = await rawExchange(guarded.port, `GET /healthcheck HTTP/1.1\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`)
    expect(parseRawResponse(text).status).toBe(400)
  })

  test('no Host over HTTP/1.0: the guard refuses it with a JSON 400', async () => {
    const text = await rawExchange(guarded.port, `GET /healthcheck HTTP/1.0\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`)
    const r = parseRawResponse(text)
    expect(r.status).toBe(400)
    expect(r.headers).toContain('content-type: application/json')
    expect(JSON.parse(r.body)).toMatchObject({ errorCode: 'BadRequest', details: null })
  })
})

describe('Origin and CORS', () => {
  test('an unlisted Origin is refused (403) even with a valid token, and gets no CORS headers', async () => {
    const a = await call(guarded, 'GET', '/contracts', { headers: { origin: 'https://evil.example' } })
    expectApiError(a, 403, 'ForbiddenOrigin')
    expect(a.headers.get('access-control-allow-origin')).toBeNull()
  })

  test('with no origins configured, any Origin is refused', async () => {
    expectApiError(await call(open, 'GET', '/contracts', { headers: { origin: APP } }), 403, 'ForbiddenOrigin')
  })

  test('a listed Origin gets its CORS headers on answers', async () => {
    const a = await call(guarded, 'GET', '/contracts', { headers: { origin: APP } })
    expect(a.status).toBe(206)
    expect(a.headers.get('access-control-allow-origin')).toBe(APP)
    expect(a.headers.get('access-control-expose-headers')).toBe('*')
    expect(a.headers.get('vary')).toMatch(/Origin/)
  })

  test('a listed Origin can read a 401 (the CORS headers are there)', async () => {
    const a = await call(guarded, 'GET', '/contracts', { headers: { origin: APP }, token: 'wrong' })
    expectApiError(a, 401, 'Unauthorized')
    expect(a.headers.get('access-control-allow-origin')).toBe(APP)
  })

  test('a preflight (no Authorization, as browsers send it) gets 204 with the allowed methods and headers', async () => {
    const a = await call(guarded, 'OPTIONS', '/contracts', {
      token: null,
      headers: {
        origin: APP,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, x-change-address'
      }
    })
    expect(a.status).toBe(204)
    expect(a.headers.get('access-control-allow-origin')).toBe(APP)
    expect(a.headers.get('access-control-allow-methods')).toMatch(/\bPOST\b/)
    expect(a.headers.get('access-control-allow-methods')).toMatch(/\bPUT\b/)
    const allowed = (a.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/)
    expect(allowed).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'range', 'x-change-address', 'x-stake-address'])
    )
    // A preflight admits nobody: it reveals no chain status.
    expect(hasStatusHeaders(a)).toBe(false)
  })

  test('a preflight from an unlisted Origin is refused', async () => {
    const a = await call(guarded, 'OPTIONS', '/contracts', {
      token: null,
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' }
    })
    expectApiError(a, 403, 'ForbiddenOrigin')
  })

  test('an OPTIONS that is no preflight still needs the token', async () => {
    expectApiError(await call(guarded, 'OPTIONS', '/contracts', { token: null }), 401, 'Unauthorized')
    expectApiError(
      await call(guarded, 'OPTIONS', '/contracts', { token: null, headers: { origin: APP } }),
      401,
      'Unauthorized'
    )
  })
})

describe('the token', () => {
  test.each([
    ['no Authorization', { token: null }],
    ['a wrong token', { token: 'test-token-012345678X' }],
    ['a prefix of the token', { token: TOKEN.slice(0, -1) }],
    ['the token with more', { token: `${TOKEN}0` }],
    ['Basic instead of Bearer', { token: null, headers: { authorization: `Basic ${TOKEN}` } }],
    ['Bearer without a token', { token: null, headers: { authorization: 'Bearer ' } }],
    ['the token without Bearer', { token: null, headers: { authorization: TOKEN } }]
  ] as const)('%s → 401 Unauthorized, no status headers', async (_name, options) => {
    const a = await call(guarded, 'GET', '/contracts', options)
    expectApiError(a, 401, 'Unauthorized')
    expect(hasStatusHeaders(a)).toBe(false)
  })

  test('Bearer works, case-insensitively on the scheme; admitted answers carry status headers', async () => {
    const a = await call(guarded, 'GET', '/contracts')
    expect(a.status).toBe(206)
    expect(hasStatusHeaders(a)).toBe(true)
    const lower = await call(guarded, 'GET', '/contracts', {
      token: null,
      headers: { authorization: `bearer ${TOKEN}` }
    })
    expect(lower.status).toBe(206)
  })

  test('the token is checked before the body is read: an unauthorized oversize body is a 401', async () => {
    const a = await call(guarded, 'POST', '/contracts', { token: null, body: `"${'x'.repeat(200_000)}"` })
    expectApiError(a, 401, 'Unauthorized')
  })

  test('/t/<token>/… works without Authorization, with a query, and at the root', async () => {
    const a = await call(guarded, 'GET', `/t/${TOKEN}/contracts?tag=x`, { token: null })
    expect(a.status).toBe(206)
    expect(objectOf(a.json).results).toEqual([])
    expect((await call(guarded, 'GET', `/t/${TOKEN}/healthcheck`, { token: null })).status).toBe(200)
    expect((await call(guarded, 'GET', `/t/${TOKEN}?x=1`, { token: null })).status).toBe(404)
    expect((await call(guarded, 'GET', `/t/${encodeURIComponent(TOKEN)}/healthcheck`, { token: null })).status).toBe(
      200
    )
  })

  test('/t/<wrong>/… is a 401, even with a valid Bearer (the prefix is what counts)', async () => {
    expectApiError(await call(guarded, 'GET', '/t/wrong/contracts'), 401, 'Unauthorized')
    expectApiError(await call(guarded, 'GET', '/t/%zz/contracts', { token: null }), 401, 'Unauthorized')
    expectApiError(await call(guarded, 'GET', '/t/%E0%A4%A/contracts', { token: null }), 401, 'Unauthorized')
  })

  test('after bad prefixes the server is still up', async () => {
    expect((await call(guarded, 'GET', '/healthcheck')).status).toBe(200)
  })

  test('under /t/<token>/ a whole create → GET → PUT works through the relative links', async () => {
    const base = `${guarded.base}/t/${TOKEN}`
    const created = await call({ base }, 'POST', '/contracts', {
      token: null,
      body: createBody('close'),
      headers: walletHeaders(carol)
    })
    expect(created.status, created.text).toBe(201)
    const link = stringOf(objectOf(objectOf(created.json).links).contract, 'link')
    const path = resolveLink(base, link)
    expect(path.startsWith(`/t/${TOKEN}/contracts/`)).toBe(true)
    const got = await call(guarded, 'GET', path, { token: null })
    expect(got.status).toBe(200)
    expect(objectOf(objectOf(got.json).resource).status).toBe('unsigned')
    const put = await call(guarded, 'PUT', path, {
      token: null,
      body: { ...witnessEnvelope(unsignedTxOf(created), [carol]) }
    })
    expect(put.status, put.text).toBe(202)
    expect(objectOf(objectOf((await call(guarded, 'GET', path, { token: null })).json).resource).status).toBe(
      'submitted'
    )
  })

  test('no token configured: open to every loopback caller, and /t/<anything>/ is just stripped', async () => {
    expect((await call(open, 'GET', '/contracts', { token: null })).status).toBe(206)
    expect((await call(open, 'GET', '/contracts', { token: 'anything' })).status).toBe(206)
    expect((await call(open, 'GET', '/t/whatever/contracts', { token: null })).status).toBe(206)
  })
})

describe('limits and malformed requests', () => {
  test('a body over the limit is a JSON 413; at the limit it is parsed', async () => {
    const over = await call(guarded, 'POST', '/contracts', {
      body: `"${'x'.repeat(64 * 1024)}"`,
      headers: walletHeaders(carol)
    })
    expectApiError(over, 413, 'PayloadTooLarge')
    // 64 KiB exactly: read, then refused for its shape (a string is no request).
    const at = await call(guarded, 'POST', '/contracts', {
      body: `"${'x'.repeat(64 * 1024 - 2)}"`,
      headers: walletHeaders(carol)
    })
    expectApiError(at, 400, 'RequestBodyParseError')
  })

  test('a chunked body over the limit is a 413 too', async () => {
    const chunk = 'x'.repeat(16 * 1024)
    const a = await rawCall(guarded, 'POST', '/contracts', {
      headers: { 'transfer-encoding': 'chunked', ...walletHeaders(carol) },
      body: `"${chunk.repeat(5)}"`
    })
    expectApiError(a, 413, 'PayloadTooLarge')
  })

  test.each([
    ['text/plain', 415],
    ['application/octet-stream', 415],
    ['application/json-patch+json', 415],
    ['application/json; charset=utf-8', 400],
    ['text/json', 400]
  ])('Content-Type %s → %i', async (type, status) => {
    const a = await call(guarded, 'POST', '/contracts', {
      body: '{}',
      headers: walletHeaders(carol, { 'content-type': type })
    })
    expectApiError(a, status, status === 415 ? 'UnsupportedMediaType' : 'RequestBodyParseError')
  })

  test('an over-long request line is a JSON 431', async () => {
    const a = await rawCall(guarded, 'GET', `/contracts?tag=${'x'.repeat(20_000)}`)
    expectApiError(a, 431, 'RequestHeaderFieldsTooLarge')
  })

  test('bytes that are not HTTP get a JSON 400 and the connection is closed', async () => {
    const r = parseRawResponse(await rawExchange(guarded.port, 'HELLO\r\n\r\n'))
    expect(r.status).toBe(400)
    expect(JSON.parse(r.body)).toMatchObject({ errorCode: 'BadRequest' })
    expect((await call(guarded, 'GET', '/healthcheck')).status).toBe(200)
  })
})

describe('the listening socket', () => {
  test('is bound to 127.0.0.1 only', () => {
    const address = guarded.app.server.address()
    expect(address).toMatchObject({ address: '127.0.0.1', family: 'IPv4' })
  })

  test('refuses connections on every other address of this machine', async () => {
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((i) => i !== undefined && !i.internal)
      .map((i) => i!.address)
    for (const host of ['::1', ...others]) {
      const outcome = await new Promise<string>((resolve) => {
        const socket = connect({ host, port: guarded.port })
        socket.on('connect', () => {
          socket.destroy()
          resolve('connected')
        })
        socket.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'))
      })
      expect(outcome, host).not.toBe('connected')
    }
  })
})
