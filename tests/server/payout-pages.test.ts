/**
 * GET /payouts and GET /withdrawals paged by the store, as servant-pagination pages (runtime-api.md §7), over real
 * HTTP on 127.0.0.1 and a real SQLite file: a roles contract whose four Notify steps each pay role A and role B
 * (eight payouts, two to a transaction), five of them withdrawn in three withdrawals. Runtime's order (the paying
 * transaction's block, its id, then the output index, newest first), Range start values, offsets, both orders,
 * filters with their Total-Count, Next-Range walking each list once, and 416 for a start the list does not hold.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { JsonObject, JsonValue } from '../../src/core/json/lossless'
import { ADA, T0, testWallet, type TestWallet } from '../engine/build/support'
import {
  applyConfirmed,
  call,
  createBody,
  createConfirmed,
  expectApiError,
  NOTIFY,
  objectOf,
  pct,
  resourceOf,
  signAndPut,
  startServer,
  stringOf,
  unsignedTxOf,
  walletHeaders,
  type Answer,
  type TestServer
} from './support'

const STEPS = 4
const DAY = 86_400_000n
const alice = testWallet('alice')
const bob = testWallet('bob')
const carol = testWallet('carol')
const ADA_TOKEN = { currency_symbol: '', token_name: '' }

/** `left` Notify steps, each paying 3 ada from alice's account to role A, then 3 to role B. */
function payingSteps(left: number): JsonValue {
  if (left === 0) return 'close'
  const pay = (role: string, then: JsonValue): JsonValue => ({
    pay: 3n * ADA,
    token: ADA_TOKEN,
    from_account: { address: alice.address },
    to: { party: { role_token: role } },
    then
  })
  return {
    when: [{ case: { notify_if: true }, then: pay('A', pay('B', payingSteps(left - 1))) }],
    timeout: T0 + 10n * DAY,
    timeout_continuation: 'close'
  }
}

const resultsOf = (a: Answer): JsonObject[] => {
  const results = objectOf(a.json).results
  if (!Array.isArray(results)) throw new Error(`no results: ${a.text}`)
  return results.map((r) => objectOf(objectOf(r).resource, 'resource'))
}
const idsOf = (a: Answer, key: string): string[] => resultsOf(a).map((r) => stringOf(r[key], key))
const outputIndex = (ref: string): number => Number(ref.slice(ref.indexOf('#') + 1))

let server: TestServer
let contractId = ''
let rolesCurrency = ''
/** Every payout, newest first as Runtime lists them, with its role. */
let payouts: { id: string; role: string }[] = []
/** The withdrawals, newest first, and the payouts each withdrew. */
const withdrawals: { id: string; payouts: string[] }[] = []

async function withdraw(wallet: TestWallet, ids: readonly string[]): Promise<void> {
  server.clock.ms += 1_000n
  const built = await call(server, 'POST', '/withdrawals', {
    body: { payouts: [...ids] },
    headers: walletHeaders(wallet, { accept: 'application/vendor.iog.marlowe-runtime.withdraw-tx-json' })
  })
  expect(built.status, built.text).toBe(201)
  const id = stringOf(resourceOf(built).withdrawalId, 'withdrawalId')
  await signAndPut(server, `/withdrawals/${id}`, unsignedTxOf(built), [wallet])
  await server.opened.follower.sync()
  withdrawals.unshift({ id, payouts: [...ids] })
}

beforeAll(async () => {
  server = await startServer()
  contractId = await createConfirmed(
    server,
    alice,
    createBody(payingSteps(STEPS), {
      roles: { A: alice.address, B: bob.address },
      accounts: { [alice.address]: { lovelace: 6n * ADA * BigInt(STEPS), tokens: {} } }
    })
  )
  const path = `/contracts/${encodeURIComponent(contractId)}`
  rolesCurrency = stringOf(resourceOf(await call(server, 'GET', path)).roleTokenMintingPolicyId, 'policy')
  const paid: { id: string; role: string }[][] = []
  for (let step = 0; step < STEPS; step++) {
    server.clock.ms += 1_000n
    const txId = await applyConfirmed(server, contractId, carol, {
      version: 'v1',
      inputs: [NOTIFY],
      tags: {},
      metadata: {}
    })
    const view = resourceOf(await call(server, 'GET', `${path}/transactions/${txId}`))
    paid.push(
      (view.payouts as JsonValue[]).map((p) => ({
        id: stringOf(objectOf(p).payoutId, 'payoutId'),
        role: stringOf(objectOf(p).role, 'role')
      }))
    )
  }
  // Newest transaction first, and within one the higher output index first.
  payouts = paid.reverse().flatMap((ofTx) => [...ofTx].sort((a, b) => outputIndex(b.id) - outputIndex(a.id)))
  const ofRole = (role: string, step: number) => payouts.filter((p) => p.role === role).reverse()[step]!.id
  await withdraw(alice, [ofRole('A', 0)])
  await withdraw(bob, [ofRole('B', 0), ofRole('B', 1), ofRole('B', 2)])
  await withdraw(alice, [ofRole('A', 1)])
}, 120_000)
afterAll(async () => {
  await server.close()
})

