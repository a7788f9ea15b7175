import { describe, expect, test, vi } from 'vitest'
import type { PeerBlock } from './peer'
import { connect, failure, startPeer } from './support'

const X = 'aa'.repeat(32)
const Y = 'bb'.repeat(32)
const Z = 'cc'.repeat(32)

function confirmedIn(block: PeerBlock) {
  return { status: 'confirmed', block: { slot: block.slot, blockNo: block.height, blockHash: block.id } }
}

describe('txStatus follows a transaction through mempool, block and rollback', () => {
  test('unknown → pending → confirmed → unknown after the block is rolled back', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    await peer.followersIdle()
    expect(await provider.txStatus(X)).toEqual({ status: 'unknown' })

    peer.addToMempool(X)
    expect(await provider.txStatus(X)).toEqual({ status: 'pending' })
    // Each check releases its mempool snapshot (or the next acquire would wait for the mempool to change).
    expect(
      peer.requests.filter((r) => r.method.endsWith('Mempool') || r.method === 'hasTransaction').map((r) => r.method)
    ).toEqual([
      'acquireMempool',
      'hasTransaction',
      'releaseMempool',
      'acquireMempool',
      'hasTransaction',
      'releaseMempool'
    ])

    const block = peer.addBlock([Y, X])
    await peer.followersIdle()
    expect(await provider.txStatus(X)).toEqual(confirmedIn(block))
    expect(await provider.txStatus(X.toUpperCase())).toEqual(confirmedIn(block))
    expect(await provider.txStatus(Y)).toEqual(confirmedIn(block))

    peer.rollBack(1)
    await peer.followersIdle()
    expect(await provider.txStatus(X)).toEqual({ status: 'unknown' })

    // Back in a later block after the rollback: confirmed there.
    const again = peer.addBlock([X])
    await peer.followersIdle()
    expect(await provider.txStatus(X)).toEqual(confirmedIn(again))
  })

  test('a transaction submitted through the provider is pending, then confirmed', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    await peer.followersIdle()
    const id = await provider.submit(Uint8Array.of(0x84, 0xa0))
    expect(await provider.txStatus(id)).toEqual({ status: 'pending' })
    const block = peer.addBlock([id])
    await peer.followersIdle()
    expect(await provider.txStatus(id)).toEqual(confirmedIn(block))
  })

  test('only blocks seen since connecting count, and only the last `followBlocks` of them', async () => {
    const peer = await startPeer()
    peer.addBlock([Z])
    const provider = await connect(peer, { followBlocks: 2 })
    await peer.followersIdle()
    expect(await provider.txStatus(Z)).toEqual({ status: 'unknown' })

    peer.addBlock([X])
    const b2 = peer.addBlock([Y])
    const b3 = peer.addBlock([Z])
    await peer.followersIdle()
    expect(await provider.txStatus(X)).toEqual({ status: 'unknown' })
    expect(await provider.txStatus(Y)).toEqual(confirmedIn(b2))
    expect(await provider.txStatus(Z)).toEqual(confirmedIn(b3))
  })

  test('an id that is not 32 bytes of hex is unknown without asking the node', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    expect(await provider.txStatus('not-an-id')).toEqual({ status: 'unknown' })
    expect(peer.requestsOf('acquireMempool')).toHaveLength(0)
  })
})

describe('the follower across reconnections', () => {
  test('a rollback that happened while disconnected is noticed on resuming', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    await peer.followersIdle()
    const kept = peer.addBlock([Y])
    const lost = peer.addBlock([X])
    await peer.followersIdle()
    expect(await provider.txStatus(X)).toEqual(confirmedIn(lost))

    await peer.stop()
    peer.rollBack(1)
    const replacement = peer.addBlock([Z])
    await peer.restart()
    await vi.waitFor(() => expect(peer.connections).toBe(2))
    await peer.followersIdle()

    // It resumed from the newest blocks it knew, not from the tip.
    const resumed = peer.requestsOf('findIntersection').at(-1)!
    expect(resumed.params['points']).toContainEqual({ slot: lost.slot, id: lost.id })
    expect(resumed.params['points']).toContainEqual({ slot: kept.slot, id: kept.id })
    expect(await provider.txStatus(X)).toEqual({ status: 'unknown' })
    expect(await provider.txStatus(Y)).toEqual(confirmedIn(kept))
    expect(await provider.txStatus(Z)).toEqual(confirmedIn(replacement))
  })

  test('when none of the known blocks is on the chain any more, it starts again from the tip', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    await peer.followersIdle()
    peer.addBlock([X])
    await peer.followersIdle()

    await peer.stop()
    peer.rollBack(peer.chain.length)
    peer.addBlock([])
    await peer.restart()
    await vi.waitFor(() => expect(peer.connections).toBe(2))
    await peer.followersIdle()
    expect(await provider.txStatus(X)).toEqual({ status: 'unknown' })
    const next = peer.addBlock([Y])
    await peer.followersIdle()
    expect(await provider.txStatus(Y)).toEqual(confirmedIn(next))
  })

  test('a malformed block restarts the chain-sync session, which goes on following', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    await peer.followersIdle()
    // The follower is already waiting for the next block; the fault meets the request after it.
    peer.fault('nextBlock', { kind: 'answer', answer: { result: { direction: 'sideways' } } })
    peer.addBlock([])
    await vi.waitFor(() => expect(peer.requestsOf('findIntersection')).toHaveLength(2))
    await peer.followersIdle()
    const block = peer.addBlock([X])
    await peer.followersIdle()
    expect(await provider.txStatus(X)).toEqual(confirmedIn(block))
  })

  test('a chain-sync session without a block for too long is restarted', async () => {
    const peer = await startPeer()
    await connect(peer, { nextBlockTimeoutMs: 100 })
    await vi.waitFor(() => expect(peer.requestsOf('findIntersection').length).toBeGreaterThanOrEqual(2))
  })
})

describe('the mempool check', () => {
  test('after a connection lost mid-check, the next check starts afresh', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    peer.addToMempool(X)
    peer.fault('hasTransaction', { kind: 'drop' })
    expect(await failure(provider.txStatus(X))).toMatchObject({ kind: 'Unavailable' })
    expect(await provider.txStatus(X)).toEqual({ status: 'pending' })
  })

  test('after a check that timed out holding a snapshot, the next one releases it first', async () => {
    const peer = await startPeer()
    const provider = await connect(peer, { requestTimeoutMs: 150 })
    peer.fault('hasTransaction', { kind: 'hang' })
    expect(await failure(provider.txStatus(X))).toMatchObject({ kind: 'Unavailable' })
    peer.addToMempool(X)
    // Without the release, this acquire would wait for the mempool to change and the check would time out.
    expect(await provider.txStatus(X)).toEqual({ status: 'pending' })
    expect(peer.requests.map((r) => r.method).filter((m) => m.endsWith('Mempool'))).toEqual([
      'acquireMempool',
      'releaseMempool',
      'acquireMempool',
      'releaseMempool'
    ])
  })

  test('concurrent checks take turns on the one snapshot a connection may hold', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    peer.addToMempool(Y)
    const statuses = await Promise.all([provider.txStatus(X), provider.txStatus(Y), provider.txStatus(Z)])
    expect(statuses.map((s) => s.status)).toEqual(['unknown', 'pending', 'unknown'])
    const methods = peer.requests.map((r) => r.method).filter((m) => m.endsWith('Mempool') || m === 'hasTransaction')
    expect(methods).toEqual(
      Array.from({ length: 3 }, () => ['acquireMempool', 'hasTransaction', 'releaseMempool']).flat()
    )
  })
})
