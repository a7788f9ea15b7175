/**
 * `marlowe-desk serve` as its own process, for the benchmarks that measure it from outside (cold start, RSS): the
 * CLI built from the current sources, started on a free port, stopped with SIGTERM.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'

export const CLI = 'out/cli/marlowe-desk.cjs'
const START_TIMEOUT_MS = 30_000

/** Builds the CLI with `npm run build:cli`'s script, so that what is measured is of the current sources. */
export function buildCli(): void {
  execFileSync(process.execPath, ['scripts/cli-build.mjs'], { stdio: 'inherit' })
  if (!existsSync(CLI)) throw new Error(`${CLI} was not built`)
}

/** Spawns `args` (a script and its arguments) and answers once it prints `listening <port>`. */
export async function startListening(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env
): Promise<{ readonly child: ChildProcess; readonly port: number }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env })
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = ''
      let err = ''
      const timer = setTimeout(() => reject(new Error(`${args.join(' ')}: not listening: ${err}`)), START_TIMEOUT_MS)
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString()
        const match = /^listening (\d+)$/m.exec(out)
        if (match?.[1] === undefined) return
        clearTimeout(timer)
        resolve(Number(match[1]))
      })
      child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()))
      child.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`${args.join(' ')} exited (${code}) before listening: ${err}`))
      })
    })
    return { child, port }
  } catch (e) {
    await stop(child)
    throw e
  }
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
  await exited
  clearTimeout(timer)
}
