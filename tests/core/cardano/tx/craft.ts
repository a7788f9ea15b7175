/** Hand-written transactions for shapes CSL does not produce (legacy forms, bad encodings, hostile fields). */
import { enc, unhex, type Cbor } from '../cbor/encode'
import { OWN, TX_A } from './fixtures'

/** OWN's enterprise testnet address bytes. */
export const OWN_ADDRESS = unhex(`60${OWN.hash}`)

export type Entries = Array<readonly [Cbor, Cbor]>

export function minimalBody(): Entries {
  return [
    [0, { tag: 258, value: [[unhex(TX_A), 0]] }],
    [1, [[OWN_ADDRESS, 1_000_000]]],
    [2, 200_000]
  ]
}

export interface CraftOptions {
  readonly witnessSet?: Entries
  readonly isValid?: Cbor
  readonly aux?: Cbor
}

export function craft(body: Entries = minimalBody(), options: CraftOptions = {}): Uint8Array {
  return enc([
    { map: body },
    { map: options.witnessSet ?? [] },
    options.isValid === undefined ? true : options.isValid,
    options.aux ?? null
  ])
}
