/**
 * The store's refusals to store: the disk is full, the file cannot be written or read, another process holds
 * it, or the database server cannot be reached. The transaction they interrupt is rolled back whole, so nothing
 * accepted before is lost and nothing half-written stays. better-sqlite3 raises SQLite's as errors carrying its
 * result code; the PostgreSQL store raises a `StorageFailure` (see postgres/session.ts).
 */
const STORAGE_CODES = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|BUSY|LOCKED|NOMEM|PROTOCOL)(_|$)/

/** A store over the network that cannot be used now; `code` names why (`POSTGRES_<SQLSTATE or errno>`). */
export class StorageFailure extends Error {
  constructor(
    message: string,
    readonly code: string
  ) {
    super(message)
    this.name = 'StorageFailure'
  }
}

/** The store's code when `e` is one of those refusals (SQLite's result code, or a StorageFailure's). */
export function storageFailureCode(e: unknown): string | undefined {
  if (e instanceof StorageFailure) return e.code
  if (!(e instanceof Error)) return undefined
  const code = (e as { code?: unknown }).code
  return typeof code === 'string' && STORAGE_CODES.test(code) ? code : undefined
}

/** Whether the store's refusal `code` is a full disk. */
export const isStoreFull = (code: string): boolean => code.startsWith('SQLITE_FULL') || code === 'POSTGRES_53100'
