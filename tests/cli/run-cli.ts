/** Builds the CLI from the current sources (as `npm run build:cli` does) and runs it as a subprocess. */
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { buildCli } from '../../scripts/cli-build.mjs'

let built: string | undefined

export function cliPath(): string {
  if (built !== undefined) return built
  const dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-cli-'))
  built = buildCli(dir)
  // The CLIs the tests start keep their code cache beside this build, not in the user's cache directory.
  process.env.MARLOWE_DESK_CODE_CACHE ??= join(dir, 'code-cache')
  return built
}

export interface CliResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

export interface RunOptions {
  readonly cwd?: string
  /** Added to this process's environment (MARLOWE_DESK_HOME, for example). */
  readonly env?: Readonly<Record<string, string>>
  /** Preloads a guard that makes any socket or DNS use throw. */
  readonly offline?: boolean
}

const preloads = (options: RunOptions): string[] =>
  options.offline === true ? ['--require', resolve(__dirname, 'no-network.cjs')] : []

const environment = (options: RunOptions): NodeJS.ProcessEnv => ({
  ...process.env,
  ...options.env,
  NODE_PATH: resolve(__dirname, '../../node_modules')
})

export function runCli(args: readonly string[], options: RunOptions & { input?: string } = {}): CliResult {
  const r = spawnSync(process.execPath, [...preloads(options), cliPath(), ...args], {
    cwd: options.cwd ?? resolve(__dirname, '../..'),
    input: options.input ?? '',
    encoding: 'utf8',
    env: environment(options),
    timeout: 60_000
  })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

export interface RestoreFiles {
  readonly name: string
  readonly mnemonicFile: string
  readonly passwordFile: string
  readonly keystore: string
}

/** `keys restore` of the phrase in `mnemonicFile` as `name` into `keystore`, its password read from a file. */
export function restoreWithCli(files: RestoreFiles): CliResult {
  return runCli([
    'keys',
    'restore',
    '--name',
    files.name,
    '--mnemonic-file',
    files.mnemonicFile,
    '--password-file',
    files.passwordFile,
    '--keystore',
    files.keystore
  ])
}

/**
 * Runs the CLI in a pseudo-terminal (util-linux `script`), answering each prompt once it appears, and
 * returns everything the terminal showed — what a person would see, echo included — and the exit code.
 */
export function runInTerminal(
  args: readonly string[],
  answers: ReadonlyArray<readonly [string, string]>,
  options: RunOptions = {}
): Promise<{ readonly text: string; readonly code: number | null }> {
  const command = [process.execPath, ...preloads(options), cliPath(), ...args]
    .map((a) => `'${a.replace(/'/g, "'\\''")}'`)
    .join(' ')
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    env: environment(options),
    stdio: ['pipe', 'pipe', 'pipe']
  })
  let seen = ''
  let next = 0
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill()
      fail(new Error(`no prompt "${answers[next]?.[0] ?? ''}" within 30 s; terminal showed:\n${seen}`))
    }, 30_000)
    // Decoded across chunks: a character split between two reads (a QR code's ▄, say) stays whole.
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (chunk: string) => {
      seen += chunk
      const answer = answers[next]
      if (answer !== undefined && seen.includes(answer[0])) {
        next += 1
        child.stdin.write(answer[1])
      }
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      done({ text: seen.replace(/\r/g, ''), code })
    })
  })
}
