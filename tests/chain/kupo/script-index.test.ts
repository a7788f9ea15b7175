/**
 * The chain index through Kupo + Ogmios against a local Kupo and a local Ogmios telling the same chain, over
 * real HTTP and WebSocket: pages in chain order with the transactions' own bytes and blocks, staked script
 * addresses, windows that grow and shrink, Kupo behind Ogmios, rollbacks, and peers that are misconfigured,
 * down, slow, failing or answering too much.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { KupoClient, KupoScriptIndex } from '../../../src/chain/kupo'
import { openNodeChain } from '../../../src/chain/open'
import { OgmiosBlockReader, rpcClientOptions } from '../../../src/chain/ogmios'
import type { BlockPoint, ChainTx, ScriptTxPage, ScriptTxQuery } from '../../../src/chain/provider'
import { bytesToHex, concatBytes, hexToBytes } from '../../../src/core/bytes'
import { encodeByteString, encodeHead } from '../../../src/core/cardano/cbor/writer'
import { decodeTransaction } from '../../../src/core/cardano/tx'
import { OgmiosPeer, type PeerBlock } from '../ogmios/peer'
import { chainFailure } from '../support/failure'
import { KupoPeer } from './peer'

const SEMANTICS = 'a7'.repeat(28)
const PAYOUT = 'b8'.repeat(28)
const HASHES = [SEMANTICS, PAYOUT]
/** Testnet enterprise script address; with `stake`, a base address staked to a key. */
const scriptAddress = (hash: string, stake?: string): Uint8Array =>
  stake === undefined ? hexToBytes(`70${hash}`) : hexToBytes(`10${hash}${stake}`)
const WALLET = hexToBytes(`60${'d0'.repeat(28)}`)
const GENESIS_TX = 'ee'.repeat(32)

let ogmios: OgmiosPeer
let kupo: KupoPeer
let reader: OgmiosBlockReader
let fee = 170_000n

beforeEach(async () => {
  ogmios = await OgmiosPeer.start()
  kupo = await KupoPeer.start(() => ogmios.chain)
  reader = await OgmiosBlockReader.connect(
    rpcClientOptions({ url: ogmios.url, requestTimeoutMs: 2000, reconnectDelayMs: 10, heartbeatMs: false })
  )
})
afterEach(async () => {
  await reader.close()
  await kupo.close()
  await ogmios.close()
})

interface Out {
  readonly txId: string
  readonly index: number
}

/** A transaction spending `inputs` and paying `outputs` (address bytes), distinct by its fee. */
function tx(inputs: readonly Out[], outputs: readonly Uint8Array[]): Uint8Array {
  fee += 1n
  const body = concatBytes([
    encodeHead(5, 3),
    encodeHead(0, 0),
    encodeHead(4, inputs.length),
    ...inputs.flatMap((i) => [encodeHead(4, 2), encodeByteString(hexToBytes(i.txId)), encodeHead(0, i.index)]),
    encodeHead(0, 1),
    encodeHead(4, outputs.length),
    ...outputs.flatMap((address) => [encodeHead(4, 2), encodeByteString(address), encodeHead(0, 2_000_000)]),
    encodeHead(0, 2),
    encodeHead(0, fee)
  ])
  return concatBytes([encodeHead(4, 4), body, encodeHead(5, 0), Uint8Array.of(0xf5, 0xf6)])
}

const idOf = (cbor: Uint8Array): string => decodeTransaction(cbor).id
const out = (cbor: Uint8Array, index = 0): Out => ({ txId: idOf(cbor), index })

function index(options: { maxResponseBytes?: number; windowSlots?: bigint; timeoutMs?: number } = {}) {
  return new KupoScriptIndex({
    kupo: new KupoClient({
      url: kupo.url,
      timeoutMs: options.timeoutMs ?? 2000,
      ...(options.maxResponseBytes === undefined ? {} : { maxResponseBytes: options.maxResponseBytes })
    }),
    blocks: reader,
    windowSlots: options.windowSlots ?? 100n
  })
}

function query(limit: number, after?: BlockPoint): ScriptTxQuery {
  return { scriptHashes: HASHES, limit, ...(after === undefined ? {} : { after }) }
}

