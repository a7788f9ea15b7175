/**
 * The desk over HTTP on a real 127.0.0.1 server (what the renderer's HTTP transport talks to): `POST
 * /api/<call>` with wire text, 200 with the `DeskResult` wire text, only for a UI session opened with the
 * one-time UI secret from the page's own origin — never for the Runtime API token; and the built renderer under
 * `/ui/`, public, with a strict CSP and nothing outside its directory. Then `serve --ui` as a process.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { DeskResult, SettingsState, WalletBalance, WalletSummary } from '../../src/api/contract'
import { decodeWire, encodeWire } from '../../src/api/wire'
import { SandboxProvider, sandboxWallet } from '../../src/chain/sandbox'
import { createDesk } from '../../src/engine/desk'
import { Keystore } from '../../src/engine/keys'
import { openService, type OpenService } from '../../src/engine/service'
import { createServer, listen } from '../../src/server/app'
import { UI_CSP } from '../../src/server/desk-routes'
import { sessionCookieName, UiSessions } from '../../src/server/ui-sessions'
import { startServe } from '../cli/serve-process'
import { ManualClock, T0 } from '../engine/build/support'
import { FAST_SCRYPT, PASSWORD } from '../engine/keys/support'
import { call, rawCall, TOKEN, type Answer } from './support'

const INDEX_HTML = '<!doctype html><title>Marlowe Desk</title><script type="module" src="./assets/app.js"></script>'

/** A stand-in for `out/renderer`, plus a file beside it that must never be served. */
function uiFixture(): string {
  const root = mkdtempSync(join(tmpdir(), 'marlowe-desk-ui-'))
  const dir = join(root, 'renderer')
  mkdirSync(join(dir, 'assets'), { recursive: true })
  writeFileSync(join(dir, 'index.html'), INDEX_HTML)
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log("desk")\n')
  writeFileSync(join(dir, '.env'), 'SECRET=1\n')
  writeFileSync(join(root, 'secret.txt'), 'not for the page\n')
  return dir
}

/** A page elsewhere that Runtime clients may serve from (`--cors-origin`): same-site, but not the desk's page. */
const CORS_ORIGIN = 'http://127.0.0.1:5173'

interface DeskServer {
  readonly base: string
  readonly port: number
  readonly app: FastifyInstance
  readonly sessions: UiSessions
  close(): Promise<void>
}

async function startDeskServer(uiDir: string | undefined): Promise<DeskServer> {
  const clock = new ManualClock()
  const dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-http-'))
  const sandbox = SandboxProvider.open({ zeroTime: T0, clockTickMs: false, now: clock.now })
  const opened: OpenService = await openService({
    provider: sandbox,
    databasePath: join(dir, 'service.sqlite'),
    now: clock.now,
    followEveryMs: false
  })
  const keystore = await Keystore.open({ dir: join(dir, 'keys'), scrypt: FAST_SCRYPT })
  const desk = createDesk({ service: opened.service, store: opened.store, keystore, version: 'http', now: clock.now })
  const sessions = new UiSessions()
  const app = createServer({
    service: opened.service,
    token: TOKEN,
    corsOrigins: [CORS_ORIGIN],
    logLevel: 'silent',
    desk: uiDir === undefined ? { desk, sessions } : { desk, sessions, uiDir }
  })
  const port = await listen(app, 0)
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    app,
    sessions,
    async close() {
      await app.close()
      await opened.close()
      await sandbox.close()
    }
  }
}

let server: DeskServer
let uiDir: string
/** The session cookie (`name=id`) of the page these tests play. */
let cookie: string

/** POST /ui/session as the page does, with the secret its address carried. */
function exchange(target: DeskServer, secret: string, origin: string | null = target.base): Promise<Answer> {
  return call(target, 'POST', '/ui/session', {
    body: { secret },
    token: null,
    headers: origin === null ? {} : { origin }
  })
}

