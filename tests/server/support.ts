/** A real server on 127.0.0.1 over a sandbox and a SQLite file, and a small fetch helper for the tests. */
import { mkdtempSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import type { FastifyInstance } from 'fastify'
import { expect } from 'vitest'
import { SandboxProvider } from '../../src/chain/sandbox'
import { bytesToHex, hexToBytes } from '../../src/core/bytes'
import { blake2b256Hex } from '../../src/core/cardano/tx/hash'
import { JsonDecimal, parseJson, stringifyJson, type JsonObject, type JsonValue } from '../../src/core/json/lossless'
import { CSL, withCsl } from '../../src/csl'
import { encodeInput } from '../../src/core/marlowe/json/encode'
import { openService, type OpenService } from '../../src/engine/service'
import { evaluatePlutusOffThread } from '../../src/engine/worker'
import { createServer, listen, type ServerOptions } from '../../src/server/app'
import { ManualClock, T0, type TestWallet } from '../engine/build/support'
import { witnessEnvelope } from '../engine/service/support'
import { validatorsFromEnv } from '../chain/support/sandbox'

export const TOKEN = 'test-token-0123456789'

export interface TestServer {
  readonly base: string
  readonly port: number
  readonly app: FastifyInstance
  readonly opened: OpenService
  readonly sandbox: SandboxProvider
  readonly clock: ManualClock
  readonly databasePath: string
  close(): Promise<void>
}

export async function startServer(
  options: Partial<Omit<ServerOptions, 'service' | 'token'>> & {
    databasePath?: string
    /** The API token; null for none (an open server). Default TOKEN. */
    token?: string | null
  } = {}
): Promise<TestServer> {
  const clock = new ManualClock()
  // Its scripts run on the engine's worker, as `serve` runs them.
  const sandbox = SandboxProvider.open({
    zeroTime: T0,
    clockTickMs: false,
    ...validatorsFromEnv(),
    now: clock.now,
    evaluate: evaluatePlutusOffThread
  })
  const databasePath = options.databasePath ?? join(mkdtempSync(join(tmpdir(), 'marlowe-desk-server-')), 'store.sqlite')
  const opened = await openService({ provider: sandbox, databasePath, now: clock.now, followEveryMs: false })
  const { token = TOKEN, databasePath: _path, ...serverOptions } = options
  const app = createServer({
    logLevel: 'silent',
    ...serverOptions,
    ...(token === null ? {} : { token }),
    service: opened.service
  })
  const port = await listen(app, 0)
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    app,
    opened,
    sandbox,
    clock,
    databasePath,
    async close() {
      await app.close()
      await opened.close()
      await sandbox.close()
    }
  }
}

export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  readonly json: JsonValue | undefined
}

/** A request with the token; `body` is sent as lossless JSON unless it is already a string. */
export async function call(
  server: { base: string },
  method: string,
  path: string,
  options: { body?: JsonValue | string; headers?: Record<string, string>; token?: string | null } = {}
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers }
  if (options.token !== null) headers['authorization'] ??= `Bearer ${options.token ?? TOKEN}`
  let body: string | undefined
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : stringifyJson(options.body)
    headers['content-type'] ??= 'application/json'
  }
  const response = await fetch(`${server.base}${path}`, { method, headers, ...(body === undefined ? {} : { body }) })
  const text = await response.text()
  let json: JsonValue | undefined
  try {
    json = text === '' ? undefined : parseJson(text)
  } catch {
    json = undefined
  }
  return { status: response.status, headers: response.headers, text, json }
}

// ---- assertions and fixtures shared by the HTTP tests ---------------------------------------------------------

/** A JSON object field of an answer, or a failed expectation. */
export function objectOf(value: JsonValue | undefined, what = 'the body'): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof JsonDecimal) {
    throw new Error(`${what} is not a JSON object: ${value === undefined ? 'nothing' : stringifyJson(value)}`)
  }
  return value
}

export function stringOf(value: JsonValue | undefined, what: string): string {
  if (typeof value !== 'string') throw new Error(`${what} is not a string`)
  return value
}

/** Runtime's error answer: the status, `{message, errorCode, details}` and a JSON content type. */
export function expectApiError(answer: Answer, status: number, errorCode: string): JsonObject {
  const context = `${answer.status} ${answer.text.slice(0, 300)}`
  expect(answer.status, context).toBe(status)
  expect(answer.headers.get('content-type'), context).toMatch(/^application\/json/)
  const body = objectOf(answer.json, context)
  expect(body.errorCode, context).toBe(errorCode)
  expect(typeof body.message === 'string' && body.message.trim().length > 0, context).toBe(true)
  expect(Object.hasOwn(body, 'details'), context).toBe(true)
  expect(Object.keys(body).sort(), context).toEqual(['details', 'errorCode', 'message'])
  return body
}

export const JSON_CONTENT_TYPE = 'application/json;charset=utf-8'

/** Every row of the tables a request could change, read from the file with a read-only connection. */
export function storeDump(databasePath: string): Record<string, unknown[]> {
  const db = new Database(databasePath, { readonly: true, fileMustExist: true })
  try {
    const tables = ['txs', 'contracts', 'payouts', 'reservations', 'reservation_refs']
    return Object.fromEntries(tables.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all()]))
  } finally {
    db.close()
  }
}

/** The body of POST /contracts with Runtime's required keys; `extra` is merged in. */
export function createBody(contract: JsonValue, extra: JsonObject = {}): JsonObject {
  return { version: 'v1', contract, tags: {}, metadata: {}, accounts: {}, ...extra }
}

