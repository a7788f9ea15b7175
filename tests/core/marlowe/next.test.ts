import { describe, expect, it } from 'vitest'
import {
  applicableInputs,
  filterByParties,
  next,
  type NextResult,
  type NextSteps
} from '../../../src/core/marlowe/next'
import type { Environment } from '../../../src/core/marlowe/semantics'
import { stringifyJson } from '../../../src/core/json/lossless'
import { encodeNextSteps } from '../../../src/core/marlowe/json/encode'
import {
  ADA,
  CLOSE,
  emptyState,
  type AccountKey,
  type Action,
  type Bound,
  type Case,
  type ChoiceId,
  type Contract,
  type Party,
  type State,
  type Value
} from '../../../src/core/marlowe/types'

const role = (name: string): Party => ({ type: 'Role', role: name })
const A = role('A')
const B = role('B')
const HASH = 'ab'.repeat(32)

const env = (from: bigint, to: bigint): Environment => ({ timeInterval: { from, to } })
const key = (account: Party): AccountKey => ({ account, token: ADA })
const funded = (accounts: [AccountKey, bigint][], minTime = 0n): State => ({ ...emptyState(minTime), accounts })
const choiceId = (name: string, owner: Party = A): ChoiceId => ({ name, owner })
const bound = (from: bigint, to: bigint): Bound => ({ from, to })
const depositAction = (account: Party, party: Party, value: Value): Action => ({
  type: 'Deposit',
  account,
  party,
  token: ADA,
  value
})
const choiceAction = (choice: ChoiceId, ...bounds: Bound[]): Action => ({ type: 'Choice', choice, bounds })
const notifyAction = (observation: boolean): Action => ({ type: 'Notify', observation })
const onCase = (action: Action, then: Contract = CLOSE): Case => ({ type: 'Case', action, then })
const merkleized = (action: Action): Case => ({ type: 'MerkleizedCase', action, hash: HASH })
const when = (cases: Case[], timeout = 1000n, timeoutContinuation: Contract = CLOSE): Contract => ({
  type: 'When',
  cases,
  timeout,
  timeoutContinuation
})

function steps(result: NextResult): NextSteps {
  if (result.type !== 'Next') throw new Error(`expected next steps, got ${result.error.type}`)
  return result
}

const choicesOf = (contract: Contract): [string, number, Bound[]][] =>
  applicableInputs(env(0n, 10n), emptyState(0n), contract).choices.map((c) => [
    c.choice.name,
    c.caseIndex,
    [...c.canChooseBetween]
  ])

describe('next: interval errors', () => {
  it('returns the interval errors of fixInterval unchanged', () => {
    expect(next(env(10n, 5n), emptyState(0n), when([]))).toEqual({
      type: 'IntervalError',
      error: { type: 'InvalidInterval', interval: { from: 10n, to: 5n } }
    })
    expect(next(env(1n, 5n), emptyState(6n), when([]))).toEqual({
      type: 'IntervalError',
      error: { type: 'IntervalInPastError', minTime: 6n, interval: { from: 1n, to: 5n } }
    })
  })

  it('reports an ambiguous interval as InvalidInterval of the untrimmed interval', () => {
    expect(next(env(10n, 200n), emptyState(50n), when([], 100n))).toEqual({
      type: 'IntervalError',
      error: { type: 'InvalidInterval', interval: { from: 10n, to: 200n } }
    })
  })
})

describe('next: reduction', () => {
  it('cannot reduce a When that is still waiting', () => {
    expect(next(env(0n, 10n), emptyState(0n), when([onCase(notifyAction(true))]))).toEqual({
      type: 'Next',
      canReduce: false,
      applicableInputs: { notify: { caseIndex: 0, isMerkleizedContinuation: false }, deposits: [], choices: [] }
    })
  })

  it('can reduce a Close with money and then offers nothing', () => {
    expect(next(env(0n, 10n), funded([[key(A), 1n]]), CLOSE)).toEqual({
      type: 'Next',
      canReduce: true,
      applicableInputs: { deposits: [], choices: [] }
    })
    expect(steps(next(env(0n, 10n), emptyState(0n), CLOSE)).canReduce).toBe(false)
  })

  it('lists the inputs of the When reached by reduction, including after a timeout', () => {
    const inner = when([onCase(depositAction(A, B, 5n))], 2000n)
    const contract = when([onCase(notifyAction(true))], 100n, inner)
    const result = steps(next(env(100n, 110n), emptyState(0n), contract))
    expect(result.canReduce).toBe(true)
    expect(result.applicableInputs).toEqual({
      deposits: [{ party: B, account: A, token: ADA, canDeposit: 5n, caseIndex: 0, isMerkleizedContinuation: false }],
      choices: []
    })
  })

  it('evaluates with the untrimmed interval but the reduced state', () => {
    const contract: Contract = {
      type: 'Pay',
      from: A,
      to: { type: 'Party', party: B },
      token: ADA,
      value: 3n,
      then: when([
        onCase(depositAction(A, A, { type: 'TimeIntervalStart' })),
        onCase(depositAction(A, B, { type: 'AvailableMoney', account: A, token: ADA }))
      ])
    }
    const result = steps(next(env(10n, 20n), funded([[key(A), 10n]], 15n), contract))
    expect(result.canReduce).toBe(true)
    expect(result.applicableInputs.deposits.map((d) => d.canDeposit)).toEqual([10n, 7n])
  })
})

