/**
 * The messages between the engine and its worker thread. Inputs and outputs are plain data (bytes, strings,
 * bigints, arrays, plain objects), which the structured clone carries whole, shared parts included; an engine
 * error crosses as its fields and is made an `EngineError` again on the other side.
 */
import { EngineError, type EngineErrorKind } from '../errors'

/** What a task takes and gives. */
export interface TaskSpec {
  readonly input: unknown
  readonly output: unknown
}

/** The functions that carry out a map of tasks. */
export type TaskFunctions<T> = {
  readonly [K in keyof T]: T[K] extends TaskSpec ? (input: T[K]['input']) => T[K]['output'] : never
}

export interface TaskRequest {
  readonly id: number
  readonly task: string
  readonly input: unknown
}

export interface EngineErrorData {
  readonly kind: EngineErrorKind
  readonly code: string
  readonly message: string
  readonly details: Readonly<Record<string, unknown>>
}

export type TaskReply =
  | { readonly id: number; readonly ok: true; readonly output: unknown }
  /** A refusal with the engine's codes, as it would have been thrown on the engine's thread. */
  | { readonly id: number; readonly ok: false; readonly error: EngineErrorData }
  /** Anything else that went wrong: only its message crosses. */
  | { readonly id: number; readonly ok: false; readonly failure: string }

export function errorData(e: EngineError): EngineErrorData {
  return { kind: e.kind, code: e.code, message: e.message, details: e.details }
}

export function engineErrorOf(data: EngineErrorData): EngineError {
  return new EngineError(data.kind, data.code, data.message, data.details)
}