export function walletHeaders(wallet: TestWallet, extra: Record<string, string> = {}): Record<string, string> {
  return { 'x-change-address': wallet.address, ...extra }
}

/** A link of a resource, resolved against the server's base URL as a Runtime client does. */
export function resolveLink(base: string, link: string): string {
  return new URL(link, `${base}/`).pathname
}

/** The unsigned `tx` of a build answer (the create answer always has it; others with the vendor Accept). */
export function unsignedTxOf(answer: Answer): Uint8Array {
  const resource = objectOf(objectOf(answer.json).resource, 'resource')
  return hexToBytes(stringOf(objectOf(resource.tx, 'resource.tx').cborHex, 'cborHex'))
}

/** Signs like a CIP-30 wallet and PUTs the witness set; the answer must be 202. */
export async function signAndPut(
  server: { base: string },
  path: string,
  tx: Uint8Array,
  signers: readonly TestWallet[]
): Promise<void> {
  const answer = await call(server, 'PUT', path, { body: { ...witnessEnvelope(tx, signers) } })
  expect(answer.status, answer.text).toBe(202)
  expect(answer.text).toBe('')
}

/** POST /contracts, sign, PUT and follow to confirmation; returns the contract id. */
export async function createConfirmed(
  server: TestServer,
  wallet: TestWallet,
  body: JsonObject,
  headers: Record<string, string> = {}
): Promise<string> {
  const answer = await call(server, 'POST', '/contracts', { body, headers: walletHeaders(wallet, headers) })
  expect(answer.status, answer.text).toBe(201)
  const contractId = stringOf(objectOf(objectOf(answer.json).resource).contractId, 'contractId')
  await signAndPut(server, `/contracts/${encodeURIComponent(contractId)}`, unsignedTxOf(answer), [wallet])
  await server.opened.follower.sync()
  return contractId
}

/** Runtime's JSON of a Notify input. */
export const NOTIFY: JsonValue = encodeInput({ content: { type: 'INotify' } })

/** Notify `depth` times, then close (at T0 + 10 days, whatever is left): `notifyChain(k)` has k steps left. */
export function notifyChain(depth: number): JsonValue {
  let contract: JsonValue = 'close'
  for (let i = 0; i < depth; i++) {
    contract = {
      when: [{ case: { notify_if: true }, then: contract }],
      timeout: T0 + 10n * 86_400_000n,
      timeout_continuation: 'close'
    }
  }
  return contract
}

/** An answer's `resource`. */
export const resourceOf = (a: Answer): JsonObject => objectOf(objectOf(a.json).resource, 'resource')

/** A `txid#ix` as a path segment or Range value carries it. */
export const pct = (ref: string): string => ref.replace('#', '%23')

/**
 * POST /contracts/{id}/transactions (the vendor type) by `wallet`, sign, PUT and follow to confirmation; returns
 * the transaction id.
 */
export async function applyConfirmed(
  server: TestServer,
  contractId: string,
  wallet: TestWallet,
  body: JsonObject
): Promise<string> {
  const path = `/contracts/${encodeURIComponent(contractId)}/transactions`
  const built = await call(server, 'POST', path, {
    body,
    headers: walletHeaders(wallet, { accept: 'application/vendor.iog.marlowe-runtime.apply-inputs-tx-json' })
  })
  expect(built.status, built.text).toBe(201)
  const txId = stringOf(resourceOf(built).transactionId, 'transactionId')
  await signAndPut(server, `${path}/${txId}`, unsignedTxOf(built), [wallet])
  await server.opened.follower.sync()
  return txId
}

/**
 * A witness set made from the body alone (what a wallet given the JSON variant's `txBody` would sign): each key
 * signs the body hash.
 */
export function bodyWitnessEnvelope(body: Uint8Array, signers: readonly TestWallet[]): JsonObject {
  const cborHex = withCsl((s) => {
    const hash = s.own(CSL.TransactionHash.from_hex(blake2b256Hex(body)))
    const set = s.own(CSL.TransactionWitnessSet.new())
    const vkeys = s.own(CSL.Vkeywitnesses.new())
    for (const w of signers)
      vkeys.add(s.own(CSL.make_vkey_witness(hash, s.own(CSL.PrivateKey.from_extended_bytes(w.key)))))
    set.set_vkeys(vkeys)
    return bytesToHex(set.to_bytes())
  })
  return { type: 'ShelleyTxWitness ConwayEra', description: '', cborHex }
}

/**
 * A request through node:http, which (unlike fetch) sends the headers it is given as they are, Host included;
 * `host: null` leaves Host out. Adds the token unless `token` is null, like `call`.
 */
export function rawCall(
  server: { port: number },
  method: string,
  path: string,
  options: { body?: string | Buffer; headers?: Record<string, string | null>; token?: string | null } = {}
): Promise<Answer> {
  const headers: Record<string, string> = {}
  let setHost = true
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value !== null) headers[name.toLowerCase()] = value
    else if (name.toLowerCase() === 'host') setHost = false
  }
  if (options.token !== null) headers['authorization'] ??= `Bearer ${options.token ?? TOKEN}`
  if (options.body !== undefined) headers['content-type'] ??= 'application/json'
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, method, path, headers, setHost, agent: false },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('error', reject)
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          const responseHeaders = new Headers()
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value)
          }
          let json: JsonValue | undefined
          try {
            json = text === '' ? undefined : parseJson(text)
          } catch {
            json = undefined
          }
          resolve({ status: res.statusCode ?? 0, headers: responseHeaders, text, json })
        })
      }
    )
    req.on('error', reject)
    req.end(options.body)
  })
}
