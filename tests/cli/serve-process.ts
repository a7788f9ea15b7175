/** `marlowe-desk serve` as a real process: start it, wait for its port, stop it (politely or with kill -9). */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { cliPath } from './run-cli'

export interface ServeProcess {
  readonly child: ChildProcess
  readonly base: string
  readonly token: string
  stdout(): string
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
  let out = ''
  let err = ''
  child.stderr?.on('data', (b: Buffer) => (err += b.toString('utf8')))
  const port = await new Promise<number>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`serve did not start in 30 s:\n${out}\n${err}`)), 30_000)
    child.stdout?.on('data', (b: Buffer) => {
      out += b.toString('utf8')
      const m = /^listening (\d+)$/m.exec(out)
      if (m !== null) {
        clearTimeout(timer)
        done(Number(m[1]))
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      fail(new Error(`serve exited with ${code}:\n${out}\n${err}`))
    })
  })
  const token = extra.includes('--no-token') ? '' : readFileSync(join(data, 'api-token'), 'utf8').trim()
  return { child, base: `http://127.0.0.1:${port}`, token, stdout: () => out, exited: () => exitOf(child) }
}
