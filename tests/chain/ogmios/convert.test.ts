import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { Utxo } from '../../../src/chain/provider'
import { evaluationFailure, queryFailure, submitFailure } from '../../../src/chain/ogmios/convert-errors'
import {
  decimalRatio,
  eraOfSummaries,
  toEraSummaries,
  toProtocolParameters
} from '../../../src/chain/ogmios/convert-ledger'
import { fromUtxo, toUtxo, toUtxos } from '../../../src/chain/ogmios/convert-utxo'
import { ShapeError } from '../../../src/chain/json-shape'
import { RpcError } from '../../../src/chain/ogmios/rpc-client'
import { bytesToHex, hexToBytes } from '../../../src/core/bytes'
import { JsonDecimal, parseJson, stringifyJson, type JsonObject, type JsonValue } from '../../../src/core/json/lossless'
import { CSL, withCsl } from '../../../src/csl'
import {
  ADDRESS_A,
  ADDRESS_B,
  DATUM_HASH,
  ERA_SUMMARIES,
  INLINE_DATUM,
  KEY_HASH,
  MAINNET_START_MS,
  MAX_QUANTITY,
  PARAMS,
  PLUTUS_V2_CBOR,
  POLICY,
  TX_1,
  TX_2,
  UTXOS,
  utxoFixtures
} from './fixtures'

/** Through text and back, as the values travel. */
function wire(v: JsonValue): JsonValue {
  return parseJson(stringifyJson(v))
}

function without(o: JsonObject, key: string): JsonObject {
  const copy = { ...o }
  delete copy[key]
  return copy
}

describe('protocol parameters', () => {
  test('every field is read exactly, ratios from their "n/d" text and cost models as Int64', () => {
    expect(toProtocolParameters(wire(PARAMS))).toEqual({
      minFeeA: 44n,
      minFeeB: 155381n,
      coinsPerUtxoByte: 4310n,
      maxTxSize: 16384,
      maxValueSize: 5000,
      keyDeposit: 2000000n,
      poolDeposit: 500000000n,
      priceMem: { numerator: 577n, denominator: 10000n },
      priceSteps: { numerator: 721n, denominator: 10000000n },
      minFeeRefScriptCostPerByte: { numerator: 15n, denominator: 1n },
      collateralPercentage: 150,
      maxCollateralInputs: 3,
      maxTxExUnits: { mem: 14000000n, steps: 10000000000n },
      costModels: {
        PlutusV1: [100788n, 420n, 1n, 1n, 1000n, 173n, 0n, 1n],
        PlutusV2: [100788n, 420n, 1n, 1n, 1000n, 173n, 0n, 1n, 1000n, 59957n],
        PlutusV3: [100788n, 420n, 9223372036854775807n, -1n]
      },
      protocolVersion: { major: 10, minor: 0 }
    })
  })

  test('a fractional reference-script fee stays exact; before Conway there is none', () => {
    const fractional = {
      ...PARAMS,
      minFeeReferenceScripts: { range: 25600n, base: new JsonDecimal('44.5'), multiplier: 12n }
    }
    expect(toProtocolParameters(wire(fractional)).minFeeRefScriptCostPerByte).toEqual({
      numerator: 89n,
      denominator: 2n
    })
    const babbage = without(PARAMS, 'minFeeReferenceScripts')
    expect(toProtocolParameters(babbage).minFeeRefScriptCostPerByte).toEqual({ numerator: 0n, denominator: 1n })
  })

  test('decimals become exact ratios', () => {
    expect(decimalRatio(new JsonDecimal('0.0577'), 'x')).toEqual({ numerator: 577n, denominator: 10000n })
    expect(decimalRatio(new JsonDecimal('1.5e-3'), 'x')).toEqual({ numerator: 3n, denominator: 2000n })
    expect(decimalRatio(15n, 'x')).toEqual({ numerator: 15n, denominator: 1n })
  })

  test('a parameter the builders need but the answer lacks is named by its path', () => {
    expect(() => toProtocolParameters(without(PARAMS, 'collateralPercentage'))).toThrow(
      'result.collateralPercentage: expected a value (the field is missing)'
    )
    const badPrice = { ...PARAMS, scriptExecutionPrices: { memory: '577/0', cpu: '721/10000000' } }
    expect(() => toProtocolParameters(badPrice)).toThrow('result.scriptExecutionPrices.memory')
    const lossyFee = { ...PARAMS, minFeeCoefficient: new JsonDecimal('44.1') }
    expect(() => toProtocolParameters(lossyFee)).toThrow('result.minFeeCoefficient: expected an integer')
  })
})

