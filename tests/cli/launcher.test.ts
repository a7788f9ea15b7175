/**
 * The executable runs the CLI bundle with V8's code cache: written on the first run, used by the next, and
 * never a reason to fail — a corrupt cache is replaced, an unwritable directory is ignored, `off` writes nothing.
 */
import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliPath } from './run-cli'

function help(cache: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cliPath(), '--help'], {
    encoding: 'utf8',
    env: { ...process.env, NODE_PATH, MARLOWE_DESK_CODE_CACHE: cache },
    timeout: 60_000
  })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

function expectHelp(result: ReturnType<typeof help>): void {
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  expect(result.stdout).toMatch(/^Usage: marlowe-desk <command>/)
}

/** The bundle's outside packages, as runCli finds them from a build in a temporary directory. */
const NODE_PATH = resolve(__dirname, '../../node_modules')

const fresh = (): string => mkdtempSync(join(tmpdir(), 'marlowe-desk-code-cache-'))

describe('the executable’s code cache', () => {
  it('is written by the first run (owner-only) and used, not rewritten, by the next', () => {
    const dir = join(fresh(), 'cache')
    expectHelp(help(dir))
    const files = readdirSync(dir)
    expect(files).toHaveLength(1)
    expect(files[0]).toMatch(/^[0-9a-f]{32}\.v8$/)
    const file = join(dir, files[0]!)
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const first = readFileSync(file)
    expect(first.length).toBeGreaterThan(100_000)
    const written = statSync(file).mtimeMs
    expectHelp(help(dir))
    expect(statSync(file).mtimeMs).toBe(written)
    expect(readdirSync(dir)).toEqual(files)
  })

  it('does not use a cache others could have written, and replaces it', () => {
    const dir = join(fresh(), 'cache')
    expectHelp(help(dir))
    const file = join(dir, readdirSync(dir)[0]!)
    chmodSync(file, 0o666)
    const written = statSync(file).mtimeMs
    expectHelp(help(dir))
    expect(statSync(file).mtimeMs).not.toBe(written)
    expect(statSync(file).mode & 0o777).toBe(0o600)
  })

  it('removes the caches of other builds when it writes its own', () => {
    const dir = join(fresh(), 'cache')
    mkdirSync(dir)
    const stale = join(dir, `${'0'.repeat(32)}.v8`)
    const unrelated = join(dir, 'notes.txt')
    writeFileSync(stale, 'an older build')
    writeFileSync(unrelated, 'not a cache')
    expectHelp(help(dir))
    const files = readdirSync(dir).sort()
    expect(files).toHaveLength(2)
    expect(files).toContain('notes.txt')
    expect(existsSync(stale)).toBe(false)
  })

  it('replaces a corrupt cache after running without it', () => {
    const dir = join(fresh(), 'cache')
    expectHelp(help(dir))
    const file = join(dir, readdirSync(dir)[0]!)
    writeFileSync(file, Buffer.alloc(4096, 0x5a))
    expectHelp(help(dir))
    expect(readFileSync(file).equals(Buffer.alloc(4096, 0x5a))).toBe(false)
    expect(readdirSync(dir)).toHaveLength(1)
  })

  it('runs when the cache directory cannot be made', () => {
    const blocker = join(fresh(), 'a-file')
    writeFileSync(blocker, 'not a directory')
    expectHelp(help(join(blocker, 'cache')))
  })

  it('writes nothing when turned off', () => {
    const home = fresh()
    const r = spawnSync(process.execPath, [cliPath(), '--help'], {
      encoding: 'utf8',
      env: { ...process.env, NODE_PATH, MARLOWE_DESK_CODE_CACHE: 'off', HOME: home, XDG_CACHE_HOME: join(home, 'xdg') },
      timeout: 60_000
    })
    expect(r.status).toBe(0)
    expect(readdirSync(home)).toEqual([])
  })
})
