/**
 * How the CLI is built, for `npm run build:cli` (run directly), the CLI tests and the benchmarks:
 * - `marlowe-desk-main.cjs`: src/cli/bin.ts with its JavaScript dependencies inside, so that a start does not
 *   resolve and read thousands of files from node_modules (≈0.4 s of `serve`'s cold start). Only what cannot live
 *   in a bundle stays outside: the native addon, and packages that load their wasm from beside themselves.
 * - `marlowe-desk.cjs`: the executable, src/cli/launcher.ts, which runs the bundle with V8's code cache; the
 *   bundle's digest names the cache.
 * - `engine-worker.cjs`: the engine's worker thread (src/engine/worker), which the engine starts from beside its
 *   bundle. The tests build it alone (`buildEngineWorker`), to run beside the engine's TypeScript sources.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildSync } from 'esbuild'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

/**
 * better-sqlite3 and usb (Trezor Connect's USB transport) are native addons; CSL reads its .wasm from its own
 * folder; uplc is found by path (evaluator.ts).
 */
const EXTERNALS = ['better-sqlite3', 'usb', '@emurgo/*', '@blaze-cardano/uplc', '*.wasm']

const COMMON = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  nodePaths: [join(ROOT, 'node_modules')],
  logLevel: 'warning'
}

/** The name src/engine/worker/index.ts (ENGINE_WORKER_FILE) looks for beside the engine's bundle. */
const ENGINE_WORKER_FILE = 'engine-worker.cjs'

/** Builds the engine's worker thread into `outfile` (a test's own entry instead of the engine's, if given). */
export function buildEngineWorker(outfile, entry = join(ROOT, 'src/engine/worker/entry.ts')) {
  buildSync({ ...COMMON, entryPoints: [entry], external: EXTERNALS, outfile })
}

/** Builds the CLI into `dir` (default out/cli) and returns the executable's path. */
export function buildCli(dir = join(ROOT, 'out/cli')) {
  const bundle = join(dir, 'marlowe-desk-main.cjs')
  buildSync({ ...COMMON, entryPoints: [join(ROOT, 'src/cli/bin.ts')], external: EXTERNALS, outfile: bundle })
  buildEngineWorker(join(dir, ENGINE_WORKER_FILE))
  const digest = createHash('sha256').update(readFileSync(bundle)).digest('hex').slice(0, 32)
  const executable = join(dir, 'marlowe-desk.cjs')
  buildSync({
    ...COMMON,
    entryPoints: [join(ROOT, 'src/cli/launcher.ts')],
    define: { BUNDLE_DIGEST: JSON.stringify(digest) },
    outfile: executable
  })
  return executable
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildCli()
