/**
 * Connection limits, against a real server on 127.0.0.1: connections without the token that send nothing, send
 * half a request or idle after one are dropped at the server's deadlines; past the connection cap the oldest of
 * them make room, so a client with the token still gets in (and keeps its own connection) while many are open.
 */
import { Agent, request } from 'node:http'
import { connect, type Socket } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { sandboxWallet } from '../../src/chain/sandbox'
import { startServer, TOKEN, type TestServer } from './support'

const servers: TestServer[] = []
const sockets: Socket[] = []
const agents: Agent[] = []

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  for (const agent of agents.splice(0)) agent.destroy()
  for (const server of servers.splice(0)) await server.close()
})

async function serve(options: Parameters<typeof startServer>[0]): Promise<TestServer> {
  const server = await startServer(options)
  servers.push(server)
  return server
}

interface RawConnection {
  /** Everything the server sent. */
  readonly received: () => string
  /** Resolves once the server has closed the connection. */
  readonly closed: Promise<void>
}

/** A raw TCP connection that sends `text` (nothing when empty) and then nothing more. */
async function rawConnection(port: number, text: string): Promise<RawConnection> {
  const socket = connect(port, '127.0.0.1')
  sockets.push(socket)
  let received = ''
  socket.setEncoding('utf8')
  socket.on('data', (chunk: string) => (received += chunk))
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('error', reject)
  })
  socket.on('error', () => undefined)
  if (text !== '') socket.write(text)
  return { received: () => received, closed }
}

/** GET /healthcheck with the token, on a connection of `agent` (a fresh one without). */
function healthcheck(port: number, agent?: Agent): Promise<{ status: number; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/healthcheck',
        headers: { authorization: `Bearer ${TOKEN}` },
        agent: agent ?? false
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }))
      }
    )
    req.on('error', reject)
    req.end()
  })
}

describe('connection limits', () => {
  test(
    'idle, half-sent and idle-after-a-401 connections without the token are dropped at the deadlines',
    { timeout: 10_000 },
    async () => {
      const server = await serve({ headersTimeoutMs: 200, keepAliveTimeoutMs: 200 })
      const host = `Host: 127.0.0.1:${server.port}\r\n`
      const idle = await Promise.all([1, 2, 3].map(() => rawConnection(server.port, '')))
      const halfSent = await Promise.all(
        [1, 2, 3].map(() => rawConnection(server.port, `GET /healthcheck HTTP/1.1\r\n${host}`))
      )
      const afterRefusal = await Promise.all(
        [1, 2, 3].map(() => rawConnection(server.port, `GET /healthcheck HTTP/1.1\r\n${host}\r\n`))
      )
      expect(await healthcheck(server.port)).toEqual({ status: 200, reused: false })

      await Promise.all([...idle, ...halfSent, ...afterRefusal].map((c) => c.closed))
      for (const c of halfSent) expect(c.received()).toMatch(/^HTTP\/1\.1 408 /)
      for (const c of afterRefusal) expect(c.received()).toMatch(/^HTTP\/1\.1 401 /)
    }
  )

  test('an admitted request answered after the request deadline still gets its answer', async () => {
    const server = await serve({ requestTimeoutMs: 300 })
    // A node that takes a second to list the wallet's UTxOs: the build answers long after the deadline.
    const utxosAt = server.sandbox.utxosAt.bind(server.sandbox)
    server.sandbox.utxosAt = async (addresses) => {
      await new Promise((done) => setTimeout(done, 1000))
      return utxosAt(addresses)
    }
    const response = await fetch(`${server.base}/contracts`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        'x-change-address': sandboxWallet('alice').address
      },
      body: JSON.stringify({ version: 'v1', contract: 'close', tags: {}, metadata: {} })
    })
    expect(response.status).toBe(201)
  })

  test(
    'past the cap, slow connections without the token make room: the token gets in, and keeps its connection',
    { timeout: 10_000 },
    async () => {
      const cap = 16
      const server = await serve({ maxConnections: cap, keepAliveTimeoutMs: 60_000 })
      const agent = new Agent({ keepAlive: true, maxSockets: 1 })
      agents.push(agent)
      expect(await healthcheck(server.port, agent)).toEqual({ status: 200, reused: false })

      const slow: RawConnection[] = []
      for (let i = 0; i < 3 * cap; i += 1) {
        slow.push(await rawConnection(server.port, `GET /healthcheck HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n`))
      }
      // At most cap - 1 stay open, the admitted one among them: the oldest of the others were dropped.
      await Promise.all(slow.slice(0, slow.length - (cap - 2)).map((c) => c.closed))

      expect(await healthcheck(server.port, agent)).toEqual({ status: 200, reused: true })
      expect(await healthcheck(server.port)).toEqual({ status: 200, reused: false })
    }
  )
})
