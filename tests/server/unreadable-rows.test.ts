/**
 * One bad row never breaks a list: rows that do not read back are written straight into the real SQLite file
 * beside a good contract — a record that is not JSON, a build an older version made (a transaction deeper than
 * the reader takes), a datum the Data decoder refuses. Runtime's GET /contracts (paged too) and the desk's
 * contracts.list answer without them, each one's own GET says what is wrong with it, and all of this holds across
 * a restart, which reads every stored contract's parties.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { decodeWire, encodeWire } from '../../src/api/wire'
import type { DeskResult } from '../../src/api/contract'
import { bytesToHex } from '../../src/core/bytes'
import { isJsonObject, parseJson, stringifyJson, type JsonValue } from '../../src/core/json/lossless'
import { decodeContract } from '../../src/core/marlowe/json/decode'
import { encodeMarloweData } from '../../src/core/marlowe/plutus/marlowe-data'
import { emptyState } from '../../src/core/marlowe/types'
import { createDesk, handleDeskCall } from '../../src/engine/desk'
import { Keystore } from '../../src/engine/keys'
import { T0, testWallet } from '../engine/build/support'
import { wireCalls, type WireCalls } from '../engine/desk/support'
import { FAST_SCRYPT } from '../engine/keys/support'
import {
  call,
  createBody,
  createConfirmed,
  expectApiError,
  objectOf,
  startServer,
  stringOf,
  type Answer,
  type TestServer
} from './support'

const alice = testWallet('alice')

/** What is wrong with each bad row, and what reads it back: the header (lists) or the whole contract. */
const BAD = {
  /** Not JSON at all: nothing about the contract reads back, not even its header. */
  record: `${'a1'.repeat(32)}#0`,
  /** An unsigned build whose transaction nests 1,406 levels (what an older version built from 700 negations). */
  transaction: `${'b2'.repeat(32)}#0`,
  /** Confirmed, its header fine, its datum nested deeper than the Data decoder reads. */
  datum: `${'c3'.repeat(32)}#0`
} as const

/** The datum of a Pay of 700 nested negations, and a Conway transaction carrying it in its witness set. */
function deepBuild(): { datum: Uint8Array; tx: Uint8Array } {
  let value: JsonValue = 1n
  for (let i = 0; i < 700; i++) value = { negate: value }
  const party = { address: alice.address }
  const contract = decodeContract({
    from_account: party,
    to: { party },
    token: { currency_symbol: '', token_name: '' },
    pay: value,
    then: 'close'
  })
  const datum = encodeMarloweData({ params: { rolesCurrency: '' }, state: emptyState(T0), contract })
  return { datum, tx: Uint8Array.of(0x84, 0xa0, 0xa1, 0x04, 0xd9, 0x01, 0x02, 0x81, ...datum, 0xf5, 0xf6) }
}

/** The good contract's stored record with its datum replaced. */
function withDatum(details: string, datum: Uint8Array): string {
  const record = parseJson(details)
  if (!isJsonObject(record)) throw new Error('the stored record is not an object')
  return stringifyJson({ ...record, datum: bytesToHex(datum) })
}

interface RawTx {
  tx_id: string
  era: string
  unsigned_tx: Buffer
  reservation_key: string
  created_at: bigint
  block_slot: bigint
  block_no: bigint
  block_hash: string
  details: string
}

