/**
 * `marlowe-desk serve` end to end as a process: it binds loopback, guards with its token, refuses bad
 * options and a sandbox another process holds, stops cleanly on SIGTERM, and survives kill -9 in the middle
 * of builds and submits with every stored transaction intact and an unsigned one still submittable.
 */
import { mkdtempSync, statSync, writeFileSync } from 'node:fs'
import { createServer as createNetServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, test } from 'vitest'
import { parseJson, stringifyJson, type JsonObject, type JsonValue } from '../../src/core/json/lossless'
import { stringifyTextEnvelope } from '../../src/core/cardano/envelope'
import { sign, testWallet, type TestWallet } from '../engine/build/support'
import { witnessEnvelope } from '../engine/service/support'
import { hexToBytes } from '../../src/core/bytes'
import { runCli } from './run-cli'
import { exitOf, spawnServe, startServe, type ServeProcess } from './serve-process'

const alice = testWallet('alice')
const bob = testWallet('bob')
const home = (): string => mkdtempSync(join(tmpdir(), 'marlowe-desk-serve-'))

const running: ServeProcess[] = []
afterEach(async () => {
  for (const s of running.splice(0)) {
    if (s.child.exitCode === null && s.child.signalCode === null) {
      s.child.kill('SIGKILL')
      await s.exited()
    }
  }
})

async function start(data: string, extra: readonly string[] = []): Promise<ServeProcess> {
  const s = await startServe(data, extra)
  running.push(s)
  return s
}

