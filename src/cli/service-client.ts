/**
 * The build/submit service as the online `tx` commands reach it: over HTTP, in Runtime's API and Desk's own
 * transfer routes, with the API token. It is the `serve` already running on the data directory when there is
 * one; otherwise the command opens the chain and the same store itself and serves them on a private port for the
 * length of the command, so that both ways run the very same requests.
 */
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { isJsonObject, JsonSyntaxError, parseJson, stringifyJson, type JsonValue } from '../core/json/lossless'
import { openService } from '../engine/service'
import { apiToken } from '../host/api-token'
import { createServer, listen } from '../server/app'
import { desktopHome, openChain, type ChainChoice } from './chain'
import { CliError } from './errors'
import { runningServe } from './running-serve'

/** Building evaluates Plutus scripts and a submit waits for the node: generous, but never forever. */
const REQUEST_TIMEOUT_MS = 120_000

export interface ServiceAnswer {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  readonly json: JsonValue | undefined
}

export interface ServiceClient {
  /** How the command reached the service, for its output: "the serve on port N" or "this command". */
  readonly via: string
  /** A request; an error answer (4xx, 5xx) becomes the command's error, in the service's words. */
  request(
    method: 'GET' | 'POST',
    path: string,
    options?: { readonly body?: JsonValue; readonly headers?: Readonly<Record<string, string>> }
  ): Promise<ServiceAnswer>
}

function messageOf(answer: { status: number; json: JsonValue | undefined; text: string }): string {
  const body = answer.json
  if (!isJsonObject(body)) {
    return `the service answered ${answer.status}${answer.text === '' ? '' : `: ${answer.text.slice(0, 500)}`}`
  }
  // The node's refusal, in its own words (the service wraps them for Runtime's clients).
  const details = body.details
  if (body.errorCode === 'SubmissionError' && isJsonObject(details) && typeof details.reason === 'string') {
    return `the chain says: ${details.reason}`
  }
  if (typeof body.message === 'string') {
    const code = typeof body.errorCode === 'string' ? ` (${body.errorCode})` : ''
    return `${body.message}${code}`
  }
  return `the service answered ${answer.status}${answer.text === '' ? '' : `: ${answer.text.slice(0, 500)}`}`
}

function httpClient(command: string, base: string, token: string, via: string): ServiceClient {
  return {
    via,
    async request(method, path, options = {}) {
      let response: Response
      try {
        response = await fetch(new URL(path, base), {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
            ...options.headers
          },
          ...(options.body === undefined ? {} : { body: stringifyJson(options.body) }),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS)
        })
      } catch (e) {
        throw new CliError(`${command}: could not reach ${via} (${e instanceof Error ? e.message : String(e)})`)
      }
      const text = await response.text()
      let json: JsonValue | undefined
      try {
        json = text === '' ? undefined : parseJson(text)
      } catch (e) {
        if (!(e instanceof JsonSyntaxError)) throw e
        json = undefined
      }
      const answer = { status: response.status, headers: response.headers, text, json }
      if (response.status >= 400) throw new CliError(`${command}: ${messageOf(answer)}`)
      return answer
    }
  }
}

/**
 * Runs `work` against the service of the data directory: the running `serve` (on the sandbox, the only way in
 * while it runs), else one this command opens on the chain its flags name and closes afterwards.
 */
export async function withService<T>(
  command: string,
  choice: ChainChoice,
  work: (client: ServiceClient) => Promise<T>
): Promise<T> {
  const home = choice.data ?? desktopHome()
  const serve = runningServe(home)
  const network = choice.network ?? 'sandbox'
  if (serve !== undefined && serve.network === network) {
    const client = httpClient(
      command,
      `http://127.0.0.1:${serve.port}/`,
      apiToken(home),
      `the marlowe-desk serve on port ${serve.port}`
    )
    return work(client)
  }
  const chain = await openChain(command, choice, { follow: false })
  const opened = await openService({
    provider: chain.provider,
    databasePath: join(home, `service-${chain.network}.sqlite`),
    followEveryMs: false
  })
  const token = randomBytes(24).toString('base64url')
  const app = createServer({ service: opened.service, token, logLevel: 'silent' })
  try {
    const port = await listen(app, 0)
    return await work(httpClient(command, `http://127.0.0.1:${port}/`, token, 'this command'))
  } finally {
    await app.close()
    await opened.close()
    await chain.close()
  }
}
