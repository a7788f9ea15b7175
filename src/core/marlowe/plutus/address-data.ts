/**
 * The address party in Data (marlowe-core.md §2.3): `Constr 0 [Bool mainnet, Plutus Address]`, where the
 * Plutus Address is `Constr 0 [Credential, Maybe StakingCredential]`.
 */
import { bytesToHex, hexToBytes } from '../../bytes'
import { formatShelleyAddress, type Credential, type ShelleyAddress } from '../../cardano/address'
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
    return KNOWN_ADDRESSES.text(mainnet, paymentPart, undefined)
  }
  const [staking] = fieldsOf(maybe, 1)
  const stakePath = `${maybePath}.just`
  const stakeRef = readConstr(staking, stakePath, 'StakingCredential', ['StakingHash', 'StakingPtr'])
  if (stakeRef.index === 1) {
    throw new PlutusDecodeError(stakePath, 'a staking pointer cannot be part of a Marlowe address party')
  }
  const [stake] = fieldsOf(stakeRef, 1)
  return KNOWN_ADDRESSES.text(mainnet, paymentPart, credentialFromData(stake, `${stakePath}.credential`))
}

/** A credential as Data holds it: its kind and the hash's bytes, not yet hex. */
interface CredentialBytes {
  readonly script: boolean
  readonly hash: Uint8Array
}

/**
 * Bech32 text of address parties by their bytes. A contract names the same few parties in every case, and
 * hexing two hashes and formatting (or looking up) the text for each was most of decoding a large datum; a
 * 32-bit fingerprint of the bytes finds the entry, and the bytes themselves are compared before it is used.
 */
class AddressTexts {
  private readonly entries = new Map<number, Array<{ parts: Uint8Array; text: string }>>()
  private size = 0

  text(mainnet: boolean, payment: CredentialBytes, stake: CredentialBytes | undefined): string {
    const parts = new Uint8Array(2 + 2 * HASH_BYTES)
    parts[0] = (mainnet ? 1 : 0) | (payment.script ? 2 : 0) | (stake === undefined ? 0 : stake.script ? 8 : 4)
    parts.set(payment.hash, 1)
    if (stake !== undefined) parts.set(stake.hash, 1 + HASH_BYTES)
    let fingerprint = 0x811c9dc5
    for (let i = 0; i < parts.length; i += 1) fingerprint = Math.imul(fingerprint ^ parts[i]!, 0x01000193)
    const bucket = this.entries.get(fingerprint)
    const found = bucket?.find((e) => sameBytes(e.parts, parts))
    if (found !== undefined) return found.text
    const text = formatShelleyAddress({
      mainnet,
      payment: credentialOf(payment),
      ...(stake === undefined ? {} : { stake: credentialOf(stake) })
    })
    let into = bucket
    if (this.size >= ADDRESS_CACHE_LIMIT) {
      this.entries.clear()
      this.size = 0
      into = undefined
    }
    if (into === undefined) this.entries.set(fingerprint, [{ parts, text }])
    else into.push({ parts, text })
    this.size += 1
    return text
  }
}

const ADDRESS_CACHE_LIMIT = 4096
const KNOWN_ADDRESSES = new AddressTexts()

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false
  return true
}

function credentialOf(c: CredentialBytes): Credential {
  return { type: c.script ? 'script' : 'key', hash: bytesToHex(c.hash) }
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
