/**
 * Pagination as servant-pagination does it (runtime-api.md §7), over seven confirmed contracts and a contract
 * with four applied transactions: 206 always, Total-Count of the filtered list, Content-Range of the page,
 * Next-Range only on a full page; following Next-Range walks the whole list once; asc/desc, offsets, start
 * values with "#" or "%23", and 416 for an unknown start.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { testWallet } from '../engine/build/support'
import {
  applyConfirmed,
  call,
  createBody,
  createConfirmed,
  expectApiError,
  NOTIFY,
  notifyChain,
  objectOf,
  pct,
  startServer,
  stringOf,
  type Answer,
  type TestServer
} from './support'

const wallets = [testWallet('alice'), testWallet('bob'), testWallet('carol'), testWallet('dave')]

const ids = (a: Answer, key: string): string[] => {
  const results = objectOf(a.json).results
  if (!Array.isArray(results)) throw new Error(a.text)
  return results.map((r) => stringOf(objectOf(objectOf(r).resource)[key], key))
}

let server: TestServer
/** Newest first, as the list answers. */
let contracts: string[] = []
let chain = ''
let transactions: string[] = []

beforeAll(async () => {
  server = await startServer()
  const created: string[] = []
  for (let i = 0; i < 7; i++) {
    const tags = { [`page.${i % 2 === 0 ? 'even' : 'odd'}`]: null }
    created.push(await createConfirmed(server, wallets[i % 4]!, createBody('close', { tags })))
    // One slot per contract, so that "newest first" is well defined.
    server.clock.ms += 2_000n
  }
  contracts = created.reverse()
  chain = await createConfirmed(server, wallets[0]!, createBody(notifyChain(4), { tags: { 'page.chain': null } }))
  contracts.unshift(chain)
  const applied: string[] = []
  for (let i = 0; i < 4; i++) {
    server.clock.ms += 2_000n
    applied.push(
      await applyConfirmed(server, chain, wallets[1]!, { version: 'v1', inputs: [NOTIFY], tags: {}, metadata: {} })
    )
  }
  transactions = applied.reverse()
})
afterAll(async () => {
  await server.close()
})

