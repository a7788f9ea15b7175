/** Errors as the UI shows them: a readable sentence first, the code and details only on demand. */
import { DeskError } from '../../../api/contract'
import { jsonText } from '../format/json'

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  return String(error)
}

/** Code and details for the "details" disclosure; undefined when there is nothing more to say. */
export function errorDetails(error: unknown): string | undefined {
  if (error instanceof DeskError) {
    const details = error.details === undefined ? '' : `\n${jsonText(error.details)}`
    return `code: ${error.code}${details}`
  }
  if (error instanceof Error && error.name !== 'Error') return error.name
  return undefined
}

/** Whether the engine refused a call because the wallet is locked (it may have locked itself meanwhile). */
export function isWalletLocked(error: unknown): boolean {
  return error instanceof DeskError && error.code === 'WalletLocked'
}
