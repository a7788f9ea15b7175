/** Bech32 payment addresses in requests: Shelley addresses a Marlowe party or wallet can have. */
import { AddressError, parseShelleyAddress, type ShelleyAddress } from '../../core/cardano/address'
import type { EngineError } from '../../engine/errors'

/** 0 testnets, 1 mainnet: the network nibble of the service's addresses. */
export type NetworkId = 0 | 1

/**
 * The canonical (lowercase) form of a bech32 address; `fail` builds the error for a reason. The network is
 * checked only when given: bodies may leave that to the builder, which knows it.
 */
export function parseAddress(text: string, networkId: NetworkId | undefined, fail: (reason: string) => EngineError) {
  let parsed: ShelleyAddress
  try {
    parsed = parseShelleyAddress(text)
  } catch (e) {
    if (e instanceof AddressError) throw fail(e.message)
    throw e
  }
  if (networkId !== undefined && parsed.mainnet !== (networkId === 1)) {
    const service = networkId === 1 ? 'mainnet' : 'a testnet'
    throw fail(`${parsed.mainnet ? 'a mainnet' : 'a testnet'} address, but this service runs on ${service}`)
  }
  return text.toLowerCase()
}
