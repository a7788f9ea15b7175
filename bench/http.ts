/** Plain HTTP for the benchmarks: one GET or POST with its whole answer, and a bare node:http server as the floor. */
import {
  createServer as createHttpServer,
  get,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server
} from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Answer {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly body: Buffer
}

function collect(response: IncomingMessage, resolve: (answer: Answer) => void, reject: (e: Error) => void): void {
  const chunks: Buffer[] = []
  response.on('data', (chunk: Buffer) => chunks.push(chunk))
  response.on('end', () =>
    resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) })
  )
  response.on('error', reject)
}

export function httpGet(url: string, headers: Readonly<Record<string, string>> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent: false, headers }, (response) => collect(response, resolve, reject))
    request.on('error', reject)
  })
}

/** POSTs `body` as JSON. */
export function httpPost(url: string, body: string, headers: Readonly<Record<string, string>> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', ...headers } },
      (response) => collect(response, resolve, reject)
    )
    request.on('error', reject)
    request.end(body)
  })
}

const HOP_BY_HOP = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding'])

/** A bare node:http server answering every request with `answer`'s status, headers and body. */
export async function bareServer(answer: Answer): Promise<Server> {
  const headers: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value
  }
  const server = createHttpServer((_request, response) => {
    response.writeHead(answer.status, headers)
    response.end(answer.body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return server
}

export function portOf(server: Server): number {
  return (server.address() as AddressInfo).port
}

export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections()
  await new Promise<void>((resolve, reject) => server.close((e) => (e === undefined ? resolve() : reject(e))))
}
