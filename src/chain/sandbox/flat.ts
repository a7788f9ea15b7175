/**
 * Just enough of the flat encoding of Untyped Plutus Core (plutus-core's `Flat` instances, de Bruijn names) to
 * write the sandbox's stand-in scripts: lambdas, applications, variables and integer, byte-string and unit
 * constants, written with the core's flat bit writer. Hand-written so the sandbox does not depend on an encoder
 * package it does not declare; checked against a program encoded by @blaze-cardano/uplc in the tests.
 */
import { BitWriter } from '../../core/cardano/flat-bits'

export type Term =
  | { readonly kind: 'var'; readonly index: number }
  | { readonly kind: 'lam'; readonly body: Term }
  | { readonly kind: 'apply'; readonly fn: Term; readonly arg: Term }
  | { readonly kind: 'integer'; readonly value: bigint }
  | { readonly kind: 'bytes'; readonly value: Uint8Array }
  | { readonly kind: 'unit' }

const TERM_TAG = { var: 0, lam: 2, apply: 3, constant: 4 } as const
const TYPE_TAG = { integer: 0, bytes: 1, unit: 3 } as const

function constantType(w: BitWriter, tag: number): void {
  w.bit(1)
  w.bits(tag, 4)
  w.bit(0)
}

function term(w: BitWriter, t: Term): void {
  switch (t.kind) {
    case 'var':
      w.bits(TERM_TAG.var, 4)
      w.natural(BigInt(t.index))
      return
    case 'lam':
      w.bits(TERM_TAG.lam, 4)
      term(w, t.body)
      return
    case 'apply':
      w.bits(TERM_TAG.apply, 4)
      term(w, t.fn)
      term(w, t.arg)
      return
    case 'integer':
      w.bits(TERM_TAG.constant, 4)
      constantType(w, TYPE_TAG.integer)
      w.natural(t.value >= 0n ? t.value * 2n : -t.value * 2n - 1n) // zig-zag
      return
    case 'bytes':
      w.bits(TERM_TAG.constant, 4)
      constantType(w, TYPE_TAG.bytes)
      w.byteString(t.value)
      return
    case 'unit':
      w.bits(TERM_TAG.constant, 4)
      constantType(w, TYPE_TAG.unit)
      return
  }
}

/** The flat bytes of a program (version 1.0.0 unless given), padded as the ledger expects. */
export function encodeProgram(body: Term, version: readonly [number, number, number] = [1, 0, 0]): Uint8Array {
  const w = new BitWriter()
  for (const part of version) w.natural(BigInt(part))
  term(w, body)
  w.filler()
  return w.result()
}
