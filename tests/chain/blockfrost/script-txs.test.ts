/**
 * The Blockfrost chain index (`scriptTransactions`) against a local Blockfrost over real HTTP: listings merged
 * across addresses and pages, whole blocks, the page's `until`, rollbacks, and a peer that goes away, is slow,
 * rate-limits or answers nonsense.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import type { BlockPoint, ChainTx, ScriptTxPage, ScriptTxQuery } from '../../../src/chain/provider'
import { bytesToHex } from '../../../src/core/bytes'
import { formatShelleyAddress } from '../../../src/core/cardano/address'
import { sampleTx } from '../submit-api/peer'
import { chainFailure } from '../support/failure'
import { provider } from './fixtures'
import { BlockfrostPeer } from './peer'
import { txIdOf, type PeerBlock, type TxSpec } from './peer-chain'

const SEMANTICS = 'a7'.repeat(28)
const PAYOUT = 'b8'.repeat(28)
const scriptAddress = (hash: string): string =>
  formatShelleyAddress({ mainnet: false, payment: { type: 'script', hash } })
const SEMANTICS_ADDR = scriptAddress(SEMANTICS)
const PAYOUT_ADDR = scriptAddress(PAYOUT)
/** The semantics script with a stake part: a different address, which this adapter does not ask about. */
const STAKED_ADDR = formatShelleyAddress({
  mainnet: false,
  payment: { type: 'script', hash: SEMANTICS },
  stake: { type: 'key', hash: 'c9'.repeat(28) }
})
const WALLET_ADDR = formatShelleyAddress({ mainnet: false, payment: { type: 'key', hash: 'd0'.repeat(28) } })

const ADDRESS_TXS = /^GET \/addresses\/[^/]+\/transactions$/
const TX_READS = /^GET \/txs\//

let peer: BlockfrostPeer
let fee = 200_000n

beforeEach(async () => {
  peer = await BlockfrostPeer.start()
})
afterEach(() => peer.close())

/** A distinct transaction listed at `addresses`. */
function tx(...addresses: string[]): TxSpec {
  fee += 1n
  return { cbor: sampleTx(fee), addresses }
}

function point(block: PeerBlock): BlockPoint {
  return { slot: block.slot, blockNo: block.height, blockHash: block.hash }
}

function query(limit: number, after?: BlockPoint): ScriptTxQuery {
  return { scriptHashes: [SEMANTICS, PAYOUT], limit, ...(after === undefined ? {} : { after }) }
}

function forward(page: ScriptTxPage): { txs: readonly ChainTx[]; until: BlockPoint } {
  if (page.kind !== 'forward') throw new Error(`expected a forward page, got ${page.kind}`)
  return page
}

const ids = (txs: readonly TxSpec[]): string[] => txs.map((t) => txIdOf(t.cbor))
const idsOf = (page: { txs: readonly ChainTx[] }): string[] => page.txs.map((t) => t.txId)

