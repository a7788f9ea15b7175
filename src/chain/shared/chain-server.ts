/**
 * Serves one process's chain (the sandbox: one process holds its ledger) to other processes on this machine over
 * HTTP on 127.0.0.1, so that several `serve` replicas build on and submit to one ledger. POST /{call} with the
 * call's arguments as a wire array answers {"result": …} or {"error": {kind, reason, details}} (a ChainError).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ChainError, type ChainProvider } from '../provider'
import { DESCRIBE_PATH, isSharedChainCall } from './protocol'
import { decodeWire, encodeWire, type WireValue } from './wire'

/** A transaction is at most 16 KiB and a UTxO query a few addresses: a megabyte is far beyond any real call. */
const MAX_BODY_BYTES = 8 * 1024 * 1024

export interface SharedChain {
  readonly port: number
  close(): Promise<void>
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = []
    let size = 0
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        request.destroy()
        fail(new ChainError('BadResponse', `a call to the shared chain larger than ${MAX_BODY_BYTES} bytes`))
        return
      }
      chunks.push(chunk)
    })
    request.on('end', () => done(Buffer.concat(chunks).toString('utf8')))
    request.on('error', fail)
  })
}

async function answer(provider: ChainProvider, call: string, body: string): Promise<WireValue> {
  if (!isSharedChainCall(call)) throw new ChainError('BadResponse', `the shared chain has no call ${call}`)
  const args = decodeWire(body)
  if (!Array.isArray(args)) throw new ChainError('BadResponse', `the arguments of ${call} are not a list`)
  const method = provider[call] as ((...a: readonly WireValue[]) => Promise<WireValue>) | undefined
  if (method === undefined) throw new ChainError('BadResponse', `this chain does not answer ${call}`)
  return method.apply(provider, args as WireValue[])
}

function describe(provider: ChainProvider): WireValue {
  return {
    network: provider.network,
    networkId: provider.networkId,
    deployment: provider.deployment as WireValue,
    chainIndex: provider.scriptTransactions !== undefined
  }
}

export async function shareChain(provider: ChainProvider, port: number): Promise<SharedChain> {
  const server: Server = createServer((request, response) => {
    const reply = (status: number, value: WireValue): void => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(encodeWire(value))
    }
    if (request.method === 'GET' && request.url === DESCRIBE_PATH) return reply(200, describe(provider))
    if (request.method !== 'POST') return reply(405, { error: { kind: 'BadResponse', reason: 'POST a call' } })
    readBody(request)
      .then((body) => answer(provider, (request.url ?? '/').slice(1), body))
      .then(
        (result) => reply(200, { result }),
        (e: unknown) => {
          const error =
            e instanceof ChainError
              ? { kind: e.kind, reason: e.reason, details: e.details as WireValue }
              : { kind: 'BadResponse', reason: e instanceof Error ? e.message : String(e), details: {} }
          reply(e instanceof ChainError ? 502 : 500, { error })
        }
      )
  })
  await new Promise<void>((done, fail) => {
    server.once('error', fail)
    server.listen(port, '127.0.0.1', () => done())
  })
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      })
  }
}
