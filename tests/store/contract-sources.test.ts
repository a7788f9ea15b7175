/**
 * The contract store (Runtime's contract sources) in both stores: a merkleized contract and its continuations
 * stored in one upload come back exactly (amounts beyond 2^53 too), with the hashes each names and the closure
 * of what is reachable from each, in hex order; a hash never stored is absent, and storing again changes nothing.
 */
import { describe, expect, it } from 'vitest'
import { onChoice, onDeposit, payToParty, when } from '../../src/core/marlowe/examples/dsl'
import { deepMerkleize } from '../../src/core/marlowe/merkle'
import { merkleHash } from '../../src/core/marlowe/plutus/hash'
import { ADA, CLOSE, type Contract, type Party } from '../../src/core/marlowe/types'
import { storeBackends } from './backends'

const alice: Party = { type: 'Role', role: 'alice' }
const bob: Party = { type: 'Role', role: 'bob' }
const big = 2n ** 60n + 1n

/** Two levels of merkleized cases under the root, three continuations in all. */
const contract: Contract = when(
  [
    onDeposit(
      alice,
      alice,
      ADA,
      big,
      when([onChoice('ok', bob, 1n, payToParty(alice, bob, ADA, big, CLOSE))], 2000n, CLOSE)
    ),
    onChoice('cancel', alice, 0n, payToParty(alice, alice, ADA, 1n, CLOSE))
  ],
  1000n,
  CLOSE
)

describe.each(storeBackends())('contract sources in $name', ({ available, fresh }) => {
  it.skipIf(!available)('keeps an upload whole and answers its adjacency and closures', async () => {
    const merkleized = deepMerkleize(contract)
    const root = merkleHash(merkleized.contract)
    const all = new Map([[root, merkleized.contract], ...merkleized.continuations])
    expect(merkleized.continuations.size).toBe(3)
    const db = await fresh()
    const sources = (await db.open()).sources
    await sources.addAll(all)
    await sources.addAll(all)

    const other = (await db.open()).sources
    for (const [hash, stored] of all) {
      expect(await other.has(hash)).toBe(true)
      expect(await other.get(hash)).toEqual(stored)
    }
    const children = (await other.adjacency(root))!
    expect(children).toHaveLength(2)
    expect([...children]).toEqual([...children].sort())
    expect(await other.closure(root)).toEqual([...all.keys()].sort())
    for (const child of children) {
      const below = [child, ...((await other.adjacency(child)) ?? [])].sort()
      expect(await other.closure(child)).toEqual(below)
    }
    const missing = 'ff'.repeat(32)
    expect(await other.has(missing)).toBe(false)
    expect(await other.get(missing)).toBeUndefined()
    expect(await other.adjacency(missing)).toBeUndefined()
    expect(await other.closure(missing)).toBeUndefined()
    expect(await db.count('contract_sources')).toBe(4)
  })
})
