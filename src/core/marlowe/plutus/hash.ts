/** Datum and merkle hashes: blake2b-256 of the Data bytes, as the ledger and Merkle.hs compute them. */
import { blake2bHex } from '../../blake2b'
import type { Contract, MarloweData } from '../types'
import { encodePlutusData } from './data'
import { encodeMarloweData } from './marlowe-data'
import { contractToPlutusData } from './marlowe-to-data'

/** blake2b-256 of datum bytes, lowercase hex. */
export function datumHash(bytes: Uint8Array): string {
  return blake2bHex(bytes, 32)
}

export function hashMarloweData(md: MarloweData): string {
  return datumHash(encodeMarloweData(md))
}

/** The hash a `MerkleizedCase` and a merkleized input use to name `contract`. */
export function merkleHash(contract: Contract): string {
  return datumHash(encodePlutusData(contractToPlutusData(contract)))
}