/** A new session on `target`, as its `name=id` cookie. */
async function openSession(target: DeskServer): Promise<string> {
  const answer = await exchange(target, target.sessions.secret)
  expect(answer.status, answer.text).toBe(204)
  const set = answer.headers.get('set-cookie') ?? ''
  expect(set).toMatch(
    new RegExp(`^${sessionCookieName(target.port)}=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=/$`)
  )
  return set.split(';')[0]!
}

beforeAll(async () => {
  uiDir = uiFixture()
  server = await startDeskServer(uiDir)
  cookie = await openSession(server)
})
afterAll(() => server.close())

interface Caller {
  /** The session cookie sent; default the page's, null for none. */
  readonly cookie?: string | null
  /** The Origin header; default the server's own, null for none. */
  readonly origin?: string | null
  /** The Runtime API token as a bearer; default none. */
  readonly token?: string
  readonly contentType?: string
}

/** POST /api/<name> as the renderer's HTTP transport does (the browser adds the cookie and the Origin). */
async function api<T>(name: string, request: unknown, options: Caller = {}, path = `/api/${name}`) {
  const sent = options.cookie === undefined ? cookie : options.cookie
  const origin = options.origin === undefined ? server.base : options.origin
  const answer = await call(server, 'POST', path, {
    body: encodeWire(request),
    headers: {
      'content-type': options.contentType ?? 'application/json',
      ...(sent === null ? {} : { cookie: sent }),
      ...(origin === null ? {} : { origin })
    },
    token: options.token ?? null
  })
  const result = answer.status === 200 ? (decodeWire(answer.text) as DeskResult<T>) : undefined
  return { answer, result }
}

/** A refusal in the API's error shape, saying nothing of the engine. */
function expectRefused(answer: Answer, status: 401 | 403, what: string): void {
  expect(answer.status, `${what}: ${answer.text}`).toBe(status)
  expect(answer.json, what).toMatchObject({ message: expect.any(String), errorCode: expect.any(String) })
  expect(Object.keys(answer.json as object).sort(), what).toEqual(['details', 'errorCode', 'message'])
  expect(answer.text, what).not.toContain('sandbox')
  expect(answer.headers.get('x-node-tip'), what).toBeNull()
}

const SIGNING_CALLS: ReadonlyArray<readonly [string, unknown]> = [
  ['wallets.list', {}],
  ['tx.signAndSubmit', { txId: 'ab'.repeat(32), walletId: 'w', password: 'p' }],
  ['tx.signOffline', { text: '{}', walletId: 'w', password: 'p' }],
  ['app.status', {}]
]

async function ok<T>(name: string, request: unknown): Promise<T> {
  const { answer, result } = await api<T>(name, request)
  expect(answer.status, answer.text).toBe(200)
  if (result?.ok !== true) throw new Error(`${name}: ${answer.text}`)
  return result.value
}

