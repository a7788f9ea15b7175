/**
 * The desk's answers are checked to their leaves (issue 17): a real role contract's review, state, transactions,
 * next steps, list item and payout pass the response schemas as the engine makes them, and one thing wrong deep
 * inside — a key the contract does not declare, a value of the wrong kind, a Marlowe contract, state or input that is
 * not exactly what the core decodes — is refused. The escrow is built, signed and applied to on the sandbox through the wire dispatcher, which checks
 * every answer with the same schemas.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { DeskCall, DeskResponse, PreparedTx, WalletSummary } from '../../../src/api/contract'
import { onDeposit, when } from '../../../src/core/marlowe/examples/dsl'
import { stringifyContract, stringifyInputs } from '../../../src/core/marlowe/json'
import { ADA as ADA_TOKEN, CLOSE, type Party } from '../../../src/core/marlowe/types'
import { RESPONSE_SCHEMAS } from '../../../src/engine/desk/response-schemas'
import { ADA, T0 } from '../build/support'
import { deskHarness, restoreSandboxWallet, PASSWORD, type DeskHarness } from './support'

const DAY = 86_400_000n
const buyer: Party = { type: 'Role', role: 'Buyer' }

let h: DeskHarness
let alice: WalletSummary
let created: PreparedTx
let applied: PreparedTx
let next: DeskResponse<'contracts.next'>

beforeAll(async () => {
  h = await deskHarness()
  alice = await restoreSandboxWallet(h, 'alice')
  created = await h.ok('contracts.create', {
    walletId: alice.id,
    contractJson: stringifyContract(when([onDeposit(buyer, buyer, ADA_TOKEN, 5n * ADA, CLOSE)], T0 + DAY)),
    roles: [{ role: 'Buyer', address: alice.address }],
    tags: ['answer-schemas']
  })
  await h.ok('tx.signAndSubmit', { txId: created.txId, walletId: alice.id, password: PASSWORD })
  await h.opened.follower.sync()
  next = await h.ok('contracts.next', { contractId: created.contractId!, walletId: alice.id })
  applied = await h.ok('contracts.apply', {
    walletId: alice.id,
    contractId: created.contractId!,
    inputsJson: stringifyInputs([
      { content: { type: 'IDeposit', account: buyer, party: buyer, token: ADA_TOKEN, amount: 5n * ADA } }
    ])
  })
  await h.ok('tx.signAndSubmit', { txId: applied.txId, walletId: alice.id, password: PASSWORD })
  await h.opened.follower.sync()
})
afterAll(() => h.close())

type Path = ReadonlyArray<string | number>

/** What is at `path` in `value` (undefined where the path leaves it). */
function at(value: unknown, path: Path): unknown {
  return path.reduce<unknown>(
    (v, key) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined),
    value
  )
}

/** Whether the schema of `call` takes `answer` with `path` set to `to` (taken away when `to` is undefined). */
function takesWith(call: DeskCall, answer: unknown, path: Path = [], to?: unknown): boolean {
  const copy = structuredClone(answer)
  if (path.length > 0) {
    const parent = at(copy, path.slice(0, -1)) as Record<string | number, unknown>
    const key = path[path.length - 1]!
    if (to === undefined) delete parent[key]
    else parent[key] = to
  }
  return RESPONSE_SCHEMAS[call].safeParse(copy).success
}