describe('Blockfrost chain index: pages', () => {
  test('listings of both addresses merge in chain order, across pages, with blocks and bytes; until the tip', async () => {
    const listed: TxSpec[] = []
    const blocks: PeerBlock[] = []
    for (let i = 0; i < 150; i += 1) {
      const txs = [
        tx(i % 3 === 0 ? PAYOUT_ADDR : SEMANTICS_ADDR, WALLET_ADDR),
        ...(i % 10 === 0 ? [tx(WALLET_ADDR)] : []),
        ...(i % 25 === 0 ? [tx(SEMANTICS_ADDR, PAYOUT_ADDR)] : [])
      ]
      blocks.push(peer.appendBlock({ txs }))
      listed.push(...txs.filter((t) => t.addresses.includes(SEMANTICS_ADDR) || t.addresses.includes(PAYOUT_ADDR)))
    }
    const p = provider(peer)

    const first = forward(await p.scriptTransactions(query(120)))
    expect(idsOf(first)).toEqual(ids(listed.slice(0, 120)))
    const [firstTx] = first.txs
    expect(firstTx?.block).toEqual(point(blocks[0]!))
    expect(firstTx?.cbor).toEqual(listed[0]!.cbor)
    // Cut after the last whole block kept.
    expect(first.until).toEqual(first.txs[first.txs.length - 1]!.block)
    const semanticsPages = peer.requestsTo(ADDRESS_TXS).filter((r) => r.path.includes(SEMANTICS_ADDR))
    expect(semanticsPages.map((r) => r.query.get('page'))).toEqual(['1', '2'])
    expect(semanticsPages.map((r) => r.query.get('count'))).toEqual(['100', '100'])
    expect(semanticsPages[0]?.query.get('order')).toBe('asc')
    expect(semanticsPages[0]?.query.get('from')).toBeNull()
    expect(semanticsPages[0]?.query.get('to')).toBe(String(blocks[149]!.height))
    expect(peer.requestsTo(/^GET \/blocks\/latest$/)).toHaveLength(1)

    const rest = forward(await p.scriptTransactions(query(120, first.until)))
    expect(idsOf(rest)).toEqual(ids(listed.slice(120)))
    expect(rest.until).toEqual(point(blocks[149]!))
    const fromCursor = peer.requestsTo(ADDRESS_TXS).slice(-2)
    expect(fromCursor.map((r) => r.query.get('from'))).toEqual([
      String(first.until.blockNo + 1n),
      String(first.until.blockNo + 1n)
    ])
    expect(peer.requestsTo(/^GET \/blocks\/[0-9a-f]{64}$/).map((r) => r.path)).toEqual([
      `/blocks/${first.until.blockHash}`
    ])

    // At the tip: nothing new, and the cursor stays.
    const idle = forward(await p.scriptTransactions(query(120, rest.until)))
    expect(idle).toEqual({ kind: 'forward', txs: [], until: rest.until })
  })

  test("a block's transactions are never split, even when one block holds more than the limit", async () => {
    const a = tx(SEMANTICS_ADDR)
    const b = [tx(SEMANTICS_ADDR), tx(PAYOUT_ADDR), tx(SEMANTICS_ADDR), tx(SEMANTICS_ADDR)]
    const c = [tx(PAYOUT_ADDR), tx(SEMANTICS_ADDR)]
    const blockA = peer.appendBlock({ txs: [a] })
    const blockB = peer.appendBlock({ txs: b })
    const blockC = peer.appendBlock({ txs: c })
    const p = provider(peer)

    // The semantics listing fills its page inside block B: only block A is known whole.
    const one = forward(await p.scriptTransactions(query(2)))
    expect(idsOf(one)).toEqual(ids([a]))
    expect(one.until).toEqual(point(blockA))

    // Block B alone is over the limit: it is read whole on its own (from = to = B), all four transactions.
    const two = forward(await p.scriptTransactions(query(2, one.until)))
    expect(idsOf(two)).toEqual(ids(b))
    expect(two.until).toEqual(point(blockB))
    const whole = peer.requestsTo(ADDRESS_TXS).filter((r) => r.query.get('to') === String(blockB.height))
    expect(whole.map((r) => r.query.get('from'))).toEqual([String(blockB.height), String(blockB.height)])

    const three = forward(await p.scriptTransactions(query(2, two.until)))
    expect(idsOf(three)).toEqual(ids(c))
    expect(three.until).toEqual(point(blockC))

    // With room for them, whole blocks fill the page up to the limit and no further.
    const all = forward(await p.scriptTransactions(query(6)))
    expect(idsOf(all)).toEqual(ids([a, ...b]))
    expect(all.until).toEqual(point(blockB))
  })

  test('a transaction at both addresses is listed once', async () => {
    const both = tx(SEMANTICS_ADDR, PAYOUT_ADDR)
    const tip = peer.appendBlock({ txs: [tx(WALLET_ADDR), both] })
    const page = forward(await provider(peer).scriptTransactions(query(10)))
    expect(idsOf(page)).toEqual(ids([both]))
    expect(page.txs[0]?.block).toEqual(point(tip))
    expect(page.until).toEqual(point(tip))
  })

  test('an address Blockfrost has never seen (404) has no transactions; staked addresses are not asked about', async () => {
    peer.appendBlock({ txs: [tx(STAKED_ADDR), tx(WALLET_ADDR)] })
    const tip = peer.appendBlock()
    const page = forward(await provider(peer).scriptTransactions(query(10)))
    expect(page).toEqual({ kind: 'forward', txs: [], until: point(tip) })
    expect(peer.requestsTo(ADDRESS_TXS)).toHaveLength(2)
    expect(peer.requestsTo(ADDRESS_TXS).some((r) => r.path.includes(STAKED_ADDR))).toBe(false)
  })
})

