/**
 * The bit streams of Untyped Plutus Core's flat encoding, used wherever the project writes or rewrites a
 * program (the sandbox's stand-ins, the role-token policy's parameters): a reader that remembers where each
 * filler was, and a writer that can also copy a stretch of another stream, writing its fillers afresh for where
 * they now land.
 */

const BLOCK_MAX = 255

export class FlatError extends Error {}

export class BitReader {
  private at = 0
  /** `[start, end)` of every filler read, in order. */
  readonly fillers: [number, number][] = []

  constructor(private readonly bytes: Uint8Array) {}

  get position(): number {
    return this.at
  }

  bit(): 0 | 1 {
    const byte = this.bytes[this.at >> 3]
    if (byte === undefined) throw new FlatError('flat: the program ends inside a term')
    const b = (byte >> (7 - (this.at & 7))) & 1
    this.at += 1
    return b as 0 | 1
  }

  bits(count: number): number {
    let v = 0
    for (let i = 0; i < count; i += 1) v = (v << 1) | this.bit()
    return v
  }

  /** Zero bits then a one, ending on a byte boundary. */
  filler(): void {
    const start = this.at
    while (this.bit() === 0) {
      if ((this.at & 7) === 0) throw new FlatError('flat: a filler without its closing bit')
    }
    if ((this.at & 7) !== 0) throw new FlatError('flat: a filler that does not end on a byte boundary')
    this.fillers.push([start, this.at])
  }

  /** A natural: 7-bit groups, least significant first, each after a bit saying whether another follows. */
  natural(): bigint {
    let n = 0n
    let shift = 0n
    for (;;) {
      const more = this.bit()
      n |= BigInt(this.bits(7)) << shift
      shift += 7n
      if (more === 0) return n
    }
  }

  /** Skips a byte string: a filler, then blocks of at most 255 bytes, each after its length, then a 0. */
  byteString(): void {
    this.filler()
    for (let length = this.bits(8); length > 0; length = this.bits(8)) this.at += length * 8
  }

  get atEnd(): boolean {
    return this.at === this.bytes.length * 8
  }
}

export class BitWriter {
  private readonly out: number[] = []
  private current = 0
  private used = 0

  bit(b: number): void {
    this.current = (this.current << 1) | (b & 1)
    this.used += 1
    if (this.used === 8) {
      this.out.push(this.current)
      this.current = 0
      this.used = 0
    }
  }

  bits(value: number, count: number): void {
    for (let i = count - 1; i >= 0; i -= 1) this.bit((value >> i) & 1)
  }

  /** A natural: 7-bit groups, least significant first, each after a bit saying whether another follows. */
  natural(n: bigint): void {
    if (n < 0n) throw new FlatError('flat: a natural cannot be negative')
    let rest = n
    do {
      const group = Number(rest & 127n)
      rest >>= 7n
      this.bit(rest > 0n ? 1 : 0)
      this.bits(group, 7)
    } while (rest > 0n)
  }

  /** Bits `[from, to)` of `bytes`, each filler in `fillers` written afresh for where it now lands. */
  copy(bytes: Uint8Array, from: number, to: number, fillers: readonly (readonly [number, number])[]): void {
    let at = from
    for (const [start, end] of fillers) {
      for (; at < start; at += 1) this.bit(bytes[at >> 3]! >> (7 - (at & 7)))
      this.filler()
      at = end
    }
    for (; at < to; at += 1) this.bit(bytes[at >> 3]! >> (7 - (at & 7)))
  }

  /** Zero bits then a one, ending exactly on a byte boundary (a whole byte when aligned). */
  filler(): void {
    while (this.used !== 7) this.bit(0)
    this.bit(1)
  }

  /** A byte string: a filler, then blocks of at most 255 bytes, each after its length, then a 0. */
  byteString(content: Uint8Array): void {
    this.filler()
    for (let at = 0; at < content.length; at += BLOCK_MAX) {
      const block = content.subarray(at, at + BLOCK_MAX)
      this.bits(block.length, 8)
      for (const b of block) this.bits(b, 8)
    }
    this.bits(0, 8)
  }

  result(): Uint8Array {
    if (this.used !== 0) throw new FlatError('flat: output does not end on a byte boundary')
    return Uint8Array.from(this.out)
  }
}
