/**
 * `parse` remembered by its text: at most `limit` results, all forgotten at once when full, each frozen since
 * every caller shares it. Failures are not remembered.
 */
export function memoByText<T extends object>(limit: number, parse: (text: string) => T): (text: string) => Readonly<T> {
  const known = new Map<string, Readonly<T>>()
  return (text) => {
    const found = known.get(text)
    if (found !== undefined) return found
    const parsed = Object.freeze(parse(text))
    if (known.size >= limit) known.clear()
    known.set(text, parsed)
    return parsed
  }
}

interface Filed {
  readonly bytes: Uint8Array
  readonly text: string
}

/**
 * Texts kept by the bytes they were made from, filed under a 32-bit fingerprint of those bytes. The caller
 * computes the fingerprint and compares the candidates' bytes itself, so finding a text allocates nothing. At
 * most `limit` texts, all forgotten when full, and at most 4 under one fingerprint: crafted collisions cost a
 * few comparisons, not a long search.
 */
export class TextsByBytes {
  private readonly filed = new Map<number, Filed[]>()
  private size = 0

  constructor(private readonly limit: number) {}

  /** The texts filed under `fingerprint`, to compare. */
  under(fingerprint: number): readonly Filed[] | undefined {
    return this.filed.get(fingerprint)
  }

  keep(fingerprint: number, bytes: Uint8Array, text: string): void {
    if (this.size >= this.limit) {
      this.filed.clear()
      this.size = 0
    }
    const same = this.filed.get(fingerprint)
    if (same === undefined) this.filed.set(fingerprint, [{ bytes, text }])
    else if (same.length < BUCKET_LIMIT) same.push({ bytes, text })
    else return
    this.size += 1
  }
}

const BUCKET_LIMIT = 4
