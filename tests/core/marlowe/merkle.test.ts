import { describe, expect, it } from 'vitest'
import { deepMerkleize, inputForCase } from '../../../src/core/marlowe/merkle'
import { merkleHash } from '../../../src/core/marlowe/plutus/hash'
import { computeTransaction } from '../../../src/core/marlowe/semantics'
import { escrow } from '../../../src/core/marlowe/examples'
import { ADA, emptyState, type Contract, type Party } from '../../../src/core/marlowe/types'

const role = (r: string): Party => ({ type: 'Role', role: r })
const buyer = role('Buyer')
const seller = role('Seller')

const contract: Contract = {
  type: 'When',
  cases: [
    {
      type: 'Case',
      action: { type: 'Deposit', account: seller, party: buyer, token: ADA, value: 10n },
      then: {
        type: 'When',
        cases: [{ type: 'Case', action: { type: 'Notify', observation: true }, then: { type: 'Close' } }],
        timeout: 200n,
        timeoutContinuation: { type: 'Close' }
      }
    },
    { type: 'Case', action: { type: 'Notify', observation: false }, then: { type: 'Close' } }
  ],
  timeout: 100n,
  timeoutContinuation: { type: 'Close' }
}

describe('deepMerkleize', () => {
  it('replaces non-Close continuations by their hash and keeps Close cases', () => {
    const { contract: m, continuations } = deepMerkleize(contract)
    if (m.type !== 'When') throw new Error('expected When')
    const [first, second] = m.cases
    expect(first?.type).toBe('MerkleizedCase')
    expect(second).toEqual(contract.type === 'When' ? contract.cases[1] : undefined)
    if (first?.type !== 'MerkleizedCase') throw new Error('expected a merkleized case')
    expect(continuations.get(first.hash)).toEqual(
      contract.type === 'When' && contract.cases[0]?.type === 'Case' ? contract.cases[0].then : undefined
    )
    expect(first.hash).toBe(merkleHash(continuations.get(first.hash) ?? { type: 'Close' }))
  })

  it('plays the same as the original when continuations are revealed', () => {
    const { contract: m, continuations } = deepMerkleize(contract)
    if (m.type !== 'When') throw new Error('expected When')
    const deposit = { type: 'IDeposit' as const, account: seller, party: buyer, token: ADA, amount: 10n }
    const plain = computeTransaction(
      { interval: { from: 0n, to: 50n }, inputs: [{ content: deposit }] },
      emptyState(0n),
      contract
    )
    const merkle = computeTransaction(
      { interval: { from: 0n, to: 50n }, inputs: [inputForCase(m, 0, deposit, continuations)] },
      emptyState(0n),
      m
    )
    expect(merkle).toEqual(plain)
    expect(
      computeTransaction({ interval: { from: 0n, to: 50n }, inputs: [{ content: deposit }] }, emptyState(0n), m)
    ).toEqual({
      type: 'Error',
      error: { type: 'TEHashMismatch' }
    })
  })

  it('merkleizes nested continuations bottom-up, so each table entry is itself merkleized', () => {
    const { contract: e } = escrow({
      price: 100n,
      token: ADA,
      seller,
      buyer,
      mediator: role('Mediator'),
      paymentDeadline: 1000n,
      complaintDeadline: 2000n,
      disputeDeadline: 3000n,
      mediationDeadline: 4000n
    })
    const { continuations } = deepMerkleize(e)
    expect(continuations.size).toBeGreaterThan(1)
    for (const [hash, k] of continuations) {
      expect(merkleHash(k)).toBe(hash)
      if (k.type === 'When') {
        for (const x of k.cases) expect(x.type === 'MerkleizedCase' || x.then.type === 'Close').toBe(true)
      }
    }
  })

  it('refuses a case index or hash it cannot resolve', () => {
    const { contract: m } = deepMerkleize(contract)
    if (m.type !== 'When') throw new Error('expected When')
    expect(() => inputForCase(m, 5, { type: 'INotify' }, new Map())).toThrow('the When has 2 cases, no case 5')
    expect(() => inputForCase(m, 0, { type: 'INotify' }, new Map())).toThrow('no continuation with hash')
  })
})