/** Follows Next-Range from `range` to the end of `path`'s list; the pages' ids. */
async function walk(path: string, range: string, key: string): Promise<string[][]> {
  const pages: string[][] = []
  let next: string | null = range
  while (next !== null) {
    if (pages.length > 20) throw new Error('Next-Range never ends')
    const a = await call(server, 'GET', path, { headers: { range: next } })
    expect(a.status).toBe(206)
    pages.push(idsOf(a, key))
    next = a.headers.get('next-range')
  }
  return pages
}

describe('GET /payouts', () => {
  const ids = () => payouts.map((p) => p.id)
  const withdrawn = () => new Set(withdrawals.flatMap((w) => w.payouts))

  test('the fixture: two payouts to a transaction, five withdrawn in three withdrawals', () => {
    for (let i = 0; i < STEPS; i++) {
      const ofTx = payouts.slice(2 * i, 2 * i + 2)
      expect(ofTx.map((p) => p.role).sort()).toEqual(['A', 'B'])
      expect(ofTx[0]!.id.slice(0, 64)).toBe(ofTx[1]!.id.slice(0, 64))
    }
    expect(withdrawn().size).toBe(5)
  })

  test("without Range: every payout in Runtime's order, Total-Count, Content-Range", async () => {
    const a = await call(server, 'GET', '/payouts')
    expect(a.status).toBe(206)
    expect(idsOf(a, 'payoutId')).toEqual(ids())
    expect(a.headers.get('total-count')).toBe(String(2 * STEPS))
    expect(a.headers.get('accept-ranges')).toBe('payoutId')
    expect(a.headers.get('content-range')).toBe(`payoutId ${pct(ids()[0]!)}..${pct(ids().at(-1)!)}`)
    expect(a.headers.get('next-range')).toBeNull()
    for (const item of resultsOf(a)) {
      const status = withdrawn().has(stringOf(item.payoutId, 'payoutId')) ? 'withdrawn' : 'available'
      expect(item.status).toBe(status)
      expect(item.contractId).toBe(contractId)
    }
  })

  test('following Next-Range walks the list once, in pages of 3 or of 1, newest or oldest first', async () => {
    const pages = await walk('/payouts', 'payoutId;limit 3', 'payoutId')
    expect(pages.map((p) => p.length)).toEqual([3, 3, 2])
    expect(pages.flat()).toEqual(ids())
    const first = await call(server, 'GET', '/payouts', { headers: { range: 'payoutId;limit 3' } })
    expect(first.headers.get('next-range')).toBe(`payoutId ${pct(ids()[2]!)};limit 3;offset 1;order desc`)
    expect((await walk('/payouts', 'payoutId;limit 1', 'payoutId')).flat()).toEqual(ids())
    expect((await walk('/payouts', 'payoutId;limit 5;order asc', 'payoutId')).flat()).toEqual([...ids()].reverse())
  })

  test('a start value (with "#" or "%23") is included and offset skips from it; a foreign one is a 416', async () => {
    for (const start of [ids()[3]!, pct(ids()[3]!)]) {
      const a = await call(server, 'GET', '/payouts', { headers: { range: `payoutId ${start};limit 2;offset 1` } })
      expect(idsOf(a, 'payoutId')).toEqual(ids().slice(4, 6))
    }
    const asc = await call(server, 'GET', '/payouts', { headers: { range: `payoutId ${pct(ids()[3]!)};order asc` } })
    expect(idsOf(asc, 'payoutId')).toEqual(ids().slice(0, 4).reverse())
    expectApiError(
      await call(server, 'GET', '/payouts', { headers: { range: `payoutId ${'e0'.repeat(32)}%231` } }),
      416,
      'RangeNotSatisfiable'
    )
    const available = payouts.filter((p) => !withdrawn().has(p.id))
    const gone = payouts.find((p) => withdrawn().has(p.id))!
    expectApiError(
      await call(server, 'GET', '/payouts?status=available', { headers: { range: `payoutId ${pct(gone.id)}` } }),
      416,
      'RangeNotSatisfiable'
    )
    expect(available).toHaveLength(3)
  })

  test('filters: status, role token, contract, together; Total-Count counts the filtered list', async () => {
    const list = async (query: string) => {
      const a = await call(server, 'GET', `/payouts?${query}`)
      expect(a.status).toBe(206)
      return { ids: idsOf(a, 'payoutId'), total: Number(a.headers.get('total-count')) }
    }
    const expectList = async (query: string, expected: readonly string[]) => {
      expect(await list(query)).toEqual({ ids: expected, total: expected.length })
      expect((await walk(`/payouts?${query}`, 'payoutId;limit 1', 'payoutId')).flat()).toEqual(expected)
    }
    const isWithdrawn = (p: { id: string }) => withdrawn().has(p.id)
    await expectList(
      'status=available',
      ids().filter((id) => !withdrawn().has(id))
    )
    await expectList(
      'status=withdrawn',
      ids().filter((id) => withdrawn().has(id))
    )
    await expectList(
      `roleToken=${rolesCurrency}.A`,
      payouts.filter((p) => p.role === 'A').map((p) => p.id)
    )
    await expectList(
      `roleToken=${rolesCurrency}.A&roleToken=${rolesCurrency}.B&status=available`,
      payouts.filter((p) => !isWithdrawn(p)).map((p) => p.id)
    )
    await expectList(
      `roleToken=${rolesCurrency}.B&status=withdrawn&contractId=${pct(contractId)}`,
      payouts.filter((p) => p.role === 'B' && isWithdrawn(p)).map((p) => p.id)
    )
    await expectList(`contractId=${pct(contractId)}`, ids())
    await expectList(`contractId=${'e0'.repeat(32)}%230`, [])
    await expectList(`roleToken=${rolesCurrency}.C`, [])
  })

  test("the contract's unclaimed payouts are the available ones", async () => {
    const r = resourceOf(await call(server, 'GET', `/contracts/${encodeURIComponent(contractId)}`))
    const unclaimed = (r.unclaimedPayouts as JsonValue[]).map((p) => stringOf(objectOf(p).payoutId, 'payoutId'))
    expect(unclaimed.sort()).toEqual(
      payouts
        .filter((p) => !withdrawn().has(p.id))
        .map((p) => p.id)
        .sort()
    )
  })
})