describe('GET /contracts', () => {
  test('without Range: every contract, newest first, 206, Content-Range, no Next-Range', async () => {
    const a = await call(server, 'GET', '/contracts')
    expect(a.status).toBe(206)
    expect(ids(a, 'contractId')).toEqual(contracts)
    expect(a.headers.get('total-count')).toBe('8')
    expect(a.headers.get('accept-ranges')).toBe('contractId')
    expect(a.headers.get('content-range')).toBe(`contractId ${pct(contracts[0]!)}..${pct(contracts[7]!)}`)
    expect(a.headers.get('next-range')).toBeNull()
  })

  test('limit 3: a full page has Next-Range from its last item with offset 1', async () => {
    const a = await call(server, 'GET', '/contracts', { headers: { range: 'contractId;limit 3' } })
    expect(a.status).toBe(206)
    expect(ids(a, 'contractId')).toEqual(contracts.slice(0, 3))
    expect(a.headers.get('total-count')).toBe('8')
    expect(a.headers.get('content-range')).toBe(`contractId ${pct(contracts[0]!)}..${pct(contracts[2]!)}`)
    expect(a.headers.get('next-range')).toBe(`contractId ${pct(contracts[2]!)};limit 3;offset 1;order desc`)
  })

  /** Follows Next-Range from `range` to the end; returns the pages' ids and the last answer. */
  async function walk(range: string, path = '/contracts', key = 'contractId') {
    const pages: string[][] = []
    let next: string | null = range
    let last: Answer | undefined
    while (next !== null && pages.length < 20) {
      last = await call(server, 'GET', path, { headers: { range: next } })
      expect(last.status).toBe(206)
      pages.push(ids(last, key))
      next = last.headers.get('next-range')
    }
    return { pages, last: last! }
  }

  test.each([
    [1, [1, 1, 1, 1, 1, 1, 1, 1, 0]],
    [3, [3, 3, 2]],
    [4, [4, 4, 0]],
    [8, [8, 0]],
    [100, [8]]
  ])('following Next-Range with limit %i walks the list once (page sizes %j)', async (limit, sizes) => {
    const { pages, last } = await walk(`contractId;limit ${limit}`)
    expect(pages.map((p) => p.length)).toEqual(sizes)
    expect(pages.flat()).toEqual(contracts)
    expect(last.headers.get('next-range')).toBeNull()
    if (sizes.at(-1) === 0) {
      // The page after the last full one is empty: still 206, no Content-Range.
      expect(last.headers.get('content-range')).toBeNull()
      expect(last.headers.get('total-count')).toBe('8')
    }
  })

  test('order asc walks the same list oldest first', async () => {
    const { pages } = await walk('contractId;limit 3;order asc')
    expect(pages.flat()).toEqual([...contracts].reverse())
  })

  test('a start value, with "%23" or a raw "#", is included; offset skips from it', async () => {
    for (const start of [pct(contracts[4]!), contracts[4]!]) {
      const a = await call(server, 'GET', '/contracts', { headers: { range: `contractId ${start};limit 2` } })
      expect(ids(a, 'contractId')).toEqual(contracts.slice(4, 6))
    }
    const skipped = await call(server, 'GET', '/contracts', {
      headers: { range: `contractId ${pct(contracts[4]!)};limit 2;offset 2` }
    })
    expect(ids(skipped, 'contractId')).toEqual(contracts.slice(6, 8))
    const upper = await call(server, 'GET', '/contracts', {
      headers: { range: `contractId ${pct(contracts[4]!.toUpperCase())};limit 1` }
    })
    expect(ids(upper, 'contractId')).toEqual([contracts[4]])
  })

  test('options in any order, spaces around them', async () => {
    const a = await call(server, 'GET', '/contracts', { headers: { range: 'contractId ; order asc ; limit 2' } })
    expect(ids(a, 'contractId')).toEqual([...contracts].reverse().slice(0, 2))
    expect(a.headers.get('next-range')).toBe(`contractId ${pct(contracts[6]!)};limit 2;offset 1;order asc`)
  })

  test('an offset past the end: an empty 206 without Content-Range', async () => {
    const a = await call(server, 'GET', '/contracts', { headers: { range: 'contractId;offset 50' } })
    expect(a.status).toBe(206)
    expect(ids(a, 'contractId')).toEqual([])
    expect(a.headers.get('content-range')).toBeNull()
    expect(a.headers.get('next-range')).toBeNull()
  })

  test('an unknown start is a 416; a start filtered out by the query is too', async () => {
    expectApiError(
      await call(server, 'GET', '/contracts', { headers: { range: `contractId ${'e0'.repeat(32)}%230` } }),
      416,
      'RangeNotSatisfiable'
    )
    expectApiError(
      await call(server, 'GET', '/contracts?tag=page.even', { headers: { range: `contractId ${pct(contracts[2]!)}` } }),
      416,
      'RangeNotSatisfiable'
    )
  })

  test('filters: Total-Count counts the filtered list, Next-Range pages through it', async () => {
    const even = contracts.filter((_, i) => i >= 1 && (7 - i) % 2 === 0)
    const odd = contracts.filter((_, i) => i >= 1 && (7 - i) % 2 === 1)
    const a = await call(server, 'GET', '/contracts?tag=page.even', { headers: { range: 'contractId;limit 2' } })
    expect(a.headers.get('total-count')).toBe(String(even.length))
    const { pages } = await walk('contractId;limit 2', '/contracts?tag=page.even')
    expect(pages.flat()).toEqual(even)
    const both = await call(server, 'GET', '/contracts?tag=page.even&tag=page.odd')
    expect(ids(both, 'contractId')).toEqual(contracts.slice(1))
    expect(ids(await call(server, 'GET', '/contracts?tag=page.odd&tag=page.odd'), 'contractId')).toEqual(odd)
    // The creator's address holds the min-UTxO deposit in the initial state: it is a party of what it created.
    const byAddress = await call(server, 'GET', `/contracts?partyAddress=${wallets[0]!.address}`)
    expect(ids(byAddress, 'contractId')).toEqual([chain, contracts[3], contracts[7]])
    const eitherAddress = await call(
      server,
      'GET',
      `/contracts?partyAddress=${wallets[0]!.address}&partyAddress=${wallets[3]!.address}&tag=page.odd`
    )
    // dave made contract 3 (odd), alice 0 and 4 (even): with the tag, only dave's.
    expect(ids(eitherAddress, 'contractId')).toEqual([contracts[4]])
    expect(ids(await call(server, 'GET', '/contracts?roleCurrency='), 'contractId')).toEqual(contracts)
  })
})

