/**
 * Just enough of the flat encoding of Untyped Plutus Core (plutus-core's `Flat` instances, de Bruijn names) to
 * write the sandbox's stand-in scripts: lambdas, applications, variables and integer, byte-string and unit
 * constants. Hand-written so the sandbox does not depend on an encoder package it does not declare; checked
 * against a program encoded by @blaze-cardano/uplc in the tests.
 */

export type Term =
  | { readonly kind: 'var'; readonly index: number }
  | { readonly kind: 'lam'; readonly body: Term }
  | { readonly kind: 'apply'; readonly fn: Term; readonly arg: Term }
  | { readonly kind: 'integer'; readonly value: bigint }
  | { readonly kind: 'bytes'; readonly value: Uint8Array }
  | { readonly kind: 'unit' }

const TERM_TAG = { var: 0, lam: 2, apply: 3, constant: 4 } as const
const TYPE_TAG = { integer: 0, bytes: 1, unit: 3 } as const
const BLOCK_MAX = 255

class BitWriter {
  private readonly bytes: number[] = []
  private current = 0
  private used = 0

  bit(b: 0 | 1): void {
    this.current = (this.current << 1) | b
    this.used += 1
    if (this.used === 8) {
      this.bytes.push(this.current)
      this.current = 0
      this.used = 0
    }
  }

  bits(value: number, count: number): void {
    for (let i = count - 1; i >= 0; i -= 1) this.bit(((value >> i) & 1) as 0 | 1)
  }

  /** flat's filler: zero bits then a one, ending exactly on a byte boundary (a whole byte when aligned). */
  filler(): void {
    while (this.used !== 7) this.bit(0)
    this.bit(1)
  }

  byte(value: number): void {
    this.bits(value, 8)
  }

  result(): Uint8Array {
    if (this.used !== 0) throw new Error('flat: output does not end on a byte boundary')
    return Uint8Array.from(this.bytes)
  }
}

/** Naturals: 7-bit groups, least significant first, each preceded by 1 when more follow and 0 on the last. */
function natural(w: BitWriter, n: bigint): void {
  if (n < 0n) throw new Error('flat: a natural cannot be negative')
  let rest = n
  while (rest >= 128n) {
    w.bit(1)
    w.bits(Number(rest & 127n), 7)
    rest >>= 7n
  }
  w.bit(0)
  w.bits(Number(rest), 7)
}

function constantType(w: BitWriter, tag: number): void {
  w.bit(1)
  w.bits(tag, 4)
  w.bit(0)
}

function term(w: BitWriter, t: Term): void {
  switch (t.kind) {
    case 'var':
      w.bits(TERM_TAG.var, 4)
      natural(w, BigInt(t.index))
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
      natural(w, t.value >= 0n ? t.value * 2n : -t.value * 2n - 1n) // zig-zag
      return
    case 'bytes':
      w.bits(TERM_TAG.constant, 4)
      constantType(w, TYPE_TAG.bytes)
      w.filler()
      for (let at = 0; at < t.value.length; at += BLOCK_MAX) {
        const block = t.value.subarray(at, at + BLOCK_MAX)
        w.byte(block.length)
        for (const b of block) w.byte(b)
      }
      w.byte(0)
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
  for (const part of version) natural(w, BigInt(part))
  term(w, body)
  w.filler()
  return w.result()
}
