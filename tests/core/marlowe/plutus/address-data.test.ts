import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bytesToHex } from '../../../../src/core/bytes'
import { formatShelleyAddress, type ShelleyAddress } from '../../../../src/core/cardano/address'
import { addressPartyFields } from '../../../../src/core/marlowe/plutus/address-data'
import { constrData, encodePlutusData } from '../../../../src/core/marlowe/plutus/data'
import { decodeContract } from '../../../../src/core/marlowe/plutus/marlowe-data'

const hash = fc.uint8Array({ minLength: 28, maxLength: 28 }).map(bytesToHex)
const credential = fc.record({ type: fc.constantFrom('key' as const, 'script' as const), hash })
const address: fc.Arbitrary<ShelleyAddress> = fc
  .record({ mainnet: fc.boolean(), payment: credential, stake: fc.option(credential, { nil: undefined }) })
  .map(({ stake, ...rest }) => (stake === undefined ? rest : { ...rest, stake }))

/** The address read back from `Assert (ChoseSomething (ChoiceId "c" party)) Close` with `a` as the party. */
function roundTrip(a: ShelleyAddress): string {
  const party = constrData(0, addressPartyFields(a))
  const choiceId = constrData(0, [new TextEncoder().encode('c'), party])
  const contract = decodeContract(encodePlutusData(constrData(5, [constrData(3, [choiceId]), constrData(0, [])])))
  if (contract.type !== 'Assert' || typeof contract.observation !== 'object') throw new Error('not the contract')
  if (contract.observation.type !== 'ChoseSomething') throw new Error('not the observation')
  const owner = contract.observation.choice.owner
  if (owner.type !== 'Address') throw new Error('not an address party')
  return owner.address
}

describe('address parties from Data', () => {
  it('give back the address, however often the same hashes come back with another network or kind', () => {
    fc.assert(
      fc.property(hash, hash, (one, two) => {
        // Every variant of the same two hashes: they share bytes and differ only in the flags.
        const variants: ShelleyAddress[] = []
        for (const mainnet of [false, true])
          for (const payment of ['key', 'script'] as const) {
            variants.push({ mainnet, payment: { type: payment, hash: one } })
            for (const stake of ['key', 'script'] as const)
              variants.push({ mainnet, payment: { type: payment, hash: one }, stake: { type: stake, hash: two } })
          }
        for (let round = 0; round < 2; round += 1)
          for (const v of variants) expect(roundTrip(v)).toBe(formatShelleyAddress(v))
      }),
      { numRuns: 30 }
    )
  })

  it('give back thousands of distinct addresses, past the cache’s limit, each exactly', () => {
    const many = fc.sample(address, 6000)
    for (const a of many) expect(roundTrip(a)).toBe(formatShelleyAddress(a))
    for (const a of many.slice(0, 200)) expect(roundTrip(a)).toBe(formatShelleyAddress(a))
  })

  it('tell apart crafted hashes that differ only between their first and last four bytes', () => {
    const crafted = (i: number): ShelleyAddress => {
      const middle = i.toString(16).padStart(40, '0')
      return { mainnet: false, payment: { type: 'key', hash: `aabbccdd${middle}11223344` } }
    }
    for (let round = 0; round < 2; round += 1)
      for (let i = 0; i < 700; i += 1) expect(roundTrip(crafted(i))).toBe(formatShelleyAddress(crafted(i)))
  })
})
