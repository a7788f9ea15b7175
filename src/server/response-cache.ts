/**
 * Answers of single-resource GETs, kept until the store changes: reading a contract means a few rows, a
 * datum decode and a JSON encode of the whole contract, and clients poll the same ids over and over. Capped by
 * the characters it holds, not by a number of answers: one contract's answer can be a megabyte, and a count of
 * them would let memory grow with the contracts asked about.
 */
const MAX_ENTRIES = 4096
/** Some 16 MiB of JSON (one byte a character, as V8 keeps ASCII strings). */
const DEFAULT_MAX_CHARS = 16 * 1024 * 1024

export class ResponseCache {
  /** In order of last use, oldest first. */
  private readonly entries = new Map<string, { readonly version: number; readonly body: string }>()
  private chars = 0

  constructor(private readonly maxChars = DEFAULT_MAX_CHARS) {}

  /** The body for `key` at `version`, made by `make` unless it is already known. */
  async get(key: string, version: number, make: () => Promise<string>): Promise<string> {
    const hit = this.entries.get(key)
    if (hit !== undefined) {
      this.forget(key, hit.body)
      if (hit.version === version) {
        this.keep(key, hit)
        return hit.body
      }
    }
    const body = await make()
    // An answer larger than the whole cache is not kept: it would push out every other for one reader.
    if (body.length <= this.maxChars) this.keep(key, { version, body })
    return body
  }

  /** Keeps `entry` as the newest, forgetting the least recently used beyond the caps. */
  private keep(key: string, entry: { readonly version: number; readonly body: string }): void {
    this.entries.set(key, entry)
    this.chars += entry.body.length
    for (const [oldest, { body }] of this.entries) {
      if (this.chars <= this.maxChars && this.entries.size <= MAX_ENTRIES) break
      this.forget(oldest, body)
    }
  }

  private forget(key: string, body: string): void {
    this.entries.delete(key)
    this.chars -= body.length
  }
}
