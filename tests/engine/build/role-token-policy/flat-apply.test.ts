/**
 * Applying a Data argument to a flat program, checked against @blaze-cardano/uplc: byte for byte against its
 * `applyParams` (which decodes the whole program and encodes it again), and through its decoder for a program
 * holding every term and constant type a Plutus 1.0.0 program may.
 */
import { HexBlob, PlutusData } from '@blaze-cardano/core'
import { applyParams, UPLCDecoder, UPLCEncoder } from '@blaze-cardano/uplc'
import { describe, expect, test } from 'vitest'
import { STAND_IN_VALIDATORS } from '../../../../src/chain/sandbox'
import { bytesToHex, hexToBytes } from '../../../../src/core/bytes'
import { decodeCbor, encodeHead } from '../../../../src/core/cardano/cbor'
import { constrData, encodePlutusData, type PlutusData as Data } from '../../../../src/core/marlowe/plutus/data'
import { ROLE_TOKENS_PROGRAM } from '../../../../src/engine/build/role-token-policy/compiled'
import { applyDataArgument } from '../../../../src/engine/build/role-token-policy/flat-apply'
import { FlatError } from '../../../../src/core/cardano/flat-bits'

type ParsedProgram = Parameters<UPLCEncoder['encodeProgram']>[0]
type ParsedTerm = ParsedProgram['body']

/** Blaze's application, on a program given as flat bytes (Blaze takes and gives it as a CBOR byte string). */
function blazeApply(program: Uint8Array, argument: Uint8Array): string {
  const script = bytesToHex(new Uint8Array([...encodeHead(2, program.length), ...program]))
  const applied = decodeCbor(
    hexToBytes(applyParams(HexBlob(script), PlutusData.fromCbor(HexBlob(bytesToHex(argument)))))
  ).item
  if (applied.kind !== 'bytes') throw new Error(`Blaze gave a CBOR ${applied.kind}`)
  return bytesToHex(applied.value)
}

const roleTokens = hexToBytes(ROLE_TOKENS_PROGRAM)
/** A stand-in validator: a small program with a byte-string constant, so a filler that moves. */
const standIn = STAND_IN_VALIDATORS.semantics.bytes.subarray(2)

const name = (i: number): Uint8Array => Uint8Array.from({ length: 32 }, (_, j) => (i * 7 + j) % 256)
const ARGUMENTS: Readonly<Record<string, Data>> = {
  'an integer': 42n,
  'the policy parameters': {
    list: [constrData(0, [constrData(0, [new Uint8Array(32).fill(0xab)]), 3n]), { map: [[new Uint8Array(), 1n]] }]
  },
  // Well past one 255-byte flat block, and byte strings past CBOR's 64-byte chunks.
  'forty 32-byte names and a long byte string': {
    list: [
      new Uint8Array(300).fill(7),
      { map: Array.from({ length: 40 }, (_, i) => [name(i), BigInt(i + 1)] as const) }
    ]
  }
}

describe('applyDataArgument', () => {
  for (const [label, argument] of Object.entries(ARGUMENTS)) {
    test(`is Blaze's applyParams byte for byte: ${label}`, () => {
      const cbor = encodePlutusData(argument)
      for (const program of [roleTokens, standIn]) {
        expect(bytesToHex(applyDataArgument(program, cbor))).toBe(blazeApply(program, cbor))
      }
    })
  }

  test('reads every term and constant type of a Plutus 1.0.0 program', () => {
    const constants: ParsedTerm[] = [
      { type: 'Constant', valueType: 'Integer', value: -(2n ** 70n) },
      { type: 'Constant', valueType: 'ByteString', value: new Uint8Array(600).fill(1) },
      { type: 'Constant', valueType: 'String', value: new TextEncoder().encode('role') },
      // Blaze's constants all take a Data-typed value; it writes none for unit.
      { type: 'Constant', valueType: 'Unit', value: 0n },
      { type: 'Constant', valueType: 'Bool', value: { constructor: 1n, fields: { items: [] } } },
      { type: 'Constant', valueType: 'Data', value: PlutusData.fromCbor(HexBlob('d8799f01ff')).toCore() },
      { type: 'Constant', valueType: { list: 'Integer' }, value: { items: [1n, 2n, 3n] } },
      {
        type: 'Constant',
        valueType: { pair: ['Integer', { list: 'ByteString' }] },
        value: { items: [5n, { items: [new Uint8Array(3)] }] }
      }
    ]
    let body: ParsedTerm = { type: 'Error' }
    for (const argument of constants) {
      const fn: ParsedTerm = { type: 'Lambda', name: 0n, body: { type: 'Force', term: { type: 'Delay', term: body } } }
      body = { type: 'Apply', function: fn, argument }
    }
    const call: ParsedTerm = {
      type: 'Apply',
      function: { type: 'Builtin', function: 'addInteger' },
      argument: { type: 'Var', name: 1n }
    }
    const program: ParsedProgram = {
      version: '1.0.0',
      body: { type: 'Lambda', name: 0n, body: { type: 'Apply', function: call, argument: body } }
    }
    const flat = new UPLCEncoder().encodeProgram(program)
    const original = UPLCDecoder.decodeFromHex(bytesToHex(flat))

    const applied = UPLCDecoder.decodeFromHex(bytesToHex(applyDataArgument(flat, encodePlutusData(7n))))
    expect(applied).toEqual({
      version: '1.0.0',
      body: { type: 'Apply', function: original.body, argument: { type: 'Constant', valueType: 'Data', value: 7n } }
    })
  })

  test('refuses what is not one whole Plutus 1.0.0 program', () => {
    const argument = encodePlutusData(0n)
    expect(() => applyDataArgument(roleTokens.subarray(0, roleTokens.length - 3), argument)).toThrow(FlatError)
    expect(() => applyDataArgument(new Uint8Array([...roleTokens, 0x01]), argument)).toThrow(/bytes left/)
    const v110 = new Uint8Array(roleTokens)
    v110[1] = 1
    expect(() => applyDataArgument(v110, argument)).toThrow(/version 1\.1\.0/)
  })
})
