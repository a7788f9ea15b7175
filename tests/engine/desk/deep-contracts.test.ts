/**
 * The desk and the depth policy, through the wire dispatcher: a contract whose transaction could not be read
 * back is refused (and so never stored to break `contracts.list`), the deepest that fits is created, listed and
 * opened, and labels are held to what the desk's own answers can carry back to the window.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { WalletSummary } from '../../../src/api/contract'
import { MAX_LABEL_DEPTH, MAX_WRITTEN_DATA_CBOR_DEPTH } from '../../../src/core/depth-limits'
import { T0 } from '../build/support'
import { deskHarness, restoreSandboxWallet, type DeskHarness } from './support'

/** Pays `n` nested negations of 1 from the address's account to itself: a datum 2n + 6 CBOR levels deep. */
function negates(n: number, address: string): string {
  const party = `{"address":"${address}"}`
  const value = `${'{"negate":'.repeat(n)}1${'}'.repeat(n)}`
  return `{"from_account":${party},"to":{"party":${party}},"token":{"currency_symbol":"","token_name":""},"pay":${value},"then":"close"}`
}

function whens(n: number): string {
  let text = '"close"'
  for (let i = 0; i < n; i++) {
    text = `{"when":[{"case":{"notify_if":true},"then":${text}}],"timeout":${T0 + 86_400_000n},"timeout_continuation":"close"}`
  }
  return text
}

/** A value nested `levels` objects deep around an integer: the deepest echo a label has (the review's). */
const nested = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`

let h: DeskHarness
let alice: WalletSummary
let bob: WalletSummary

beforeAll(async () => {
  h = await deskHarness()
  alice = await restoreSandboxWallet(h, 'alice')
  bob = await restoreSandboxWallet(h, 'bob')
})
afterAll(() => h.close())

const create = (walletId: string, contractJson: string, metadataJson?: string) => ({
  walletId,
  contractJson,
  roles: [],
  tags: [],
  ...(metadataJson === undefined ? {} : { metadataJson })
})

describe('contracts.create', () => {
  test.each([
    ['700 nested negations', () => negates(700, alice.address), 1406],
    ['330 nested Whens', () => whens(330), 1655]
  ])('%s: refused with the depth and the limit; contracts.list still answers', async (_name, contract, depth) => {
    const error = await h.fails('contracts.create', create(alice.id, contract()), 'ContractTooDeep')
    expect(error.message).toContain(`nests ${depth} CBOR levels, and at most ${MAX_WRITTEN_DATA_CBOR_DEPTH} fit`)
    expect(error.details).toMatchObject({ depth: BigInt(depth), limit: BigInt(MAX_WRITTEN_DATA_CBOR_DEPTH) })
    expect(await h.ok('contracts.list', {})).toEqual([])
    expect(await h.ok('contracts.list', { walletId: alice.id })).toEqual([])
  })

  test('the deepest contract that fits: created, reviewed, listed and opened', async () => {
    const prepared = await h.ok(
      'contracts.create',
      create(alice.id, negates((MAX_WRITTEN_DATA_CBOR_DEPTH - 6) / 2, alice.address))
    )
    expect(prepared.kind).toBe('create')
    const listed = await h.ok('contracts.list', {})
    expect(listed.map((c) => c.header.contractId)).toEqual([prepared.contractId])
    expect(await h.ok('contracts.list', { walletId: alice.id })).toHaveLength(1)
    const detail = await h.ok('contracts.get', { contractId: prepared.contractId ?? '' })
    expect(detail.contract.status).toBe('unsigned')
  })

  test('metadata as deep as the answers can carry back; one level more is refused', async () => {
    const prepared = await h.ok('contracts.create', create(bob.id, '"close"', `{"1":${nested(MAX_LABEL_DEPTH)}}`))
    // The list answer carries the metadata back over the wire, as the window reads it.
    expect((await h.ok('contracts.list', {})).map((c) => c.header.contractId)).toContain(prepared.contractId)
    const error = await h.fails(
      'contracts.create',
      create(bob.id, '"close"', `{"1":${nested(MAX_LABEL_DEPTH + 1)}}`),
      'InvalidMetadata'
    )
    expect(error.message).toMatch(new RegExp(`metadata nests deeper than ${MAX_LABEL_DEPTH} levels\\.$`))
  })
})
