/** The address read alone from output bytes, as a checksummed snapshot's UTxOs are restored: the decoder's. */
import { describe, expect, test } from 'vitest'
import { sandboxWallet } from '../../../src/chain/sandbox'
import { decodeOutput, encodeOutput, outputAddressHex } from '../../../src/chain/sandbox/outputs'
import { concatBytes, hexToBytes } from '../../../src/core/bytes'
import { encodeByteString, encodeHead, encodeInt } from '../../../src/core/cardano/cbor'

const alice = sandboxWallet('alice')
const aliceHex = decodeOutput(encodeOutput({ address: alice.address, value: { lovelace: 1n, assets: {} } })).address.hex

describe('outputAddressHex', () => {
  test('reads the address of a map-form output and of a legacy one, as decoding does', () => {
    const mapForm = encodeOutput({ address: alice.address, value: { lovelace: 5_000_000n, assets: {} } })
    const legacy = concatBytes([encodeHead(4, 2), encodeByteString(hexToBytes(aliceHex)), encodeInt(5_000_000n)])
    for (const output of [mapForm, legacy]) {
      expect(outputAddressHex(output)).toBe(decodeOutput(output).address.hex)
    }
    expect(aliceHex).toMatch(/^0[01][0-9a-f]{112}$/)
  })

  test('a map without an address is refused', () => {
    const noAddress = concatBytes([encodeHead(5, 1), encodeInt(1n), encodeInt(5n)])
    expect(() => outputAddressHex(noAddress)).toThrow('the output has no address')
  })
})
