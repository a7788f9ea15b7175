/**
 * The optional local API: the Runtime-compatible HTTP API on 127.0.0.1 for other programs (off by default),
 * always behind the API token. It serves one service, so a new service (another network) restarts it.
 */
import type { FastifyInstance } from 'fastify'
import type { LocalApiState } from '../api/contract'
import type { MarloweService } from '../engine/service'
import { createServer, listen } from '../server/app'

export class LocalApi {
  private server: FastifyInstance | undefined
  /** `port` as asked for in the settings; `served`, the one the socket took (what other programs use). */
  private serving: { readonly port: number; readonly served: number; readonly service: MarloweService } | undefined
  private problem: string | undefined

  constructor(private readonly token: string) {}

  get state(): LocalApiState {
    if (this.serving !== undefined) {
      return { listening: true, url: `http://127.0.0.1:${this.serving.served}/`, token: this.token }
    }
    return { listening: false, token: this.token, ...(this.problem === undefined ? {} : { problem: this.problem }) }
  }

  /** Serves `service` on `port` when enabled, else nothing; a port that cannot be taken is reported, not thrown. */
  async apply(setting: { readonly enabled: boolean; readonly port: number }, service: MarloweService): Promise<void> {
    const same = this.serving !== undefined && this.serving.port === setting.port && this.serving.service === service
    if (setting.enabled && same) return
    await this.stop()
    this.problem = undefined
    if (!setting.enabled) return
    const server = createServer({ service, token: this.token, corsOrigins: [] })
    let served: number
    try {
      served = await listen(server, setting.port)
    } catch (e) {
      await server.close()
      const code = (e as NodeJS.ErrnoException).code
      this.problem =
        code === 'EADDRINUSE'
          ? `Port ${setting.port} is already in use by another program; choose another port.`
          : `The local API could not listen on 127.0.0.1:${setting.port} (${code ?? String(e)}).`
      return
    }
    this.server = server
    this.serving = { port: setting.port, served, service }
  }

  async stop(): Promise<void> {
    const server = this.server
    this.server = undefined
    this.serving = undefined
    await server?.close()
  }
}
