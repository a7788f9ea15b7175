/**
 * Every address kind a transaction can carry (CIP-19): base, pointer, enterprise and reward addresses, and
 * Byron bootstrap addresses. `src/core/cardano/address.ts` handles only the kinds a Marlowe party can be; this
 * decoder is for reviewing whatever a transaction holds, so it accepts all of them and reports what they are.
 */
import { base58, bech32 } from '@scure/base'
import { bytesToHex } from '../../bytes'
import { memoByText } from '../../memo'
import { AddressError, formatShelleyAddressBytes, type Credential, type CredentialBytes } from '../address'
import { CborError, CborReader } from '../cbor'
import { crc32 } from './crc32'

export type AddressKind = 'base' | 'pointer' | 'enterprise' | 'reward' | 'byron'

export interface Pointer {
  readonly slot: bigint
  readonly txIndex: bigint
  readonly certIndex: bigint
}

export interface DecodedAddress {
  readonly kind: AddressKind
  /** The address bytes, lowercase hex. */
  readonly hex: string
  /** bech32 (`addr…`, `stake…`) for Shelley kinds, base58 for Byron. */
  readonly text: string
  /** 0 (testnets) or 1 (mainnet); for Byron, 1 unless the address names a protocol magic. */
  readonly networkId: number
  readonly payment?: Credential
  readonly stake?: Credential
  readonly pointer?: Pointer
  /** Byron only: the protocol magic in the address attributes (absent on mainnet). */
  readonly byronProtocolMagic?: bigint
}

const HASH_BYTES = 28
/** Real Byron addresses stay under ~100 bytes; the cap keeps base58 (quadratic) cheap on hostile input. */
const MAX_BYRON_BYTES = 512
/** A pointer field is a natural written 7 bits per byte; 10 bytes already exceed 2^64. */
const MAX_POINTER_FIELD_BYTES = 10
const MAX_BECH32_LENGTH = 1023

/** Decodes address bytes. Throws `AddressError` with the reason. */
export function decodeAddress(bytes: Uint8Array): DecodedAddress {
  const header = bytes[0]
  if (header === undefined) throw new AddressError('address is empty')
  const type = header >> 4
  if (type === 0x8) return decodeByron(bytes)
  const networkId = header & 0x0f
  if (networkId > 1) throw new AddressError(`unknown network id ${networkId} in the address header`)
  const hex = bytesToHex(bytes)
  const credential = (at: number, script: boolean): Credential => ({
    type: script ? 'script' : 'key',
    hash: bytesToHex(bytes.subarray(at, at + HASH_BYTES))
  })
  const text = (stake: boolean): string => {
    const prefix = (stake ? 'stake' : 'addr') + (networkId === 1 ? '' : '_test')
    return bech32.encode(prefix, bech32.toWords(bytes), MAX_BECH32_LENGTH)
  }
  // Base and enterprise addresses are what Marlowe parties are: their texts come from the same cache.
  const mainnet = networkId === 1
  const part = (at: number, script: boolean): CredentialBytes => ({ script, hash: bytes.subarray(at, at + HASH_BYTES) })
  if (type <= 0x3) {
    expectLength(bytes, 1 + 2 * HASH_BYTES, 'a base')
    return {
      kind: 'base',
      hex,
      text: formatShelleyAddressBytes(mainnet, part(1, (type & 1) === 1), part(1 + HASH_BYTES, (type & 2) === 2)),
      networkId,
      payment: credential(1, (type & 1) === 1),
      stake: credential(1 + HASH_BYTES, (type & 2) === 2)
    }
  }
  if (type === 0x4 || type === 0x5) {
    if (bytes.length < 1 + HASH_BYTES) throw new AddressError('a pointer address is too short')
    const pointer = decodePointer(bytes, 1 + HASH_BYTES)
    return { kind: 'pointer', hex, text: text(false), networkId, payment: credential(1, type === 0x5), pointer }
  }
  if (type === 0x6 || type === 0x7) {
    expectLength(bytes, 1 + HASH_BYTES, 'an enterprise')
    const text = formatShelleyAddressBytes(mainnet, part(1, type === 0x7), undefined)
    return { kind: 'enterprise', hex, text, networkId, payment: credential(1, type === 0x7) }
  }
  if (type === 0xe || type === 0xf) {
    expectLength(bytes, 1 + HASH_BYTES, 'a reward')
    return { kind: 'reward', hex, text: text(true), networkId, stake: credential(1, type === 0xf) }
  }
  throw new AddressError(`address header type 0x${type.toString(16)} is not a known address kind`)
}