describe('who may call the desk', () => {
  test('a session is required: no cookie, an unknown one, another port’s, are refused', async () => {
    const id = cookie.split('=')[1]!
    for (const sent of [null, `${sessionCookieName(server.port)}=${'x'.repeat(43)}`, `${sessionCookieName(1)}=${id}`]) {
      expectRefused((await api('app.status', {}, { cookie: sent })).answer, 401, String(sent))
    }
  })

  test('the Runtime API token never reaches the desk, as a bearer or as the /t/<token>/ base URL', async () => {
    for (const [name, request] of SIGNING_CALLS) {
      for (const origin of [server.base, null]) {
        const bearer = await api(name, request, { cookie: null, origin, token: TOKEN })
        expectRefused(bearer.answer, origin === null ? 403 : 401, `${name} with the bearer token`)
        const prefixed = await api(name, request, { cookie: null, origin }, `/t/${TOKEN}/api/${name}`)
        expectRefused(prefixed.answer, origin === null ? 403 : 401, `${name} under /t/<token>/`)
      }
    }
    // Other spellings of the path reach the same route, or none.
    for (const path of [`/t/${TOKEN}/%61pi/wallets.list`, `/t/${TOKEN}//api/wallets.list`, '/API/wallets.list']) {
      const answer = (await api('wallets.list', {}, { cookie: null, token: TOKEN }, path)).answer
      expect([401, 404], `${path}: ${answer.text}`).toContain(answer.status)
      expect(answer.text).not.toContain('"ok"')
    }
  })

  test('a session cookie is refused from any origin but the page’s own, and without one', async () => {
    for (const origin of ['https://evil.example', CORS_ORIGIN, 'null', null]) {
      expectRefused((await api('wallets.list', {}, { origin })).answer, 403, String(origin))
    }
    expect((await api('wallets.list', {})).answer.status).toBe(200)
  })

  test('the UI secret works once, from the page’s own origin only', async () => {
    const secret = server.sessions.secret
    expectRefused(await exchange(server, 'not-the-secret'), 401, 'a wrong secret')
    expectRefused(await exchange(server, secret, CORS_ORIGIN), 403, 'another origin')
    expectRefused(await exchange(server, secret, null), 403, 'no origin')
    // Refusals spend nothing; the page's own exchange does.
    expect(server.sessions.secret).toBe(secret)
    const second = await openSession(server)
    expect(second).not.toBe(cookie)
    expectRefused(await exchange(server, secret), 401, 'a used secret')
    expect(server.sessions.secret).not.toBe(secret)
    // Both sessions stay open (two browsers).
    expect((await api('app.status', {}, { cookie: second })).answer.status).toBe(200)
    expect((await api('app.status', {})).answer.status).toBe(200)
  })

  test('the UI secret and the session open the desk only, not the Runtime routes', async () => {
    const secret = server.sessions.secret
    const asPage = { cookie, origin: server.base }
    expect((await call(server, 'GET', '/contracts', { token: null, headers: asPage })).status).toBe(401)
    expect((await call(server, 'GET', '/contracts', { token: secret })).status).toBe(401)
    expect((await call(server, 'GET', `/t/${secret}/contracts`, { token: null })).status).toBe(401)
    expect([200, 206]).toContain((await call(server, 'GET', '/contracts')).status)
  })
})

describe('POST /api/<call>', () => {
  test('a call answers 200 with the wire text of its result, bigints as {"$bigint"}', async () => {
    const { answer, result } = await api('app.status', {})
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/)
    expect(answer.headers.get('cache-control')).toBe('no-store')
    expect(answer.text).toContain(`"chainTime":{"$bigint":"${T0 + 10_000n}"}`)
    expect(result).toMatchObject({ ok: true, value: { network: 'sandbox', version: 'http', chainTime: T0 + 10_000n } })
  })

  test('text/plain works as well as application/json; other types are refused', async () => {
    expect((await api('wallets.list', {}, { contentType: 'text/plain' })).result).toEqual({ ok: true, value: [] })
    expect((await api('wallets.list', {}, { contentType: 'application/octet-stream' })).answer.status).toBe(415)
  })

  test('a failed call is still 200, with the DeskResult error', async () => {
    const { answer, result } = await api('wallets.balance', { walletId: 'nope' })
    expect(answer.status).toBe(200)
    expect(result).toMatchObject({ ok: false, error: { code: 'InvalidRequest' } })
    const garbled = await call(server, 'POST', '/api/wallets.list', {
      body: '{"surprise',
      headers: { 'content-type': 'application/json', cookie, origin: server.base },
      token: null
    })
    expect(garbled.status).toBe(200)
    expect(decodeWire(garbled.text)).toMatchObject({ ok: false, error: { code: 'InvalidRequest' } })
  })

  test('an unknown call is a 404, GET is not a route', async () => {
    const { answer } = await api('wallets.export', {})
    expect(answer.status).toBe(404)
    expect(answer.json).toMatchObject({ errorCode: 'UnknownCall' })
    expect((await call(server, 'GET', '/api/app.status')).status).toBe(404)
  })

  test('the page’s own origin may call; any other origin may not', async () => {
    const headers = (origin: string) => ({ 'content-type': 'application/json', cookie, origin })
    const own = await call(server, 'POST', '/api/app.status', { body: '{}', headers: headers(server.base) })
    expect(own.status).toBe(200)
    const other = await call(server, 'POST', '/api/app.status', {
      body: '{}',
      headers: headers('https://evil.example')
    })
    expect(other.status).toBe(403)
  })

  test('a first run over HTTP: create, restore, fund, balance', async () => {
    const created = await ok<{ wallet: WalletSummary; mnemonic: string[] }>('wallets.create', {
      name: 'web',
      password: PASSWORD
    })
    expect(created.mnemonic).toHaveLength(24)
    const alice = await ok<WalletSummary>('wallets.restore', {
      name: 'alice',
      password: PASSWORD,
      mnemonic: sandboxWallet('alice').mnemonic
    })
    await ok('sandbox.fund', { walletId: created.wallet.id, ada: 12n })
    expect((await ok<WalletBalance>('wallets.balance', { walletId: created.wallet.id })).lovelace).toBe(12_000_000n)
    expect((await ok<WalletBalance>('wallets.balance', { walletId: alice.id })).lovelace).toBe(10_000_000_000n)
  })

  test('the Runtime API beside it keeps its own JSON handling', async () => {
    expect((await call(server, 'GET', '/healthcheck')).status).toBe(200)
    const plain = await call(server, 'POST', '/contracts', { body: '{}', headers: { 'content-type': 'text/plain' } })
    expect(plain.status).toBe(415)
  })
})

