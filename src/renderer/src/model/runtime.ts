/**
 * The review's Marlowe payments, which it carries in Runtime's JSON (`encodePayment`'s form), read into the core's
 * model. Malformed JSON throws a `MarloweJsonError` naming the path.
 */
import { asInteger, child, decodeParty, decodePayee, decodeToken, field, asObject } from '../../../core/marlowe/json'
import type { Payment } from '../../../core/marlowe/types'
import { toJson } from '../format/json'

/** A payment of a Marlowe step in a review (`encodePayment`'s form). */
export function readPayment(raw: unknown, path = 'payment'): Payment {
  const o = asObject(toJson(raw), path, 'a payment')
  return {
    from: decodeParty(field(o, 'payment_from', path), child(path, 'payment_from')),
    to: decodePayee(field(o, 'to', path), child(path, 'to')),
    token: decodeToken(field(o, 'token', path), child(path, 'token')),
    amount: asInteger(field(o, 'amount', path), child(path, 'amount'))
  }
}
