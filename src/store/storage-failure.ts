/**
 * SQLite's refusals to store: the disk is full, the file cannot be written or read, or another process holds
 * it. better-sqlite3 raises them as errors carrying SQLite's result code; the transaction they interrupt is
 * rolled back whole, so nothing accepted before is lost and nothing half-written stays.
 */
const STORAGE_CODES = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|BUSY|LOCKED|NOMEM|PROTOCOL)(_|$)/

/** SQLite's result code when `e` is one of those refusals. */
export function storageFailureCode(e: unknown): string | undefined {
  if (!(e instanceof Error)) return undefined
  const code = (e as { code?: unknown }).code
  return typeof code === 'string' && STORAGE_CODES.test(code) ? code : undefined
}
