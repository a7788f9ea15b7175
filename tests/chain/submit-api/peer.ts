/**
 * A local cardano-submit-api for tests: `POST /api/submit/tx` with `application/cbor` bodies, answering as the
 * real service does — 202 with the tx id as a JSON string, 400 with the submit error as JSON, 415 for another
 * content type — and scriptable to reject, fail, stall or go away.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { concatBytes } from '../../../src/core/bytes'
import { encodeHead } from '../../../src/core/cardano/cbor'
import { decodeTransaction } from '../../../src/core/cardano/tx'

/** A minimal transaction the core decoder accepts: no inputs or outputs, `fee` to make distinct ids. */
export function sampleTx(fee: bigint): Uint8Array {
  const body = concatBytes([
    encodeHead(5, 3),
    encodeHead(0, 0),
    encodeHead(4, 0),
    encodeHead(0, 1),
    encodeHead(4, 0),
    encodeHead(0, 2),
    encodeHead(0, fee)
  ])
  return concatBytes([encodeHead(4, 4), body, encodeHead(5, 0), Uint8Array.of(0xf5, 0xf6)])
}

export function sampleTxId(tx: Uint8Array): string {
  return decodeTransaction(tx).id
}

/** The modern submit-api error for a ledger rejection (nested `tag`/`contents`, the ledger's lines in `error`). */
export function ledgerRejection(lines: readonly string[]): string {
  return JSON.stringify({
    contents: {
      contents: {
        contents: { era: 'ShelleyBasedEraConway', error: lines, kind: 'ShelleyTxValidationError' },
        tag: 'TxValidationErrorInCardanoMode'
      },
      tag: 'TxCmdTxSubmitValidationError'
    },
    tag: 'TxSubmitFail'
  })
}

export function readBody(req: IncomingMessage): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))))
    req.on('error', reject)
  })
}

/** A port nothing listens on: bound, then released. */
export async function unusedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

export async function shut(server: Server): Promise<void> {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
}

export type SubmitBehaviour =
  | { readonly kind: 'accept' }
  /** Accept, but answer this body instead of the id. */
  | { readonly kind: 'accept-with'; readonly body: string }
  | { readonly kind: 'reject'; readonly body: string }
  | { readonly kind: 'fail'; readonly status: number; readonly body: string }

export interface ReceivedSubmission {
  readonly path: string
  readonly contentType: string | undefined
  readonly body: Uint8Array
  readonly headers: IncomingMessage['headers']
}

export class SubmitApiPeer {
  behaviour: SubmitBehaviour = { kind: 'accept' }
  /** Delay before answering, for the next `slowAnswers` requests. */
  delayMs = 0
  slowAnswers = 0
  readonly received: ReceivedSubmission[] = []
  /** Transactions accepted into the "mempool", by id. */
  readonly mempool = new Map<string, Uint8Array>()

  private constructor(
    private readonly server: Server,
    readonly url: string
  ) {}

  static async start(): Promise<SubmitApiPeer> {
    const holder: { peer?: SubmitApiPeer } = {}
    const server = createServer((req, res) => void holder.peer?.handle(req, res))
    holder.peer = new SubmitApiPeer(server, await listen(server))
    return holder.peer
  }

  close(): Promise<void> {
    return shut(this.server)
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req)
    const path = (req.url ?? '').split('?')[0] ?? ''
    this.received.push({ path, contentType: req.headers['content-type'], body, headers: req.headers })
    if (this.slowAnswers > 0) {
      this.slowAnswers -= 1
      await new Promise((resolve) => setTimeout(resolve, this.delayMs))
    }
    if (res.destroyed) return
    const send = (status: number, text: string): void => {
      res.writeHead(status, { 'content-type': 'application/json;charset=utf-8' }).end(text)
    }
    if (path !== '/api/submit/tx') return send(404, '')
    if (req.method !== 'POST') return send(405, '')
    if (req.headers['content-type'] !== 'application/cbor') return send(415, '')
    const b = this.behaviour
    switch (b.kind) {
      case 'accept':
      case 'accept-with': {
        let id: string
        try {
          id = decodeTransaction(body).id
        } catch {
          return send(400, JSON.stringify('Provided transaction could not be decoded'))
        }
        this.mempool.set(id, body)
        return send(202, b.kind === 'accept' ? JSON.stringify(id) : b.body)
      }
      case 'reject':
        return send(400, b.body)
      case 'fail':
        return send(b.status, b.body)
    }
  }
}