function forward(page: ScriptTxPage): { txs: readonly ChainTx[]; until: BlockPoint } {
  if (page.kind !== 'forward') throw new Error(`expected a forward page, got ${page.kind}`)
  return page
}

const point = (block: PeerBlock): BlockPoint => ({ slot: block.slot, blockNo: block.height, blockHash: block.id })
const tipOf = (peer: OgmiosPeer): PeerBlock => peer.chain[peer.chain.length - 1]!

/** Reads every page from `after` to the tip; the transactions in order and the last `until`. */
async function readAll(
  idx: KupoScriptIndex,
  limit: number,
  after?: BlockPoint
): Promise<{ txs: ChainTx[]; until: BlockPoint | undefined; pages: number }> {
  const txs: ChainTx[] = []
  let cursor = after
  let pages = 0
  for (;;) {
    const page = forward(await idx.scriptTransactions(query(limit, cursor)))
    pages += 1
    txs.push(...page.txs)
    const done = page.txs.length === 0 || page.until.blockNo !== page.txs[page.txs.length - 1]!.block.blockNo
    cursor = page.until
    if (done) return { txs, until: cursor, pages }
    if (pages > 500) throw new Error('no end to the pages')
  }
}

/** A history: creates at both scripts (one at a staked address), applies, closes, payouts withdrawn, noise. */
function history(blocks: number): Uint8Array[] {
  const expected: Uint8Array[] = []
  let open: Out | undefined
  let payout: Out | undefined
  for (let i = 0; i < blocks; i += 1) {
    const txs: Uint8Array[] = [tx([{ txId: GENESIS_TX, index: i }], [WALLET])]
    let step: Uint8Array | undefined
    if (open === undefined) {
      step = tx(
        [{ txId: GENESIS_TX, index: 1000 + i }],
        [scriptAddress(SEMANTICS, i % 2 === 0 ? 'c9'.repeat(28) : undefined), WALLET]
      )
      open = out(step)
    } else if (i % 3 === 1) {
      step = tx([open], [scriptAddress(SEMANTICS), scriptAddress(PAYOUT)])
      open = out(step)
      payout = out(step, 1)
    } else if (i % 3 === 2 && payout !== undefined) {
      step = tx([payout], [WALLET])
      payout = undefined
    } else {
      step = tx([open], [WALLET])
      open = undefined
    }
    txs.push(step)
    expected.push(step)
    ogmios.addTxBlock(txs, 10n)
  }
  return expected
}

