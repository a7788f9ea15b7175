/**
 * `npm run bench` bundles the benchmarks into one CommonJS file, so a benchmark that imports test support which
 * imports vitest breaks every group at load ("Vitest cannot be imported in a CommonJS module"). This bundles them as
 * the bench script does and loads the bundle, asking for a group that does not exist: every module's top level runs.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))

test('the benchmarks bundle and load without vitest', () => {
  const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts
  const bundleCommand = scripts.bench?.split(' && ')[0]
  expect(bundleCommand).toMatch(/^esbuild bench\/index\.ts .*--outfile=out\/bench\/index\.cjs/)
  const outDir = join(root, 'out', 'test-bench')
  mkdirSync(outDir, { recursive: true })
  const outfile = join(outDir, 'index.cjs')
  const args = (bundleCommand ?? '')
    .split(' ')
    .slice(1)
    .map((a) => (a.startsWith('--outfile=') ? `--outfile=${outfile}` : a))
  const bundled = spawnSync(join(root, 'node_modules', '.bin', 'esbuild'), args, { cwd: root, encoding: 'utf8' })
  expect(bundled.stderr).toBe('')
  expect(bundled.status).toBe(0)

  const loaded = spawnSync(process.execPath, [outfile, 'no-such-group'], { cwd: root, encoding: 'utf8' })
  expect(loaded.stderr).not.toContain('Vitest cannot be imported')
  expect(loaded.stderr).toContain('no benchmark group no-such-group')
  expect(loaded.status).toBe(1)
}, 120_000)
