/**
 * Trezor Bridge (trezord) as Trezor Connect's BridgeTransport speaks to it, on 127.0.0.1: `POST /` (version),
 * `/enumerate`, `/listen` (answers when the devices or their sessions change), `/acquire/{path}/{previous}`,
 * `/release/{session}`, `/call/{session}` with each message in the bridge framing (2-byte type, 4-byte length,
 * protobuf) as hex. Messages are encoded and decoded with Trezor's own protobuf definitions
 * (@trezor/protobuf's messages.json). Behind it one USB slot, empty or holding a device double.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import TrezorConnect, { DEVICE, type ConnectSettingsPublic } from '@trezor/connect'
import { decodeMessage, encodeMessage, parseConfigure } from '@trezor/protobuf'
import messagesJson from '@trezor/protobuf/messages.json'
import { BridgeTransport } from '@trezor/transport'

/** One transport as Connect's settings take it. */
type ConnectTransport = NonNullable<ConnectSettingsPublic['transports']>[number]

/** A message as Trezor's protobuf decoding gives it: bytes as hex, enums by name, 64-bit numbers as strings. */
export type Message = Record<string, unknown>

export interface Reply {
  readonly type: string
  readonly message: Message
}

/**
 * What stands behind the USB port: a device answering one message at a time. An answer may wait (a person who
 * has not pressed yet); nothing at all is the answer to a `Cancel` that ended a waiting answer.
 */
export interface DeviceDouble {
  answer(type: string, message: Message): Reply | Promise<Reply> | undefined
}

/** The device was pulled out while Bridge waited for its answer. */
export class Unplugged extends Error {}

const messages = parseConfigure(messagesJson)
const HEADER = 6

/** A message in the bridge framing, as hex. */
function encode(reply: Reply): string {
  const encoded = encodeMessage(messages, reply.type, reply.message)
  const out = Buffer.alloc(HEADER + encoded.message.length)
  out.writeUInt16BE(encoded.messageType, 0)
  out.writeUInt32BE(encoded.message.length, 2)
  encoded.message.copy(out, HEADER)
  return out.toString('hex')
}

interface Descriptor {
  readonly path: string
  readonly session: string | null
  readonly sessionOwner: string | undefined
  readonly product: number
  readonly vendor: number
  readonly debug: boolean
  readonly debugSession: null
}

/** One USB port with a device in it. */
interface Port {
  readonly path: string
  readonly device: DeviceDouble
  session: string | null
  /** The transport instance holding the session (Connect tells its own sessions from another app's by it). */
  owner: string | undefined
  /** Answers to messages written with `/post`, for `/read`. */
  readonly outbox: Reply[]
}

export class BridgeDouble {
  /** Every message the devices received, by type, in order. */
  readonly received: string[] = []
  private ports: Port[] = []
  /** Each device plugged in gets a new path, as USB enumeration gives. */
  private paths = 0
  private sessions = 0
  private listeners: (() => void)[] = []
  private readonly server: Server

  private constructor() {
    this.server = createServer((req, res) => void this.route(req, res))
  }

  static async start(): Promise<BridgeDouble> {
    const bridge = new BridgeDouble()
    await new Promise<void>((resolve) => bridge.server.listen(0, '127.0.0.1', resolve))
    return bridge
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port
  }

  /**
   * Connect's own BridgeTransport, pointed at this double instead of trezord's port. Cast because under
   * exactOptionalPropertyTypes the library's declared init() result does not fit its own settings type.
   */
  transport(): ConnectTransport {
    const port = this.port
    return class extends BridgeTransport {
      constructor(params: ConstructorParameters<typeof BridgeTransport>[0]) {
        super({ ...params, port })
      }
    } as unknown as ConnectTransport
  }

  /** `device` in place of whatever was plugged in. */
  plug(device: DeviceDouble): void {
    this.ports = []
    this.plugAnother(device)
  }