describe('Blockfrost chain index: rollbacks', () => {
  test('a cursor whose block is gone is answered with a rollback, without a point; the new chain reads on', async () => {
    const kept = tx(SEMANTICS_ADDR)
    const lost = tx(PAYOUT_ADDR)
    const base = peer.appendBlock({ txs: [kept] })
    peer.appendBlock({ txs: [lost] })
    const p = provider(peer)
    const read = forward(await p.scriptTransactions(query(10)))
    expect(idsOf(read)).toEqual(ids([kept, lost]))

    peer.rollBackTo(base.height)
    const replacement = tx(SEMANTICS_ADDR)
    peer.appendBlock({ txs: [replacement] })
    const tip = peer.appendBlock()
    expect(await p.scriptTransactions(query(10, read.until))).toEqual({ kind: 'rollback' })
    // The block before the fork is still there: reading on from it sees the new chain.
    const after = forward(await p.scriptTransactions(query(10, point(base))))
    expect(idsOf(after)).toEqual(ids([replacement]))
    expect(after.until).toEqual(point(tip))
  })

  test('a cursor above the tip of a lagging backend is kept, not taken for a rollback', async () => {
    const read = peer.appendBlock({ txs: [tx(SEMANTICS_ADDR)] })
    const behind = `{"height": ${read.height - 1n}, "hash": "${'aa'.repeat(32)}", "slot": ${read.slot - 20n}}`
    peer.faults.push({ match: /^GET \/blocks\/latest$/, status: 200, body: behind })
    const page = await provider(peer).scriptTransactions(query(10, point(read)))
    expect(page).toEqual({ kind: 'forward', txs: [], until: point(read) })
    expect(peer.requestsTo(/^GET \/blocks\/[0-9a-f]{64}$/)).toEqual([])
  })

  test('a transaction that vanishes between the listing and its read is Unavailable (read again later)', async () => {
    const gone = tx(SEMANTICS_ADDR)
    peer.appendBlock({ txs: [gone] })
    peer.faults.push({ match: /^GET \/txs\/[0-9a-f]{64}$/, status: 404 })
    const e = await chainFailure(provider(peer).scriptTransactions(query(10)))
    expect(e.kind).toBe('Unavailable')
    expect(e.reason).toContain('the chain changed')
  })
})

describe('Blockfrost chain index: an unreliable peer', () => {
  test('a peer restarting mid-catch-up: the page in flight is retried; a page while it is down is Unavailable', async () => {
    const txs = Array.from({ length: 6 }, (_, i) => tx(i % 2 === 0 ? SEMANTICS_ADDR : PAYOUT_ADDR))
    for (const t of txs) peer.appendBlock({ txs: [t] })
    const p = provider(peer, { retries: 8, retryBaseDelayMs: 20, retryMaxDelayMs: 100 })

    const first = forward(await p.scriptTransactions(query(3)))
    expect(idsOf(first)).toEqual(ids(txs.slice(0, 3)))
    expect(peer.requestsTo(TX_READS)).toHaveLength(6)

    await peer.stop()
    const down = await chainFailure(provider(peer, { retries: 1 }).scriptTransactions(query(3, first.until)))
    expect(down.kind).toBe('Unavailable')
    expect(down.reason).toContain('ECONNREFUSED')
    await peer.restart()

    // Stopped while transactions are being read, and back a moment later: the reads are retried.
    peer.faults.push({ match: TX_READS, delayMs: 300, times: 1 })
    const pending = p.scriptTransactions(query(3, first.until))
    await new Promise((resolve) => setTimeout(resolve, 100))
    await peer.stop()
    await new Promise((resolve) => setTimeout(resolve, 50))
    await peer.restart()
    const second = forward(await pending)
    expect(idsOf(second)).toEqual(ids(txs.slice(3)))
    // The read cut off by the stop was sent again.
    expect(peer.requestsTo(TX_READS).length).toBeGreaterThan(12)
  })

  test('a slow peer times out (Unavailable), and the next call goes through', async () => {
    peer.appendBlock({ txs: [tx(SEMANTICS_ADDR)] })
    peer.faults.push({ match: ADDRESS_TXS, delayMs: 1_000 })
    const p = provider(peer, { timeoutMs: 150 })
    const e = await chainFailure(p.scriptTransactions(query(10)))
    expect(e.kind).toBe('Unavailable')
    expect(e.reason).toContain('within 150 ms')
    expect(forward(await p.scriptTransactions(query(10))).txs).toHaveLength(1)
  })

  test('429s are waited out by the client, on listings and on transaction reads alike', async () => {
    const t = tx(SEMANTICS_ADDR)
    peer.appendBlock({ txs: [t] })
    peer.faults.push(
      { match: ADDRESS_TXS, status: 429, retryAfter: '0', times: 2 },
      { match: TX_READS, status: 429, times: 2 }
    )
    const page = forward(await provider(peer).scriptTransactions(query(10)))
    expect(idsOf(page)).toEqual(ids([t]))
    expect(peer.requestsTo(ADDRESS_TXS)).toHaveLength(4)
    expect(peer.requestsTo(TX_READS)).toHaveLength(4)
  })
})