describe('/ui/', () => {
  test('the page and its files are served without the token, with a strict CSP', async () => {
    const page = await call(server, 'GET', '/ui/', { token: null })
    expect(page.status).toBe(200)
    expect(page.text).toBe(INDEX_HTML)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(page.headers.get('content-security-policy')).toBe(UI_CSP)
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
    expect(page.headers.get('x-frame-options')).toBe('DENY')
    // Only callers holding the token learn the node's tip.
    expect(page.headers.get('x-node-tip')).toBeNull()
    const script = await call(server, 'GET', '/ui/assets/app.js', { token: null })
    expect(script.status).toBe(200)
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/)
    expect(script.headers.get('content-security-policy')).toBe(UI_CSP)
  })

  test('the CSP lets the page load only its own files and talk only to its own origin', () => {
    expect(UI_CSP).toContain("default-src 'self'")
    expect(UI_CSP).toContain("script-src 'self'")
    expect(UI_CSP).toContain("connect-src 'self'")
    expect(UI_CSP).toContain("object-src 'none'")
    expect(UI_CSP).toContain("frame-ancestors 'none'")
    expect(UI_CSP).not.toMatch(/unsafe-inline|unsafe-eval|\*/)
  })

  test('/ui redirects to /ui/', async () => {
    const answer = await rawCall(server, 'GET', '/ui', { token: null })
    expect(answer.status).toBe(302)
    expect(answer.headers.get('location')).toBe('/ui/')
  })

  test('nothing outside the renderer directory, no hidden files, no unknown types', async () => {
    for (const path of ['/ui/%2e%2e/secret.txt', '/ui/..%2fsecret.txt', '/ui/.env', '/ui/missing.js', '/ui/assets/']) {
      const answer = await rawCall(server, 'GET', path, { token: null })
      expect(answer.status, path).toBe(404)
      expect(answer.text, path).not.toContain('not for the page')
      expect(answer.text, path).not.toContain('SECRET')
    }
  })

  test('only reading the page is public: anything else still needs a credential', async () => {
    expect((await call(server, 'POST', '/ui/', { body: '{}', token: null })).status).toBe(401)
    expect((await call(server, 'GET', '/uix', { token: null })).status).toBe(401)
    expect((await call(server, 'GET', '/contracts', { token: null })).status).toBe(401)
  })

  test('without a renderer directory there is no /ui/', async () => {
    const bare = await startDeskServer(undefined)
    try {
      expect((await call(bare, 'GET', '/ui/', { token: null })).status).toBe(401)
      expect((await call(bare, 'GET', '/ui/')).status).toBe(404)
      const own = { origin: bare.base }
      expect((await call(bare, 'POST', '/api/wallets.list', { body: '{}', headers: own })).status).toBe(401)
      const headers = { cookie: await openSession(bare), origin: bare.base }
      expect((await call(bare, 'POST', '/api/wallets.list', { body: '{}', headers, token: null })).status).toBe(200)
    } finally {
      await bare.close()
    }
  })
})

