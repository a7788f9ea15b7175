/** Sandboxes a test file opens, closed after each test (kept apart from ./sandbox.ts, which the benchmark uses). */
import { rmSync } from 'node:fs'
import { afterAll, afterEach } from 'vitest'
import type { SandboxOptions, SandboxProvider } from '../../../src/chain/sandbox'
import { openSandbox, tempDir, type ManualClock } from './sandbox'

/** For one test file: opens sandboxes that are closed after each test. */
export function sandboxes(): (
  clock?: ManualClock,
  options?: Omit<SandboxOptions, 'now' | 'clockTickMs'>
) => SandboxProvider {
  const opened: SandboxProvider[] = []
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()))
  })
  return (clock, options) => {
    const { sandbox } = openSandbox(clock, options)
    opened.push(sandbox)
    return sandbox
  }
}

/** For one test file: fresh temporary directories, removed when the file's tests are done. */
export function scratchDirs(): () => string {
  const made: string[] = []
  afterAll(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
  })
  return () => {
    const dir = tempDir()
    made.push(dir)
    return dir
  }
}