describe('Blockfrost chain index: bad answers', () => {
  // Faults name one address or transaction: a request of the call before, still arriving, cannot take them.
  const SEMANTICS_TXS = new RegExp(`^GET /addresses/${SEMANTICS_ADDR}/transactions$`)
  const PAYOUT_TXS = new RegExp(`^GET /addresses/${PAYOUT_ADDR}/transactions$`)
  let firstTx: string

  beforeEach(() => {
    const first = tx(SEMANTICS_ADDR)
    firstTx = txIdOf(first.cbor)
    peer.appendBlock({ txs: [first, tx(SEMANTICS_ADDR)] })
    peer.appendBlock({ txs: [tx(PAYOUT_ADDR)] })
  })

  async function badResponse(): Promise<string> {
    const e = await chainFailure(provider(peer).scriptTransactions(query(10)))
    expect(e.kind).toBe('BadResponse')
    return e.reason
  }

  test('malformed JSON', async () => {
    peer.faults.push({ match: SEMANTICS_TXS, status: 200, body: '[{"tx_hash": "' })
    expect(await badResponse()).toContain('not JSON')
  })

  test('listings of the wrong shape, out of range, out of order, over-full or contradicting each other', async () => {
    const item = (height: bigint, index: number, hash = 'ab'.repeat(32)): string =>
      `{"tx_hash": "${hash}", "tx_index": ${index}, "block_height": ${height}, "block_time": 1}`
    const tip = peer.state.blocks[peer.state.blocks.length - 1]!.height
    const cases: Array<[string, string]> = [
      ['{"not": "a list"}', 'expected an array'],
      [`[{"tx_hash": "zz", "tx_index": 0, "block_height": ${tip}}]`, 'tx_hash'],
      [`[{"tx_hash": "${'ab'.repeat(32)}", "tx_index": 0, "block_height": "soon"}]`, 'block_height'],
      [`[${item(tip + 1n, 0)}]`, 'outside the blocks asked for'],
      [`[${item(tip, 1)}, ${item(tip, 0, 'cd'.repeat(32))}]`, 'not after block'],
      [
        `[${Array.from({ length: 12 }, (_, i) => item(tip, i, i.toString(16).padStart(64, '0'))).join(',')}]`,
        '12 items'
      ]
    ]
    for (const [body, problem] of cases) {
      peer.faults.push({ match: SEMANTICS_TXS, status: 200, body })
      expect(await badResponse()).toContain(problem)
    }
    // The two addresses naming different transactions at one place.
    peer.faults.push(
      { match: SEMANTICS_TXS, status: 200, body: `[${item(tip, 0)}]` },
      { match: PAYOUT_TXS, status: 200, body: `[${item(tip, 0, 'cd'.repeat(32))}]` }
    )
    expect(await badResponse()).toContain('are listed at block')
  })

  test('bytes that are not the transaction listed, or not a transaction at all', async () => {
    const cbor = new RegExp(`^GET /txs/${firstTx}/cbor$`)
    peer.faults.push({ match: cbor, status: 200, body: `{"cbor": "${'00'.repeat(8)}"}` })
    expect(await badResponse()).toContain('not a transaction')
    const other = sampleTx(1n)
    peer.faults.push({ match: cbor, status: 200, body: `{"cbor": "${bytesToHex(other)}"}` })
    expect(await badResponse()).toContain(`is the transaction ${txIdOf(other)}`)
  })

  test('a cursor block answered at another height', async () => {
    const [first] = peer.state.blocks
    peer.faults.push({ match: /^GET \/blocks\/[0-9a-f]{64}$/, status: 200, body: '{"height": 7, "hash": "x"}' })
    const e = await chainFailure(provider(peer).scriptTransactions(query(10, point(first!))))
    expect(e.kind).toBe('BadResponse')
    expect(e.reason).toContain('is 7')
  })
})