/**
 * Decodes an address written as bech32 (`addr…`, `stake…`) or base58 (Byron). Throws `AddressError`. Kept by
 * text: the same wallet and script addresses come back in every review and build.
 */
export const parseAddressText: (text: string) => DecodedAddress = memoByText(512, parseUncached)

function parseUncached(text: string): DecodedAddress {
  if (text.length > MAX_BECH32_LENGTH) throw new AddressError('address text is too long')
  let bytes: Uint8Array
  try {
    if (/^(addr|stake)(_test)?1/i.test(text)) {
      const lowered = text.toLowerCase() as `${string}1${string}`
      bytes = bech32.fromWords(bech32.decode(lowered, MAX_BECH32_LENGTH).words)
    } else {
      bytes = base58.decode(text)
    }
  } catch {
    throw new AddressError('not a bech32 or base58 address')
  }
  const address = decodeAddress(bytes)
  const prefix = text.slice(0, text.indexOf('1')).toLowerCase()
  if (address.kind !== 'byron' && address.text.slice(0, prefix.length + 1) !== `${prefix}1`) {
    throw new AddressError(`prefix ${prefix} does not match the address header`)
  }
  return address
}

function expectLength(bytes: Uint8Array, length: number, kind: string): void {
  if (bytes.length !== length) throw new AddressError(`${kind} address must be ${length} bytes, got ${bytes.length}`)
}

function decodePointer(bytes: Uint8Array, start: number): Pointer {
  let at = start
  const natural = (): bigint => {
    let n = 0n
    for (let used = 1; ; used++) {
      const b = bytes[at++]
      if (b === undefined) throw new AddressError('a pointer address ends inside a pointer field')
      if (used > MAX_POINTER_FIELD_BYTES) throw new AddressError('a pointer field is too long')
      n = (n << 7n) | BigInt(b & 0x7f)
      if ((b & 0x80) === 0) return n
    }
  }
  const pointer = { slot: natural(), txIndex: natural(), certIndex: natural() }
  if (at !== bytes.length) throw new AddressError(`${bytes.length - at} unexpected bytes after the pointer`)
  return pointer
}

/** `[#6.24(bytes .cbor [root, attributes, type]), crc32]`; attribute 2 holds the protocol magic off mainnet. */
function decodeByron(bytes: Uint8Array): DecodedAddress {
  if (bytes.length > MAX_BYRON_BYTES) throw new AddressError(`a Byron address longer than ${MAX_BYRON_BYTES} bytes`)
  try {
    const r = new CborReader(bytes, 0, bytes.length, { maxDepth: 8 })
    const outer = r.fixedArray('Byron address', 2)
    if (r.tag('Byron address payload') !== 24) r.fail('Byron address payload must be tag 24')
    const payload = r.bytes('Byron address payload')
    const checksum = r.uint('Byron address checksum')
    r.closeArray(outer, 'Byron address')
    r.expectEnd('the Byron address')
    if (BigInt(crc32(payload)) !== checksum) throw new AddressError('Byron address checksum does not match')
    const inner = new CborReader(payload, 0, payload.length, { maxDepth: 8 })
    const fields = inner.fixedArray('Byron address payload', 3)
    inner.hash('Byron address root', HASH_BYTES)
    let magic: bigint | undefined
    inner.mapEntries('Byron address attributes', (key) => {
      const value = inner.bytes('Byron address attribute')
      if (key.kind === 'int' && key.value === 2n) {
        const m = new CborReader(value, 0, value.length)
        magic = m.uint('Byron protocol magic')
        m.expectEnd('the protocol magic')
      }
    })
    inner.smallUint('Byron address type', 2)
    inner.closeArray(fields, 'Byron address payload')
    inner.expectEnd('the Byron address payload')
    const address: DecodedAddress = {
      kind: 'byron',
      hex: bytesToHex(bytes),
      text: base58.encode(bytes),
      networkId: magic === undefined ? 1 : 0
    }
    return magic === undefined ? address : { ...address, byronProtocolMagic: magic }
  } catch (e) {
    if (e instanceof CborError) throw new AddressError(`malformed Byron address: ${e.message}`)
    throw e
  }
}