describe('marlowe-desk serve --ui', () => {
  test('prints the page’s link with a one-time secret in its fragment, and a new one once it is used', async () => {
    const data = mkdtempSync(join(tmpdir(), 'marlowe-desk-serve-ui-'))
    const serve = await startServe(data, ['--ui', '--ui-dir', uiDir])
    const links = (): string[] =>
      [...serve.stdout().matchAll(/^Marlowe Desk in your browser: (\S+)$/gm)].map((m) => m[1]!)
    try {
      expect(links()).toHaveLength(1)
      const link = links()[0]!
      expect(link).toMatch(new RegExp(`^${serve.base}/ui/#secret=[A-Za-z0-9_-]{43}$`))
      expect(link).not.toContain(serve.token)
      expect(serve.stdout()).toContain(`${serve.base}/t/${serve.token}/`)
      const page = await fetch(link)
      expect(page.status).toBe(200)
      expect(page.headers.get('content-security-policy')).toBe(UI_CSP)

      // What the review did with the printed Runtime base URL, refused.
      const json = { 'content-type': 'application/json', origin: serve.base }
      for (const [name, request] of SIGNING_CALLS) {
        const viaBase = await fetch(`${serve.base}/t/${serve.token}/api/${name}`, {
          method: 'POST',
          headers: json,
          body: encodeWire(request)
        })
        expect(viaBase.status, name).toBe(401)
        const viaBearer = await fetch(`${serve.base}/api/${name}`, {
          method: 'POST',
          headers: { ...json, authorization: `Bearer ${serve.token}` },
          body: encodeWire(request)
        })
        expect(viaBearer.status, name).toBe(401)
      }

      const secret = link.split('#secret=')[1]!
      const opened = await fetch(`${serve.base}/ui/session`, {
        method: 'POST',
        headers: json,
        body: `{"secret":"${secret}"}`
      })
      expect(opened.status).toBe(204)
      const session = (opened.headers.get('set-cookie') ?? '').split(';')[0]!
      const again = await fetch(`${serve.base}/ui/session`, {
        method: 'POST',
        headers: json,
        body: `{"secret":"${secret}"}`
      })
      expect(again.status).toBe(401)
      await expect.poll(() => links().length).toBe(2)
      expect(links()[1]).toMatch(new RegExp(`^${serve.base}/ui/#secret=[A-Za-z0-9_-]{43}$`))
      expect(links()[1]).not.toBe(link)

      const status = await fetch(`${serve.base}/api/app.status`, {
        method: 'POST',
        headers: { ...json, cookie: session },
        body: '{}'
      })
      expect(decodeWire(await status.text())).toMatchObject({ ok: true, value: { network: 'sandbox' } })

      // Settings: the flags fix the network and this server is the local API; the auto-lock may change.
      const settings = async (call: string, request: unknown): Promise<unknown> => {
        const answer = await fetch(`${serve.base}/api/${call}`, {
          method: 'POST',
          headers: { ...json, cookie: session },
          body: encodeWire(request)
        })
        return decodeWire(await answer.text())
      }
      const got = (await settings('settings.get', {})) as DeskResult<SettingsState>
      if (!got.ok) throw new Error(got.error.message)
      expect(got.value.networkFixed).toMatch(/--network sandbox/)
      expect(got.value.localApi).toEqual({ listening: true, url: `${serve.base}/`, token: serve.token })
      const preview = { ...got.value.settings, network: 'preview', node: { ogmios: 'ws://127.0.0.1:1' } }
      expect(await settings('settings.update', preview)).toMatchObject({ ok: false, error: { code: 'NetworkFixed' } })
      const longer = { ...got.value.settings, autoLockMinutes: 42 }
      expect(await settings('settings.update', longer)).toMatchObject({ ok: true, value: { settings: longer } })
    } finally {
      serve.child.kill('SIGTERM')
      await serve.exited()
    }
  })
})
