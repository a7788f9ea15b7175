/**
 * What only a store shared by several processes must do, on a real PostgreSQL server: two stores (two pools, as
 * two replicas would have) on one database never reserve one output twice, even when they ask at the same moment;
 * a restart frees only the reservations no build holds that are too old to be another process's build in the
 * making; one of them leads the follower, and another takes over when its connection is gone; a transaction of
 * `atomically` is all or nothing, and unseen by the other store until it commits; a database written by a newer
 * version is refused unchanged; 64-bit numbers and bytes come back exactly; and `version` never repeats.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { storageError } from '../../src/engine/errors'
import { StoreError } from '../../src/store/database'
import { openPostgresStore, type Store } from '../../src/store/open-store'
import { PG_MIGRATIONS } from '../../src/store/postgres/migrations'
import { usePostgres } from '../support/postgres-server'

const server = usePostgres()

const ref = (n: number) => ({ txId: n.toString(16).padStart(64, '0'), index: n % 3 })
const text = (n: number): string => `${ref(n).txId}#${ref(n).index}`

async function query<R extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<R>(sql, values)).rows
  } finally {
    await client.end()
  }
}

/** Two stores on one fresh database, closed after `work`. */
async function withTwo(work: (a: Store, b: Store, url: string) => Promise<void>): Promise<void> {
  const url = await server.createDatabase()
  const [a, b] = await Promise.all([openPostgresStore(url), openPostgresStore(url)])
  try {
    await work(a, b, url)
  } finally {
    await a.close()
    await b.close()
  }
}

/** A TCP relay to the server on 127.0.0.1, which can be cut (every connection dropped, none taken) and mended. */
class Relay {
  private server: Server | undefined
  private readonly sockets = new Set<Socket>()
  port = 0

  constructor(private readonly target: number) {}

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = createConnection(this.target, '127.0.0.1')
      for (const socket of [client, upstream]) {
        this.sockets.add(socket)
        socket.on('close', () => this.sockets.delete(socket))
        socket.on('error', () => undefined)
      }
      client.pipe(upstream).pipe(client)
    })
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve))
    const address = server.address()
    if (typeof address === 'object' && address !== null) this.port = address.port
    this.server = server
  }

  async cut(): Promise<void> {
    const server = this.server
    this.server = undefined
    for (const socket of this.sockets) socket.destroy()
    await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())))
  }
}

const built = (n: number, createdAt = n) => ({
  txId: n.toString(16).padStart(64, '0'),
  kind: 'withdraw' as const,
  era: 'Conway',
  unsignedTx: Uint8Array.of(0, 255, n % 256, 0),
  reservationKey: `k${n}`,
  createdAt,
  details: '{"n":123456789012345678901234567890}',
  columns: {}
})

