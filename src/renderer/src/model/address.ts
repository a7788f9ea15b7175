/** Whether a text is an address a role token (or a payment) can go to, and why not in plain words. */
import { AddressError, parseShelleyAddress } from '../../../core/cardano/address'

/**
 * The core's reasons (src/core/cardano/address.ts, written for the command line and the API) as a user reads
 * them; a reason not listed here is shown as the core wrote it.
 */
const PLAIN_REASONS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^bech32 checksum is invalid$/, 'The address’s checksum is wrong: a character is mistyped, missing or extra.'],
  [/mixes upper and lower case/, 'An address is written in lower case (or all in upper case), never both.'],
  [/base58 Byron address/, 'This is an old (Byron) address, which a Marlowe contract cannot use.'],
  [/^not a bech32 string/, 'This is not a Cardano address: they start with addr1 (mainnet) or addr_test1.'],
  [/reward \(stake\) addresses/, 'This is a stake (reward) address: enter a payment address, starting with addr.'],
  [/pointer addresses|Byron addresses/, 'This kind of address cannot be a party to a Marlowe contract.'],
  [/^unknown address prefix/, 'A Cardano address starts with addr1 (mainnet) or addr_test1 (test networks).'],
  [/^network nibble/, 'The address is damaged: the network inside it does not match its addr / addr_test start.'],
  [/address must be \d+ bytes|payload is empty|header type/, 'The address is damaged: it is too short or too long.']
]

/** An address problem from the core, in plain words. */
export function plainAddressReason(reason: string): string {
  return PLAIN_REASONS.find(([pattern]) => pattern.test(reason))?.[1] ?? reason
}

/** Why the address cannot be used, or undefined when it can. */
export function addressProblem(text: string | undefined): string | undefined {
  const trimmed = (text ?? '').trim()
  if (trimmed === '') return 'Enter the address that receives it.'
  try {
    parseShelleyAddress(trimmed)
    return undefined
  } catch (e) {
    if (e instanceof AddressError) return plainAddressReason(e.message)
    throw e
  }
}
