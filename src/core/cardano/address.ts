/**
 * CIP-19 Shelley addresses of the kinds a Marlowe address party can hold: base addresses (key or script
 * payment and stake parts) and enterprise addresses, on mainnet (`addr`, network nibble 1) or a testnet
 * (`addr_test`, nibble 0). Pointer, reward and Byron addresses are rejected.
 */
import { bech32 } from '@scure/base'
import { bytesToHex, hexToBytes } from '../bytes'
import { TextsByBytes, memoByText } from '../memo'

export interface Credential {
  readonly type: 'key' | 'script'
  /** 28-byte hash, lowercase hex. */
  readonly hash: string
}

export interface ShelleyAddress {
  readonly mainnet: boolean
  readonly payment: Credential
  readonly stake?: Credential
}

export class AddressError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'AddressError'
  }
}

const MAINNET_PREFIX = 'addr'
const TESTNET_PREFIX = 'addr_test'
const HASH_BYTES = 28
/** Well above the longest Shelley address (108 characters) while bounding the checksum work. */
const MAX_BECH32_LENGTH = 1023
const BECH32_SHAPE = /^[\x21-\x7e]+1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{6,}$/
const BASE58_SHAPE = /^[1-9A-HJ-NP-Za-km-z]+$/
const SHELLEY_PREFIX = /^(?:addr|stake)/i
const HASH_HEX = /^[0-9a-fA-F]{56}$/

/** Header type (high nibble) → credential kinds; the ones missing here cannot be Marlowe parties. */
const HEADER_TYPES: ReadonlyMap<number, { payment: Credential['type']; stake?: Credential['type'] }> = new Map([
  [0x0, { payment: 'key', stake: 'key' }],
  [0x1, { payment: 'script', stake: 'key' }],
  [0x2, { payment: 'key', stake: 'script' }],
  [0x3, { payment: 'script', stake: 'script' }],
  [0x6, { payment: 'key' }],
  [0x7, { payment: 'script' }]
])

/** Entries kept by the address caches. */
const PARSED_CACHE_LIMIT = 512

/** Parsed by text: contracts repeat a few parties many times, and bech32 decoding is costly. */
export const parseShelleyAddress: (text: string) => ShelleyAddress = memoByText(PARSED_CACHE_LIMIT, parseUncached)

function parseUncached(text: string): ShelleyAddress {
  const { prefix, payload } = decodeBech32(text)
  if (prefix.startsWith('stake')) throw new AddressError('reward (stake) addresses cannot be Marlowe parties')
  if (prefix !== MAINNET_PREFIX && prefix !== TESTNET_PREFIX) {
    throw new AddressError(`unknown address prefix ${prefix} (expected ${MAINNET_PREFIX} or ${TESTNET_PREFIX})`)
  }
  const header = payload[0]
  if (header === undefined) throw new AddressError('address payload is empty')
  const headerType = header >> 4
  const network = header & 0x0f
  const kinds = HEADER_TYPES.get(headerType)
  if (kinds === undefined) throw new AddressError(unsupportedHeaderReason(headerType))
  const mainnet = prefix === MAINNET_PREFIX
  if (network !== (mainnet ? 1 : 0)) {
    throw new AddressError(`network nibble ${network} does not match prefix ${prefix}`)
  }
  const expectedLength = 1 + HASH_BYTES * (kinds.stake === undefined ? 1 : 2)
  if (payload.length !== expectedLength) {
    const kind = kinds.stake === undefined ? 'an enterprise' : 'a base'
    throw new AddressError(`${kind} address must be ${expectedLength} bytes, got ${payload.length}`)
  }
  const payment = { type: kinds.payment, hash: bytesToHex(payload.subarray(1, 1 + HASH_BYTES)) }
  if (kinds.stake === undefined) return { mainnet, payment }
  return { mainnet, payment, stake: { type: kinds.stake, hash: bytesToHex(payload.subarray(1 + HASH_BYTES)) } }
}

/** A credential as bytes: its kind and its 28-byte hash. */
export interface CredentialBytes {
  readonly script: boolean
  readonly hash: Uint8Array
}

export function formatShelleyAddress(address: ShelleyAddress): string {
  const { payment, stake } = address
  return formatShelleyAddressBytes(
    address.mainnet,
    { script: payment.type === 'script', hash: hashBytes(payment) },
    stake === undefined ? undefined : { script: stake.type === 'script', hash: hashBytes(stake) }
  )
}

/** The bech32 text of a Shelley address from its credentials' bytes (28 bytes each), as Plutus Data holds them. */
export function formatShelleyAddressBytes(
  mainnet: boolean,
  payment: CredentialBytes,
  stake: CredentialBytes | undefined
): string {
  const headerType =
    stake === undefined ? (payment.script ? 0x7 : 0x6) : (payment.script ? 0x1 : 0x0) | (stake.script ? 0x2 : 0x0)
  return formattedText((headerType << 4) | (mainnet ? 1 : 0), payment.hash, stake?.hash)
}

