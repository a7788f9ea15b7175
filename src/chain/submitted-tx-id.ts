/**
 * The id of a transaction a service says it accepted. The answer should name it; the id is also the hash of the
 * body we sent, so an accepted submission with a garbled answer still yields the right id, and an answer naming
 * another transaction is caught rather than tracked.
 */
import { decodeTransaction } from '../core/cardano/tx'
import { parseJson } from '../core/json/lossless'
import { ChainError } from './provider'

const TX_ID = /^[0-9a-fA-F]{64}$/

function localTxId(tx: Uint8Array): string | undefined {
  try {
    return decodeTransaction(tx).id
  } catch {
    return undefined
  }
}

function answeredTxId(text: string): string | undefined {
  try {
    const body = parseJson(text)
    return typeof body === 'string' && TX_ID.test(body) ? body.toLowerCase() : undefined
  } catch {
    return undefined
  }
}

export function acceptedTxId(answerText: string, tx: Uint8Array, service: string): string {
  const said = answeredTxId(answerText)
  const local = localTxId(tx)
  if (said !== undefined && local !== undefined && said !== local) {
    throw new ChainError('BadResponse', `${service} accepted the transaction as ${said}, but its id is ${local}`, {
      answered: said,
      computed: local
    })
  }
  const id = said ?? local
  if (id === undefined) {
    throw new ChainError('BadResponse', `${service} accepted the transaction but did not answer its id`, {
      answer: answerText.slice(0, 200)
    })
  }
  return id
}
