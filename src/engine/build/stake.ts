/** Stake (reward) addresses, `stake1…` / `stake_test1…`: the stake credential of a Marlowe script address. */
import { bech32 } from '@scure/base'
import { bytesToHex } from '../../core/bytes'
import type { Credential } from '../../core/cardano/address'
import { badRequest } from './build-errors'

export function parseStakeAddress(text: string, mainnet: boolean): Credential {
  const invalid = (why: string) => badRequest(`Invalid stake address value: ${why}`, { address: text })
  let prefix: string
  let payload: Uint8Array
  try {
    const decoded = bech32.decode(text.toLowerCase() as `${string}1${string}`, 1023)
    prefix = decoded.prefix
    payload = bech32.fromWords(decoded.words)
  } catch {
    throw invalid('not a bech32 string')
  }
  if (prefix !== (mainnet ? 'stake' : 'stake_test')) throw invalid(`prefix ${prefix} does not match the network`)
  const header = payload[0] ?? 0
  if (payload.length !== 29 || (header >> 4 !== 0xe && header >> 4 !== 0xf) || (header & 0x0f) !== (mainnet ? 1 : 0)) {
    throw invalid('not a reward address')
  }
  return { type: header >> 4 === 0xe ? 'key' : 'script', hash: bytesToHex(payload.subarray(1)) }
}
