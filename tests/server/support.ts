/** A real server on 127.0.0.1 over a sandbox and a SQLite file, and a small fetch helper for the tests. */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { SandboxProvider } from '../../src/chain/sandbox'
import { parseJson, stringifyJson, type JsonValue } from '../../src/core/json/lossless'
import { openService, type OpenService } from '../../src/engine/service'
import { createServer, listen, type ServerOptions } from '../../src/server/app'
import { ManualClock, T0 } from '../engine/build/support'

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
  options: Partial<Omit<ServerOptions, 'service'>> & { databasePath?: string } = {}
): Promise<TestServer> {
  const clock = new ManualClock()
  const sandbox = SandboxProvider.open({ zeroTime: T0, clockTickMs: false, now: clock.now })
  const databasePath = options.databasePath ?? join(mkdtempSync(join(tmpdir(), 'marlowe-desk-server-')), 'store.sqlite')
  const opened = openService({ provider: sandbox, databasePath, now: clock.now, followEveryMs: false })
  const app = createServer({ token: TOKEN, logLevel: 'silent', ...options, service: opened.service })
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