describe('next: deposits', () => {
  it('keeps case indexes and drops a deposit identical to an earlier one', () => {
    const contract = when([
      onCase(notifyAction(false)),
      onCase(depositAction(A, A, 5n)),
      onCase(depositAction(A, A, { type: 'AddValue', left: 2n, right: 3n })),
      merkleized(depositAction(A, A, 5n)),
      onCase(depositAction(A, A, 6n)),
      onCase(depositAction(B, A, 5n)),
      merkleized(depositAction(A, A, 5n))
    ])
    const deposits = applicableInputs(env(0n, 10n), emptyState(0n), contract).deposits
    expect(deposits.map((d) => [d.caseIndex, d.canDeposit, d.isMerkleizedContinuation])).toEqual([
      [1, 5n, false],
      [3, 5n, true],
      [4, 6n, false],
      [5, 5n, false]
    ])
  })
})

describe('next: choices', () => {
  const c = choiceId('c')

  it('removes bounds already covered by earlier cases for the same choice', () => {
    const contract = when([
      onCase(choiceAction(c, bound(0n, 10n))),
      onCase(choiceAction(c, bound(5n, 15n))),
      onCase(choiceAction(c, bound(0n, 15n))),
      onCase(choiceAction(choiceId('c', B), bound(0n, 15n))),
      onCase(choiceAction(c, bound(0n, 20n)))
    ])
    expect(choicesOf(contract)).toEqual([
      ['c', 0, [bound(0n, 10n)]],
      ['c', 1, [bound(11n, 15n)]],
      ['c', 3, [bound(0n, 15n)]],
      ['c', 4, [bound(16n, 20n)]]
    ])
  })

  it('splits a bound around a covered point', () => {
    const contract = when([
      onCase(choiceAction(c, bound(5n, 5n))),
      onCase(choiceAction(c, bound(0n, 10n))),
      onCase(choiceAction(c, bound(3n, 3n), bound(7n, 7n), bound(20n, 30n)))
    ])
    expect(choicesOf(contract)).toEqual([
      ['c', 0, [bound(5n, 5n)]],
      ['c', 1, [bound(0n, 4n), bound(6n, 10n)]],
      ['c', 2, [bound(20n, 30n)]]
    ])
  })

  it('keeps pieces apart when only a removed point separates them', () => {
    const contract = when([
      onCase(choiceAction(c, bound(2n, 2n), bound(4n, 4n))),
      onCase(choiceAction(c, bound(1n, 5n)))
    ])
    expect(choicesOf(contract)[1]).toEqual(['c', 1, [bound(1n, 1n), bound(3n, 3n), bound(5n, 5n)]])
  })

  it('sorts and merges overlapping bounds but keeps adjacent ones apart', () => {
    const contract = when([
      onCase(choiceAction(choiceId('sorted'), bound(5n, 6n), bound(1n, 2n))),
      onCase(choiceAction(choiceId('overlap'), bound(1n, 3n), bound(3n, 5n), bound(2n, 4n))),
      onCase(choiceAction(choiceId('adjacent'), bound(1n, 2n), bound(3n, 4n)))
    ])
    expect(choicesOf(contract)).toEqual([
      ['sorted', 0, [bound(1n, 2n), bound(5n, 6n)]],
      ['overlap', 1, [bound(1n, 5n)]],
      ['adjacent', 2, [bound(1n, 2n), bound(3n, 4n)]]
    ])
  })

  it('drops a choice without bounds and swaps an inverted bound, as Haskell does', () => {
    const contract = when([
      onCase(choiceAction(choiceId('none'))),
      onCase(choiceAction(choiceId('inverted'), bound(9n, 2n)))
    ])
    expect(choicesOf(contract)).toEqual([['inverted', 1, [bound(2n, 9n)]]])
  })

  it('marks merkleized continuations', () => {
    const contract = when([merkleized(choiceAction(c, bound(1n, 1n)))])
    expect(applicableInputs(env(0n, 10n), emptyState(0n), contract).choices).toEqual([
      { choice: c, canChooseBetween: [bound(1n, 1n)], caseIndex: 0, isMerkleizedContinuation: true }
    ])
  })
})

