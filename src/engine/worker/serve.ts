/**
 * The worker thread's side of ./runner.ts: carries out each request with the task it names and answers it, an
 * `EngineError` as its fields and any other failure as its message.
 */
import { parentPort } from 'node:worker_threads'
import { EngineError } from '../errors'
import { errorData, type TaskFunctions, type TaskReply, type TaskRequest } from './protocol'

type AnyTasks = Readonly<Record<string, (input: never) => unknown>>

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e))

function answer(request: TaskRequest, tasks: AnyTasks): TaskReply {
  const run = Object.hasOwn(tasks, request.task) ? tasks[request.task] : undefined
  if (run === undefined) return { id: request.id, ok: false, failure: `no task "${request.task}"` }
  try {
    return { id: request.id, ok: true, output: run(request.input as never) }
  } catch (e) {
    if (e instanceof EngineError) return { id: request.id, ok: false, error: errorData(e) }
    return { id: request.id, ok: false, failure: messageOf(e) }
  }
}

export function serveTasks<T>(tasks: TaskFunctions<T>): void {
  const port = parentPort
  if (port === null) throw new Error('serveTasks runs in a worker thread')
  port.on('message', (request: TaskRequest) => {
    const reply = answer(request, tasks as unknown as AnyTasks)
    try {
      port.postMessage(reply)
    } catch (e) {
      // An answer that cannot be cloned (a function, a class the clone refuses) still settles the request.
      port.postMessage({ id: request.id, ok: false, failure: `the answer could not be sent: ${messageOf(e)}` })
    }
  })
}
