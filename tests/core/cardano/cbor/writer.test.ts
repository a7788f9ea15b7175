/** The core's own CBOR writes: byte strings read back as the same bytes, with the shortest head. */
import { describe, expect, it } from 'vitest'
import { decodeCbor, encodeByteString } from '../../../../src/core/cardano/cbor'

describe('encodeByteString', () => {
  it.each([0, 23, 24, 255, 256, 65_536])('%i bytes: shortest head, read back whole', (length) => {
    const bytes = Uint8Array.from({ length }, (_, i) => i & 0xff)
    const encoded = encodeByteString(bytes)
    const headLength = length < 24 ? 1 : length < 0x100 ? 2 : length < 0x10000 ? 3 : 5
    expect(encoded.length).toBe(headLength + length)
    const { item } = decodeCbor(encoded)
    expect(item.kind).toBe('bytes')
    expect(item.kind === 'bytes' && item.value).toEqual(bytes)
  })
})
