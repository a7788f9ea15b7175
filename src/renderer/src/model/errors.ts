/** Errors as the UI shows them: a readable sentence first, the code and details only on demand. */
import { DeskError } from '../../../api/contract'
import { formatAda } from '../format/amounts'
import { jsonText, toJson } from '../format/json'
import { localizeIsoTimes } from '../format/time'
import { plainAddressReason } from './address'

export function errorMessage(error: unknown): string {
  if (error instanceof DeskError) return plainDeskMessage(error) ?? plainText(error.message)
  if (error instanceof Error) return plainText(error.message)
  return String(error)
}

/** Code and details for the "details" disclosure; undefined when there is nothing more to say. */
export function errorDetails(error: unknown): string | undefined {
  if (error instanceof DeskError) {
    // The engine's own words, when the message above replaced them, stay here for whoever reports the problem.
    const original = plainDeskMessage(error) === undefined ? '' : `\n${error.message}`
    const details = error.details === undefined ? '' : `\n${jsonText(error.details)}`
    return `code: ${error.code}${original}${details}`
  }
  if (error instanceof Error && error.name !== 'Error') return error.name
  return undefined
}

/** Whether the engine refused a call because the wallet is locked (it may have locked itself meanwhile). */
export function isWalletLocked(error: unknown): boolean {
  return error instanceof DeskError && error.code === 'WalletLocked'
}

/** The engine's texts serve the command line and Runtime's clients too: times in UTC, addresses' inner words. */
function plainText(message: string): string {
  const address = /^(.*?)(bech32 checksum is invalid|not a bech32 string.*)$/.exec(message)
  const before = address?.[1] ?? ''
  const reason = plainAddressReason(address?.[2] ?? '')
  // Mid-sentence ("Invalid … value: the address’s …"), the plain reason goes on in lower case.
  const text =
    address === null ? message : `${before}${before === '' ? reason : reason.charAt(0).toLowerCase() + reason.slice(1)}`
  return localizeIsoTimes(text)
}

const ada = (value: unknown): string | undefined => {
  const v = toJson(value)
  return typeof v === 'bigint' ? formatAda(v) : undefined
}

/**
 * A sentence for the failures whose engine text names lovelace or file formats (the text Runtime's clients and
 * the command line get); undefined to show the engine's text.
 */
function plainDeskMessage(error: DeskError): string | undefined {
  const d = error.details
  switch (error.code) {
    case 'CoinSelectionFailed': {
      const failure = toJson(d?.['coinSelectionFailed'])
      const f = failure !== null && typeof failure === 'object' && !Array.isArray(failure) ? failure : {}
      if (!('tag' in f)) return undefined
      if (f['tag'] === 'InsufficientLovelace') {
        const [available, required] = [ada(f['available']), ada(f['required'])]
        if (available === undefined || required === undefined) return undefined
        return `The wallet holds ${available}; this transaction needs ${required}.`
      }
      if (f['tag'] === 'InsufficientTokens') return 'The wallet lacks some of the tokens this transaction needs.'
      return 'The wallet has no ada-only output large enough to serve as collateral: send it some ada first.'
    }
    case 'InsufficientMinAdaDeposit': {
      const required = ada(d?.['minimumRequiredDeposit'])
      return required === undefined ? undefined : `The deposit is too small: this contract may need ${required}.`
    }
    case 'CalculateMinUtxoFailed':
      return 'The contract would keep less ada than the ledger requires its output to hold.'
    case 'InvalidTransaction':
      return (
        'This is not a transaction Marlowe Desk can read: choose an unsigned transaction file (as cardano-cli ' +
        'or Marlowe Desk writes it) or a review bundle.'
      )
    case 'InvalidBundle':
      return 'This review bundle cannot be read: it is damaged, or from a newer Marlowe Desk.'
    case 'InvalidWitness':
      return 'This is not a witness of this transaction: choose the witness file signed for it.'
    default:
      return undefined
  }
}
