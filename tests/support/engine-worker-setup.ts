/** Vitest setup file: the engine in each test file runs its worker from the script ./engine-worker.ts built. */
import { inject } from 'vitest'
import { useEngineWorkerScript } from '../../src/engine/worker'

useEngineWorkerScript(inject('engineWorkerScript'))
