import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CSL, rootKeyFromEntropy, withCsl } from '../../src/csl'
import { bytesToHex } from '../../src/core/bytes'

describe('rootKeyFromEntropy', () => {
  it("gives CSL's from_bip39_entropy key for every entropy length BIP-39 allows, with and without a passphrase", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(16, 20, 24, 28, 32).chain((n) => fc.uint8Array({ minLength: n, maxLength: n })),
        fc.uint8Array({ maxLength: 24 }),
        (entropy, passphrase) =>
          withCsl((s) => {
            const ours = s.own(rootKeyFromEntropy(entropy, passphrase)).as_bytes()
            const csl = s.own(CSL.Bip32PrivateKey.from_bip39_entropy(entropy, passphrase)).as_bytes()
            expect(bytesToHex(ours)).toBe(bytesToHex(csl))
          })
      ),
      { numRuns: 25 }
    )
  })
})