describe('next: notify', () => {
  it('offers only the first Notify whose observation holds', () => {
    const contract = when([onCase(notifyAction(false)), merkleized(notifyAction(true)), onCase(notifyAction(true))])
    expect(applicableInputs(env(0n, 10n), emptyState(0n), contract).notify).toEqual({
      caseIndex: 1,
      isMerkleizedContinuation: true
    })
  })

  it('omits notify when no observation holds', () => {
    const inputs = applicableInputs(env(0n, 10n), emptyState(0n), when([onCase(notifyAction(false))]))
    expect(inputs).toEqual({ deposits: [], choices: [] })
    expect('notify' in inputs).toBe(false)
  })
})

describe('next: parties filter', () => {
  const contract = when([
    onCase(depositAction(A, B, 1n)),
    onCase(depositAction(B, A, 2n)),
    onCase(choiceAction(choiceId('a', A), bound(0n, 1n))),
    onCase(choiceAction(choiceId('b', B), bound(0n, 1n))),
    onCase(notifyAction(true))
  ])

  it('keeps the deposits and choices the parties perform, and notify', () => {
    const result = steps(next(env(0n, 10n), emptyState(0n), contract, [B]))
    expect(result.applicableInputs.deposits.map((d) => d.caseIndex)).toEqual([0])
    expect(result.applicableInputs.choices.map((c) => c.caseIndex)).toEqual([3])
    expect(result.applicableInputs.notify).toEqual({ caseIndex: 4, isMerkleizedContinuation: false })
  })

  it('does not filter without parties', () => {
    const all = steps(next(env(0n, 10n), emptyState(0n), contract)).applicableInputs
    expect(steps(next(env(0n, 10n), emptyState(0n), contract, [])).applicableInputs).toEqual(all)
    expect(all.deposits).toHaveLength(2)
    expect(all.choices).toHaveLength(2)
  })

  it('filterByParties can drop everything but notify', () => {
    const all = applicableInputs(env(0n, 10n), emptyState(0n), contract)
    expect(filterByParties(all, [role('C')])).toEqual({ notify: all.notify, deposits: [], choices: [] })
  })
})

describe('next steps JSON', () => {
  it("encodes Runtime's GET /contracts/{id}/next body", () => {
    const contract: Contract = {
      type: 'When',
      cases: [
        {
          type: 'Case',
          action: { type: 'Deposit', account: role('A'), party: role('B'), token: ADA, value: 5n },
          then: CLOSE
        },
        {
          type: 'MerkleizedCase',
          action: { type: 'Choice', choice: { name: 'c', owner: role('A') }, bounds: [{ from: 1n, to: 3n }] },
          hash: 'ab'.repeat(32)
        },
        { type: 'Case', action: { type: 'Notify', observation: true }, then: CLOSE }
      ],
      timeout: 1000n,
      timeoutContinuation: CLOSE
    }
    const result = next({ timeInterval: { from: 0n, to: 10n } }, emptyState(0n), contract)
    if (result.type !== 'Next') throw new Error('expected next steps')
    expect(stringifyJson(encodeNextSteps(result))).toBe(
      '{"applicable_inputs":{"choices":[{"can_choose_between":[{"from":1,"to":3}],"case_index":1,"for_choice":{"choice_name":"c","choice_owner":{"role_token":"A"}},"is_merkleized_continuation":true}],' +
        '"deposits":[{"can_deposit":5,"case_index":0,"into_account":{"role_token":"A"},"is_merkleized_continuation":false,"of_token":{"currency_symbol":"","token_name":""},"party":{"role_token":"B"}}],' +
        '"notify":{"case_index":2,"is_merkleized_continuation":false}},"can_reduce":false}'
    )
  })
})
