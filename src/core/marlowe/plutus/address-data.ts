/**
 * The address party in Data (marlowe-core.md §2.3): `Constr 0 [Bool mainnet, Plutus Address]`, where the
 * Plutus Address is `Constr 0 [Credential, Maybe StakingCredential]`.
 */
import { hexToBytes } from '../../bytes'
import {
  formatShelleyAddressBytes,
  type Credential,
  type CredentialBytes,
  type ShelleyAddress
} from '../../cardano/address'
import { constrData, type PlutusData } from './data'
import type { DataCursor } from './data-cursor'

const HASH_BYTES = 28
const NOTHING = constrData(1, [])
const MAYBE = ['Just', 'Nothing']
const STAKING = ['StakingHash', 'StakingPtr']
const CREDENTIAL = ['PubKeyCredential', 'ScriptCredential']

export function addressPartyFields(address: ShelleyAddress): PlutusData[] {
  const stake =
    address.stake === undefined ? NOTHING : constrData(0, [constrData(0, [credentialToData(address.stake)])])
  return [constrData(address.mainnet ? 1 : 0, []), constrData(0, [credentialToData(address.payment), stake])]
}

/** Reads an address party's two fields (inside its open `Party` constructor) into the bech32 text of the model. */
export function readAddressParty(c: DataCursor): string {
  const mainnet = c.bool('network')
  c.record('address', 'Address', 2)
  const payment = readCredential(c, 'payment')
  const maybe = c.constr('stake', 'Maybe', MAYBE)
  let stake: CredentialBytes | undefined
  if (maybe === 1) {
    c.fields(0)
  } else {
    c.fields(1)
    if (c.constr('just', 'StakingCredential', STAKING) === 1) {
      c.fail('', 'a staking pointer cannot be part of a Marlowe address party')
    }
    c.fields(1)
    stake = readCredential(c, 'credential')
    c.close()
  }
  c.close()
  c.close()
  return formatShelleyAddressBytes(mainnet, payment, stake)
}

function credentialToData(credential: Credential): PlutusData {
  return constrData(credential.type === 'key' ? 0 : 1, [hexToBytes(credential.hash)])
}

function readCredential(c: DataCursor, name: string): CredentialBytes {
  const index = c.constr(name, 'Credential', CREDENTIAL)
  c.fields(1)
  const bytes = c.bytes('hash')
  if (bytes.length !== HASH_BYTES) c.fail('hash', `expected a ${HASH_BYTES}-byte hash, got ${bytes.length} bytes`)
  c.close()
  return { script: index === 1, hash: bytes }
}
