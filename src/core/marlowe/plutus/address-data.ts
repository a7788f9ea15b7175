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
import { PlutusDecodeError, fieldsOf, readBool, readBytes, readConstr, readRecord } from './data-shape'

const HASH_BYTES = 28
const NOTHING = constrData(1, [])

export function addressPartyFields(address: ShelleyAddress): PlutusData[] {
  const stake =
    address.stake === undefined ? NOTHING : constrData(0, [constrData(0, [credentialToData(address.stake)])])
  return [constrData(address.mainnet ? 1 : 0, []), constrData(0, [credentialToData(address.payment), stake])]
}

/** Reads the two fields of an address party back into the bech32 string of the model. */
export function addressPartyFromFields(network: PlutusData, address: PlutusData, path: string): string {
  const mainnet = readBool(network, `${path}.network`)
  const [payment, maybeStake] = readRecord(address, `${path}.address`, 'Address', 2)
  const paymentPart = credentialFromData(payment, `${path}.address.payment`)
  const maybePath = `${path}.address.stake`
  const maybe = readConstr(maybeStake, maybePath, 'Maybe', ['Just', 'Nothing'])
  if (maybe.index === 1) {
    fieldsOf(maybe, 0)
    return formatShelleyAddressBytes(mainnet, paymentPart, undefined)
  }
  const [staking] = fieldsOf(maybe, 1)
  const stakePath = `${maybePath}.just`
  const stakeRef = readConstr(staking, stakePath, 'StakingCredential', ['StakingHash', 'StakingPtr'])
  if (stakeRef.index === 1) {
    throw new PlutusDecodeError(stakePath, 'a staking pointer cannot be part of a Marlowe address party')
  }
  const [stake] = fieldsOf(stakeRef, 1)
  return formatShelleyAddressBytes(mainnet, paymentPart, credentialFromData(stake, `${stakePath}.credential`))
}

function credentialToData(credential: Credential): PlutusData {
  return constrData(credential.type === 'key' ? 0 : 1, [hexToBytes(credential.hash)])
}

function credentialFromData(d: PlutusData, path: string): CredentialBytes {
  const c = readConstr(d, path, 'Credential', ['PubKeyCredential', 'ScriptCredential'])
  const [hash] = fieldsOf(c, 1)
  const bytes = readBytes(hash, `${path}.hash`)
  if (bytes.length !== HASH_BYTES) {
    throw new PlutusDecodeError(`${path}.hash`, `expected a ${HASH_BYTES}-byte hash, got ${bytes.length} bytes`)
  }
  return { script: c.index === 1, hash: bytes }
}
