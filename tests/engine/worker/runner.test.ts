/**
 * The worker runner on a real worker thread (./fixture-worker.ts, bundled here as the builds bundle the engine's):
 * answers and refusals cross with their codes, a task past its time limit has its worker stopped and answers
 * `EngineWorkTimeout`, a worker that dies answers `EngineWorkerCrashed` and is replaced, and a full queue refuses
 * at once. Nothing here depends on how fast the machine is: the slow tasks never end, and the time limit is far
 * above what the others take.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildSync } from 'esbuild'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { EngineError } from '../../../src/engine/errors'
import { WorkerRunner, type WorkerRunnerOptions } from '../../../src/engine/worker'
import type { FixtureTasks } from './fixture-worker'

let dir: string
let script: string
const runners: WorkerRunner<FixtureTasks>[] = []

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-runner-'))
  script = join(dir, 'fixture-worker.cjs')
  buildSync({
    entryPoints: [join(__dirname, 'fixture-worker.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outfile: script,
    logLevel: 'warning'
  })
})
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.close()))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function runner(options: Partial<WorkerRunnerOptions> = {}): WorkerRunner<FixtureTasks> {
  const r = new WorkerRunner<FixtureTasks>({ script: () => script, timeLimitMs: 60_000, maxQueued: 8, ...options })
  runners.push(r)
  return r
}

async function engineErrorOf(promise: Promise<unknown>): Promise<EngineError> {
  const e = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown
  )
  if (!(e instanceof EngineError)) throw new Error(`expected an EngineError, got ${String(e)}`)
  return e
}

describe('WorkerRunner', () => {
  test('answers cross whole; refusals keep their kind, code and details; other failures their message', async () => {
    const r = runner()
    const bytes = new Uint8Array([1, 2, 3])
    expect(await r.run('echo', { bytes, n: 2n ** 70n }, 'Echo')).toStrictEqual({ bytes, n: 2n ** 70n + 1n })

    const refused = await engineErrorOf(r.run('refuse', 'no', 'The refusal'))
    expect([refused.kind, refused.code, refused.message, refused.details]).toEqual([
      'BadRequest',
      'Refused',
      'no',
      { why: 'no' }
    ])
    await expect(r.run('fail', 'broken', 'The failure')).rejects.toThrow(
      "The failure failed in the engine's worker: broken"
    )
    // None of that cost the worker.
    expect(r.status()).toEqual({ queued: 0, workersStarted: 1 })
  })

  test('a task past its time limit stops its worker and answers EngineWorkTimeout; the next gets a new one', async () => {
    const r = runner({ timeLimitMs: 2_000 })
    const first = await r.run('threadId', null, 'Thread')
    const e = await engineErrorOf(r.run('spin', null, 'The endless loop'))
    expect([e.kind, e.code, e.message, e.details]).toEqual([
      'Unavailable',
      'EngineWorkTimeout',
      'The endless loop took longer than 2 s and was stopped',
      { limitMs: 2_000 }
    ])
    const second = await r.run('threadId', null, 'Thread')
    expect(second).not.toBe(first)
    expect(r.status()).toEqual({ queued: 0, workersStarted: 2 })
  })

  test('tasks queued behind a stuck one run once it is stopped, in order', async () => {
    const r = runner({ timeLimitMs: 2_000 })
    const settled: string[] = []
    const stuck = r.run('spin', null, 'The endless loop').catch((e: unknown) => {
      settled.push(e instanceof EngineError ? e.code : 'other')
    })
    const queued = [1n, 2n, 3n].map((n) =>
      r.run('echo', { bytes: new Uint8Array(), n }, 'Echo').then((out) => settled.push(String(out.n)))
    )
    await Promise.all([stuck, ...queued])
    expect(settled).toEqual(['EngineWorkTimeout', '2', '3', '4'])
  })

  test('a worker that exits answers EngineWorkerCrashed and is replaced', async () => {
    const r = runner()
    const first = await r.run('threadId', null, 'Thread')
    const e = await engineErrorOf(r.run('exit', 7, 'The exit'))
    expect([e.kind, e.code, e.details]).toEqual([
      'Internal',
      'EngineWorkerCrashed',
      { reason: 'it exited with code 7' }
    ])
    expect(await r.run('threadId', null, 'Thread')).not.toBe(first)
    expect(r.status().workersStarted).toBe(2)
  })

  test('a computation that outgrows the heap limit ends its worker, not the process', async () => {
    const r = runner({ maxHeapMb: 64 })
    const e = await engineErrorOf(r.run('grow', null, 'The allocation'))
    expect(e.code).toBe('EngineWorkerCrashed')
    expect(String(e.details['reason'])).toMatch(/out of memory/i)
    expect(await r.run('echo', { bytes: new Uint8Array([9]), n: 0n }, 'Echo')).toStrictEqual({
      bytes: new Uint8Array([9]),
      n: 1n
    })
  })

  test('a full queue refuses at once with EngineBusy', async () => {
    const r = runner({ timeLimitMs: 2_000, maxQueued: 2 })
    const stuck = r.run('spin', null, 'The endless loop').catch(() => 'stopped')
    const waiting = [r.run('threadId', null, 'Thread'), r.run('threadId', null, 'Thread')]
    const e = await engineErrorOf(r.run('threadId', null, 'One too many'))
    expect([e.kind, e.code, e.details]).toEqual(['Unavailable', 'EngineBusy', { queued: 2 }])
    expect(await stuck).toBe('stopped')
    await Promise.all(waiting)
  })

  test('a missing script is reported for each task, and the runner keeps going', async () => {
    let path = join(dir, 'nowhere.cjs')
    const r = runner({
      script: () => {
        if (path.endsWith('nowhere.cjs')) throw new EngineError('Internal', 'EngineWorkerMissing', `no ${path}`)
        return path
      }
    })
    expect((await engineErrorOf(r.run('threadId', null, 'Thread'))).code).toBe('EngineWorkerMissing')
    path = script
    expect(typeof (await r.run('threadId', null, 'Thread'))).toBe('number')
  })
})
