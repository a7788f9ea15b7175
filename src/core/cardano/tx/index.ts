/** Transaction decoding: every field of an Alonzo–Conway transaction, with its original bytes and offsets. */
export { decodeAddress, parseAddressText, type AddressKind, type DecodedAddress, type Pointer } from './address'
export { MAX_TRANSACTION_BYTES, decodeTransaction } from './decode'
export { TxDecodeError } from './error'
export { blake2b224Hex, blake2b256Hex, scriptHashHex } from './hash'
export { LANGUAGE_TAG } from './script'
export type * from './types'
export { TxReader } from './reader'
export { readOutput } from './output'
