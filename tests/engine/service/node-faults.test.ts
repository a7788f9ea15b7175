/**
 * Node faults at the service level, through the real Ogmios adapter and its local protocol peer (not a wrapped
 * sandbox): a node that is down, one too slow to answer in time, and one that rejects the transaction. Each
 * fault gives a clear error and leaves the build stored and unsigned, across restarts of the service over the
 * same SQLite file; a retry on a healthy node goes through, and chain sync confirms the tx in the peer's block.
 * The same, more briefly, through the Blockfrost adapter and its local peer.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SubmitTransactionFailureUnknownOutputReferences } from '@cardano-ogmios/schema'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { OgmiosProvider } from '../../../src/chain/ogmios'
import { hexToBytes } from '../../../src/core/bytes'
import { decodeTransaction } from '../../../src/core/cardano/tx'
import { EngineError } from '../../../src/engine/errors'
import { openService, type OpenService, type SignedForm } from '../../../src/engine/service'
import { genesis, type Lossless } from '../../chain/ogmios/fixtures'
import { OgmiosPeer, type Answer } from '../../chain/ogmios/peer'
import { addressUtxo, amount, provider as blockfrostOn, seededPeer } from '../../chain/blockfrost/fixtures'
import { errorBody } from '../../chain/blockfrost/peer'
import { ledgerRejection } from '../../chain/submit-api/peer'
import { testWallet } from '../build/support'
import { witnessed } from './support'

const alice = testWallet('alice')
const ADA = 1_000_000n
/** The peer's ledger: one output of 100 ada at alice's address. */
const SEED_TX = 'a1'.repeat(32)
/** The adapter's deadline per request: the "slow" node answers after it. */
const REQUEST_TIMEOUT_MS = 1000

/** The id of a transaction, as the node computes it (blake2b-256 of the body). */
function txIdOf(cborHex: string): string {
  return decodeTransaction(hexToBytes(cborHex)).id
}

/** A node that accepts, answering with the transaction's real id (the peer's default is a stand-in). */
const accept = (cborHex: string): Answer => ({ result: { transaction: { id: txIdOf(cborHex) } } })

/** Ogmios v6's answer when the inputs are unknown to the ledger (spent, or never there). */
function unknownOutputReferences(): Answer {
  const error = {
    code: 3117n,
    message:
      "The transaction contains unknown UTxO references as inputs. This can happen if the inputs you're trying to spend have already been spent, or if you've simply referred to non-existing UTxO altogether. The field 'data.unknownOutputReferences' indicates all unknown inputs.",
    data: { unknownOutputReferences: [{ transaction: { id: SEED_TX }, index: 0n }] }
  } satisfies Lossless<SubmitTransactionFailureUnknownOutputReferences>
  return { error: { ...error, code: Number(error.code) } }
}

interface Node {
  readonly peer: OgmiosPeer
  readonly databasePath: string
  /** The running service, on its own adapter connection. */
  current: OpenService & { readonly provider: OgmiosProvider }
  /** Stops the service and its adapter, and starts both again over the same file (a process restart). */
  restart(): Promise<void>
}

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function openOn(peer: OgmiosPeer, databasePath: string): Promise<Node['current']> {
  const provider = await OgmiosProvider.connect({
    url: peer.url,
    network: 'preview',
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    reconnectDelayMs: 10,
    maxReconnectDelayMs: 100,
    heartbeatMs: false
  })
  const opened = await openService({ provider, databasePath, followEveryMs: false })
  return { ...opened, provider }
}

async function startNode(): Promise<Node> {
  const peer = await OgmiosPeer.start()
  cleanups.push(() => peer.close())
  peer.genesis = genesis(2n, 'testnet') // preview's network magic
  peer.utxos = [
    { transaction: { id: SEED_TX }, index: 0n, address: alice.address, value: { ada: { lovelace: 100n * ADA } } }
  ]
  peer.onSubmit = accept
  const dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-node-faults-'))
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }))
  const databasePath = join(dir, 'store.sqlite')
  const node: Node = {
    peer,
    databasePath,
    current: await openOn(peer, databasePath),
    async restart() {
      await node.current.close()
      await node.current.provider.close()
      node.current = await openOn(peer, databasePath)
    }
  }
  cleanups.push(async () => {
    await node.current.close()
    await node.current.provider.close()
  })
  return node
}