/**
 * Bech32 texts by address payload. A Marlowe contract names the same few parties in every case, and encoding
 * (or hexing the hashes to look up) each of them was most of decoding a large datum: a 32-bit fingerprint of
 * the payload finds the entry, and the bytes themselves are compared before it is used. Nothing is allocated
 * when the text is known.
 */
const FORMATTED = new TextsByBytes(PARSED_CACHE_LIMIT)

function formattedText(header: number, payment: Uint8Array, stake: Uint8Array | undefined): string {
  const fingerprint = Math.imul(sample(payment, header), 0x01000193) ^ (stake === undefined ? 0 : sample(stake, 0))
  for (const e of FORMATTED.under(fingerprint) ?? []) if (samePayload(e.bytes, header, payment, stake)) return e.text
  const payload = new Uint8Array(1 + HASH_BYTES * (stake === undefined ? 1 : 2))
  payload[0] = header
  payload.set(payment, 1)
  if (stake !== undefined) payload.set(stake, 1 + HASH_BYTES)
  const prefix = (header & 1) === 1 ? MAINNET_PREFIX : TESTNET_PREFIX
  const text = bech32.encode(prefix, bech32.toWords(payload), MAX_BECH32_LENGTH)
  FORMATTED.keep(fingerprint, payload, text)
  return text
}

/**
 * A 32-bit sample of a credential hash (its first and last four bytes) mixed into `seed`. The hashes are hash
 * outputs, so a sample tells them apart; crafted ones that collide only share a fingerprint, under which few
 * are kept and compared in full (the rest are formatted each time).
 */
function sample(hash: Uint8Array, seed: number): number {
  const last = hash.length - 4
  const head = hash[0]! | (hash[1]! << 8) | (hash[2]! << 16) | (hash[3]! << 24)
  const tail = hash[last]! | (hash[last + 1]! << 8) | (hash[last + 2]! << 16) | (hash[last + 3]! << 24)
  return Math.imul(Math.imul(seed ^ head, 0x01000193) ^ tail, 0x01000193)
}

function samePayload(payload: Uint8Array, header: number, payment: Uint8Array, stake: Uint8Array | undefined): boolean {
  if (payload[0] !== header || payload.length !== 1 + HASH_BYTES * (stake === undefined ? 1 : 2)) return false
  for (let i = 0; i < HASH_BYTES; i += 1) if (payload[1 + i] !== payment[i]) return false
  if (stake !== undefined)
    for (let i = 0; i < HASH_BYTES; i += 1) if (payload[1 + HASH_BYTES + i] !== stake[i]) return false
  return true
}

function decodeBech32(text: string): { prefix: string; payload: Uint8Array } {
  const lowered = text.toLowerCase()
  // bech32 allows all-lowercase or all-uppercase, never mixed.
  const singleCase = text === lowered || text === text.toUpperCase()
  if (!singleCase || lowered.length > MAX_BECH32_LENGTH || !BECH32_SHAPE.test(lowered)) {
    if (!SHELLEY_PREFIX.test(text) && BASE58_SHAPE.test(text)) {
      throw new AddressError(
        'not a bech32 string: it looks like a base58 Byron address, which cannot be a Marlowe party'
      )
    }
    throw new AddressError(singleCase ? 'not a bech32 string' : 'not a bech32 string: it mixes upper and lower case')
  }
  let decoded: { prefix: string; words: number[] }
  try {
    decoded = bech32.decode(lowered as `${string}1${string}`, MAX_BECH32_LENGTH)
  } catch {
    // The shape was checked above, so only the checksum can be wrong here.
    throw new AddressError('bech32 checksum is invalid')
  }
  const payload = bech32.fromWordsUnsafe(decoded.words)
  if (!(payload instanceof Uint8Array)) throw new AddressError('not a bech32 string: the data part has invalid padding')
  return { prefix: decoded.prefix, payload }
}

function unsupportedHeaderReason(headerType: number): string {
  if (headerType === 0x4 || headerType === 0x5) return 'pointer addresses cannot be Marlowe parties'
  if (headerType === 0x8) return 'Byron addresses cannot be Marlowe parties'
  if (headerType === 0xe || headerType === 0xf) return 'reward (stake) addresses cannot be Marlowe parties'
  return `address header type 0x${headerType.toString(16)} is not a Shelley payment address`
}

function hashBytes(credential: Credential): Uint8Array {
  if (!HASH_HEX.test(credential.hash)) {
    throw new AddressError(`${credential.type} hash must be ${HASH_BYTES} bytes of hex, got "${credential.hash}"`)
  }
  return hexToBytes(credential.hash)
}
