/**
 * The node's reason for refusing a transaction, as text, from what cardano-submit-api answers (and Blockfrost
 * relays as its error `message`): a JSON string, or the JSON of the submit error —
 * `{tag: 'TxSubmitFail', contents: {tag: …, contents: {kind: 'ShelleyTxValidationError', error: ['ConwayUtxowFailure …']}}}`
 * — sometimes itself written into a string.
 */
import { isJsonObject, parseJson, stringifyJson, type JsonValue } from '../core/json/lossless'

const MAX_DEPTH = 32

/** The ledger's failure lines: the first `error` list of strings anywhere in the answer. */
function ledgerErrors(v: JsonValue, depth: number): string[] | undefined {
  if (depth > MAX_DEPTH) return undefined
  if (Array.isArray(v)) {
    for (const item of v) {
      const found = ledgerErrors(item, depth + 1)
      if (found !== undefined) return found
    }
    return undefined
  }
  if (!isJsonObject(v)) return undefined
  const error = Object.hasOwn(v, 'error') ? v['error'] : undefined
  if (Array.isArray(error) && error.length > 0 && error.every((e) => typeof e === 'string')) return error as string[]
  for (const key of Object.keys(v)) {
    const found = ledgerErrors(v[key]!, depth + 1)
    if (found !== undefined) return found
  }
  return undefined
}

function embeddedJson(text: string): JsonValue | undefined {
  const t = text.trim()
  if (!t.startsWith('{') && !t.startsWith('[')) return undefined
  try {
    return parseJson(t)
  } catch {
    return undefined
  }
}

export function nodeRejectionReason(body: JsonValue): string {
  const value = typeof body === 'string' ? (embeddedJson(body) ?? body) : body
  if (typeof value === 'string') return value
  const errors = ledgerErrors(value, 0)
  return errors === undefined ? stringifyJson(value) : errors.join('; ')
}

/** The same from the raw text of an answer body, which may not be JSON at all. */
export function nodeRejectionReasonFromText(text: string): string {
  try {
    return nodeRejectionReason(parseJson(text))
  } catch {
    return text.trim() === '' ? 'the node rejected the transaction (no reason given)' : text.trim()
  }
}
