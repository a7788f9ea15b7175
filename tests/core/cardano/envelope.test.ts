import { describe, expect, it } from 'vitest'
import { EnvelopeError, parseTextEnvelope, stringifyTextEnvelope } from '../../../src/core/cardano/envelope'

describe('TextEnvelope', () => {
  const text =
    '{\n    "type": "Tx ConwayEra",\n    "description": "Ledger Cddl Format",\n    "cborHex": "84a0a0f5f6"\n}\n'

  it('round-trips cardano-cli output exactly', () => {
    const env = parseTextEnvelope(text)
    expect(env).toEqual({
      type: 'Tx ConwayEra',
      description: 'Ledger Cddl Format',
      cbor: new Uint8Array([0x84, 0xa0, 0xa0, 0xf5, 0xf6])
    })
    expect(stringifyTextEnvelope(env)).toBe(text)
  })

  it('defaults a missing description to empty', () => {
    expect(parseTextEnvelope('{"type":"TxWitness ConwayEra","cborHex":"8200"}').description).toBe('')
  })

  it.each([
    ['not JSON', 'nope', 'not a TextEnvelope: invalid JSON'],
    ['an array', '[]', 'expected a JSON object'],
    ['no type', '{"cborHex":"00"}', 'has no "type" string'],
    ['an empty type', '{"type":"","cborHex":"00"}', 'has no "type" string'],
    ['no cborHex', '{"type":"Tx ConwayEra"}', 'has no "cborHex" string'],
    ['odd hex', '{"type":"Tx ConwayEra","cborHex":"abc"}', '"cborHex" is not hex: hex string has odd length 3'],
    ['bad hex', '{"type":"Tx ConwayEra","cborHex":"zz"}', '"cborHex" is not hex: invalid hex character'],
    [
      'a numeric description',
      '{"type":"Tx ConwayEra","description":1,"cborHex":"00"}',
      '"description" must be a string'
    ],
    ['deep nesting', '{"type":"x","cborHex":"00","extra":[[[[[[1]]]]]]}', 'nesting deeper than 4 levels']
  ])('rejects %s', (_what, input, message) => {
    expect(() => parseTextEnvelope(input)).toThrow(EnvelopeError)
    expect(() => parseTextEnvelope(input)).toThrow(message)
  })
})
