/**
 * Vitest global setup: the engine's worker thread for this run. The tests run the engine from its TypeScript
 * sources, which a Worker cannot load on Node 20, so its entry is bundled here once, with the CLI build's own
 * settings, into a directory of this run's (other runs may build at the same time) under node_modules, where the
 * packages the bundle leaves outside are found; every test file is told where by ./engine-worker-setup.ts.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { TestProject } from 'vitest/node'
import { buildEngineWorker } from '../../scripts/cli-build.mjs'

declare module 'vitest' {
  export interface ProvidedContext {
    engineWorkerScript: string
  }
}

export default function setup(project: TestProject): () => void {
  const cache = resolve(__dirname, '../../node_modules/.cache')
  mkdirSync(cache, { recursive: true })
  const dir = mkdtempSync(join(cache, 'marlowe-desk-engine-worker-'))
  const script = join(dir, 'engine-worker.cjs')
  buildEngineWorker(script)
  project.provide('engineWorkerScript', script)
  return () => rmSync(dir, { recursive: true, force: true })
}