  /** `device` beside those plugged in. */
  plugAnother(device: DeviceDouble): void {
    this.paths += 1
    this.ports.push({ path: String(this.paths), device, session: null, owner: undefined, outbox: [] })
    this.changed()
  }

  unplug(): void {
    this.ports = []
    this.changed()
  }

  /**
   * Plugs `device` in (in place of the others, or `beside` them), or pulls every device out, and waits until
   * Connect has said so: a person plugs in, then clicks.
   */
  async plugSeen(device: DeviceDouble | undefined, beside = false): Promise<void> {
    const event = device === undefined ? DEVICE.DISCONNECT : DEVICE.CONNECT
    await new Promise<void>((resolve) => {
      const seen = () => {
        TrezorConnect.off(event, seen)
        resolve()
      }
      TrezorConnect.on(event, seen)
      if (device === undefined) this.unplug()
      else if (beside) this.plugAnother(device)
      else this.plug(device)
    })
  }

  async close(): Promise<void> {
    this.changed()
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  private descriptors(): Descriptor[] {
    return this.ports.map((p) => ({
      path: p.path,
      session: p.session,
      sessionOwner: p.owner,
      product: 0x53c1,
      vendor: 0x1209,
      debug: false,
      debugSession: null
    }))
  }

  private changed(): void {
    const waiting = this.listeners
    this.listeners = []
    for (const wake of waiting) wake()
  }

  private decode(hex: string) {
    const bytes = Buffer.from(hex, 'hex')
    const asked = decodeMessage(messages, bytes.readUInt16BE(0), bytes.subarray(HEADER))
    this.received.push(asked.type)
    return asked
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString('utf8')
    const [, endpoint = '', ...params] = (req.url ?? '/').split('?')[0]!.split('/')
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(value))
    }
    const fail = (error: string) => json(400, { error })
    const ok = (hex: string) => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.end(hex)
    }
    switch (endpoint) {
      case '':
        return json(200, { version: '2.0.33' })
      case 'enumerate':
        return json(200, this.descriptors())
      case 'listen': {
        const shape = (list: readonly Descriptor[]) =>
          JSON.stringify(list.map(({ path, session }) => ({ path, session })))
        if (shape(this.descriptors()) === shape(JSON.parse(body || '[]') as Descriptor[]))
          await new Promise<void>((resolve) => this.listeners.push(resolve))
        return json(200, this.descriptors())
      }
      case 'acquire': {
        const [path, previous] = params
        const port = this.ports.find((p) => p.path === path)
        if (port === undefined) return fail('device not found')
        if ((previous === 'null' ? null : previous) !== port.session) return fail('wrong previous session')
        this.sessions += 1
        port.session = String(this.sessions)
        port.owner = (JSON.parse(body || '{}') as { sessionOwner?: string }).sessionOwner
        this.changed()
        return json(200, { session: port.session })
      }
    }
    const port = this.ports.find((p) => p.session === params[0])
    if (port === undefined) return fail('session not found')
    switch (endpoint) {
      case 'release':
        port.session = null
        this.changed()
        return json(200, { session: params[0] })
      case 'post': {
        const asked = this.decode(body)
        const reply = await port.device.answer(asked.type, asked.message as Message)
        if (reply !== undefined) port.outbox.push(reply)
        return ok('')
      }
      case 'read': {
        const reply = port.outbox.shift()
        if (reply === undefined) return fail('this double has no answer waiting to be read')
        return ok(encode(reply))
      }
      case 'call': {
        const asked = this.decode(body)
        try {
          const reply = await port.device.answer(asked.type, asked.message as Message)
          if (reply === undefined) return fail('this double had no answer')
          return ok(encode(reply))
        } catch (e) {
          if (!(e instanceof Unplugged)) throw e
          this.ports = this.ports.filter((p) => p !== port)
          this.changed()
          return fail('device disconnected during action')
        }
      }
      default:
        return json(404, { error: `no such endpoint ${endpoint}` })
    }
  }
}
