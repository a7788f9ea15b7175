/**
 * The size in bytes of a transaction output as the builder writes it — `[address, value]` or
 * `[address, value, datum hash]`, no inline datum or reference script — computed, not encoded: the ledger's
 * minimum-UTxO rule charges by it, and a build asks it of every output it plans, several times each.
 */
import { headLength } from './cbor'
import { parseAddressText } from './tx'
import type { Value } from './value'

const POLICY_ID_BYTES = 28
const HASH_32_BYTES = 32

/** A byte string's size: its head, then its bytes. */
const byteStringSize = (length: number): number => headLength(length) + length

/** `coin` alone, or `[coin, {policy: {name: quantity}}]`; assets of quantity 0 are not written. */
export function valueSize(value: Value): number {
  let policies = 0
  let assetsSize = 0
  for (const names of Object.values(value.assets)) {
    let count = 0
    let namesSize = 0
    for (const [name, quantity] of Object.entries(names)) {
      if (quantity === 0n) continue
      count += 1
      namesSize += byteStringSize(name.length / 2) + headLength(quantity)
    }
    if (count === 0) continue
    policies += 1
    assetsSize += byteStringSize(POLICY_ID_BYTES) + headLength(count) + namesSize
  }
  const coin = headLength(value.lovelace)
  return policies === 0 ? coin : headLength(2) + coin + headLength(policies) + assetsSize
}

export interface OutputShape {
  /** bech32 or base58. */
  readonly address: string
  readonly value: Value
  readonly datumHash?: string
}

/** Throws `AddressError` for an address that is not one, `RangeError` for a quantity outside 0 … 2^64 − 1. */
export function outputSize(shape: OutputShape): number {
  const addressBytes = parseAddressText(shape.address).hex.length / 2
  const fields = shape.datumHash === undefined ? 2 : 3
  const datum = shape.datumHash === undefined ? 0 : byteStringSize(HASH_32_BYTES)
  return headLength(fields) + byteStringSize(addressBytes) + valueSize(shape.value) + datum
}