async function request(
  s: ServeProcess,
  method: string,
  path: string,
  body?: JsonValue,
  headers: Record<string, string> = {}
): Promise<{ status: number; json: JsonObject | undefined }> {
  const response = await fetch(`${s.base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${s.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers
    },
    ...(body === undefined ? {} : { body: stringifyJson(body) })
  })
  const text = await response.text()
  return { status: response.status, json: text === '' ? undefined : (parseJson(text) as JsonObject) }
}

const createClose = (s: ServeProcess, wallet: TestWallet = alice) =>
  request(
    s,
    'POST',
    '/contracts',
    { version: 'v1', contract: 'close', tags: {}, metadata: {} },
    {
      'x-change-address': wallet.address
    }
  )

const resourceOf = (json: JsonObject | undefined): JsonObject => (json?.['resource'] ?? {}) as JsonObject

/** The contract's status once the follower (every second) has seen what it waits for, or its last status. */
async function statusWhen(s: ServeProcess, contractId: string, wanted: string): Promise<JsonValue | undefined> {
  const deadline = Date.now() + 20_000
  let status: JsonValue | undefined
  while (Date.now() < deadline) {
    const got = await request(s, 'GET', `/contracts/${encodeURIComponent(contractId)}`)
    status = resourceOf(got.json)['status']
    if (status === wanted) break
    await new Promise((r) => setTimeout(r, 250))
  }
  return status
}

describe('marlowe-desk serve', () => {
  test('serves the sandbox on loopback behind its token, and stops cleanly on SIGTERM', async () => {
    const data = home()
    const s = await start(data)
    expect(s.stdout()).toMatch(/serving sandbox on http:\/\/127\.0\.0\.1:\d+\//)
    expect(statSync(join(data, 'api-token')).mode & 0o777).toBe(0o600)
    expect((await request(s, 'GET', '/healthcheck')).status).toBe(200)
    const anonymous = await fetch(`${s.base}/healthcheck`)
    expect(anonymous.status).toBe(401)
    expect((await fetch(`${s.base}/t/${s.token}/healthcheck`)).status).toBe(200)
    const created = await createClose(s)
    expect(created.status).toBe(201)
    s.child.kill('SIGTERM')
    expect(await s.exited()).toBe(0)
    expect(s.stdout()).toContain('SIGTERM: stopping')
    // The same data directory serves again, with the same token and the build still there.
    const again = await start(data)
    expect(again.token).toBe(s.token)
    const contractId = String(resourceOf(created.json)['contractId'])
    const got = await request(again, 'GET', `/contracts/${encodeURIComponent(contractId)}`)
    expect(resourceOf(got.json)['status']).toBe('unsigned')
  })

  test('refuses a sandbox another server holds', async () => {
    const data = home()
    await start(data)
    const second = spawnServe(['--data', data])
    let err = ''
    second.stderr?.on('data', (b: Buffer) => (err += b.toString('utf8')))
    expect(await exitOf(second)).toBe(1)
    expect(err).toMatch(/in use by process \d+/)
  })

  test('a port another program holds is said in a sentence, not a stack', async () => {
    const holder = createNetServer()
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve))
    try {
      const port = (holder.address() as AddressInfo).port
      const r = runCli(['serve', '--data', home(), '--port', String(port)])
      expect(r.code).toBe(1)
      expect(r.stderr).toContain(
        `serve: port ${port} on 127.0.0.1 is in use by another program; choose another with --port`
      )
      expect(r.stderr).not.toContain('EADDRINUSE')
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()))
    }
  })

  test.each([
    [['--port', 'abc'], 2, '--port abc is not a port number'],
    [['--network', 'testnet'], 2, 'not one of sandbox, preview, preprod, mainnet'],
    [['--network', 'preview'], 2, 'needs exactly one of --ogmios URL or --blockfrost PROJECT_ID'],
    [['--ogmios', 'ws://127.0.0.1:1'], 2, 'the sandbox is embedded'],
    [['--network', 'preview', '--ogmios', 'ws://127.0.0.1:1'], 1, 'Unavailable'],
    [['--kupo', 'http://127.0.0.1:1'], 2, 'the sandbox is embedded'],
    [
      ['--network', 'preview', '--blockfrost', 'previewX', '--kupo', 'http://127.0.0.1:1'],
      2,
      '--kupo goes with --ogmios'
    ],
    [
      ['--network', 'preview', '--ogmios', 'ws://127.0.0.1:1', '--kupo', 'ftp://x'],
      2,
      'is not an http:// or https:// URL'
    ],
    [['--bogus'], 2, "Unknown option '--bogus'"]
  ])('fails clearly: serve %j', (args, code, message) => {
    const r = runCli(['serve', '--data', home(), ...args])
    expect(r.code).toBe(code)
    expect(r.stderr).toContain(message)
  })

  test('kill -9 during builds and submits loses nothing; an unsigned build is submitted after the restart', async () => {
    const data = home()
    type Built = { contractId: string; cborHex: string; wallet: TestWallet }
    const answered: Built[] = []
    const accepted: Built[] = []
    const put = (s: ServeProcess, b: Built) =>
      request(s, 'PUT', `/contracts/${encodeURIComponent(b.contractId)}`, {
        ...witnessEnvelope(hexToBytes(b.cborHex), [b.wallet])
      })
    const built = (r: { json: JsonObject | undefined }, wallet: TestWallet): Built => {
      const resource = resourceOf(r.json)
      return {
        contractId: String(resource['contractId']),
        cborHex: String((resource['tx'] as JsonObject)['cborHex']),
        wallet
      }
    }
    const build = async (s: ServeProcess): Promise<void> => {
      const r = await createClose(s)
      if (r.status === 201) answered.push(built(r, alice))
    }
    // Alice's builds run her wallet out of free outputs, so newer ones supersede older unsigned ones; a build of
    // another wallet, made before the kills, is left alone by them and must still be submittable afterwards.
    const first = await start(data)
    const aside = await createClose(first, bob)
    expect(aside.status).toBe(201)
    const kept = built(aside, bob)
    first.child.kill('SIGKILL')
    await first.exited()
    // Three rounds: builds and submits in flight, then the server is killed outright at a different moment.
    for (const delayMs of [0, 15, 40]) {
      const s = await start(data)
      await build(s)
      const pending = answered.filter((b) => !accepted.includes(b)).slice(0, 2)
      const inFlight = [
        build(s),
        build(s),
        build(s),
        ...pending.map(async (b) => {
          if ((await put(s, b)).status === 202) accepted.push(b)
        })
      ].map((p) => p.catch(() => undefined))
      await new Promise((r) => setTimeout(r, delayMs))
      s.child.kill('SIGKILL')
      expect(await s.exited()).toBe('SIGKILL')
      await Promise.all(inFlight)
    }
    const db = new Database(join(data, 'service-sandbox.sqlite'), { readonly: true })
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    const superseded = new Set(
      db
        .prepare('SELECT tx_id FROM txs WHERE superseded_at IS NOT NULL')
        .all()
        .map((row) => String((row as { tx_id: unknown }).tx_id))
    )
    db.close()

    const again = await start(data)
    // Every build that was answered 201 is there; every submit answered 202 is not unsigned.
    for (const b of answered) {
      const got = await request(again, 'GET', `/contracts/${encodeURIComponent(b.contractId)}`)
      expect(got.status).toBe(200)
      const status = resourceOf(got.json)['status']
      if (accepted.includes(b)) expect(['submitted', 'confirmed']).toContain(status)
    }
    // An unsigned build a newer one superseded says so; the one kept aside is submitted and confirmed.
    for (const b of answered.filter((a) => !accepted.includes(a) && superseded.has(a.contractId.slice(0, 64)))) {
      const refused = await put(again, b)
      expect(refused.status).toBe(409)
      expect(refused.json?.['errorCode']).toBe('BuildSuperseded')
    }
    expect((await put(again, kept)).status).toBe(202)
    expect(await statusWhen(again, kept.contractId, 'confirmed')).toBe('confirmed')
  })

  test('a build signed and submitted with the CLI while the server was stopped is confirmed when it runs again', async () => {
    const data = home()
    const first = await start(data)
    const built = resourceOf((await createClose(first)).json)
    const contractId = String(built['contractId'])
    const unsigned = hexToBytes(String((built['tx'] as JsonObject)['cborHex']))
    first.child.kill('SIGTERM')
    await first.exited()

    const signedFile = join(data, 'signed.json')
    writeFileSync(
      signedFile,
      stringifyTextEnvelope({ type: 'Tx ConwayEra', description: '', cbor: sign(unsigned, [alice]) })
    )
    const submitted = runCli(['tx', 'submit', signedFile, '--data', data])
    expect(submitted.stderr).toBe('')
    expect(submitted.stdout).toBe(`submitted ${contractId.slice(0, 64)}\n`)

    const again = await start(data)
    expect(await statusWhen(again, contractId, 'confirmed')).toBe('confirmed')
    const listed = await request(again, 'GET', '/contracts')
    expect((listed.json?.['results'] as JsonObject[]).map((c) => resourceOf(c)['contractId'])).toEqual([contractId])
  })
})
