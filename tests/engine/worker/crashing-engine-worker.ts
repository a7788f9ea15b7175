/**
 * The engine's worker with the engine's own tasks, for heavy-builds.test.ts: while a file named `crash-next`
 * lies beside this bundle, an evaluation of the scripts removes it and ends the thread before answering, as a
 * worker dying mid-evaluation would; the worker started after it evaluates as the engine's does.
 */
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { serveTasks } from '../../../src/engine/worker/serve'
import { ENGINE_TASKS, type EngineTasks } from '../../../src/engine/worker/tasks'

serveTasks<EngineTasks>({
  ...ENGINE_TASKS,
  evaluatePlutus: (request) => {
    const flag = join(__dirname, 'crash-next')
    if (existsSync(flag)) {
      rmSync(flag)
      process.exit(70)
    }
    return ENGINE_TASKS.evaluatePlutus(request)
  }
})
