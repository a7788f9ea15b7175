/**
 * The minimum-UTxO rule charges by the size of an output. The builder computes that size (core outputSize)
 * instead of having CSL encode each output it plans; here the computed size is CSL's own encoding's length for
 * any output the builder can plan, so every amount, and every transaction, stays what CSL would have made.
 */
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { formatShelleyAddress } from '../../../src/core/cardano/address'
import { outputSize } from '../../../src/core/cardano/output-size'
import type { Value } from '../../../src/core/cardano/value'
import { toProtocolParameters, SANDBOX_BLAZE_PARAMS } from '../../../src/chain/sandbox/params'
import { CSL, withCsl } from '../../../src/csl'
import { cslAddress, cslValue } from '../../../src/engine/build/csl-convert'
import { minAdaBound, requiredLovelace, type OutputShape } from '../../../src/engine/build/min-utxo'
import { EngineError } from '../../../src/engine/errors'

const pp = toProtocolParameters(SANDBOX_BLAZE_PARAMS)
const MAX_U64 = 2n ** 64n - 1n

/** The output as CSL writes it: the length the builder computed before. */
function cslSize(shape: OutputShape): number {
  return withCsl((scope) => {
    const out = scope.own(CSL.TransactionOutput.new(cslAddress(scope, shape.address), cslValue(scope, shape.value)))
    if (shape.datumHash !== undefined) out.set_data_hash(scope.own(CSL.DataHash.from_hex(shape.datumHash)))
    return out.to_bytes().length
  })
}

const hex = (bytes: number) =>
  fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => Buffer.from(b).toString('hex'))
const credential = fc.record({ type: fc.constantFrom('key' as const, 'script' as const), hash: hex(28) })
const address = fc
  .record({ mainnet: fc.boolean(), payment: credential, stake: fc.option(credential, { nil: undefined }) })
  .map(({ stake, ...rest }) => formatShelleyAddress(stake === undefined ? rest : { ...rest, stake }))
/** Quantities around every CBOR head width, zero (not written) and the ledger's largest. */
const quantity = fc.oneof(
  fc.constantFrom(0n, 1n, 23n, 24n, 255n, 256n, 65_535n, 65_536n, 2n ** 32n - 1n, 2n ** 32n, MAX_U64),
  fc.bigInt({ min: 0n, max: MAX_U64 })
)
const names = fc.dictionary(
  fc.integer({ min: 0, max: 32 }).chain((n) => hex(n)),
  quantity,
  { maxKeys: 6 }
)
const value: fc.Arbitrary<Value> = fc.record({
  lovelace: quantity,
  assets: fc.dictionary(hex(28), names, { maxKeys: 4 })
})
const shape: fc.Arbitrary<OutputShape> = fc.record(
  { address, value, datumHash: hex(32) },
  { requiredKeys: ['address', 'value'] }
)

describe('the size of a planned output', () => {
  test('is the length of CSL’s encoding of it, for any address, value and datum hash', () => {
    fc.assert(
      fc.property(shape, (s) => {
        expect(outputSize(s)).toBe(cslSize(s))
      }),
      { numRuns: 1000 }
    )
  })

  test('the 40 role-token outputs of the heaviest create, and the worst-case Marlowe output', () => {
    const policy = 'cd'.repeat(28)
    for (let i = 0; i < 40; i += 1) {
      const to = formatShelleyAddress({
        mainnet: false,
        payment: { type: 'key', hash: (i + 1).toString(16).padStart(56, '0') }
      })
      const role = Buffer.from(`role${String(i).padStart(3, '0')}`).toString('hex')
      const s = { address: to, value: { lovelace: 1_000_000n, assets: { [policy]: { [role]: 1n } } } }
      expect(outputSize(s)).toBe(cslSize(s))
    }
  })
})

describe('the minimum lovelace', () => {
  test('is the least amount whose output, written with it, the ledger accepts', () => {
    fc.assert(
      fc.property(shape, (s) => {
        const small = { ...s, value: { ...s.value, lovelace: 0n } }
        const needed = requiredLovelace(pp, small)
        const written = { ...small, value: { ...small.value, lovelace: needed } }
        expect((160n + BigInt(cslSize(written))) * pp.coinsPerUtxoByte).toBeLessThanOrEqual(needed)
      }),
      { numRuns: 300 }
    )
  })

  test('a quantity the ledger cannot hold is the request’s fault, named', () => {
    const to = formatShelleyAddress({ mainnet: false, payment: { type: 'key', hash: 'ab'.repeat(28) } })
    const tooMuch = { address: to, value: { lovelace: 0n, assets: { ['cd'.repeat(28)]: { '': MAX_U64 + 1n } } } }
    expect(() => requiredLovelace(pp, tooMuch)).toThrow(EngineError)
    expect(() => requiredLovelace(pp, tooMuch)).toThrow(`The amount ${MAX_U64 + 1n} does not fit`)
    expect(minAdaBound(pp, { lovelace: 2_000_000n, assets: {} })).toBeGreaterThan(0n)
  })
})
