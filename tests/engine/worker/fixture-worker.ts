/**
 * A worker for the runner's tests (bundled by runner.test.ts): tasks that answer, refuse, fail, never end, end
 * their thread or outgrow its heap, served by the engine's own worker side (src/engine/worker/serve.ts).
 */
import { threadId } from 'node:worker_threads'
import { EngineError } from '../../../src/engine/errors'
import { serveTasks } from '../../../src/engine/worker/serve'

export interface FixtureTasks {
  echo: { input: { readonly bytes: Uint8Array; readonly n: bigint }; output: { bytes: Uint8Array; n: bigint } }
  threadId: { input: null; output: number }
  refuse: { input: string; output: never }
  fail: { input: string; output: never }
  spin: { input: null; output: never }
  exit: { input: number; output: never }
  grow: { input: null; output: never }
}

serveTasks<FixtureTasks>({
  echo: (input) => ({ bytes: input.bytes, n: input.n + 1n }),
  threadId: () => threadId,
  refuse: (why) => {
    throw new EngineError('BadRequest', 'Refused', why, { why })
  },
  fail: (why) => {
    throw new TypeError(why)
  },
  spin: () => {
    for (;;) {
      // Never yields: only terminating the thread ends it.
    }
  },
  exit: (code) => process.exit(code),
  grow: () => {
    const kept: number[][] = []
    for (;;) kept.push(new Array<number>(100_000).fill(kept.length))
  }
})
