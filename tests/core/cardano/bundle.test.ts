import { describe, expect, it } from 'vitest'
import { BundleError, parseBundle, stringifyBundle, type ReviewBundle } from '../../../src/core/cardano/bundle'

const bundle: ReviewBundle = {
  tx: new Uint8Array([0x84, 0xa0, 0xa0, 0xf5, 0xf6]),
  era: 'Conway',
  network: 'preprod',
  createdAt: '2026-11-22T12:00:00.000Z',
  resolvedInputs: [
    {
      ref: { txId: 'ab'.repeat(32), index: 3 },
      address: 'addr_test1vz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzerspjrlsz',
      value: { lovelace: 123456789012345678901234567890n, assets: { ['cd'.repeat(28)]: { '42': 7n } } },
      datumHash: 'ef'.repeat(32),
      datum: new Uint8Array([0xd8, 0x79, 0x80]),
      scriptRef: { language: 'PlutusV2', bytes: new Uint8Array([0x4a, 1, 2]) }
    },
    { ref: { txId: '01'.repeat(32), index: 0 }, address: 'addr_test1x', value: { lovelace: 2n, assets: {} } }
  ],
  eraSummaries: [
    { start: { slot: 0n, time: 0n }, end: { slot: 10n, time: 200000n }, slotLength: 20000n },
    { start: { slot: 10n, time: 200000n }, slotLength: 1000n }
  ],
  protocolParameters: {
    maxTxSize: 16384,
    minFeeA: 44n,
    minFeeB: 155381n,
    priceMem: { numerator: 577n, denominator: 10000n },
    costModels: { PlutusV2: [1n, -2n, 3n] }
  }
}

describe('review bundle', () => {
  it('round-trips exactly, big integers included', () => {
    const text = stringifyBundle(bundle)
    expect(text).toContain('"lovelace": 123456789012345678901234567890')
    expect(parseBundle(text)).toEqual(bundle)
  })

  it('round-trips without optional parts', () => {
    const { protocolParameters: _omitted, ...minimal } = bundle
    expect(parseBundle(stringifyBundle(minimal))).toEqual(minimal)
  })

  const text = stringifyBundle(bundle)
  it.each([
    ['not JSON', 'x', 'not a review bundle: invalid JSON'],
    ['another format', '{"format":"other"}', 'not a review bundle (format is not "marlowe-desk/review-bundle")'],
    ['a newer version', text.replace('"version": 1', '"version": 2'), 'review bundle version 2 is not supported'],
    [
      'a witness instead of a tx',
      text.replace('"Tx ConwayEra"', '"ShelleyTxWitness ConwayEra"'),
      'bundle.tx.type: expected "Tx <Era>"'
    ],
    ['bad hex', text.replace('84a0a0f5f6', '84a0a0f5f'), 'bundle.tx.cborHex: hex string has odd length'],
    [
      'a missing address',
      text.replace(/"address": "addr_test1x",/, ''),
      'bundle.resolvedInputs[1]: missing key "address"'
    ],
    [
      'an unknown script language',
      text.replace('"PlutusV2"', '"PlutusV9"'),
      'bundle.resolvedInputs[0].scriptRef.language: expected one of'
    ],
    [
      'a fractional amount',
      text.replace('"lovelace": 2', '"lovelace": 2.5'),
      'bundle.resolvedInputs[1].value.lovelace: expected an integer'
    ],
    [
      'a zero denominator',
      text.replace('"denominator": 10000', '"denominator": 0'),
      'bundle.protocolParameters.priceMem.denominator: must be positive'
    ]
  ])('rejects %s', (_what, input, message) => {
    expect(() => parseBundle(input)).toThrow(BundleError)
    expect(() => parseBundle(input)).toThrow(message)
  })
})