describe('era summaries', () => {
  const eras = toEraSummaries(wire(ERA_SUMMARIES), MAINNET_START_MS)

  test('relative times become POSIX milliseconds and slot lengths are read per era', () => {
    expect(eras).toHaveLength(7)
    expect(eras[0]).toEqual({
      start: { slot: 0n, time: MAINNET_START_MS },
      end: { slot: 4492800n, time: MAINNET_START_MS + 89856000000n },
      slotLength: 20000n
    })
    // Conway began at slot 133660800 on 2024-09-01T21:44:51Z.
    expect(eras[6]!.start).toEqual({ slot: 133660800n, time: BigInt(Date.parse('2024-09-01T21:44:51Z')) })
    expect(eras[6]!.slotLength).toBe(1000n)
  })

  test("the current era keeps Ogmios' end, the node's safe horizon", () => {
    expect(eras[6]!.end).toEqual({ slot: 134524800n, time: MAINNET_START_MS + 219888000000n })
  })

  test('the number of summaries names the era', () => {
    expect(eraOfSummaries(7)).toBe('conway')
    expect(eraOfSummaries(6)).toBe('babbage')
    expect(() => eraOfSummaries(0)).toThrow(ShapeError)
  })

  test('fractional seconds are accepted to the millisecond, not beyond', () => {
    const era = { ...ERA_SUMMARIES[6]!, start: { time: { seconds: new JsonDecimal('1.25') }, slot: 1n, epoch: 0n } }
    expect(toEraSummaries([era], 0n)[0]!.start.time).toBe(1250n)
    const finer = { ...era, start: { time: { seconds: new JsonDecimal('1.0001') }, slot: 1n, epoch: 0n } }
    expect(() => toEraSummaries([finer], 0n)).toThrow('millisecond precision')
  })
})

