/**
 * `marlowe-desk serve`: the Runtime-compatible build/submit service over HTTP on 127.0.0.1, on the sandbox by
 * default or on a real network through a node interface. Runs until SIGINT/SIGTERM, then closes cleanly.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { LocalApiState, NodeSettings } from '../../api/contract'
import { deploymentOf } from '../../chain/deployments'
import { openService, type OpenService } from '../../engine/service'
import { apiToken } from '../../host/api-token'
import { DeskHost } from '../../host/host'
import { createServer, listen } from '../../server/app'
import { UiSessions } from '../../server/ui-sessions'
import { expectPositionals, parseOptions, type Command } from '../command'
import { desktopHome, openChain, chainOptions, portOf, type ChainChoice, type OpenChain } from '../chain'
import { StoreError } from '../../store/database'
import { openPostgresStore } from '../../store/open-store'
import { CliError, usageError } from '../errors'
import { recordServe } from '../running-serve'
import { untilSignal } from '../signals'
import { version as VERSION } from '../../../package.json'

const DEFAULT_PORT = 3780

/** `--store`: a PostgreSQL URL; the password it may carry is never repeated in a message. */
function storeUrlOf(text: string): string {
  let url: URL | undefined
  try {
    url = new URL(text)
  } catch {
    url = undefined
  }
  if (url === undefined || (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') || url.hostname === '') {
    throw usageError(
      'serve: --store takes a PostgreSQL URL (postgres://user@host:5432/database); without it the store is SQLite in the data directory'
    )
  }
  return text
}

/** The built renderer: `out/renderer`, beside the CLI bundle in `out/cli`. */
function uiDirOf(given: string | undefined): string {
  const dir = given ?? join(__dirname, '..', 'renderer')
  if (!existsSync(join(dir, 'index.html'))) {
    throw usageError(`serve: --ui needs the built renderer, but ${dir} has no index.html (run npm run build)`)
  }
  return dir
}

/** The node the flags chose, as Settings show it. */
function nodeOf(choice: ChainChoice): NodeSettings {
  const url = choice['blockfrost-url']
  return {
    ...(choice.ogmios === undefined ? {} : { ogmios: choice.ogmios }),
    ...(choice.kupo === undefined ? {} : { kupo: choice.kupo }),
    ...(choice.blockfrost === undefined
      ? {}
      : { blockfrost: { projectId: choice.blockfrost, ...(url === undefined ? {} : { url }) } }),
    ...(choice['submit-api'] === undefined ? {} : { submitApi: choice['submit-api'] })
  }
}

/**
 * For `--ui`: the desk host on the chain the flags opened. Settings may change the auto-lock here, but not the
 * network or node (the command line chose them) nor the local API (this server is it).
 */
function openUiHost(home: string, chain: OpenChain, choice: ChainChoice, api: () => LocalApiState): Promise<DeskHost> {
  return DeskHost.open({
    dataDir: home,
    version: VERSION,
    fixedChain: {
      chain,
      node: nodeOf(choice),
      reason: `marlowe-desk serve was started with --network ${chain.network}; restart it with other flags to change the network or node`
    },
    fixedLocalApi: {
      state: api,
      reason: 'marlowe-desk serve is itself the local API; start it with another --port to move it'
    }
  })
}

/** Which Marlowe scripts the sandbox runs, and their hashes. */
function scriptsOf(chain: OpenChain): string {
  const d = deploymentOf(chain.provider)
  const hashes = `semantics ${d.semantics.hash}, payout ${d.payout.hash}, open-role ${d.openRole.hash}`
  return `${d.standIn ? 'stand-ins' : 'given validators'} (${hashes})`
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'run the Runtime-compatible build/submit HTTP API on 127.0.0.1 (sandbox by default)',
  help: `Usage: marlowe-desk serve [--network sandbox|preview|preprod|mainnet] [--port N]
                          [--ogmios URL [--kupo URL] | --blockfrost PROJECT_ID [--blockfrost-url URL]] [--submit-api URL]
                          [--chain URL] [--store postgres://…] [--validators DIR] [--data DIR] [--no-token] [--cors-origin ORIGIN]... [--ui [--ui-dir DIR]] [--verbose]

Serves Marlowe Runtime's REST API (POST /contracts, PUT /contracts/{id}, /transactions, /withdrawals,
/payouts, /healthcheck, /openapi.json) on http://127.0.0.1:N (default ${DEFAULT_PORT}). Built transactions are
kept in DIR (default $MARLOWE_DESK_HOME or ~/.marlowe-desk) until confirmed, across restarts. While it runs,
"tx build", "tx bundle" and "tx submit" on the same DIR and network go through it (DIR/serve.json says where).

  --network       sandbox (default: the embedded ledger, no node needed), preview, preprod or mainnet
  --ogmios        an Ogmios v6 WebSocket URL (ws://host:1337) for a real network
  --kupo          with --ogmios: a Kupo URL (http://host:1442) indexing the Marlowe validators, so that every
                  Marlowe contract on chain is served, whoever created it (Ogmios needs --include-transaction-cbor)
  --blockfrost    a Blockfrost project id (or --blockfrost-url for a self-hosted instance)
  --submit-api    a cardano-submit-api URL to submit through (queries still go to Ogmios/Blockfrost)
  --chain         the chain another process holds on this machine ("sandbox share" prints its URL), so that
                  several serve processes (replicas on one --store) build on and submit to one sandbox
  --store         keep the service's data in this PostgreSQL database instead of DIR's SQLite file: several serve
                  processes on one database behave as one service (a build made by one is submitted through
                  another, reservations hold across them, one follows the chain at a time)
  --validators    on the sandbox: deploy the Marlowe validators in DIR (semantics.plutus, payout.plutus,
                  open-role.plutus as cardano-cli TextEnvelopes; see "validators fetch") instead of stand-ins
  --no-token      accept requests without the API token (any local program can then use the API)
  --cors-origin   let a web page at ORIGIN call the API (repeatable; none by default)
  --ui            also serve the desktop app's page at /ui/ (open the printed link: it carries a one-time key)
  --ui-dir        the built renderer to serve (default: out/renderer beside this program)
  --verbose       log every request (JSON lines on stderr)

Every request must carry the API token kept in DIR/api-token, as "Authorization: Bearer <token>" or by
using the printed base URL http://127.0.0.1:N/t/<token>/ (for Runtime clients that take only a base URL).
That token opens the Runtime API only, never the app's page or its calls (which sign with your wallets).

With --ui, the page's link carries its own one-time key, kept in this process only: it opens one browser
session (every tab of that browser), and a fresh link is printed for the next one. Browsers keep visited
links in their history, so a used one is worthless there. The app's Settings can change the auto-lock; the
network, node and port stay as these flags set them.`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, {
      ...chainOptions,
      chain: { type: 'string' },
      store: { type: 'string' },
      port: { type: 'string' },
      'no-token': { type: 'boolean' },
      'cors-origin': { type: 'string', multiple: true },
      ui: { type: 'boolean' },
      'ui-dir': { type: 'string' },
      verbose: { type: 'boolean' }
    })
    expectPositionals(this.name, positionals, [])
    const port = portOf(this.name, values.port, DEFAULT_PORT)
    if (values['ui-dir'] !== undefined && values.ui !== true) throw usageError('serve: --ui-dir goes with --ui')
    const uiDir = values.ui === true ? uiDirOf(values['ui-dir']) : undefined
    const home = values.data ?? desktopHome()
    const storeUrl = values.store === undefined ? undefined : storeUrlOf(values.store)
    if (storeUrl !== undefined && uiDir !== undefined) {
      throw usageError('serve: --ui runs the app on its own SQLite store; --store goes without --ui')
    }
    const chain = await openChain(this.name, values, { follow: true })
    const token = values['no-token'] === true ? undefined : apiToken(home, (why) => io.err(why))
    let bound = 0
    const apiState = (): LocalApiState => ({
      listening: bound !== 0,
      ...(bound === 0 ? {} : { url: `http://127.0.0.1:${bound}/` }),
      ...(token === undefined ? {} : { token })
    })
    // With --ui, the desk host owns the service (and the keystore); without it, only the service runs.
    const openEngine = async (): Promise<OpenService | DeskHost> => {
      if (uiDir !== undefined) return openUiHost(home, chain, values, apiState)
      const store =
        storeUrl === undefined
          ? { databasePath: join(home, `service-${chain.network}.sqlite`) }
          : { store: await openPostgresStore(storeUrl) }
      return openService({ provider: chain.provider, ...store })
    }
    const engine = await openEngine().catch(async (e: unknown) => {
      await chain.close()
      if (e instanceof StoreError) throw new CliError(`serve: ${e.message}`)
      throw e
    })
    const pageLink = (secret: string): void =>
      io.out(`Marlowe Desk in your browser: http://127.0.0.1:${bound}/ui/#secret=${secret}`)
    const sessions = new UiSessions({ onSecretRenewed: pageLink })
    const app = createServer({
      service: engine.service,
      ...(token === undefined ? {} : { token }),
      corsOrigins: values['cors-origin'] ?? [],
      logLevel: values.verbose === true ? 'info' : 'warn',
      ...(engine instanceof DeskHost && uiDir !== undefined ? { desk: { desk: engine.desk, sessions, uiDir } } : {})
    })
    let forget = (): void => undefined
    try {
      bound = await listen(app, port).catch((e: unknown) => {
        const code = (e as { code?: unknown }).code
        if (code === 'EADDRINUSE') {
          throw new CliError(
            `serve: port ${port} on 127.0.0.1 is in use by another program; choose another with --port`
          )
        }
        if (code === 'EACCES')
          throw new CliError(`serve: this user may not listen on port ${port}; choose another with --port`)
        throw e
      })
      forget = recordServe(home, { port: bound, network: chain.network })
      io.out(`marlowe-desk serving ${chain.network} on http://127.0.0.1:${bound}/`)
      if (chain.network === 'sandbox') io.out(`sandbox Marlowe scripts: ${scriptsOf(chain)}`)
      if (token !== undefined) io.out(`base URL with the API token: http://127.0.0.1:${bound}/t/${token}/`)
      if (uiDir !== undefined) pageLink(sessions.secret)
      io.out(`listening ${bound}`)
      const signal = await untilSignal()
      io.out(`${signal}: stopping`)
    } finally {
      forget()
      await app.close()
      await engine.close()
      await chain.close()
    }
  }
}