describe("the desk's answers, to their leaves", () => {
  test('a review: every part checked, its Marlowe datum and step read back', () => {
    expect(h.logged).toEqual([])
    expect(takesWith('contracts.create', created)).toBe(true)
    expect(takesWith('contracts.apply', applied)).toBe(true)
    const wrong = (path: Path, to?: unknown): boolean => !takesWith('contracts.create', created, path, to)
    expect(wrong(['review', 'outputs', 0, 'address', 'extra'], 'x')).toBe(true)
    expect(wrong(['review', 'outputs', 0, 'value', 'lovelace'], 5)).toBe(true)
    expect(wrong(['review', 'fee'])).toBe(true)
    const warnings = created.review.warnings.length
    expect(wrong(['review', 'warnings', warnings], { code: 'made-up', severity: 'info', message: 'A warning.' })).toBe(
      true
    )
    const datumAt = created.review.outputs.findIndex((o) => o.datum?.content?.type === 'marlowe-data')
    expect(datumAt).toBeGreaterThanOrEqual(0)
    const datum = ['review', 'outputs', datumAt, 'datum', 'content', 'marlowe']
    expect(wrong([...datum, 'marloweContract'], 'open')).toBe(true)
    expect(wrong([...datum, 'marloweState', 'accounts'], 'none')).toBe(true)

    const step = ['review', 'marlowe', 'steps', 0]
    expect(at(applied, [...step, 'result', 'type'])).toBe('success')
    const wrongStep = (path: Path, to?: unknown): boolean =>
      !takesWith('contracts.apply', applied, [...step, ...path], to)
    expect(wrongStep(['inputs'], [{ input_from_party: 'me' }])).toBe(true)
    expect(wrongStep(['result', 'payments', 0, 'to'], { nobody: 1n })).toBe(true)
    expect(wrongStep(['result', 'contract'], { when: 'later' })).toBe(true)
  })

  test('a contract and its transactions: the Marlowe model, checked against the core decoder', async () => {
    const detail = await h.ok('contracts.get', { contractId: created.contractId!, walletId: alice.id })
    expect(takesWith('contracts.get', detail)).toBe(true)
    // The deposit closed the escrow: no current contract, and the transaction leaves no Marlowe output.
    expect(detail.contract.current).toBeUndefined()
    expect(detail.transactions).toHaveLength(1)
    expect(detail.transactions[0]!.output).toBeUndefined()
    expect(detail.transactions[0]!.inputs).toEqual([
      { content: { type: 'IDeposit', account: buyer, party: buyer, token: ADA_TOKEN, amount: 5n * ADA } }
    ])
    expect(detail.contract.unclaimedPayouts.map((p) => [p.role, p.assets.lovelace])).toEqual([['Buyer', 5n * ADA]])
    // Another contract in the model's form is taken: the check reads the model, it does not compare with this one.
    expect(takesWith('contracts.get', detail, ['contract', 'initialContract'], CLOSE)).toBe(true)
    const wrong = (path: Path, to?: unknown): boolean => !takesWith('contracts.get', detail, path, to)
    expect(wrong(['contract', 'block', 'extra'], 1n)).toBe(true)
    expect(wrong(['contract', 'block', 'slot'], 5)).toBe(true)
    expect(wrong(['contract', 'version'], 'v1')).toBe(true)
    expect(wrong(['contract', 'initialContract', 'timeout'], 5)).toBe(true)
    expect(wrong(['contract', 'initialContract', 'cases', 0, 'action', 'extra'], 1n)).toBe(true)
    expect(wrong(['contract', 'initialContract', 'cases', 0, 'then'], { type: 'Close', when: [] })).toBe(true)
    expect(wrong(['contract', 'initialContract'], { when: [], timeout: 1n, timeout_continuation: 'close' })).toBe(true)
    expect(wrong(['contract', 'initialState', 'choices'], 'none')).toBe(true)
    expect(wrong(['contract', 'initialState', 'minTime'], 1)).toBe(true)
    expect(wrong(['contract', 'assets', 'lovelace'], 5)).toBe(true)
    expect(wrong(['contract', 'unclaimedPayouts', 0, 'payoutId'], 'abc')).toBe(true)
    expect(wrong(['transactions', 0, 'inputs'], [{ deposits: 1n }])).toBe(true)
    expect(wrong(['transactions', 0, 'inputs', 0, 'content', 'amount'], 5)).toBe(true)
    expect(wrong(['transactions', 0, 'invalidBefore'], '2026-01-01T00:00:00Z')).toBe(true)
    expect(wrong(['transactions', 0, 'inputUtxo'])).toBe(true)
  })

  test('the list item, next steps and payouts', async () => {
    const list = await h.ok('contracts.list', { walletId: alice.id })
    expect(takesWith('contracts.list', list)).toBe(true)
    expect(takesWith('contracts.list', list, [0, 'header', 'contractId'], 'abc#0')).toBe(false)
    expect(takesWith('contracts.list', list, [0, 'header', 'status'], 'closed')).toBe(false)
    expect(takesWith('contracts.list', list, [0, 'header', 'roleTokenMintingPolicyId'], 'ab'.repeat(28))).toBe(false)

    expect(takesWith('contracts.next', next)).toBe(true)
    expect(at(next, ['applicableInputs', 'deposits', 0, 'party'])).toEqual(buyer)
    expect(at(next, ['applicableInputs', 'deposits', 0, 'canDeposit'])).toBe(5n * ADA)
    const deposit = ['applicableInputs', 'deposits', 0]
    expect(takesWith('contracts.next', next, [...deposit, 'party'], { role_token: 'Buyer' })).toBe(false)
    expect(takesWith('contracts.next', next, [...deposit, 'canDeposit'], 5)).toBe(false)
    expect(takesWith('contracts.next', next, ['canReduce'], 'yes')).toBe(false)

    const payouts = await h.ok('payouts.list', { walletId: alice.id })
    expect(payouts).toHaveLength(1)
    expect(takesWith('payouts.list', payouts)).toBe(true)
    expect(payouts[0]).toMatchObject({ contractId: created.contractId, role: 'Buyer', status: 'available' })
    expect(takesWith('payouts.list', payouts, [0, 'rolesCurrency'], 'zz')).toBe(false)
    expect(takesWith('payouts.list', payouts, [0, 'status'], 'spent')).toBe(false)
    expect(takesWith('payouts.list', payouts, [0, 'assets', 'lovelace'], 5)).toBe(false)
    expect(takesWith('payouts.list', payouts, [0, 'payoutValidatorAddress'], 'addr')).toBe(false)
    expect(h.logged).toEqual([])
  })
})
