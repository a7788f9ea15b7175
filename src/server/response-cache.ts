/**
 * Answers of single-resource GETs, kept until the store changes: reading a contract means a few rows, a
 * datum decode and a JSON encode of the whole contract, and clients poll the same ids over and over.
 */
const MAX_ENTRIES = 4096

export class ResponseCache {
  private readonly entries = new Map<string, { readonly version: number; readonly body: string }>()

  /** The body for `key` at `version`, made by `make` unless it is already known. */
  get(key: string, version: number, make: () => string): string {
    const hit = this.entries.get(key)
    if (hit !== undefined && hit.version === version) return hit.body
    const body = make()
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear()
    this.entries.set(key, { version, body })
    return body
  }
}
