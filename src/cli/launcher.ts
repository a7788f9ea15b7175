#!/usr/bin/env node
/**
 * The `marlowe-desk` executable. It runs the CLI bundle beside it (`marlowe-desk-main.cjs`) with V8's code
 * cache, so that a start does not parse 6 MB of JavaScript again (≈150 ms of `serve`'s cold start; Node 20 has
 * no compile cache of its own). The cache is kept per user (owner-only directory) and named by the bundle's
 * digest, fixed at build time; a missing, stale or rejected cache only costs the parse, after which a new one is
 * written as the process exits. `MARLOWE_DESK_CODE_CACHE` names another directory, or `off`.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import Module, { createRequire } from 'node:module'
import { homedir } from 'node:os'
import { basename, join } from 'node:path'
import { Script, constants } from 'node:vm'

declare const BUNDLE_DIGEST: string

const BUNDLE = join(__dirname, 'marlowe-desk-main.cjs')

function cacheDir(): string | undefined {
  const chosen = process.env.MARLOWE_DESK_CODE_CACHE
  if (chosen === 'off') return undefined
  if (chosen !== undefined && chosen !== '') return chosen
  if (process.platform === 'win32') {
    return join(process.env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'marlowe-desk', 'code-cache')
  }
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'marlowe-desk', 'code-cache')
  const xdg = process.env.XDG_CACHE_HOME
  return join(xdg !== undefined && xdg !== '' ? xdg : join(homedir(), '.cache'), 'marlowe-desk', 'code-cache')
}

/**
 * Cached code runs as this program, so a cache that someone else owns or could have written is not used (it is
 * replaced when the process exits).
 */
function readCache(file: string | undefined): Buffer | undefined {
  if (file === undefined) return undefined
  try {
    const stats = statSync(file)
    const uid = process.getuid?.()
    if ((uid !== undefined && stats.uid !== uid) || (stats.mode & 0o022) !== 0) return undefined
    return readFileSync(file)
  } catch {
    return undefined
  }
}

/**
 * Written beside and renamed over, so that a concurrent start reads a whole cache or none. Caches of other
 * builds (an upgrade leaves one behind each time) are removed.
 */
function writeCache(dir: string, file: string, data: Buffer): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const partial = `${file}.${process.pid}.partial`
    writeFileSync(partial, data, { mode: 0o600 })
    renameSync(partial, file)
    const current = basename(file)
    for (const name of readdirSync(dir)) if (name.endsWith('.v8') && name !== current) rmSync(join(dir, name))
  } catch {
    // A read-only or full disk only means the next start parses again.
  }
}

const dir = cacheDir()
const file = dir === undefined ? undefined : join(dir, `${BUNDLE_DIGEST}.v8`)
const cachedData = readCache(file)
const script = new Script(Module.wrap(readFileSync(BUNDLE, 'utf8')), {
  filename: BUNDLE,
  ...(cachedData === undefined ? {} : { cachedData }),
  importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER
})
if (dir !== undefined && file !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) {
  // After the run, the cache also holds every function the run compiled.
  process.once('exit', () => writeCache(dir, file, script.createCachedData()))
}
const bundle = new Module(BUNDLE)
bundle.filename = BUNDLE
const run = script.runInThisContext() as (
  exports: unknown,
  require: NodeJS.Require,
  module: Module,
  filename: string,
  dirname: string
) => void
run.call(bundle.exports, bundle.exports, createRequire(BUNDLE), bundle, BUNDLE, __dirname)