async function createClose(node: { readonly current: OpenService }) {
  return node.current.service.createContract(
    { changeAddress: alice.address },
    { contract: { type: 'Close' }, tags: { 'node-faults': 'yes' }, metadata: {} }
  )
}

/** The service's refusal of `promise`, which must fail with an EngineError. */
async function refusal(promise: Promise<unknown>): Promise<EngineError> {
  const e = await promise.then(
    () => new Error('expected the submit to fail'),
    (e: unknown) => e
  )
  if (!(e instanceof EngineError)) throw e
  return e
}

/** The contract as stored: still the very build that was made, unsigned. */
async function expectKeptUnsigned(
  node: { readonly current: OpenService },
  contractId: string,
  tx: Uint8Array
): Promise<void> {
  const view = node.current.service.getContract(contractId)
  expect((await view).status).toBe('unsigned')
  expect((await view).unsigned?.tx).toEqual(tx)
  expect((await view).block).toBeUndefined()
}

/** Adds a block holding `txId` and waits until the adapter's chain sync has taken it in. */
async function mine(node: Node, txId: string) {
  const block = node.peer.addBlock([txId])
  await node.peer.followersIdle()
  return block
}

describe('node faults through the Ogmios adapter', () => {
  test('down, slow and rejecting: clear errors, nothing lost across restarts, and the retry is confirmed', async () => {
    const node = await startNode()
    const built = await createClose(node)
    const { contractId } = built
    const txId = contractId.slice(0, 64)
    expect(contractId).toBe(`${txId}#0`) // the Marlowe output comes first
    expect(node.peer.requestsOf('queryLedgerState/utxo')).not.toHaveLength(0)
    const signed: SignedForm = witnessed(built.unsigned.tx, [alice])

    // 1. Down: the node goes away, and connections are refused. The first submit may still meet the dying
    // connection (the adapter has not heard of its end yet); after that, every attempt is refused outright.
    await node.peer.stop()
    const dying = await refusal(node.current.service.submitBuild(contractId.slice(0, 64), signed))
    expect(dying).toMatchObject({ kind: 'Unavailable', code: 'NodeUnavailable' })
    expect(dying.message).toMatch(/connection to Ogmios (closed|is closing)|cannot connect/)
    await expectKeptUnsigned(node, contractId, built.unsigned.tx)
    const down = await refusal(node.current.service.submitBuild(contractId.slice(0, 64), signed))
    expect(down).toMatchObject({ kind: 'Unavailable', code: 'NodeUnavailable' })
    expect(down.message).toMatch(
      /^the node did not take the transaction \(cannot connect to ws:\/\/127\.0\.0\.1:\d+: connect ECONNREFUSED .*\); it is kept and can be submitted again$/
    )
    expect(down.details).toMatchObject({ reason: expect.stringMatching(/ECONNREFUSED/) as unknown })
    await expectKeptUnsigned(node, contractId, built.unsigned.tx)
    expect(node.peer.requestsOf('submitTransaction')).toHaveLength(0)

    await node.peer.restart()
    await node.restart()
    await expectKeptUnsigned(node, contractId, built.unsigned.tx)

    // 2. Slow: the node takes the request but does not answer within the adapter's deadline. It never gets
    // round to it: the request is still queued when the service restarts and its connection goes.
    node.peer.fault('submitTransaction', { kind: 'hold' })
    const slow = await refusal(node.current.service.submitBuild(contractId.slice(0, 64), signed))
    expect(slow).toMatchObject({ kind: 'Unavailable', code: 'NodeUnavailable' })
    expect(slow.message).toMatch(new RegExp(`no answer to submitTransaction within ${REQUEST_TIMEOUT_MS} ms`))
    expect(node.peer.holding).toEqual(['submitTransaction'])
    await expectKeptUnsigned(node, contractId, built.unsigned.tx)
    // Until the node says otherwise, the attempt may have reached it: the follower keeps asking, finds nothing.
    expect(await node.current.follower.sync()).toEqual({ confirmed: [], recorded: [], dropped: [], reachedNode: true })
    await expectKeptUnsigned(node, contractId, built.unsigned.tx)

    await node.restart()
    node.peer.discard('submitTransaction')
    await expectKeptUnsigned(node, contractId, built.unsigned.tx)

    // 3. Rejecting: a ledger rejection, in Ogmios v6's shape, is the client's problem (403) with the node's reason.
    node.peer.onSubmit = unknownOutputReferences
    const rejected = await refusal(node.current.service.submitBuild(contractId.slice(0, 64), signed))
    expect(rejected).toMatchObject({
      kind: 'Forbidden',
      code: 'SubmissionError',
      details: {
        reason: expect.stringMatching(/^The transaction contains unknown UTxO references as inputs/) as unknown,
        method: 'submitTransaction',
        code: 3117,
        data: { unknownOutputReferences: [{ transaction: { id: SEED_TX }, index: 0n }] }
      }
    })
    expect(rejected.message).toMatch(/^SubmitFailed "The transaction contains unknown UTxO references/)
    await expectKeptUnsigned(node, contractId, built.unsigned.tx)
    expect(node.peer.mempool.size).toBe(0)

    await node.restart()
    await expectKeptUnsigned(node, contractId, built.unsigned.tx)

    // 4. Healthy: the same signed build goes through; the node has it in its mempool under the build's id.
    node.peer.onSubmit = accept
    await node.current.service.submitBuild(contractId.slice(0, 64), signed)
    expect((await node.current.service.getContract(contractId)).status).toBe('submitted')
    const sent = node.peer.requestsOf('submitTransaction')
    expect(sent).toHaveLength(3) // slow, rejected, accepted: nothing reached the node while it was down
    expect(txIdOf(String((sent[2]!.params['transaction'] as { cbor: string }).cbor))).toBe(txId)
    expect([...node.peer.mempool]).toEqual([txId])
    expect(await node.current.follower.sync()).toEqual({ confirmed: [], recorded: [], dropped: [], reachedNode: true })
    expect((await node.current.service.getContract(contractId)).status).toBe('submitted')

    // The next block holds it; chain sync sees it and the follower confirms it with that block.
    const block = await mine(node, txId)
    expect(await node.current.follower.sync()).toEqual({
      confirmed: [txId],
      recorded: [],
      dropped: [],
      reachedNode: true
    })
    const confirmed = node.current.service.getContract(contractId)
    expect((await confirmed).status).toBe('confirmed')
    expect((await confirmed).block).toEqual({ slot: block.slot, blockNo: block.height, blockHash: block.id })
    expect((await node.current.service.listContracts()).map((c) => c.contractId)).toEqual([contractId])

    // And that survives a restart too.
    await node.restart()
    expect(await node.current.service.getContract(contractId)).toMatchObject({
      status: 'confirmed',
      block: (await confirmed).block
    })
  })

  test('a slow node that takes the tx after the deadline: the follower finds it, even after a restart', async () => {
    const node = await startNode()
    const built = await createClose(node)
    const { contractId } = built
    const txId = contractId.slice(0, 64)
    const signed = witnessed(built.unsigned.tx, [alice])

    node.peer.fault('submitTransaction', { kind: 'hold' })
    const slow = await refusal(node.current.service.submitBuild(contractId.slice(0, 64), signed))
    expect(slow).toMatchObject({ kind: 'Unavailable', code: 'NodeUnavailable' })
    await expectKeptUnsigned(node, contractId, built.unsigned.tx)

    // The node answers at last (too late for the adapter, which drops the answer): the tx is in its mempool.
    node.peer.release('submitTransaction')
    await vi.waitFor(() => expect([...node.peer.mempool]).toEqual([txId]))
    await expectKeptUnsigned(node, contractId, built.unsigned.tx)

    await node.restart()
    expect(await node.current.follower.sync()).toEqual({ confirmed: [], recorded: [], dropped: [], reachedNode: true })
    expect((await node.current.service.getContract(contractId)).status).toBe('submitted')
    await expect(node.current.service.submitBuild(contractId.slice(0, 64), signed)).rejects.toMatchObject({
      kind: 'Conflict',
      code: 'AlreadySubmitted'
    })

    const block = await mine(node, txId)
    expect(await node.current.follower.sync()).toEqual({
      confirmed: [txId],
      recorded: [],
      dropped: [],
      reachedNode: true
    })
    expect(await node.current.service.getContract(contractId)).toMatchObject({
      status: 'confirmed',
      block: { slot: block.slot, blockNo: block.height, blockHash: block.id }
    })
    expect(node.peer.requestsOf('submitTransaction')).toHaveLength(1)
  })
})

describe('a retry the node refuses because it already has the tx', () => {
  // The node took the tx after the adapter's deadline and the user retries before the follower has run: the
  // node refuses the duplicate (3117, its mempool has the inputs spent). The service asks the node about the
  // tx before forgetting the attempt, finds it, and records it as submitted.
  test('is not lost: it is recorded as submitted and confirmed', async () => {
    const node = await startNode()
    const built = await createClose(node)
    const { contractId } = built
    const txId = contractId.slice(0, 64)
    const signed = witnessed(built.unsigned.tx, [alice])
    node.peer.onSubmit = (cbor) => (node.peer.mempool.has(txIdOf(cbor)) ? unknownOutputReferences() : accept(cbor))

    node.peer.fault('submitTransaction', { kind: 'hold' })
    await refusal(node.current.service.submitBuild(contractId.slice(0, 64), signed))
    node.peer.release('submitTransaction')
    await vi.waitFor(() => expect([...node.peer.mempool]).toEqual([txId]))
    // The retry is refused by the node, but the node has the tx: the submit counts as done, and says so.
    expect(await node.current.service.submitBuild(contractId.slice(0, 64), signed)).toBe('alreadyOnChain')
    expect((await node.current.service.getContract(contractId)).status).toBe('submitted')

    const block = await mine(node, txId)
    await node.current.follower.sync()
    expect(await node.current.service.getContract(contractId)).toMatchObject({
      status: 'confirmed',
      block: { slot: block.slot, blockNo: block.height, blockHash: block.id }
    })
  })
})

describe('node faults through the Blockfrost adapter', () => {
  const SUBMIT = /^POST \/tx\/submit$/

  async function startBlockfrost() {
    const peer = await seededPeer() // preprod
    cleanups.push(() => peer.close())
    peer.state.addressUtxos.set(alice.address, [
      addressUtxo(alice.address, SEED_TX, 0, { amount: amount((100n * ADA).toString()) })
    ])
    const dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-node-faults-'))
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }))
    const databasePath = join(dir, 'store.sqlite')
    const open = (): Promise<OpenService> =>
      openService({
        provider: blockfrostOn(peer, { timeoutMs: REQUEST_TIMEOUT_MS, retries: 1 }),
        databasePath,
        followEveryMs: false
      })
    const node = {
      peer,
      current: await open(),
      async restart() {
        await node.current.close()
        node.current = await open()
      }
    }
    cleanups.push(() => node.current.close())
    return node
  }

  test('down, slow and rejecting: clear errors, nothing lost across restarts, and the retry is confirmed', async () => {
    const node = await startBlockfrost()
    const built = await createClose(node)
    const { contractId } = built
    const txId = contractId.slice(0, 64)
    const signed = witnessed(built.unsigned.tx, [alice])

    // 1. Down: connections are refused (a submission is never retried). As with Ogmios, the first submit may
    // still meet a kept-alive connection the server just closed; the next one is refused outright.
    await node.peer.stop()
    const dying = await refusal(node.current.service.submitBuild(contractId.slice(0, 64), signed))
    expect(dying).toMatchObject({ kind: 'Unavailable', code: 'NodeUnavailable' })
    await expectKeptUnsigned(node, contractId, built.unsigned.tx)
    const down = await refusal(node.current.service.submitBuild(contractId.slice(0, 64), signed))
    expect(down).toMatchObject({ kind: 'Unavailable', code: 'NodeUnavailable' })
    expect(down.message).toMatch(/ECONNREFUSED.*it is kept and can be submitted again/)
    await expectKeptUnsigned(node, contractId, built.unsigned.tx)
    await node.peer.restart()
    await node.restart()
    await expectKeptUnsigned(node, contractId, built.unsigned.tx)

    // 2. Slow: no answer within the deadline (and then the connection goes, the tx never having reached the node).
    node.peer.faults.push({ match: SUBMIT, delayMs: 5 * REQUEST_TIMEOUT_MS, hangUp: true })
    const slow = await refusal(node.current.service.submitBuild(contractId.slice(0, 64), signed))
    expect(slow).toMatchObject({ kind: 'Unavailable', code: 'NodeUnavailable' })
    expect(slow.message).toMatch(new RegExp(`within ${REQUEST_TIMEOUT_MS} ms`))
    await expectKeptUnsigned(node, contractId, built.unsigned.tx)
    expect(await node.current.follower.sync()).toEqual({ confirmed: [], recorded: [], dropped: [], reachedNode: true })
    await node.restart()
    await expectKeptUnsigned(node, contractId, built.unsigned.tx)

    // 3. Rejecting: Blockfrost's 400 with the ledger's own words.
    const badInputs = `ConwayUtxowFailure (UtxoFailure (BadInputsUTxO (fromList [TxIn (TxId {unTxId = SafeHash "${SEED_TX}"}) (TxIx {unTxIx = 0})])))`
    node.peer.state.submit = () => ({ status: 400, body: errorBody(400, ledgerRejection([badInputs])) })
    const rejected = await refusal(node.current.service.submitBuild(contractId.slice(0, 64), signed))
    expect(rejected).toMatchObject({ kind: 'Forbidden', code: 'SubmissionError', details: { reason: badInputs } })
    await expectKeptUnsigned(node, contractId, built.unsigned.tx)
    await node.restart()
    await expectKeptUnsigned(node, contractId, built.unsigned.tx)

    // 4. Healthy: accepted into the mempool, then confirmed in a block.
    node.peer.state.submit = (tx) => {
      const id = decodeTransaction(tx).id
      node.peer.state.mempool.set(id, { tx: { hash: id } })
      return { status: 200, body: JSON.stringify(id) }
    }
    await node.current.service.submitBuild(contractId.slice(0, 64), signed)
    expect((await node.current.service.getContract(contractId)).status).toBe('submitted')
    expect([...node.peer.state.mempool.keys()]).toEqual([txId])
    expect(node.peer.requestsTo(SUBMIT)).toHaveLength(3) // slow, rejected, accepted
    expect(await node.current.follower.sync()).toEqual({ confirmed: [], recorded: [], dropped: [], reachedNode: true })

    const block = { hash: 'bc'.repeat(32), height: 2_800_124n, slot: 75_958_420n }
    node.peer.state.mempool.delete(txId)
    node.peer.state.txs.set(txId, { hash: txId, block: block.hash, block_height: block.height, slot: block.slot })
    expect(await node.current.follower.sync()).toEqual({
      confirmed: [txId],
      recorded: [],
      dropped: [],
      reachedNode: true
    })
    expect(await node.current.service.getContract(contractId)).toMatchObject({
      status: 'confirmed',
      block: { slot: block.slot, blockNo: block.height, blockHash: block.hash }
    })
  })
})
