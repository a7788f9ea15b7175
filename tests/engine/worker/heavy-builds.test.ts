/**
 * The heaviest builds leave the thread serving HTTP free (issue 13): the role-token policy's evaluation, the CSL
 * assembly of the create and of the cost check's transactions run on the engine's worker, as `serve` runs them,
 * so a request made while the heaviest create is being built is answered before it. A worker that dies during an
 * evaluation fails that build with a clear error, and the next build works. The builds are the same, byte for
 * byte, as with the scripts run on the serving thread. Order is asserted, never time.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterEach, afterAll, beforeAll, describe, expect, test } from 'vitest'
import { SandboxProvider, type SandboxOptions } from '../../../src/chain/sandbox'
import { stringOf } from '../../server/support'
import { encodeContract } from '../../../src/core/marlowe/json/encode'
import { CLOSE } from '../../../src/core/marlowe/types'
import { openService } from '../../../src/engine/service'
import { engineWorker, evaluatePlutusOffThread, WorkerRunner } from '../../../src/engine/worker'
import type { EngineTasks } from '../../../src/engine/worker/tasks'
import { createServer, listen } from '../../../src/server/app'
import { buildEngineWorker } from '../../../scripts/cli-build.mjs'
import { ManualClock, T0, testWallet } from '../build/support'
import { call, createBody, expectApiError, objectOf, TOKEN, unsignedTxOf, walletHeaders } from '../../server/support'
import { heavyContract, heavyRoles } from '../../support/heavy-builds'

const alice = testWallet('alice')
const DEADLINE = T0 + 365n * 86_400_000n
/** The file that has ./crashing-engine-worker.ts end its thread at its next evaluation. */
const CRASH_FLAG = 'crash-next'

interface Served {
  readonly base: string
  close(): Promise<void>
}

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

/** A server on a fresh sandbox at T0 whose scripts run where `sandbox` says. */
async function serve(sandbox: SandboxOptions): Promise<Served> {
  const clock = new ManualClock()
  const provider = SandboxProvider.open({ zeroTime: T0, clockTickMs: false, now: clock.now, ...sandbox })
  const opened = await openService({ provider, databasePath: ':memory:', now: clock.now, followEveryMs: false })
  const app = createServer({ logLevel: 'silent', token: TOKEN, service: opened.service })
  const port = await listen(app, 0)
  const close = async (): Promise<void> => {
    await app.close()
    await opened.close()
    await provider.close()
  }
  closers.push(close)
  return { base: `http://127.0.0.1:${port}`, close }
}

const heavyCreate = (server: Served) =>
  call(server, 'POST', '/contracts', {
    body: createBody(encodeContract(heavyContract(DEADLINE)), { roles: heavyRoles(alice.address) }),
    headers: walletHeaders(alice)
  })

async function nextTurn(): Promise<void> {
  await new Promise((done) => setTimeout(done, 1))
}

describe('the serving thread during the heaviest create', () => {
  test('requests made while its scripts are evaluated are answered before it', async () => {
    const server = await serve({ evaluate: evaluatePlutusOffThread })
    const order: string[] = []
    const created = heavyCreate(server).then((answer) => {
      order.push('create')
      return answer
    })
    // Until the worker runs the role-token policy. On the serving thread, the create would be answered first.
    while (engineWorker().status().running !== 'The evaluation of the scripts') {
      if (order.includes('create')) throw new Error('the create was answered without its scripts run on the worker')
      await nextTurn()
    }
    const answers = await Promise.all([
      call(server, 'GET', '/healthcheck'),
      call(server, 'GET', '/contracts'),
      call(server, 'GET', '/openapi.json')
    ])
    order.push('requests')
    expect(answers.map((a) => a.status)).toEqual([200, 206, 200])
    const answer = await created
    expect(answer.status, answer.text.slice(0, 300)).toBe(201)
    expect(order).toEqual(['requests', 'create'])
  })

  test('the create is the same, byte for byte, as with its scripts run on the serving thread', async () => {
    const onWorker = await heavyCreate(await serve({ evaluate: evaluatePlutusOffThread }))
    const here = await heavyCreate(await serve({}))
    expect(onWorker.status, onWorker.text.slice(0, 300)).toBe(201)
    expect(here.status, here.text.slice(0, 300)).toBe(201)
    expect(unsignedTxOf(onWorker)).toEqual(unsignedTxOf(here))
    expect(objectOf(onWorker.json).resource).toEqual(objectOf(here.json).resource)
  })
})

describe('a worker that dies while it evaluates', () => {
  let dir: string
  let runner: WorkerRunner<EngineTasks>
  beforeAll(() => {
    // Under node_modules, where the packages the bundle leaves outside are found (as tests/support/engine-worker.ts).
    const cache = resolve(__dirname, '../../../node_modules/.cache')
    mkdirSync(cache, { recursive: true })
    dir = mkdtempSync(join(cache, 'marlowe-desk-crashing-worker-'))
    buildEngineWorker(join(dir, 'engine-worker.cjs'), join(__dirname, 'crashing-engine-worker.ts'))
    runner = new WorkerRunner<EngineTasks>({
      script: () => join(dir, 'engine-worker.cjs'),
      timeLimitMs: 30_000,
      maxQueued: 8
    })
  })
  afterAll(async () => {
    await runner.close()
    rmSync(dir, { recursive: true, force: true })
  })

  test('fails that build with EngineWorkerCrashed, and the next build is made on a new worker', async () => {
    const server = await serve({
      evaluate: (request) => runner.run('evaluatePlutus', request, 'The evaluation of the scripts')
    })
    writeFileSync(join(dir, CRASH_FLAG), '')
    const failed = await heavyCreate(server)
    const error = expectApiError(failed, 500, 'EngineWorkerCrashed')
    expect(stringOf(error.message, 'message')).toMatch(
      /^The evaluation of the scripts ended the engine's worker thread \(it exited with code 70\)/
    )
    expect(runner.status().workersStarted).toBe(1)

    const answer = await heavyCreate(server)
    expect(answer.status, answer.text.slice(0, 300)).toBe(201)
    expect(runner.status().workersStarted).toBe(2)
    const close = await call(server, 'POST', '/contracts', {
      body: createBody(encodeContract(CLOSE)),
      headers: walletHeaders(alice)
    })
    expect(close.status).toBe(201)
  })
})

describe('a create past what the role-token policy can mint in one transaction', () => {
  test("is the caller's error, naming the budget, wherever the scripts run", async () => {
    for (const evaluate of [evaluatePlutusOffThread, undefined]) {
      const server = await serve(evaluate === undefined ? {} : { evaluate })
      const answer = await call(server, 'POST', '/contracts', {
        body: createBody(encodeContract(heavyContract(DEADLINE, 70)), { roles: heavyRoles(alice.address, 70) }),
        headers: walletHeaders(alice)
      })
      const body = expectApiError(answer, 400, 'BalancingError')
      expect(stringOf(body.message, 'message')).toMatch(/budget/)
    }
  })
})
