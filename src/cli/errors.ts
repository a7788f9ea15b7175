/** CLI failures: a message for the user and the exit code (2 for usage errors, 1 for everything else). */
import type { ChainError } from '../chain/provider'

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1
  ) {
    super(message)
    this.name = 'CliError'
  }
}

export function usageError(message: string): CliError {
  return new CliError(message, 2)
}

/**
 * A chain failure in words. Only a rejection or a failed evaluation is the chain's own answer; not reaching it,
 * or not understanding what it answered, is said as what happened here.
 */
export function chainErrorText(e: ChainError): string {
  switch (e.kind) {
    case 'Rejected':
    case 'EvaluationFailed':
      return `the chain says: ${e.reason} (${e.kind})`
    case 'Unavailable':
      return `${e.reason} (Unavailable: try again later)`
    case 'BadResponse':
      return `could not make sense of the chain's answer: ${e.reason} (BadResponse)`
  }
}

/** Anything thrown, readable: an object as its JSON rather than "[object Object]". */
export function thrownText(e: unknown): string {
  if (e instanceof Error) return e.stack ?? e.message
  if (typeof e !== 'object' || e === null) return String(e)
  try {
    return JSON.stringify(e, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value))
  } catch {
    return String(e)
  }
}
