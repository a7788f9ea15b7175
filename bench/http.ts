/** Plain HTTP for the benchmarks: one GET with its whole answer, and a bare node:http server as the floor. */
import { createServer as createHttpServer, get, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Answer {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly body: Buffer
}

export function httpGet(url: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent: false }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) })
      )
      response.on('error', reject)
    })
    request.on('error', reject)
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
