import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { sandboxWallet, SandboxProvider } from '../../src/chain/sandbox'
import { MarloweTxBuilder, type InputReservations } from '../../src/engine/build'
import { openDatabase, StoreError } from '../../src/store/database'
import { SqliteGate } from '../../src/store/sqlite-gate'
import { MIGRATIONS } from '../../src/store/migrations'
import { SqliteInputReservations } from '../../src/store/reservations'
import { storeBackends } from './backends'

const file = (): string => join(mkdtempSync(join(tmpdir(), 'marlowe-desk-store-')), 'store.sqlite')
const ref = (n: number) => ({ txId: n.toString(16).padStart(64, '0'), index: n % 3 })
const text = (n: number): string => `${ref(n).txId}#${ref(n).index}`

describe.each(storeBackends())('input reservations in $name', ({ available, fresh }) => {
  it.skipIf(!available)(
    'is what the builder takes: a build’s inputs are held in the store, for every other connection',
    async () => {
      const db = await fresh()
      const sandbox = SandboxProvider.open({ clockTickMs: false })
      try {
        const reservations: InputReservations = (await db.open()).reservations
        const builder = new MarloweTxBuilder({ provider: sandbox, reservations })
        const built = await builder.create(
          { changeAddress: sandboxWallet('alice').address },
          { contract: { type: 'Close' } }
        )
        const spent = built.spent.map((r) => `${r.txId}#${r.index}`)
        expect(spent.length).toBeGreaterThan(0)
        const other = (await db.open()).reservations
        const attempt = await other.tryReserve({ key: 'other', spend: built.spent, collateral: [], expiresAt: 1 }, 0)
        expect(attempt.ok).toBe(false)
        expect(attempt.ok ? [] : [...attempt.conflicts].sort()).toEqual([...spent].sort())
      } finally {
        await sandbox.close()
      }
    }
  )

  it.skipIf(!available)(
    'refuses inputs another pending build spends or uses as collateral; shares collateral',
    async () => {
      const r = (await (await fresh()).open()).reservations
      expect(
        await r.tryReserve({ key: 'a', spend: [ref(1), ref(2)], collateral: [ref(9)], expiresAt: 1000 }, 0)
      ).toEqual({ ok: true })
      expect(await r.tryReserve({ key: 'b', spend: [ref(2), ref(3)], collateral: [], expiresAt: 1000 }, 0)).toEqual({
        ok: false,
        conflicts: [text(2)]
      })
      expect(await r.tryReserve({ key: 'c', spend: [ref(9)], collateral: [], expiresAt: 1000 }, 0)).toEqual({
        ok: false,
        conflicts: [text(9)]
      })
      expect(await r.tryReserve({ key: 'd', spend: [ref(4)], collateral: [ref(1)], expiresAt: 1000 }, 0)).toEqual({
        ok: false,
        conflicts: [text(1)]
      })
      expect(await r.tryReserve({ key: 'e', spend: [ref(5)], collateral: [ref(9)], expiresAt: 1000 }, 0)).toEqual({
        ok: true
      })
      const held = await r.reserved(0)
      expect([...held.spent].sort()).toEqual([text(1), text(2), text(5)].sort())
      expect([...held.collateral]).toEqual([text(9)])
    }
  )

  it.skipIf(!available)('lets reservations expire and be released', async () => {
    const r = (await (await fresh()).open()).reservations
    await r.tryReserve({ key: 'a', spend: [ref(1)], collateral: [], expiresAt: 100 }, 0)
    await r.tryReserve({ key: 'b', spend: [ref(2)], collateral: [], expiresAt: 500 }, 0)
    expect((await r.reserved(100)).spent).toEqual(new Set([text(2)]))
    expect(await r.tryReserve({ key: 'c', spend: [ref(1)], collateral: [], expiresAt: 900 }, 100)).toEqual({ ok: true })
    await r.release('b')
    expect((await r.reserved(100)).spent).toEqual(new Set([text(1)]))
  })

  it.skipIf(!available)('holds across a restart and between two connections to one database', async () => {
    const db = await fresh()
    const first = await db.open()
    await first.reservations.tryReserve({ key: 'a', spend: [ref(1)], collateral: [], expiresAt: 1000 }, 0)
    const second = (await db.open()).reservations
    expect(await second.tryReserve({ key: 'b', spend: [ref(1)], collateral: [], expiresAt: 1000 }, 0)).toEqual({
      ok: false,
      conflicts: [text(1)]
    })
    await first.close()
    expect((await (await db.open()).reservations.reserved(0)).spent).toEqual(new Set([text(1)]))
  })

  it.skipIf(!available)('two builders sharing one store never pick the same input', async () => {
    const db = await fresh()
    const sandbox = SandboxProvider.open({ clockTickMs: false })
    try {
      // Two processes' worth of builders: separate connections, one database.
      const builders = await Promise.all(
        [0, 1].map(
          async () => new MarloweTxBuilder({ provider: sandbox, reservations: (await db.open()).reservations })
        )
      )
      const alice = sandboxWallet('alice').address
      const builds = await Promise.all(
        [0, 1, 2, 3].map((i) => builders[i % 2]!.create({ changeAddress: alice }, { contract: { type: 'Close' } }))
      )
      const spent = builds.flatMap((b) => b.spent.map((r) => `${r.txId}#${r.index}`))
      expect(spent).toHaveLength(4)
      expect(new Set(spent).size).toBe(4)
    } finally {
      await sandbox.close()
    }
  })
})

describe('SqliteInputReservations', () => {
  it('leaves the store syncing every other commit, whether a reservation is taken, refused or fails', async () => {
    // Reservations commit without a sync of their own (the build stored next syncs them too): the connection
    // must be back at FULL for that build, whatever happened.
    const db = openDatabase(file())
    const r = new SqliteInputReservations(new SqliteGate(db))
    const level = (): unknown => db.pragma('synchronous', { simple: true })
    const reserve = (key: string, spend: number) =>
      r.tryReserve({ key, spend: [ref(spend)], collateral: [], expiresAt: 1000 }, 0)
    expect(level()).toBe(2)
    expect(await reserve('a', 1)).toEqual({ ok: true })
    expect(level()).toBe(2)
    expect(await reserve('b', 1)).toEqual({ ok: false, conflicts: [text(1)] })
    expect(level()).toBe(2)
    await expect(reserve('a', 2)).rejects.toThrow(/UNIQUE/)
    expect(level()).toBe(2)
  })
})

describe('openDatabase', () => {
  it('migrates a new file to the latest schema in WAL mode', () => {
    const db = openDatabase(file())
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length)
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
  })

  it('refuses a file from a newer version and leaves it as it was', () => {
    const path = file()
    const db = new Database(path)
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`)
    db.close()
    const before = readFileSync(path)
    expect(() => openDatabase(path)).toThrow(StoreError)
    expect(() => openDatabase(path)).toThrow('was written by a newer Marlowe Desk')
    expect(readFileSync(path).equals(before)).toBe(true)
  })

  it('refuses a file that is not a database, without overwriting it', () => {
    const path = file()
    writeFileSync(path, 'these are my notes, not a database'.repeat(200))
    const before = readFileSync(path)
    expect(() => openDatabase(path)).toThrow(/cannot open the store .*: file is not a database/)
    expect(readFileSync(path).equals(before)).toBe(true)
  })
})
