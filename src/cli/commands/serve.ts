/**
 * `marlowe-desk serve`: the Runtime-compatible build/submit service over HTTP on 127.0.0.1, on the sandbox by
 * default or on a real network through a node interface. Runs until SIGINT/SIGTERM, then closes cleanly.
 */
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createDesk } from '../../engine/desk'
import { Keystore } from '../../engine/keys'
import { openService, type OpenService } from '../../engine/service'
import { createServer, listen } from '../../server/app'
import type { DeskHttpOptions } from '../../server/desk-routes'
import { expectPositionals, parseOptions, type Command } from '../command'
import { desktopHome, openChain, chainOptions } from '../chain'
import { usageError } from '../errors'
import { version as VERSION } from '../../../package.json'

const DEFAULT_PORT = 3780

/** The API token kept in the data directory, readable by its owner only; made on first use. */
function apiToken(dir: string): string {
  const file = join(dir, 'api-token')
  if (existsSync(file)) {
    const token = readFileSync(file, 'utf8').trim()
    if (token !== '') return token
  }
  mkdirSync(dir, { recursive: true })
  const token = randomBytes(24).toString('base64url')
  writeFileSync(file, `${token}\n`, { mode: 0o600 })
  chmodSync(file, 0o600)
  return token
}

function portOf(text: string | undefined): number {
  if (text === undefined) return DEFAULT_PORT
  const port = Number(text)
  if (!/^\d+$/.test(text) || port > 65535) throw usageError(`serve: --port ${text} is not a port number (0-65535)`)
  return port
}

/** The built renderer: `out/renderer`, beside the CLI bundle in `out/cli`. */
function uiDirOf(given: string | undefined): string {
  const dir = given ?? join(__dirname, '..', 'renderer')
  if (!existsSync(join(dir, 'index.html'))) {
    throw usageError(`serve: --ui needs the built renderer, but ${dir} has no index.html (run npm run build)`)
  }
  return dir
}

/** The desktop app's API over this server, with the CLI's keystore (`keys` in the data directory). */
async function deskOptions(opened: OpenService, home: string, uiDir: string): Promise<DeskHttpOptions> {
  const keystore = await Keystore.open({ dir: join(home, 'keys') })
  return { desk: createDesk({ service: opened.service, store: opened.store, keystore, version: VERSION }), uiDir }
}

function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string): void => {
      process.off('SIGINT', onInt)
      process.off('SIGTERM', onTerm)
      resolve(signal)
    }
    const onInt = (): void => stop('SIGINT')
    const onTerm = (): void => stop('SIGTERM')
    process.on('SIGINT', onInt)
    process.on('SIGTERM', onTerm)
  })
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'run the Runtime-compatible build/submit HTTP API on 127.0.0.1 (sandbox by default)',
  help: `Usage: marlowe-desk serve [--network sandbox|preview|preprod|mainnet] [--port N]
                          [--ogmios URL | --blockfrost PROJECT_ID [--blockfrost-url URL]] [--submit-api URL]
                          [--data DIR] [--no-token] [--cors-origin ORIGIN]... [--ui [--ui-dir DIR]] [--verbose]

Serves Marlowe Runtime's REST API (POST /contracts, PUT /contracts/{id}, /transactions, /withdrawals,
/payouts, /healthcheck, /openapi.json) on http://127.0.0.1:N (default ${DEFAULT_PORT}). Built transactions are
kept in DIR (default $MARLOWE_DESK_HOME or ~/.marlowe-desk) until confirmed, across restarts.

  --network       sandbox (default: the embedded ledger, no node needed), preview, preprod or mainnet
  --ogmios        an Ogmios v6 WebSocket URL (ws://host:1337) for a real network
  --blockfrost    a Blockfrost project id (or --blockfrost-url for a self-hosted instance)
  --submit-api    a cardano-submit-api URL to submit through (queries still go to Ogmios/Blockfrost)
  --no-token      accept requests without the API token (any local program can then use the API)
  --cors-origin   let a web page at ORIGIN call the API (repeatable; none by default)
  --ui            also serve the desktop app's page at /ui/ (open the printed link: it carries the token)
  --ui-dir        the built renderer to serve (default: out/renderer beside this program)
  --verbose       log every request (JSON lines on stderr)

Every request must carry the API token kept in DIR/api-token, as "Authorization: Bearer <token>" or by
using the printed base URL http://127.0.0.1:N/t/<token>/ (for Runtime clients that take only a base URL).`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, {
      ...chainOptions,
      port: { type: 'string' },
      'no-token': { type: 'boolean' },
      'cors-origin': { type: 'string', multiple: true },
      ui: { type: 'boolean' },
      'ui-dir': { type: 'string' },
      verbose: { type: 'boolean' }
    })
    expectPositionals(this.name, positionals, [])
    const port = portOf(values.port)
    if (values['ui-dir'] !== undefined && values.ui !== true) throw usageError('serve: --ui-dir goes with --ui')
    const uiDir = values.ui === true ? uiDirOf(values['ui-dir']) : undefined
    const home = values.data ?? desktopHome()
    const chain = await openChain(this.name, values, { follow: true })
    const opened = openService({
      provider: chain.provider,
      databasePath: join(home, `service-${chain.network}.sqlite`)
    })
    const token = values['no-token'] === true ? undefined : apiToken(home)
    const app = createServer({
      service: opened.service,
      ...(token === undefined ? {} : { token }),
      corsOrigins: values['cors-origin'] ?? [],
      logLevel: values.verbose === true ? 'info' : 'warn',
      ...(uiDir === undefined ? {} : { desk: await deskOptions(opened, home, uiDir) })
    })
    try {
      const bound = await listen(app, port)
      io.out(`marlowe-desk serving ${chain.network} on http://127.0.0.1:${bound}/`)
      if (token !== undefined) io.out(`base URL with the API token: http://127.0.0.1:${bound}/t/${token}/`)
      if (uiDir !== undefined) {
        const fragment = token === undefined ? '' : `#token=${encodeURIComponent(token)}`
        io.out(`Marlowe Desk in your browser: http://127.0.0.1:${bound}/ui/${fragment}`)
      }
      io.out(`listening ${bound}`)
      const signal = await untilSignal()
      io.out(`${signal}: stopping`)
    } finally {
      await app.close()
      await opened.close()
      await chain.close()
    }
  }
}
