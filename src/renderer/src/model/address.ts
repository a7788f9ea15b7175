/** Whether a text is an address a role token (or a payment) can go to. */
import { AddressError, parseShelleyAddress } from '../../../core/cardano/address'

/** Why the address cannot be used, or undefined when it can. */
export function addressProblem(text: string | undefined): string | undefined {
  const trimmed = (text ?? '').trim()
  if (trimmed === '') return 'Enter the address that receives it.'
  try {
    parseShelleyAddress(trimmed)
    return undefined
  } catch (e) {
    if (e instanceof AddressError) return e.message
    throw e
  }
}
