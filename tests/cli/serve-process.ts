/** `marlowe-desk serve` as a real process: start it, wait for its port, stop it (politely or with kill -9). */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { untilListening } from './listening'
import { cliPath } from './run-cli'

export interface ServeProcess {
  readonly child: ChildProcess
  readonly base: string
  readonly token: string
  stdout(): string
  stderr(): string
  /** Resolves with the exit code (or signal name). */
  exited(): Promise<number | string>
}

export function spawnServe(args: readonly string[], env: Readonly<Record<string, string>> = {}): ChildProcess {
  return spawn(process.execPath, [cliPath(), 'serve', '--port', '0', ...args], {
    env: { ...process.env, ...env, NODE_PATH: resolve(__dirname, '../../node_modules') },
    stdio: ['ignore', 'pipe', 'pipe']
  })
}

export function exitOf(child: ChildProcess): Promise<number | string> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode)
  if (child.signalCode !== null) return Promise.resolve(child.signalCode)
  return new Promise((done) => child.once('exit', (code, signal) => done(code ?? signal ?? -1)))
}

/**
 * Starts a server on `data` and waits for its "listening <port>" line. `asHome`: name `data` as
 * MARLOWE_DESK_HOME, as a user who never passes --data does.
 */
export async function startServe(
  data: string,
  extra: readonly string[] = [],
  options: { readonly asHome?: boolean } = {}
): Promise<ServeProcess> {
  const child =
    options.asHome === true ? spawnServe(extra, { MARLOWE_DESK_HOME: data }) : spawnServe(['--data', data, ...extra])
  const { port, stdout, stderr } = await untilListening(child, 'serve')
  const token = extra.includes('--no-token') ? '' : readFileSync(join(data, 'api-token'), 'utf8').trim()
  return { child, base: `http://127.0.0.1:${port}`, token, stdout, stderr, exited: () => exitOf(child) }
}

/** `sandbox share` on `data`: one sandbox ledger that `serve --chain` replicas use; its URL. */
export async function startSharedSandbox(data: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [cliPath(), 'sandbox', 'share', '--port', '0', '--data', data], {
    env: { ...process.env, NODE_PATH: resolve(__dirname, '../../node_modules') },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const { port } = await untilListening(child, 'sandbox share')
  return { child, url: `http://127.0.0.1:${port}/` }
}