describe.skipIf(!server.available)('the PostgreSQL store shared by two processes', () => {
  it('two stores opening one new database at once migrate it once', async () => {
    const url = await server.createDatabase()
    const stores = await Promise.all([0, 1, 2].map(() => openPostgresStore(url)))
    try {
      expect(await query(url, 'SELECT version FROM schema_version')).toEqual([{ version: PG_MIGRATIONS.length }])
    } finally {
      for (const store of stores) await store.close()
    }
  })

  it('reservations conflict across the two; of two asking for overlapping outputs at once, exactly one wins', async () => {
    await withTwo(async (a, b) => {
      expect(
        await a.reservations.tryReserve({ key: 'a', spend: [ref(1)], collateral: [ref(9)], expiresAt: 1000 }, 0)
      ).toEqual({ ok: true })
      expect(
        await b.reservations.tryReserve({ key: 'b', spend: [ref(9), ref(2)], collateral: [], expiresAt: 1000 }, 0)
      ).toEqual({ ok: false, conflicts: [text(9)] })
      expect(
        await b.reservations.tryReserve({ key: 'c', spend: [ref(2)], collateral: [ref(9)], expiresAt: 1000 }, 0)
      ).toEqual({ ok: true })
      for (let round = 0; round < 20; round += 1) {
        const base = 100 + round * 10
        // Overlapping in one output, listed in opposite orders: neither may wait on the other for ever.
        const outcomes = await Promise.all([
          a.reservations.tryReserve(
            { key: `a${round}`, spend: [ref(base), ref(base + 1)], collateral: [], expiresAt: 1000 },
            0
          ),
          b.reservations.tryReserve(
            { key: `b${round}`, spend: [ref(base + 2), ref(base + 1)], collateral: [], expiresAt: 1000 },
            0
          )
        ])
        expect(outcomes.filter((o) => o.ok)).toHaveLength(1)
        expect(outcomes.find((o) => !o.ok)).toEqual({ ok: false, conflicts: [text(base + 1)] })
      }
    })
  })

  it('many reservations from both at once never spend one output twice', async () => {
    await withTwo(async (a, b, url) => {
      // 60 builds wanting 3 of 30 outputs each, half through each store, all at once.
      const wants = Array.from({ length: 60 }, (_, i) => [i % 30, (i * 7 + 3) % 30, (i * 13 + 5) % 30])
      const outcomes = await Promise.all(
        wants.map((outputs, i) =>
          (i % 2 === 0 ? a : b).reservations.tryReserve(
            { key: `r${i}`, spend: outputs.map(ref), collateral: [], expiresAt: 1000 },
            0
          )
        )
      )
      const taken = wants.filter((_, i) => outcomes[i]!.ok).flat()
      expect(taken.length).toBeGreaterThan(0)
      expect(new Set(taken).size).toBe(taken.length)
      const stored = await query<{ ref: string; n: string }>(
        url,
        "SELECT ref, COUNT(*) AS n FROM reservation_refs WHERE mode = 'spend' GROUP BY ref HAVING COUNT(*) > 1"
      )
      expect(stored).toEqual([])
      // Every refusal names an output a granted reservation holds.
      const held = new Set(taken.map(text))
      for (const outcome of outcomes) if (!outcome.ok) for (const c of outcome.conflicts) expect(held.has(c)).toBe(true)
    })
  })

  it('frees on open only the orphaned reservations too old for another process to be storing their build', async () => {
    await withTwo(async (a, b, url) => {
      const reserve = (key: string, n: number) =>
        a.reservations.tryReserve({ key, spend: [ref(n)], collateral: [], expiresAt: Date.now() + 3_600_000 }, 0)
      await reserve('stored', 1)
      await a.records.insertBuilt({ ...built(5), reservationKey: 'stored' })
      await reserve('killed', 2)
      await reserve('being-stored', 3)
      // The killed process reserved two minutes ago and never stored its build; the other reserved just now.
      await query(url, "UPDATE reservations SET reserved_at = now() - interval '2 minutes' WHERE key <> 'being-stored'")
      expect(await b.reservations.releaseOrphans()).toBe(1)
      const keys = await query<{ key: string }>(url, 'SELECT key FROM reservations ORDER BY key')
      expect(keys.map((k) => k.key)).toEqual(['being-stored', 'stored'])
    })
  })

  it('one of them leads the follower; the other takes over once the leader’s connection is gone', async () => {
    await withTwo(async (a, b, url) => {
      expect(await a.tryLeadFollower()).toBe(true)
      expect(await a.tryLeadFollower()).toBe(true)
      expect(await b.tryLeadFollower()).toBe(false)
      // The leader's process dies (its connection ends without a word): the server drops its lock.
      await query(
        url,
        `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()`
      )
      await expect.poll(() => b.tryLeadFollower(), { interval: 50, timeout: 10_000 }).toBe(true)
      expect(await a.tryLeadFollower()).toBe(false)
      await b.close()
      expect(await a.tryLeadFollower()).toBe(true)
    })
  })

  it('atomically: all of its writes or none, and the other store sees them only once committed', async () => {
    await withTwo(async (a, b) => {
      await expect(
        a.records.atomically(async (store) => {
          await store.insertBuilt(built(1))
          expect((await store.tx(built(1).txId))?.status).toBe('unsigned')
          throw new Error('changed my mind')
        })
      ).rejects.toThrow('changed my mind')
      expect(await b.records.tx(built(1).txId)).toBeUndefined()
      let unseen = true
      await a.records.atomically(async (store) => {
        await store.insertBuilt(built(2))
        unseen = (await b.records.tx(built(2).txId)) === undefined
      })
      expect(unseen).toBe(true)
      expect((await b.records.tx(built(2).txId))?.txId).toBe(built(2).txId)
    })
  })

  it('64-bit numbers and bytes come back exactly; lossless JSON text is kept as written', async () => {
    await withTwo(async (a, b) => {
      const huge = { slot: 2n ** 63n - 1n, blockNo: 2n ** 53n + 1n, blockHash: 'ab'.repeat(32) }
      await a.records.insertBuilt(built(3, 2 ** 52 + 1))
      await a.records.confirm(built(3).txId, huge, {})
      await a.records.setChainCursor(huge)
      const row = await b.records.tx(built(3).txId)
      expect(row?.block).toEqual(huge)
      expect(row?.createdAt).toBe(2 ** 52 + 1)
      expect(row?.unsignedTx).toEqual(Uint8Array.of(0, 255, 3, 0))
      expect(row?.details).toBe('{"n":123456789012345678901234567890}')
      expect(await b.records.chainCursor()).toEqual(huge)
      // 2^53 + 1 read as a double would be 2^53, and below itself.
      expect(await b.records.confirmedBlocksBelow(huge.blockNo, 5)).toEqual([])
      expect(await b.records.confirmedBlocksBelow(huge.blockNo + 1n, 5)).toEqual([huge])
    })
  })

  it('answers a new version at every read, since the other store’s writes are unseen', async () => {
    await withTwo(async (a, b) => {
      const first = a.records.version
      await b.records.insertBuilt(built(4))
      const second = a.records.version
      expect(second).not.toBe(first)
      expect(a.records.version).not.toBe(second)
    })
  })

  it('answers StorageUnavailable while the server is out of reach, and works again once it is back', async () => {
    const url = new URL(await server.createDatabase())
    const relay = new Relay(Number(url.port))
    await relay.open()
    url.port = String(relay.port)
    const store = await openPostgresStore(url.toString())
    try {
      await store.records.insertBuilt(built(6))
      expect(await store.tryLeadFollower()).toBe(true)
      await relay.cut()
      const failure: unknown = await store.records.tx(built(6).txId).catch((e: unknown) => e)
      expect(storageError(failure)).toMatchObject({
        kind: 'Unavailable',
        code: 'StorageUnavailable',
        details: { postgres: expect.stringMatching(/^POSTGRES_/) as unknown }
      })
      const reserving = store.reservations.tryReserve({ key: 'r', spend: [ref(1)], collateral: [], expiresAt: 1 }, 0)
      expect(storageError(await reserving.catch((e: unknown) => e))?.code).toBe('StorageUnavailable')
      expect(await store.tryLeadFollower()).toBe(false)
      await relay.open()
      expect((await store.records.tx(built(6).txId))?.status).toBe('unsigned')
      expect(await store.tryLeadFollower()).toBe(true)
    } finally {
      await relay.cut()
      await store.close()
    }
  })

  it('refuses a database written by a newer version, and leaves it as it was', async () => {
    const url = await server.createDatabase()
    await (await openPostgresStore(url)).close()
    await query(url, 'UPDATE schema_version SET version = $1', [PG_MIGRATIONS.length + 1])
    const tables = await query(url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")
    const opening = openPostgresStore(url)
    await expect(opening).rejects.toThrow(StoreError)
    await expect(opening).rejects.toThrow(
      `was written by a newer Marlowe Desk (schema ${PG_MIGRATIONS.length + 1}; this version knows ${PG_MIGRATIONS.length})`
    )
    expect(await query(url, 'SELECT version FROM schema_version')).toEqual([{ version: PG_MIGRATIONS.length + 1 }])
    expect(await query(url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")).toEqual(tables)
  })

  it('says which database it cannot open, without its password', async () => {
    const url = await server.createDatabase()
    const wrong = url.replace('postgres@', 'postgres:secret@').replace(/\/[^/]+$/, '/no_such_database')
    const opening = openPostgresStore(wrong)
    await expect(opening).rejects.toThrow(StoreError)
    await expect(opening).rejects.toThrow(/cannot open the store postgres:\/\/postgres:\*\*\*@.*no_such_database/)
    await expect(opening).rejects.not.toThrow(/secret/)
  })
})
