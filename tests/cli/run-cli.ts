/** Builds the CLI from the current sources (as `npm run build:cli` does) and runs it as a subprocess. */
import { spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { buildSync } from 'esbuild'

let built: string | undefined

export function cliPath(): string {
  if (built !== undefined) return built
  const outfile = join(mkdtempSync(join(tmpdir(), 'marlowe-desk-cli-')), 'marlowe-desk.cjs')
  buildSync({
    entryPoints: [resolve(__dirname, '../../src/cli/main.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    nodePaths: [resolve(__dirname, '../../node_modules')],
    outfile,
    logLevel: 'warning'
  })
  built = outfile
  return outfile
}

export interface CliResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

export function runCli(args: readonly string[], options: { cwd?: string; input?: string } = {}): CliResult {
  const r = spawnSync(process.execPath, [cliPath(), ...args], {
    cwd: options.cwd ?? resolve(__dirname, '../..'),
    input: options.input ?? '',
    encoding: 'utf8',
    env: { ...process.env, NODE_PATH: resolve(__dirname, '../../node_modules') },
    timeout: 60_000
  })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}
