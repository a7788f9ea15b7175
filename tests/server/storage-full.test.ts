/**
 * A store that cannot take a write (the disk is full) answers Runtime's error shape, 503 StorageUnavailable,
 * changes nothing, frees the inputs the build had reserved, and works again once there is room. SQLite's own
 * page quota (`max_page_count`) stands in for the full disk: SQLite then fails writes with SQLITE_FULL exactly
 * as when the disk has no room.
 */
import type Database from 'better-sqlite3'
import { afterEach, describe, expect, test } from 'vitest'
import { T0, testWallet } from '../engine/build/support'
import { call, createBody, expectApiError, startServer, storeDump, walletHeaders, type TestServer } from './support'

const alice = testWallet('alice')
/** A contract of its own for each build: the same build made again would revive its stored row in place. */
let builds = 0n
const closeLater = () => ({
  when: [],
  timeout: T0 + 3_600_000n + (builds += 1n),
  timeout_continuation: 'close'
})

let server: TestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** The service's own connection (the quota is per connection). */
function serviceDb(s: TestServer): Database.Database {
  return (s.opened.store as unknown as { readonly db: Database.Database }).db
}

describe('a full store', () => {
  test('a build that cannot be stored is a 503 in Runtime’s shape; nothing changes; room again, it builds', async () => {
    server = await startServer()
    const db = serviceDb(server)
    const build = () =>
      call(server!, 'POST', '/contracts', { body: createBody(closeLater()), headers: walletHeaders(alice) })
    expect((await build()).status).toBe(201)
    const before = storeDump(server.databasePath)

    const pages = db.pragma('page_count', { simple: true }) as number
    db.pragma(`max_page_count = ${pages}`)
    let full = await build()
    // A write may still fit in the last page's free space: fill it until SQLite refuses.
    for (let i = 0; i < 50 && full.status === 201; i += 1) full = await build()
    const body = expectApiError(full, 503, 'StorageUnavailable')
    expect(body.message).toMatch(/^The store is full \(the disk has no room left\): nothing was changed/)
    expect(body.details).toEqual({ sqlite: 'SQLITE_FULL' })

    const during = storeDump(server.databasePath)
    // Whatever fitted before the refusal is whole; the refused build left no row and no reservation behind
    // (each build still unsigned holds its reservation; one superseded by a newer build has given it up).
    const field = (rows: unknown[], key: string) => new Set(rows.map((r) => (r as Record<string, unknown>)[key]))
    const live = during.txs!.filter((t) => (t as { superseded_at: unknown }).superseded_at === null)
    expect(field(live, 'reservation_key')).toEqual(field(during.reservations!, 'key'))
    expect(during.txs!.length).toBeGreaterThanOrEqual(before.txs!.length)

    db.pragma('max_page_count = 1073741823')
    expect((await build()).status).toBe(201)
  })
})
