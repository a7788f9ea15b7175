/**
 * One contract with a long history, over real HTTP on 127.0.0.1 and a real SQLite file: a chain of 200 Notify
 * steps applied one transaction at a time. Paging GET /contracts/{id}/transactions with Range and Next-Range walks
 * every application exactly once, in either order and from any start; every transaction's own view says what
 * that transaction did (the contract and state it spent and left, its neighbours, its semantics), as the store
 * keeps it per transaction rather than by reading the rest of the history.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { JsonObject, JsonValue } from '../../src/core/json/lossless'
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
  startServer,
  resourceOf,
  stringOf,
  type Answer,
  type TestServer
} from './support'

const STEPS = 200
const alice = testWallet('alice')
const bob = testWallet('bob')
const linksOf = (a: Answer): JsonObject => objectOf(objectOf(a.json).links, 'links')
const resultsOf = (a: Answer): JsonObject[] => {
  const results = objectOf(a.json).results
  if (!Array.isArray(results)) throw new Error(`no results: ${a.text}`)
  return results.map((r) => objectOf(objectOf(r).resource, 'resource'))
}
const idsOf = (a: Answer): string[] => resultsOf(a).map((r) => stringOf(r.transactionId, 'transactionId'))

let server: TestServer
let contractId = ''
let path = ''
/** The applications, oldest first. */
const applied: string[] = []

beforeAll(async () => {
  server = await startServer()
  contractId = await createConfirmed(server, alice, createBody(notifyChain(STEPS)))
  path = `/contracts/${encodeURIComponent(contractId)}`
  for (let step = 0; step < STEPS; step++) {
    server.clock.ms += 1_000n
    applied.push(
      await applyConfirmed(server, contractId, bob, {
        version: 'v1',
        inputs: [NOTIFY],
        tags: { [`step.${step}`]: null },
        metadata: {}
      })
    )
  }
}, 600_000)
afterAll(async () => {
  await server.close()
})

/** Follows Next-Range from `range` to the end; the pages' ids, each page's answer checked on the way. */
async function walk(range: string): Promise<string[][]> {
  const pages: string[][] = []
  let next: string | null = range
  while (next !== null) {
    if (pages.length > STEPS + 1) throw new Error('Next-Range never ends')
    const a = await call(server, 'GET', `${path}/transactions`, { headers: { range: next } })
    expect(a.status).toBe(206)
    expect(a.headers.get('total-count')).toBe(String(STEPS))
    pages.push(idsOf(a))
    next = a.headers.get('next-range')
  }
  return pages
}

describe(`GET /contracts/{id}/transactions over ${STEPS} applications`, () => {
  const newestFirst = () => [...applied].reverse()

  test('without Range: the first 100, newest first, and a Next-Range to the rest', async () => {
    const a = await call(server, 'GET', `${path}/transactions`)
    expect(a.status).toBe(206)
    expect(idsOf(a)).toEqual(newestFirst().slice(0, 100))
    expect(a.headers.get('total-count')).toBe(String(STEPS))
    expect(a.headers.get('next-range')).toBe(`transactionId ${applied[100]};limit 100;offset 1;order desc`)
  })

  test('following Next-Range with limit 7 walks every application once, newest first', async () => {
    const pages = await walk('transactionId;limit 7')
    expect(pages.map((p) => p.length)).toEqual([...Array<number>(28).fill(7), 4])
    expect(pages.flat()).toEqual(newestFirst())
  })

  test('order asc walks them oldest first; a full last page is followed by an empty one', async () => {
    const pages = await walk('transactionId;limit 50;order asc')
    expect(pages.map((p) => p.length)).toEqual([50, 50, 50, 50, 0])
    expect(pages.flat()).toEqual(applied)
  })

  test('a start value in the middle is included, offset skips from it, in either order', async () => {
    const start = applied[120]!
    const desc = await call(server, 'GET', `${path}/transactions`, {
      headers: { range: `transactionId ${start};limit 5;offset 2` }
    })
    expect(idsOf(desc)).toEqual([applied[118], applied[117], applied[116], applied[115], applied[114]])
    expect(desc.headers.get('content-range')).toBe(`transactionId ${applied[118]}..${applied[114]}`)
    const asc = await call(server, 'GET', `${path}/transactions`, {
      headers: { range: `transactionId ${start};limit 3;order asc` }
    })
    expect(idsOf(asc)).toEqual(applied.slice(120, 123))
    expectApiError(
      await call(server, 'GET', `${path}/transactions`, { headers: { range: `transactionId ${'e0'.repeat(32)}` } }),
      416,
      'RangeNotSatisfiable'
    )
  })

  test('each header: its own tags, status and block, and the UTxO it left (none for the last)', async () => {
    const all = resultsOf(
      await call(server, 'GET', `${path}/transactions`, {
        headers: { range: `transactionId;limit ${STEPS};order asc` }
      })
    )
    expect(all).toHaveLength(STEPS)
    let previousBlock = -1n
    for (const [step, header] of all.entries()) {
      expect(header.transactionId).toBe(applied[step])
      expect(header.contractId).toBe(contractId)
      expect(header.tags).toEqual({ [`step.${step}`]: null })
      expect(header.metadata).toEqual({})
      expect(header.status).toBe('confirmed')
      const blockNo = objectOf(header.block, 'block').blockNo as bigint
      expect(blockNo).toBeGreaterThan(previousBlock)
      previousBlock = blockNo
      expect(header.utxo).toBe(step === STEPS - 1 ? null : `${applied[step]}#0`)
    }
  })
})

describe(`each of the ${STEPS} transactions' own view`, () => {
  test('spends what the one before left and leaves what the one after spends, each step one Notify', async () => {
    let previousOutputState: JsonValue | undefined
    for (const [step, txId] of applied.entries()) {
      const a = await call(server, 'GET', `${path}/transactions/${txId}`)
      expect(a.status, a.text).toBe(200)
      const r = resourceOf(a)
      const last = step === STEPS - 1
      expect(r).toMatchObject({
        contractId,
        transactionId: txId,
        status: 'confirmed',
        tags: { [`step.${step}`]: null },
        inputUtxo: step === 0 ? contractId : `${applied[step - 1]}#0`,
        inputContract: notifyChain(STEPS - step),
        inputs: [NOTIFY],
        outputUtxo: last ? null : `${txId}#0`,
        outputContract: last ? null : notifyChain(STEPS - step - 1),
        payouts: [],
        consumingTx: last ? null : applied[step + 1]
      })
      if (previousOutputState !== undefined) expect(r.inputState).toEqual(previousOutputState)
      const semantics = objectOf(r.reconstructedSemanticOutput, 'reconstructedSemanticOutput')
      expect(semantics.contract).toEqual(notifyChain(STEPS - step - 1))
      // Only the close pays anything: the min-UTxO deposit back to its owner.
      if (!last) expect(semantics.payments).toEqual([])
      if (!last) expect(r.outputState).toEqual(semantics.state)
      previousOutputState = r.outputState ?? undefined
      const links: JsonObject = {}
      if (step > 0) links.previous = `contracts/${contractId.replace('#', '%23')}/transactions/${applied[step - 1]}`
      if (!last) links.next = `contracts/${contractId.replace('#', '%23')}/transactions/${applied[step + 1]}`
      expect(linksOf(a)).toEqual(links)
    }
  })

  test('the contract itself: closed, its initial contract the whole chain', async () => {
    const r = resourceOf(await call(server, 'GET', path))
    expect(r).toMatchObject({ initialContract: notifyChain(STEPS), currentContract: null, state: null, utxo: null })
  })
})