describe('UTxOs from queryLedgerState/utxo', () => {
  const utxos = toUtxos(wire(UTXOS), 'result')

  test('an ada-only output', () => {
    expect(utxos[0]).toEqual({
      ref: { txId: TX_1, index: 0 },
      address: ADDRESS_A,
      value: { lovelace: 5000000n, assets: {} }
    })
  })

  test('tokens keep quantities beyond 2^53, the empty asset name, inline datum and a Plutus script', () => {
    const u = utxos[1]!
    expect(u.value).toEqual({
      lovelace: 45000000000000000n,
      assets: { [POLICY]: { '': 1n, '4d61726c6f7765': MAX_QUANTITY } }
    })
    expect(u.value.assets[POLICY]!['4d61726c6f7765']).toBe(18446744073709551615n)
    expect(bytesToHex(u.datum!)).toBe(INLINE_DATUM)
    expect(u.datumHash).toBeUndefined()
    expect(u.scriptRef?.language).toBe('PlutusV2')
    expect(bytesToHex(u.scriptRef!.bytes)).toBe(PLUTUS_V2_CBOR)
  })

  test("a native script without Ogmios' cbor is rebuilt to the bytes CSL writes for the same script", () => {
    const u = utxos[2]!
    expect(u.ref).toEqual({ txId: TX_2, index: 7 })
    expect(u.datumHash).toBe(DATUM_HASH)
    expect(u.datum).toBeUndefined()
    const expected = withCsl((scope) => {
      const scripts = scope.own(CSL.NativeScripts.new())
      const pubkey = scope.own(CSL.ScriptPubkey.new(scope.own(CSL.Ed25519KeyHash.from_hex(KEY_HASH))))
      scripts.add(scope.own(CSL.NativeScript.new_script_pubkey(pubkey)))
      const start = scope.own(CSL.TimelockStart.new_timelockstart(scope.own(CSL.BigNum.from_str('100'))))
      scripts.add(scope.own(CSL.NativeScript.new_timelock_start(start)))
      const expiry = scope.own(CSL.TimelockExpiry.new_timelockexpiry(scope.own(CSL.BigNum.from_str('5000000000'))))
      scripts.add(scope.own(CSL.NativeScript.new_timelock_expiry(expiry)))
      return scope.own(CSL.NativeScript.new_script_all(scope.own(CSL.ScriptAll.new(scripts)))).to_hex()
    })
    expect(u.scriptRef?.language).toBe('Native')
    expect(bytesToHex(u.scriptRef!.bytes)).toBe(expected)
  })

  test("Ogmios' own native-script cbor is used as is when present", () => {
    const original = '8200581c' + KEY_HASH
    const withCbor = { ...UTXOS[2], script: { language: 'native', json: { clause: 'any', from: [] }, cbor: original } }
    expect(bytesToHex(toUtxo(wire(withCbor), 'u').scriptRef!.bytes)).toBe(original)
  })

  test('a malformed output is reported with the path of the offending field', () => {
    const cases: [JsonValue, string][] = [
      [{ ...UTXOS[0], value: { ada: { lovelace: '5000000' } } }, 'result[0].value.ada.lovelace: expected an integer'],
      [{ ...UTXOS[0], value: { ada: { lovelace: -1n } } }, 'result[0].value.ada.lovelace: expected a non-negative'],
      [{ ...UTXOS[0], value: { ada: { lovelace: 1n }, abc: { '': 1n } } }, 'result[0].value.abc (policy id)'],
      [{ ...UTXOS[0], index: new JsonDecimal('1.5') }, 'result[0].index: expected an integer'],
      [{ ...UTXOS[0], transaction: { id: 'zz' } }, 'result[0].transaction.id: expected hex'],
      [{ ...UTXOS[1], script: { language: 'plutus:v9', cbor: '00' } }, 'result[0].script.language: expected one of'],
      [without(utxoFixtures()[0]!, 'address'), 'result[0].address: expected a value']
    ]
    for (const [utxo, message] of cases) {
      expect(() => toUtxos(wire([utxo]), 'result')).toThrow(message)
    }
  })
})

const hexBytes = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max }).map(bytesToHex)

const utxoArbitrary: fc.Arbitrary<Utxo> = fc
  .record({
    txId: hexBytes(32, 32),
    index: fc.integer({ min: 0, max: 65535 }),
    address: fc.constantFrom(ADDRESS_A, ADDRESS_B),
    lovelace: fc.bigInt({ min: 0n, max: MAX_QUANTITY }),
    assets: fc.dictionary(hexBytes(28, 28), fc.dictionary(hexBytes(0, 32), fc.bigInt({ min: 1n, max: MAX_QUANTITY })), {
      maxKeys: 3
    }),
    datum: fc.option(
      fc.oneof(
        hexBytes(32, 32).map((h) => ({ datumHash: h })),
        fc.uint8Array({ minLength: 1, maxLength: 64 }).map((d) => ({ datum: d }))
      ),
      { nil: undefined }
    ),
    script: fc.option(
      fc.record({
        language: fc.constantFrom('Native' as const, 'PlutusV1' as const, 'PlutusV2' as const, 'PlutusV3' as const),
        bytes: fc.uint8Array({ minLength: 1, maxLength: 64 })
      }),
      { nil: undefined }
    )
  })
  .map((r) => ({
    ref: { txId: r.txId, index: r.index },
    address: r.address,
    value: { lovelace: r.lovelace, assets: r.assets },
    ...(r.datum ?? {}),
    ...(r.script === undefined ? {} : { scriptRef: r.script })
  }))

