/**
 * `marlowe-desk serve`: the Runtime-compatible build/submit service over HTTP on 127.0.0.1, on the sandbox by
 * default or on a real network through a node interface. Runs until SIGINT/SIGTERM, then closes cleanly.
 */
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openService } from '../../engine/service'
import { createServer, listen } from '../../server/app'
import { expectPositionals, parseOptions, type Command } from '../command'
import { desktopHome, openChain, chainOptions } from '../chain'
import { usageError } from '../errors'

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
                          [--data DIR] [--no-token] [--cors-origin ORIGIN]... [--verbose]

Serves Marlowe Runtime's REST API (POST /contracts, PUT /contracts/{id}, /transactions, /withdrawals,
/payouts, /healthcheck, /openapi.json) on http://127.0.0.1:N (default ${DEFAULT_PORT}). Built transactions are
kept in DIR (default $MARLOWE_DESK_HOME or ~/.marlowe-desk) until confirmed, across restarts.

  --network       sandbox (default: the embedded ledger, no node needed), preview, preprod or mainnet
  --ogmios        an Ogmios v6 WebSocket URL (ws://host:1337) for a real network
  --blockfrost    a Blockfrost project id (or --blockfrost-url for a self-hosted instance)
  --submit-api    a cardano-submit-api URL to submit through (queries still go to Ogmios/Blockfrost)
  --no-token      accept requests without the API token (any local program can then use the API)
  --cors-origin   let a web page at ORIGIN call the API (repeatable; none by default)
  --verbose       log every request (JSON lines on stderr)

Every request must carry the API token kept in DIR/api-token, as "Authorization: Bearer <token>" or by
using the printed base URL http://127.0.0.1:N/t/<token>/ (for Runtime clients that take only a base URL).`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, {
      ...chainOptions,
      port: { type: 'string' },
      'no-token': { type: 'boolean' },
      'cors-origin': { type: 'string', multiple: true },
      verbose: { type: 'boolean' }
    })
    expectPositionals(this.name, positionals, [])
    const port = portOf(values.port)
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
      logLevel: values.verbose === true ? 'info' : 'warn'
    })
    try {
      const bound = await listen(app, port)
      io.out(`marlowe-desk serving ${chain.network} on http://127.0.0.1:${bound}/`)
      if (token !== undefined) io.out(`base URL with the API token: http://127.0.0.1:${bound}/t/${token}/`)
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
