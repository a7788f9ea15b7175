/**
 * The engine's worker thread (./index.ts starts it): its own bundle, built beside each bundle of the engine
 * (scripts/cli-build.mjs, electron.vite.config.ts; tests/support/engine-worker.ts for the tests).
 */
import { serveTasks } from './serve'
import { ENGINE_TASKS, type EngineTasks } from './tasks'

serveTasks<EngineTasks>(ENGINE_TASKS)