describe('GET /withdrawals', () => {
  const ids = () => withdrawals.map((w) => w.id)

  test('every confirmed withdrawal newest first; Next-Range walks them in pages of 2, either order', async () => {
    const a = await call(server, 'GET', '/withdrawals')
    expect(a.status).toBe(206)
    expect(idsOf(a, 'withdrawalId')).toEqual(ids())
    expect(a.headers.get('total-count')).toBe('3')
    const pages = await walk('/withdrawals', 'withdrawalId;limit 2', 'withdrawalId')
    expect(pages.map((p) => p.length)).toEqual([2, 1])
    expect(pages.flat()).toEqual(ids())
    expect((await walk('/withdrawals', 'withdrawalId;limit 2;order asc', 'withdrawalId')).flat()).toEqual(
      [...ids()].reverse()
    )
    const from = await call(server, 'GET', '/withdrawals', {
      headers: { range: `withdrawalId ${ids()[1]!};limit 5` }
    })
    expect(idsOf(from, 'withdrawalId')).toEqual(ids().slice(1))
    expectApiError(
      await call(server, 'GET', '/withdrawals', { headers: { range: `withdrawalId ${'e0'.repeat(32)}` } }),
      416,
      'RangeNotSatisfiable'
    )
  })

  test('by role currency: all of them for the contract’s, none (Total-Count 0) for another', async () => {
    const ours = await call(server, 'GET', `/withdrawals?roleCurrency=${rolesCurrency}`, {
      headers: { range: 'withdrawalId;limit 1' }
    })
    expect(idsOf(ours, 'withdrawalId')).toEqual(ids().slice(0, 1))
    expect(ours.headers.get('total-count')).toBe('3')
    expect(
      (await walk(`/withdrawals?roleCurrency=${rolesCurrency}`, 'withdrawalId;limit 1', 'withdrawalId')).flat()
    ).toEqual(ids())
    const other = await call(server, 'GET', `/withdrawals?roleCurrency=${'00'.repeat(28)}`)
    expect(idsOf(other, 'withdrawalId')).toEqual([])
    expect(other.headers.get('total-count')).toBe('0')
  })

  test('each withdrawal lists the payouts it withdrew', async () => {
    for (const w of withdrawals) {
      const a = await call(server, 'GET', `/withdrawals/${w.id}`)
      expect(a.status).toBe(200)
      const listed = (objectOf(a.json).payouts as JsonValue[]).map((p) => stringOf(objectOf(p).payoutId, 'payoutId'))
      expect(listed.sort()).toEqual([...w.payouts].sort())
    }
  })
})
