import { describe, expect, it } from 'vitest'
import { datumHash, hashMarloweData, merkleHash } from '../../../../src/core/marlowe/plutus/hash'
import { CLOSE, emptyState } from '../../../../src/core/marlowe/types'

describe('hashes', () => {
  it('datumHash is blake2b-256 in lowercase hex', () => {
    expect(datumHash(new Uint8Array())).toBe('0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8')
  })

  it('hashes the empty MarloweData as in marlowe-core.md §2.5', () => {
    expect(hashMarloweData({ params: { rolesCurrency: '' }, state: emptyState(0n), contract: CLOSE })).toBe(
      '55b3ce1907ad7623b30ed24abe001d15372bae146fc9c1e28656c631b59722e4'
    )
  })

  it('gives Close the merkle hash of marlowe-core.md §2.5', () => {
    expect(merkleHash(CLOSE)).toBe('923918e403bf43c34b4ef6b48eb2ee04babed17320d8d1b9ff9ad086e86f44ec')
  })
})
