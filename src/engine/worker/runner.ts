/**
 * One worker thread that runs pure computations off the thread serving the window and the HTTP loop, so that no
 * input can hold that thread for as long as its computation takes. Tasks run one at a time, in order, from a
 * bounded queue (a full queue refuses at once). A task that runs past its time limit has its worker stopped —
 * termination interrupts even a loop that never yields — and a task whose worker dies (an uncaught error, a heap
 * over its limit) is answered with an error; either way the next task starts a new worker.
 */
import { Worker } from 'node:worker_threads'
import { EngineError } from '../errors'
import { engineErrorOf, type TaskReply, type TaskRequest, type TaskSpec } from './protocol'

export interface WorkerRunnerOptions {
  /** The worker's script, a CommonJS file, asked for at each start (it may throw an `EngineError`). */
  readonly script: () => string
  /** How long one task may run, from when the worker is handed it, before the worker is stopped. */
  readonly timeLimitMs: number
  /** Tasks that may wait behind the running one. */
  readonly maxQueued: number
  /** The worker's heap: a computation that outgrows it ends the worker, not the process. */
  readonly maxHeapMb?: number
}

export interface RunnerStatus {
  /** The label of the task running now. */
  readonly running?: string
  readonly queued: number
  /** Workers started so far: one more after each timeout or crash that was followed by another task. */
  readonly workersStarted: number
}

interface Job {
  readonly request: TaskRequest
  /** What the task is, at the start of a sentence: "The safety analysis". */
  readonly label: string
  resolve(output: unknown): void
  reject(e: Error): void
}

interface Running {
  readonly job: Job
  readonly worker: Worker
  readonly timer: NodeJS.Timeout
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e))

export function engineBusy(label: string, queued: number): EngineError {
  return new EngineError(
    'Unavailable',
    'EngineBusy',
    `${label} cannot start now: ${queued} other computations are waiting; try again shortly`,
    { queued }
  )
}

export function engineWorkTimeout(label: string, limitMs: number): EngineError {
  const limit = limitMs >= 1000 ? `${limitMs / 1000} s` : `${limitMs} ms`
  return new EngineError('Unavailable', 'EngineWorkTimeout', `${label} took longer than ${limit} and was stopped`, {
    limitMs
  })
}

export function engineWorkerCrashed(label: string, reason: string): EngineError {
  return new EngineError(
    'Internal',
    'EngineWorkerCrashed',
    `${label} ended the engine's worker thread (${reason}); the next computation starts a new one`,
    { reason }
  )
}

function engineClosed(label: string): EngineError {
  return new EngineError('Unavailable', 'EngineClosed', `${label} did not run: the engine's worker was closed`)
}

export class WorkerRunner<T extends Record<keyof T, TaskSpec>> {
  private worker: Worker | undefined
  private running: Running | undefined
  private readonly queue: Job[] = []
  private nextId = 1
  private started = 0
  private closed = false

  constructor(private readonly options: WorkerRunnerOptions) {}

  /** Runs `task` on the worker; `label` names it in errors, at the start of a sentence. */
  run<K extends keyof T & string>(task: K, input: T[K]['input'], label: string): Promise<T[K]['output']> {
    if (this.closed) return Promise.reject(engineClosed(label))
    if (this.queue.length >= this.options.maxQueued) return Promise.reject(engineBusy(label, this.queue.length))
    return new Promise((resolve, reject) => {
      this.queue.push({ request: { id: this.nextId++, task, input }, label, resolve, reject })
      this.next()
    })
  }

  status(): RunnerStatus {
    return {
      ...(this.running === undefined ? {} : { running: this.running.job.label }),
      queued: this.queue.length,
      workersStarted: this.started
    }
  }

  /** Stops the worker; what is running or waiting is refused. */
  async close(): Promise<void> {
    this.closed = true
    for (const job of this.queue.splice(0)) job.reject(engineClosed(job.label))
    const worker = this.worker
    const running = this.retire()
    running?.job.reject(engineClosed(running.job.label))
    if (worker !== undefined) await worker.terminate()
  }

  private next(): void {
    if (this.running !== undefined) return
    const job = this.queue.shift()
    if (job === undefined) {
      // An idle worker does not keep the process alive; a running task does, until it is answered.
      this.worker?.unref()
      return
    }
    let worker: Worker
    try {
      worker = this.worker ?? this.start()
    } catch (e) {
      job.reject(e instanceof Error ? e : new Error(String(e)))
      this.next()
      return
    }
    worker.ref()
    const timer = setTimeout(() => this.timedOut(worker), this.options.timeLimitMs)
    this.running = { job, worker, timer }
    try {
      worker.postMessage(job.request)
    } catch (e) {
      // An input the structured clone refuses never reached the worker, which stays as it was.
      clearTimeout(timer)
      this.running = undefined
      job.reject(new Error(`${job.label} could not be handed to the engine's worker: ${messageOf(e)}`))
      this.next()
    }
  }

  private start(): Worker {
    const script = this.options.script()
    const maxHeapMb = this.options.maxHeapMb
    const worker = new Worker(script, {
      // The parent's flags (a test's loader, a debugger port) are not the worker's.
      execArgv: [],
      ...(maxHeapMb === undefined ? {} : { resourceLimits: { maxOldGenerationSizeMb: maxHeapMb } })
    })
    worker.on('message', (reply: TaskReply) => this.answered(worker, reply))
    worker.on('messageerror', (e) => {
      const id = this.running?.job.request.id
      if (id !== undefined) this.answered(worker, { id, ok: false, failure: `its answer was unreadable: ${e.message}` })
    })
    worker.on('error', (e) => this.lost(worker, messageOf(e)))
    worker.on('exit', (code) => this.lost(worker, `it exited with code ${code}`))
    this.worker = worker
    this.started += 1
    return worker
  }

  /** Forgets the running task and the worker it runs on, and returns that task. */
  private retire(): Running | undefined {
    const running = this.running
    this.running = undefined
    this.worker = undefined
    if (running !== undefined) clearTimeout(running.timer)
    return running
  }

  private answered(worker: Worker, reply: TaskReply): void {
    const running = this.running
    if (running === undefined || running.worker !== worker || running.job.request.id !== reply.id) return
    clearTimeout(running.timer)
    this.running = undefined
    const { job } = running
    if (reply.ok) job.resolve(reply.output)
    else if ('error' in reply) job.reject(engineErrorOf(reply.error))
    else job.reject(new Error(`${job.label} failed in the engine's worker: ${reply.failure}`))
    this.next()
  }

  private timedOut(worker: Worker): void {
    if (this.running?.worker !== worker) return
    const running = this.retire()
    void worker.terminate()
    running?.job.reject(engineWorkTimeout(running.job.label, this.options.timeLimitMs))
    this.next()
  }

  private lost(worker: Worker, reason: string): void {
    if (this.worker !== worker) return
    const running = this.running?.worker === worker ? this.retire() : undefined
    this.worker = undefined
    void worker.terminate()
    running?.job.reject(engineWorkerCrashed(running.job.label, reason))
    if (!this.closed) this.next()
  }
}