describe('UTxOs to evaluateTransaction', () => {
  test('any output survives the trip to Ogmios JSON text and back', () => {
    fc.assert(
      fc.property(utxoArbitrary, (utxo) => {
        expect(toUtxo(wire(fromUtxo(utxo)), 'u')).toEqual(utxo)
      })
    )
  })

  test('a datum-hash output is sent by its hash only, and scripts in their Ogmios notation', () => {
    const utxo: Utxo = {
      ref: { txId: TX_1, index: 3 },
      address: ADDRESS_B,
      value: { lovelace: 2n, assets: { [POLICY]: { '': MAX_QUANTITY } } },
      datumHash: DATUM_HASH,
      datum: hexToBytes(INLINE_DATUM),
      scriptRef: { language: 'PlutusV3', bytes: hexToBytes(PLUTUS_V2_CBOR) }
    }
    expect(stringifyJson(fromUtxo(utxo))).toBe(
      `{"transaction":{"id":"${TX_1}"},"index":3,"address":"${ADDRESS_B}",` +
        `"value":{"ada":{"lovelace":2},"${POLICY}":{"":18446744073709551615}},` +
        `"datumHash":"${DATUM_HASH}","script":{"language":"plutus:v3","cbor":"${PLUTUS_V2_CBOR}"}}`
    )
  })
})

describe('error answers', () => {
  const rpc = (method: string, code: number, message: string, data?: JsonValue) =>
    new RpcError(method, code, message, data)

  test('submission: ledger rejections keep the node’s words and data', () => {
    const data = { unknownOutputReferences: [{ transaction: { id: TX_1 }, index: 0n }] }
    const e = submitFailure(rpc('submitTransaction', 3117, 'The transaction contains unknown UTxO references.', data))
    expect(e.kind).toBe('Rejected')
    expect(e.reason).toBe('The transaction contains unknown UTxO references.')
    expect(e.details).toEqual({ method: 'submitTransaction', code: 3117, data })
    expect(
      submitFailure(rpc('submitTransaction', 3005, 'Failed to submit the transaction in the current era.')).kind
    ).toBe('Rejected')
  })

  test('submission: undecodable bytes are a rejection with the latest era’s reason', () => {
    const data = { babbage: 'babbage says', conway: 'DeserialiseFailure 0 "expected list len"' }
    const e = submitFailure(rpc('submitTransaction', -32602, 'Invalid transaction', data))
    expect(e.kind).toBe('Rejected')
    expect(e.reason).toBe('Invalid transaction (conway: DeserialiseFailure 0 "expected list len")')
  })

  test('evaluation: each failing redeemer is named with its validation error and traces', () => {
    const data = [
      {
        validator: { purpose: 'spend', index: 1n },
        error: {
          code: 3012n,
          message: 'Some of the scripts failed to evaluate to a positive outcome.',
          data: { validationError: 'An error has occurred: error', traces: ['deadline passed', 'PT5'] }
        }
      },
      {
        validator: { purpose: 'publish', index: 0n },
        error: { code: 3011n, message: 'An associated script witness is missing.' }
      }
    ]
    const e = evaluationFailure(
      rpc('evaluateTransaction', 3010, 'Some scripts of the transactions terminated with error(s).', data)
    )
    expect(e.kind).toBe('EvaluationFailed')
    expect(e.reason).toBe(
      'Some scripts of the transactions terminated with error(s). ' +
        'spend #1: Some of the scripts failed to evaluate to a positive outcome. ' +
        '(validation error: An error has occurred: error; traces: deadline passed | PT5). ' +
        'cert #0: An associated script witness is missing.'
    )
    const context = rpc(
      'evaluateTransaction',
      3004,
      'Unable to create the evaluation context from the given transaction.'
    )
    expect(evaluationFailure(context).kind).toBe('EvaluationFailed')
  })

  test('queries: era-boundary and internal errors are transient, anything else is not understood', () => {
    expect(queryFailure(rpc('queryLedgerState/utxo', 2001, 'era mismatch')).kind).toBe('Unavailable')
    expect(queryFailure(rpc('queryLedgerState/utxo', -32603, 'internal')).kind).toBe('Unavailable')
    expect(queryFailure(rpc('queryLedgerState/utxo', -32601, 'Method not found')).kind).toBe('BadResponse')
    expect(submitFailure(rpc('submitTransaction', -32601, 'Method not found')).kind).toBe('BadResponse')
  })
})