describe('GET /contracts/{id}/transactions', () => {
  const path = () => `/contracts/${pct(chain)}/transactions`

  test('four applications newest first; pages of 3 then 1', async () => {
    const all = await call(server, 'GET', path())
    expect(ids(all, 'transactionId')).toEqual(transactions)
    expect(all.headers.get('accept-ranges')).toBe('transactionId')
    const first = await call(server, 'GET', path(), { headers: { range: 'transactionId;limit 3' } })
    expect(ids(first, 'transactionId')).toEqual(transactions.slice(0, 3))
    expect(first.headers.get('content-range')).toBe(`transactionId ${transactions[0]}..${transactions[2]}`)
    const next = first.headers.get('next-range')
    expect(next).toBe(`transactionId ${transactions[2]};limit 3;offset 1;order desc`)
    const second = await call(server, 'GET', path(), { headers: { range: next! } })
    expect(ids(second, 'transactionId')).toEqual(transactions.slice(3))
    expect(second.headers.get('next-range')).toBeNull()
    expect(second.headers.get('total-count')).toBe('4')
  })

  test('asc from a start value; an unknown start is a 416', async () => {
    const a = await call(server, 'GET', path(), { headers: { range: `transactionId ${transactions[2]};order asc` } })
    expect(ids(a, 'transactionId')).toEqual([transactions[2], transactions[1], transactions[0]])
    expectApiError(
      await call(server, 'GET', path(), { headers: { range: `transactionId ${'e0'.repeat(32)}` } }),
      416,
      'RangeNotSatisfiable'
    )
    // A contract's own creation is no application of it.
    expectApiError(
      await call(server, 'GET', path(), { headers: { range: `transactionId ${chain.slice(0, 64)}` } }),
      416,
      'RangeNotSatisfiable'
    )
  })

  test('a contract without applications: an empty 206', async () => {
    const a = await call(server, 'GET', `/contracts/${pct(contracts[3]!)}/transactions`)
    expect(a.status).toBe(206)
    expect(ids(a, 'transactionId')).toEqual([])
    expect(a.headers.get('total-count')).toBe('0')
  })
})

describe('empty lists', () => {
  test.each([
    ['/withdrawals', 'withdrawalId'],
    ['/payouts', 'payoutId']
  ])('%s: 206, Total-Count 0, no Content-Range or Next-Range', async (path, field) => {
    const a = await call(server, 'GET', path, { headers: { range: `${field};limit 1` } })
    expect(a.status).toBe(206)
    expect(objectOf(a.json).results).toEqual([])
    expect(a.headers.get('total-count')).toBe('0')
    expect(a.headers.get('accept-ranges')).toBe(field)
    expect(a.headers.get('content-range')).toBeNull()
    expect(a.headers.get('next-range')).toBeNull()
  })
})

describe('pages and Total-Count as contracts come, and after a restart', () => {
  test('a new contract is counted and comes first, a page from a start value stays; the same after a restart', async () => {
    const fromStart = `contractId ${pct(contracts[3]!)};limit 3`
    const before = await call(server, 'GET', '/contracts', { headers: { range: fromStart } })
    server.clock.ms += 2_000n
    const added = await createConfirmed(server, wallets[2]!, createBody('close'))
    contracts.unshift(added)
    const first = await call(server, 'GET', '/contracts', { headers: { range: 'contractId;limit 3' } })
    expect(ids(first, 'contractId')).toEqual(contracts.slice(0, 3))
    expect(first.headers.get('total-count')).toBe('9')
    const again = await call(server, 'GET', '/contracts', { headers: { range: fromStart } })
    expect(ids(again, 'contractId')).toEqual(ids(before, 'contractId'))
    expect(again.headers.get('total-count')).toBe('9')

    const { databasePath } = server
    await server.close()
    server = await startServer({ databasePath })
    const whole = await call(server, 'GET', '/contracts')
    expect(ids(whole, 'contractId')).toEqual(contracts)
    expect(whole.headers.get('total-count')).toBe('9')
    const odd = await call(server, 'GET', '/contracts?tag=page.odd')
    expect(odd.headers.get('total-count')).toBe('3')
  })
})
