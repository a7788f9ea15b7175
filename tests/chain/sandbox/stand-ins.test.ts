import { UPLCDecoder } from '@blaze-cardano/uplc'
import { Script, PlutusV2Script, HexBlob } from '@blaze-cardano/core'
import { describe, expect, test } from 'vitest'
import type { MarloweValidator } from '../../../src/chain/marlowe-scripts'
import { STAND_IN_VALIDATORS } from '../../../src/chain/sandbox'
import { encodeProgram, type Term } from '../../../src/chain/sandbox/flat'
import { bytesToHex } from '../../../src/core/bytes'
import { MARLOWE_VALIDATOR_HASHES } from '../../../src/core/cardano/review/marlowe-scripts'
import { CSL, withCsl } from '../../../src/csl'

/** The flat program inside a script's CBOR byte string (these are all 24–255 bytes: a two-byte head). */
function flatOf(script: MarloweValidator): string {
  expect(script.bytes[0]).toBe(0x58)
  expect(script.bytes[1]).toBe(script.bytes.length - 2)
  return bytesToHex(script.bytes.subarray(2))
}

const cslHash = (s: MarloweValidator): string =>
  withCsl((scope) => {
    const script = scope.own(CSL.PlutusScript.new_v2(s.bytes))
    expect(script.language_version().kind()).toBe(CSL.LanguageKind.PlutusV2)
    return scope.own(script.hash()).to_hex()
  })

const blazeHash = (s: MarloweValidator): string =>
  Script.newPlutusV2Script(new PlutusV2Script(HexBlob(bytesToHex(s.bytes)))).hash()

describe('flat encoding', () => {
  test('writes the program of the tooling notes byte for byte', () => {
    // (lam d (lam r (lam c [(lam _ (con unit ())) (con integer 1)]))), encoded by @blaze-cardano/uplc.
    const apply: Term = {
      kind: 'apply',
      fn: { kind: 'lam', body: { kind: 'unit' } },
      arg: { kind: 'integer', value: 1n }
    }
    const program = encodeProgram({ kind: 'lam', body: { kind: 'lam', body: { kind: 'lam', body: apply } } })
    expect(bytesToHex(program)).toBe('01000022232499200201')
  })

  test('round-trips through the uplc decoder: integers of any sign and size, long byte strings', () => {
    const bytes = Uint8Array.from({ length: 600 }, (_, i) => i % 251)
    for (const value of [0n, -1n, 63n, -64n, 2n ** 70n, -(3n ** 50n)]) {
      const decoded = UPLCDecoder.decodeFromHex(bytesToHex(encodeProgram({ kind: 'integer', value })))
      expect(decoded).toEqual({ version: '1.0.0', body: { type: 'Constant', valueType: 'Integer', value } })
    }
    const decoded = UPLCDecoder.decodeFromHex(bytesToHex(encodeProgram({ kind: 'bytes', value: bytes }, [1, 1, 0])))
    expect(decoded.version).toBe('1.1.0')
    expect(decoded.body).toMatchObject({ type: 'Constant', valueType: 'ByteString' })
    expect(bytesToHex((decoded.body as { value: Uint8Array }).value)).toBe(bytesToHex(bytes))
  })
})

describe('stand-in scripts', () => {
  test('are Plutus V2 programs that ignore their arguments and return unit', () => {
    for (const script of Object.values(STAND_IN_VALIDATORS)) {
      const { body } = UPLCDecoder.decodeFromHex(flatOf(script))
      expect(body).toMatchObject({
        type: 'Lambda',
        body: {
          type: 'Lambda',
          body: {
            type: 'Lambda',
            body: { type: 'Apply', function: { type: 'Lambda', body: { type: 'Constant', valueType: 'Unit' } } }
          }
        }
      })
    }
  })

  test('hash as CSL and Blaze hash them, and are distinct per role', () => {
    const all = Object.values(STAND_IN_VALIDATORS)
    for (const s of all) {
      expect(s.hash).toBe(cslHash(s))
      expect(s.hash).toBe(blazeHash(s))
    }
    expect(new Set(all.map((s) => s.hash)).size).toBe(all.length)
    // The review's table of every network's validators names the sandbox's by these hashes.
    expect(Object.fromEntries(Object.entries(STAND_IN_VALIDATORS).map(([role, s]) => [role, s.hash]))).toEqual(
      MARLOWE_VALIDATOR_HASHES.sandbox
    )
  })
})