/** Writes the bad rows into the store file, as copies of the good contract's creation with one thing broken. */
function insertBadRows(databasePath: string, good: string): void {
  const db = new Database(databasePath)
  db.defaultSafeIntegers(true)
  try {
    const model = db.prepare('SELECT * FROM txs WHERE tx_id = ?').get(good.slice(0, 64)) as RawTx
    const deep = deepBuild()
    const rows = [
      { contractId: BAD.record, confirmed: true, tx: model.unsigned_tx, details: '{"kind":"create","tags":' },
      { contractId: BAD.transaction, confirmed: false, tx: deep.tx, details: withDatum(model.details, deep.datum) },
      {
        contractId: BAD.datum,
        confirmed: true,
        tx: model.unsigned_tx,
        details: withDatum(model.details, Uint8Array.of(...new Uint8Array(1100).fill(0x81), 0))
      }
    ]
    const insertTx = db.prepare(
      `INSERT INTO txs (tx_id, kind, contract_id, era, unsigned_tx, status, reservation_key, created_at,
         block_slot, block_no, block_hash, details)
       VALUES (?, 'create', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
    )
    const insertContract = db.prepare(
      `INSERT INTO contracts (contract_id, create_tx_id, roles_currency, head_tx_id, utxo, created_block_no)
       VALUES (?, ?, '', ?, ?, ?)`
    )
    for (const row of rows) {
      const txId = row.contractId.slice(0, 64)
      const block = row.confirmed ? [model.block_slot, model.block_no, model.block_hash] : [null, null, null]
      insertTx.run(
        txId,
        row.contractId,
        model.era,
        row.tx,
        row.confirmed ? 'confirmed' : 'unsigned',
        model.reservation_key,
        model.created_at + 1n,
        ...block,
        row.details
      )
      insertContract.run(
        row.contractId,
        txId,
        row.confirmed ? txId : null,
        row.confirmed ? row.contractId : null,
        row.confirmed ? model.block_no : null
      )
    }
  } finally {
    db.close()
  }
}

const contractIds = (a: Answer): string[] => {
  const results = objectOf(a.json).results
  if (!Array.isArray(results)) throw new Error(a.text)
  return results.map((r) => stringOf(objectOf(objectOf(r).resource).contractId, 'contractId')).sort()
}

async function deskOn(server: TestServer): Promise<WireCalls> {
  const keystore = await Keystore.open({ dir: mkdtempSync(join(tmpdir(), 'marlowe-desk-keys-')), scrypt: FAST_SCRYPT })
  const desk = createDesk({ service: server.opened.service, store: server.opened.store, keystore, version: 'test' })
  return wireCalls(
    async (name, request) => decodeWire(await handleDeskCall(desk, name, encodeWire(request))) as DeskResult<unknown>
  )
}

let server: TestServer
let good: string

beforeAll(async () => {
  server = await startServer()
  good = await createConfirmed(server, alice, createBody('close'))
  insertBadRows(server.databasePath, good)
})
afterAll(() => server.close())

function listsAnswer(): void {
  test("Runtime's GET /contracts answers with what reads back; paging walks past the rest", async () => {
    const all = await call(server, 'GET', '/contracts')
    expect(all.status).toBe(206)
    // The header of the contract with the bad datum reads back; its state does not (see below).
    expect(contractIds(all)).toEqual([good, BAD.datum].sort())
    expect(all.headers.get('total-count')).toBe('3')
    const seen: string[] = []
    let range: string | null = 'contractId;limit 1'
    for (let pages = 0; range !== null && pages < 5; pages += 1) {
      const page = await call(server, 'GET', '/contracts', { headers: { range } })
      expect(page.status).toBe(206)
      seen.push(...contractIds(page))
      range = page.headers.get('next-range')
    }
    expect(seen.sort()).toEqual([good, BAD.datum].sort())
  })

  test.each(Object.entries(BAD))(
    'GET of the row with a bad %s: 404 ContractUnreadable, saying why',
    async (_what, id) => {
      const answer = await call(server, 'GET', `/contracts/${encodeURIComponent(id)}`)
      const body = expectApiError(answer, 404, 'ContractUnreadable')
      expect(body.message).toMatch(new RegExp(`^contract ${id} is stored but cannot be read back \\(.+\\)`))
      expect(objectOf(body.details)).toMatchObject({ contractId: id, reason: expect.any(String) })
    }
  )

  test('the good contract still reads', async () => {
    expect((await call(server, 'GET', `/contracts/${encodeURIComponent(good)}`)).status).toBe(200)
  })

  test("the desk's contracts.list answers with what reads back; contracts.get of a bad row says why", async () => {
    const desk = await deskOn(server)
    const listed = await desk.ok('contracts.list', {})
    expect(listed.map((c) => c.header.contractId)).toEqual([good])
    const error = await desk.fails('contracts.get', { contractId: BAD.transaction }, 'ContractUnreadable')
    expect(error.message).toContain('CBOR is nested deeper than 1200 levels')
  })
}

describe('with bad rows in the store', listsAnswer)

describe('after a restart on the same file', () => {
  beforeAll(async () => {
    const { databasePath } = server
    await server.close()
    server = await startServer({ databasePath })
  })
  listsAnswer()
})