describe('Kupo chain index: pages', () => {
  test('every transaction creating or spending at the scripts, in chain order, with its bytes and block', async () => {
    const expected = history(60)
    const read = await readAll(index(), 7)
    expect(read.txs.map((t) => t.txId)).toEqual(expected.map(idOf))
    for (const [i, t] of read.txs.entries()) {
      expect(bytesToHex(t.cbor)).toBe(bytesToHex(expected[i]!))
      const block = ogmios.chain.find((b) => b.txIds.includes(t.txId))!
      expect(t.block).toEqual(point(block))
    }
    expect(read.until).toEqual(point(tipOf(ogmios)))
    expect(read.pages).toBeGreaterThan(60 / 7)
  })

  test('a page ends at a whole block, and at the tip once nothing is left; the next one finds new blocks', async () => {
    const expected = history(5)
    const idx = index({ windowSlots: 1000n })
    const first = forward(await idx.scriptTransactions(query(100)))
    expect(first.txs.map((t) => t.txId)).toEqual(expected.map(idOf))
    expect(first.until).toEqual(point(tipOf(ogmios)))
    const empty = forward(await idx.scriptTransactions(query(100, first.until)))
    expect(empty.txs).toEqual([])
    expect(empty.until).toEqual(first.until)

    ogmios.addBlock([])
    const more = tx([{ txId: GENESIS_TX, index: 9999 }], [scriptAddress(PAYOUT)])
    const block = ogmios.addTxBlock([more])
    ogmios.addBlock([])
    const next = forward(await idx.scriptTransactions(query(100, first.until)))
    expect(next.txs.map((t) => t.txId)).toEqual([idOf(more)])
    expect(next.txs[0]!.block).toEqual(point(block))
    expect(next.until).toEqual(point(tipOf(ogmios)))
  })

  test('read to the tip, the same index reads from the start again (no waiting for a block past the tip)', async () => {
    const expected = history(12)
    const idx = index({ windowSlots: 1000n })
    expect((await readAll(idx, 5)).txs.map((t) => t.txId)).toEqual(expected.map(idOf))
    expect((await readAll(idx, 5)).txs.map((t) => t.txId)).toEqual(expected.map(idOf))
  })

  test('windows double across an empty stretch of chain: a few requests, not one per window', async () => {
    for (let i = 0; i < 50; i += 1) ogmios.addBlock([], undefined, 10_000n)
    const late = tx([{ txId: GENESIS_TX, index: 1 }], [scriptAddress(SEMANTICS)])
    ogmios.addTxBlock([late])
    const page = forward(await index({ windowSlots: 10n }).scriptTransactions(query(10)))
    expect(page.txs.map((t) => t.txId)).toEqual([idOf(late)])
    // 500,000 slots from a 10-slot window: about 16 doublings, two listings per script each.
    expect(kupo.requestsTo(/^\/matches\//).length).toBeLessThanOrEqual(4 * 20)
  })

  test('an answer over the size limit narrows the window until it fits', async () => {
    const expected = history(30)
    const read = await readAll(index({ windowSlots: 1_000_000n, maxResponseBytes: 3000 }), 100)
    expect(read.txs.map((t) => t.txId)).toEqual(expected.map(idOf))
  })

  test('Kupo behind Ogmios: pages end at Kupo’s tip, and go on once it caught up', async () => {
    const expected = history(12)
    kupo.lag = 4
    const idx = index({ windowSlots: 1000n })
    const behind = await readAll(idx, 100)
    expect(behind.until).toEqual(point(ogmios.chain[ogmios.chain.length - 5]!))
    expect(behind.txs.map((t) => t.txId)).toEqual(expected.slice(0, 8).map(idOf))
    kupo.lag = 0
    const rest = await readAll(idx, 100, behind.until)
    expect(rest.txs.map((t) => t.txId)).toEqual(expected.slice(8).map(idOf))
  })
})

describe('Kupo chain index: opened from node endpoints', () => {
  test('Ogmios with Kupo has the index (and through cardano-submit-api too); Ogmios alone has none', async () => {
    const expected = history(3)
    const tuning = { ogmios: { heartbeatMs: false as const, reconnectDelayMs: 10 } }
    for (const submitApi of [undefined, 'http://127.0.0.1:1']) {
      const chain = await openNodeChain(
        'preprod',
        { ogmios: ogmios.url, kupo: kupo.url, ...(submitApi === undefined ? {} : { submitApi }) },
        tuning
      )
      try {
        const page = forward(await chain.provider.scriptTransactions!(query(100)))
        expect(page.txs.map((t) => t.txId)).toEqual(expected.map(idOf))
      } finally {
        await chain.close()
      }
    }
    const plain = await openNodeChain('preprod', { ogmios: ogmios.url }, tuning)
    expect(plain.provider.scriptTransactions).toBeUndefined()
    await plain.close()
  })
})

describe('Kupo chain index: rollbacks', () => {
  test('after a rollback the cursor is gone; older blocks still answer; the new branch is read', async () => {
    history(10)
    const idx = index({ windowSlots: 1000n })
    const all = await readAll(idx, 100)
    const kept = ogmios.chain[ogmios.chain.length - 4]!
    ogmios.rollBack(3)
    const replacement = tx([{ txId: GENESIS_TX, index: 7777 }], [scriptAddress(SEMANTICS)])
    ogmios.addTxBlock([replacement], 5n)
    ogmios.addBlock([])

    expect(await idx.scriptTransactions(query(100, all.until))).toEqual({ kind: 'rollback' })
    const probe = forward(await idx.scriptTransactions(query(1, point(kept))))
    expect(probe.txs.map((t) => t.txId)).toEqual([idOf(replacement)])
  })

  test('a block Kupo names that Ogmios no longer serves is Unavailable, and reads once both agree', async () => {
    history(4)
    const idx = index({ windowSlots: 1000n })
    const swapped = ogmios.chain[ogmios.chain.length - 1]!
    // Ogmios switched forks under Kupo: the same slot, another block.
    ogmios.rollBack(1)
    const other = tx([{ txId: GENESIS_TX, index: 4242 }], [scriptAddress(PAYOUT)])
    ogmios.addTxBlock([other], swapped.slot - ogmios.chain[ogmios.chain.length - 1]!.slot)
    const stale = [...ogmios.chain.slice(0, -1), swapped]
    const lying = await KupoPeer.start(() => stale)
    try {
      const confused = new KupoScriptIndex({
        kupo: new KupoClient({ url: lying.url, timeoutMs: 2000 }),
        blocks: reader,
        windowSlots: 1000n
      })
      const failure = await chainFailure(readAll(confused, 100))
      expect(failure.kind).toBe('Unavailable')
      expect(failure.message).toMatch(/switching forks/)
    } finally {
      await lying.close()
    }
    const read = await readAll(idx, 100)
    expect(read.txs.map((t) => t.txId)).toContain(idOf(other))
  })
})

describe('Kupo chain index: misconfigured and failing peers', () => {
  test('a Kupo that does not index the Marlowe scripts is told how to', async () => {
    history(2)
    kupo.patterns = [`${'c1'.repeat(28)}/*`]
    const failure = await chainFailure(index().scriptTransactions(query(10)))
    expect(failure.kind).toBe('Unavailable')
    expect(failure.message).toContain(`--match "${SEMANTICS}/*"`)
    kupo.patterns = [`${SEMANTICS}/*`, `${PAYOUT}/*`]
    expect(forward(await index().scriptTransactions(query(10))).txs.length).toBeGreaterThan(0)
  })

  test('an Ogmios that leaves the transactions’ bytes out says which option it needs', async () => {
    history(2)
    ogmios.includeTransactionCbor = false
    const failure = await chainFailure(index().scriptTransactions(query(10)))
    expect(failure.kind).toBe('BadResponse')
    expect(failure.message).toContain('--include-transaction-cbor')
  })

  test('Kupo down, then back: Unavailable, then the same pages', async () => {
    const expected = history(6)
    const idx = index({ windowSlots: 1000n })
    await kupo.stop()
    const down = await chainFailure(idx.scriptTransactions(query(100)))
    expect(down.kind).toBe('Unavailable')
    expect(down.message).toMatch(/cannot reach Kupo/)
    await kupo.restart()
    expect((await readAll(idx, 100)).txs.map((t) => t.txId)).toEqual(expected.map(idOf))
  })

  test('slow, failing or garbled answers are Unavailable or BadResponse, never a wrong page', async () => {
    history(3)
    const idx = index({ timeoutMs: 300, windowSlots: 1000n })
    kupo.fault(/^\/matches\//, { kind: 'delay', ms: 1000 })
    expect((await chainFailure(idx.scriptTransactions(query(10)))).message).toMatch(/did not answer/)
    kupo.fault(/^\/checkpoints$/, { kind: 'status', status: 503 })
    expect((await chainFailure(idx.scriptTransactions(query(10)))).kind).toBe('Unavailable')
    kupo.fault(/^\/matches\//, { kind: 'status', status: 200, body: '[{"transaction_id": 7}]' })
    const garbled = await chainFailure(idx.scriptTransactions(query(10)))
    expect(garbled.kind).toBe('BadResponse')
    expect(garbled.message).toMatch(/transaction_id/)
    kupo.fault(/^\/matches\//, { kind: 'status', status: 400, body: '{"hint":"Invalid or incompatible filters."}' })
    expect((await chainFailure(idx.scriptTransactions(query(10)))).message).toMatch(/incompatible filters/)
    kupo.fault(/^\/matches\//, { kind: 'drop' })
    expect((await chainFailure(idx.scriptTransactions(query(10)))).kind).toBe('Unavailable')
    expect(forward(await idx.scriptTransactions(query(10))).txs.length).toBeGreaterThan(0)
  })
})
