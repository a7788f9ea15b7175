import { describe, expect, it } from 'vitest'
import {
  applyAllInputs,
  applyInput,
  computeTransaction,
  contractLifespanUpperBound,
  evalObservation,
  evalValue,
  fixInterval,
  nextTimeout,
  playTrace,
  reduceContractStep,
  reduceContractUntilQuiescent,
  type Environment
} from '../../../src/core/marlowe/semantics'
import {
  ADA,
  CLOSE,
  emptyState,
  type AccountKey,
  type Action,
  type Case,
  type ChoiceId,
  type Contract,
  type Input,
  type Observation,
  type Party,
  type Payee,
  type Payment,
  type State,
  type Token,
  type TransactionInput,
  type TransactionOutput,
  type TransactionSuccess,
  type Value
} from '../../../src/core/marlowe/types'

const role = (name: string): Party => ({ type: 'Role', role: name })
const A = role('A')
const B = role('B')
const C = role('C')
const DOLLAR: Token = { currencySymbol: '85bb65', tokenName: 'dollar' }
const HASH_1 = '1'.repeat(64)
const HASH_2 = '2'.repeat(64)

const env = (from: bigint, to: bigint): Environment => ({ timeInterval: { from, to } })
const key = (account: Party, token: Token = ADA): AccountKey => ({ account, token })
const stateWith = (accounts: [AccountKey, bigint][], minTime = 0n, extra: Partial<State> = {}): State => ({
  ...emptyState(minTime),
  accounts,
  ...extra
})
const choiceId = (name: string, owner: Party = A): ChoiceId => ({ name, owner })

const depositAction = (account: Party, party: Party, value: Value, token: Token = ADA): Action => ({
  type: 'Deposit',
  account,
  party,
  token,
  value
})
const deposit = (account: Party, party: Party, amount: bigint, token: Token = ADA): Input => ({
  content: { type: 'IDeposit', account, party, token, amount }
})
const choose = (choice: ChoiceId, chosen: bigint): Input => ({ content: { type: 'IChoice', choice, chosen } })
const notify: Input = { content: { type: 'INotify' } }
const notifyTrue: Action = { type: 'Notify', observation: true }
const onCase = (action: Action, then: Contract = CLOSE): Case => ({ type: 'Case', action, then })
const when = (cases: Case[], timeout: bigint, timeoutContinuation: Contract = CLOSE): Contract => ({
  type: 'When',
  cases,
  timeout,
  timeoutContinuation
})
const pay = (from: Party, to: Payee, value: Value, then: Contract = CLOSE, token: Token = ADA): Contract => ({
  type: 'Pay',
  from,
  to,
  token,
  value,
  then
})
const toParty = (party: Party): Payee => ({ type: 'Party', party })
const toAccount = (account: Party): Payee => ({ type: 'Account', account })
const tx = (from: bigint, to: bigint, ...inputs: Input[]): TransactionInput => ({ interval: { from, to }, inputs })
const payment = (from: Party, to: Payee, amount: bigint, token: Token = ADA): Payment => ({ from, to, token, amount })

function success(output: TransactionOutput): TransactionSuccess {
  if (output.type !== 'Success') throw new Error(`expected success, got ${JSON.stringify(output.error)}`)
  return output
}

describe('fixInterval', () => {
  it('rejects an inverted interval as InvalidInterval of the original interval', () => {
    const interval = { from: 10n, to: 9n }
    expect(fixInterval(interval, emptyState(0n))).toEqual({
      type: 'IntervalError',
      error: { type: 'InvalidInterval', interval: { from: 10n, to: 9n } }
    })
  })

  it('checks the order before the past, so an inverted interval in the past is InvalidInterval', () => {
    const result = fixInterval({ from: 5n, to: 1n }, emptyState(100n))
    expect(result.type === 'IntervalError' && result.error.type).toBe('InvalidInterval')
  })

  it('rejects an interval ending before minTime with the untrimmed interval', () => {
    expect(fixInterval({ from: 10n, to: 49n }, emptyState(50n))).toEqual({
      type: 'IntervalError',
      error: { type: 'IntervalInPastError', minTime: 50n, interval: { from: 10n, to: 49n } }
    })
  })

  it('accepts an interval ending exactly at minTime, trimmed to a single instant', () => {
    expect(fixInterval({ from: 10n, to: 50n }, emptyState(50n))).toEqual({
      type: 'IntervalTrimmed',
      environment: env(50n, 50n),
      state: emptyState(50n)
    })
  })

  it('raises the start to minTime and records a later start as the new minTime', () => {
    expect(fixInterval({ from: 10n, to: 90n }, emptyState(50n))).toMatchObject({ environment: env(50n, 90n) })
    expect(fixInterval({ from: 70n, to: 90n }, emptyState(50n))).toMatchObject({
      environment: env(70n, 90n),
      state: { minTime: 70n }
    })
  })
})

describe('evalValue and evalObservation', () => {
  const e = env(100n, 200n)
  const s = stateWith([[key(A), 42n]], 0n, {
    choices: [[choiceId('c'), 7n]],
    boundValues: [['x', -3n]]
  })
  const div = (n: bigint, d: bigint): Value => ({ type: 'DivValue', left: n, right: d })

  it('divides truncating toward zero and gives 0 for a zero divisor', () => {
    expect(evalValue(e, s, div(-7n, 2n))).toBe(-3n)
    expect(evalValue(e, s, div(7n, -2n))).toBe(-3n)
    expect(evalValue(e, s, div(-7n, -2n))).toBe(3n)
    expect(evalValue(e, s, div(7n, 2n))).toBe(3n)
    expect(evalValue(e, s, div(7n, 0n))).toBe(0n)
    expect(evalValue(e, s, div(-7n, 0n))).toBe(0n)
  })

  it('computes with integers beyond 2^53 exactly', () => {
    const big = 10n ** 50n + 1n
    expect(evalValue(e, s, { type: 'MulValue', left: big, right: big })).toBe(big * big)
    expect(evalValue(e, s, { type: 'SubValue', left: big, right: { type: 'NegValue', value: big } })).toBe(2n * big)
    expect(evalValue(e, s, { type: 'AddValue', left: big, right: 1n })).toBe(big + 1n)
  })

  it('reads balances, choices and bound values, with 0 when missing', () => {
    expect(evalValue(e, s, { type: 'AvailableMoney', account: A, token: ADA })).toBe(42n)
    expect(evalValue(e, s, { type: 'AvailableMoney', account: A, token: DOLLAR })).toBe(0n)
    expect(evalValue(e, s, { type: 'AvailableMoney', account: B, token: ADA })).toBe(0n)
    expect(evalValue(e, s, { type: 'ChoiceValue', choice: choiceId('c') })).toBe(7n)
    expect(evalValue(e, s, { type: 'ChoiceValue', choice: choiceId('c', B) })).toBe(0n)
    expect(evalValue(e, s, { type: 'UseValue', id: 'x' })).toBe(-3n)
    expect(evalValue(e, s, { type: 'UseValue', id: 'y' })).toBe(0n)
  })

  it('reads the interval bounds and evaluates Cond', () => {
    expect(evalValue(e, s, { type: 'TimeIntervalStart' })).toBe(100n)
    expect(evalValue(e, s, { type: 'TimeIntervalEnd' })).toBe(200n)
    expect(evalValue(e, s, { type: 'Cond', observation: true, then: 1n, else: 2n })).toBe(1n)
    expect(evalValue(e, s, { type: 'Cond', observation: false, then: 1n, else: 2n })).toBe(2n)
  })

  it('evaluates observations', () => {
    const obs = (o: Observation): boolean => evalObservation(e, s, o)
    expect(obs({ type: 'ChoseSomething', choice: choiceId('c') })).toBe(true)
    expect(obs({ type: 'ChoseSomething', choice: choiceId('d') })).toBe(false)
    expect(obs({ type: 'AndObs', left: true, right: false })).toBe(false)
    expect(obs({ type: 'OrObs', left: false, right: true })).toBe(true)
    expect(obs({ type: 'NotObs', observation: false })).toBe(true)
    expect(obs({ type: 'ValueGE', left: 2n, right: 2n })).toBe(true)
    expect(obs({ type: 'ValueGT', left: 2n, right: 2n })).toBe(false)
    expect(obs({ type: 'ValueLT', left: 1n, right: 2n })).toBe(true)
    expect(obs({ type: 'ValueLE', left: 3n, right: 2n })).toBe(false)
    expect(obs({ type: 'ValueEQ', left: { type: 'UseValue', id: 'x' }, right: -3n })).toBe(true)
  })
})

describe('computeTransaction: interval handling and timeouts', () => {
  const waiting = when([onCase(notifyTrue)], 100n, pay(A, toParty(B), 1n))
  const funded = stateWith([[key(A), 5n]])

  it('maps interval errors to TEIntervalError with the original interval', () => {
    expect(computeTransaction(tx(5n, 4n), funded, waiting)).toEqual({
      type: 'Error',
      error: { type: 'TEIntervalError', error: { type: 'InvalidInterval', interval: { from: 5n, to: 4n } } }
    })
    expect(computeTransaction(tx(1n, 9n), stateWith([[key(A), 5n]], 10n), waiting)).toEqual({
      type: 'Error',
      error: {
        type: 'TEIntervalError',
        error: { type: 'IntervalInPastError', minTime: 10n, interval: { from: 1n, to: 9n } }
      }
    })
  })

  it('applies inputs when the interval ends before the timeout', () => {
    const out = success(computeTransaction(tx(0n, 99n, notify), funded, waiting))
    expect(out.contract).toEqual(CLOSE)
    expect(out.payments).toEqual([payment(A, toParty(A), 5n)])
  })

  it('times out once the start reaches the timeout', () => {
    const out = success(computeTransaction(tx(100n, 150n), funded, waiting))
    expect(out.payments).toEqual([payment(A, toParty(B), 1n), payment(A, toParty(A), 4n)])
    expect(out.state).toEqual(stateWith([], 100n))
  })

  it('rejects an interval that contains the timeout as ambiguous', () => {
    expect(computeTransaction(tx(99n, 100n), funded, waiting)).toEqual({
      type: 'Error',
      error: { type: 'TEAmbiguousTimeIntervalError' }
    })
    expect(computeTransaction(tx(50n, 150n, notify), funded, waiting).type).toBe('Error')
  })

  it('uses the start trimmed to minTime when deciding a timeout', () => {
    const late = stateWith([[key(A), 5n]], 100n)
    const out = success(computeTransaction(tx(50n, 150n), late, waiting))
    expect(out.contract).toEqual(CLOSE)
    expect(out.state.minTime).toBe(100n)
  })

  it('evaluates TimeIntervalStart with the trimmed start', () => {
    const contract: Contract = {
      type: 'Let',
      id: 'start',
      value: { type: 'TimeIntervalStart' },
      then: when([], 1000n)
    }
    const out = success(computeTransaction(tx(10n, 20n), emptyState(15n), contract))
    expect(out.state.boundValues).toEqual([['start', 15n]])
    expect(out.state.minTime).toBe(15n)
  })
})

describe('computeTransaction: errors', () => {
  const depositCase = when([onCase(depositAction(A, A, 10n))], 100n)

  it('reports an input no case accepts as TEApplyNoMatchError', () => {
    const error = { type: 'Error', error: { type: 'TEApplyNoMatchError' } }
    expect(computeTransaction(tx(0n, 10n, deposit(A, A, 9n)), emptyState(0n), depositCase)).toEqual(error)
    expect(computeTransaction(tx(0n, 10n, deposit(A, B, 10n)), emptyState(0n), depositCase)).toEqual(error)
    expect(computeTransaction(tx(0n, 10n, deposit(A, A, 10n, DOLLAR)), emptyState(0n), depositCase)).toEqual(error)
    expect(computeTransaction(tx(0n, 10n, notify), emptyState(0n), depositCase)).toEqual(error)
  })

  it('reports an input to a contract that is not waiting as TEApplyNoMatchError', () => {
    expect(computeTransaction(tx(0n, 10n, notify), stateWith([[key(A), 1n]]), CLOSE)).toEqual({
      type: 'Error',
      error: { type: 'TEApplyNoMatchError' }
    })
  })

  it('reports a transaction that changes nothing as TEUselessTransaction', () => {
    const useless = { type: 'Error', error: { type: 'TEUselessTransaction' } }
    expect(computeTransaction(tx(0n, 10n), emptyState(0n), depositCase)).toEqual(useless)
    expect(computeTransaction(tx(0n, 10n), emptyState(0n), CLOSE)).toEqual(useless)
  })

  it('lets a Close holding only non-positive balances succeed, moving only minTime', () => {
    const odd = stateWith(
      [
        [key(A), -5n],
        [key(B), 0n]
      ],
      3n
    )
    const out = success(computeTransaction(tx(7n, 10n), odd, CLOSE))
    expect(out.payments).toEqual([])
    expect(out.warnings).toEqual([])
    expect(out.contract).toEqual(CLOSE)
    expect(out.state).toEqual({ ...odd, minTime: 7n })
  })
})

describe('computeTransaction: merkleized cases', () => {
  const revealed = pay(A, toParty(B), 4n)
  const merkleizedCase = (action: Action, hash: string): Case => ({ type: 'MerkleizedCase', action, hash })
  const merkleizedNotify = (hash: string, continuation: Contract = revealed): Input => ({
    content: { type: 'INotify' },
    merkleized: { hash, continuation }
  })
  const funded = stateWith([[key(A), 10n]])
  const mismatch = { type: 'Error', error: { type: 'TEHashMismatch' } }

  it('applies the revealed continuation of a matching merkleized case', () => {
    const contract = when([merkleizedCase(notifyTrue, HASH_1)], 100n)
    const out = success(computeTransaction(tx(0n, 10n, merkleizedNotify(HASH_1)), funded, contract))
    expect(out.payments).toEqual([payment(A, toParty(B), 4n), payment(A, toParty(A), 6n)])
    expect(out.contract).toEqual(CLOSE)
  })

  it('rejects a normal input for a merkleized case', () => {
    const contract = when([merkleizedCase(notifyTrue, HASH_1)], 100n)
    expect(computeTransaction(tx(0n, 10n, notify), funded, contract)).toEqual(mismatch)
  })

  it('rejects a merkleized input for a normal case', () => {
    const contract = when([onCase(notifyTrue)], 100n)
    expect(computeTransaction(tx(0n, 10n, merkleizedNotify(HASH_1)), funded, contract)).toEqual(mismatch)
  })

  it('rejects a different hash', () => {
    const contract = when([merkleizedCase(notifyTrue, HASH_1)], 100n)
    expect(computeTransaction(tx(0n, 10n, merkleizedNotify(HASH_2)), funded, contract)).toEqual(mismatch)
  })

  it('decides at the first case whose action matches, without trying later cases', () => {
    const action = depositAction(A, A, 3n)
    const contract = when([onCase(depositAction(A, A, 99n)), merkleizedCase(action, HASH_1), onCase(action)], 100n)
    expect(computeTransaction(tx(0n, 10n, deposit(A, A, 3n)), funded, contract)).toEqual(mismatch)
    const later = when([merkleizedCase(action, HASH_1), merkleizedCase(action, HASH_2)], 100n)
    const input: Input = { ...deposit(A, A, 3n), merkleized: { hash: HASH_2, continuation: CLOSE } }
    expect(computeTransaction(tx(0n, 10n, input), funded, later)).toEqual(mismatch)
  })
})

describe('computeTransaction: payments and warnings', () => {
  it('pays only what the account holds and warns PartialPay', () => {
    const out = success(computeTransaction(tx(0n, 10n), stateWith([[key(A), 30n]]), pay(A, toParty(B), 100n)))
    expect(out.payments).toEqual([payment(A, toParty(B), 30n)])
    expect(out.warnings).toEqual([
      { type: 'PartialPay', account: A, payee: toParty(B), token: ADA, paid: 30n, expected: 100n }
    ])
    expect(out.state.accounts).toEqual([])
  })

  it('reports a payment of 0 when the account is empty', () => {
    const contract = pay(A, toAccount(B), 5n, when([], 100n))
    const out = success(computeTransaction(tx(0n, 10n), stateWith([[key(B), 1n]]), contract))
    expect(out.payments).toEqual([payment(A, toAccount(B), 0n)])
    expect(out.warnings).toEqual([
      { type: 'PartialPay', account: A, payee: toAccount(B), token: ADA, paid: 0n, expected: 5n }
    ])
    expect(out.state.accounts).toEqual([[key(B), 1n]])
  })

  it('warns NonPositivePay and pays nothing for a non-positive amount', () => {
    const contract = pay(A, toParty(B), { type: 'NegValue', value: 3n }, pay(A, toParty(B), 0n, when([], 100n)))
    const out = success(computeTransaction(tx(0n, 10n), stateWith([[key(A), 10n]]), contract))
    expect(out.payments).toEqual([])
    expect(out.warnings).toEqual([
      { type: 'NonPositivePay', account: A, payee: toParty(B), token: ADA, amount: -3n },
      { type: 'NonPositivePay', account: A, payee: toParty(B), token: ADA, amount: 0n }
    ])
    expect(out.state.accounts).toEqual([[key(A), 10n]])
  })

  it('moves money between accounts, updating in place or appending', () => {
    const contract = pay(A, toAccount(C), 4n, pay(A, toAccount(B), 6n, when([], 100n)))
    const start = stateWith([
      [key(B), 1n],
      [key(A), 10n]
    ])
    const out = success(computeTransaction(tx(0n, 10n), start, contract))
    expect(out.payments).toEqual([payment(A, toAccount(C), 4n), payment(A, toAccount(B), 6n)])
    expect(out.state.accounts).toEqual([
      [key(B), 7n],
      [key(C), 4n]
    ])
  })

  it('warns NonPositiveDeposit and leaves the accounts alone', () => {
    const contract = when([onCase(depositAction(A, B, -5n), when([onCase(depositAction(A, B, 0n))], 100n))], 100n)
    const inputs = tx(0n, 10n, deposit(A, B, -5n), deposit(A, B, 0n))
    const out = success(computeTransaction(inputs, emptyState(0n), contract))
    expect(out.warnings).toEqual([
      { type: 'NonPositiveDeposit', party: B, account: A, token: ADA, amount: -5n },
      { type: 'NonPositiveDeposit', party: B, account: A, token: ADA, amount: 0n }
    ])
    expect(out.state.accounts).toEqual([])
    expect(out.contract).toEqual(CLOSE)
  })

  it('warns Shadowing and replaces the bound value in place', () => {
    const contract: Contract = {
      type: 'Let',
      id: 'x',
      value: 1n,
      then: { type: 'Let', id: 'y', value: 2n, then: { type: 'Let', id: 'x', value: 3n, then: when([], 100n) } }
    }
    const out = success(computeTransaction(tx(0n, 10n), emptyState(0n), contract))
    expect(out.warnings).toEqual([{ type: 'Shadowing', id: 'x', hadValue: 1n, isNowAssigned: 3n }])
    expect(out.state.boundValues).toEqual([
      ['x', 3n],
      ['y', 2n]
    ])
  })

  it('warns AssertionFailed only for a false assertion', () => {
    const contract: Contract = {
      type: 'Assert',
      observation: true,
      then: { type: 'Assert', observation: { type: 'ValueGT', left: 1n, right: 2n }, then: when([], 100n) }
    }
    const out = success(computeTransaction(tx(0n, 10n), emptyState(0n), contract))
    expect(out.warnings).toEqual([{ type: 'AssertionFailed' }])
  })

  it('reports warnings and payments in the order they happen across inputs', () => {
    const second = when([onCase(notifyTrue), onCase(depositAction(A, A, 2n))], 100n)
    const contract = when([onCase(depositAction(A, A, 0n), pay(A, toParty(B), 5n, second))], 100n)
    const inputs = tx(0n, 10n, deposit(A, A, 0n), deposit(A, A, 2n))
    const out = success(computeTransaction(inputs, emptyState(0n), contract))
    expect(out.warnings.map((w) => w.type)).toEqual(['NonPositiveDeposit', 'PartialPay'])
    expect(out.payments).toEqual([payment(A, toParty(B), 0n), payment(A, toParty(A), 2n)])
  })
})

describe('computeTransaction: map order', () => {
  it('refunds at Close in insertion order', () => {
    const contract = when([onCase(depositAction(B, A, 10n), when([onCase(depositAction(A, B, 20n))], 100n))], 100n)
    const inputs = tx(0n, 10n, deposit(B, A, 10n), deposit(A, B, 20n))
    const out = success(computeTransaction(inputs, emptyState(0n), contract))
    expect(out.payments).toEqual([payment(B, toParty(B), 10n), payment(A, toParty(A), 20n)])
    expect(out.state.accounts).toEqual([])
  })

  it('refunds a multi-token account in insertion order, not token order', () => {
    const start = stateWith([
      [key(A, DOLLAR), 3n],
      [key(B), 1n],
      [key(A), 2n]
    ])
    const out = success(computeTransaction(tx(0n, 10n), start, CLOSE))
    expect(out.payments).toEqual([
      payment(A, toParty(A), 3n, DOLLAR),
      payment(B, toParty(B), 1n),
      payment(A, toParty(A), 2n)
    ])
  })

  it('skips non-positive entries at Close, dropping those before a refund and keeping trailing ones', () => {
    const start = stateWith([
      [key(A), -5n],
      [key(B), 7n],
      [key(C), 0n]
    ])
    const out = success(computeTransaction(tx(0n, 10n), start, CLOSE))
    expect(out.payments).toEqual([payment(B, toParty(B), 7n)])
    expect(out.state.accounts).toEqual([[key(C), 0n]])
  })

  it('replaces a re-chosen value in place', () => {
    const c1 = choiceId('c1')
    const c2 = choiceId('c2', B)
    const contract = when([onCase({ type: 'Choice', choice: c1, bounds: [{ from: 0n, to: 9n }] })], 100n)
    const start = stateWith([], 0n, {
      choices: [
        [c1, 1n],
        [c2, 2n]
      ]
    })
    const out = success(computeTransaction(tx(0n, 10n, choose(c1, 5n)), start, contract))
    expect(out.state.choices).toEqual([
      [c1, 5n],
      [c2, 2n]
    ])
  })

  it('adds a deposit to an existing account in place', () => {
    const contract = when([onCase(depositAction(A, A, 5n), when([], 100n))], 100n)
    const start = stateWith([
      [key(A), 1n],
      [key(B), 1n]
    ])
    const out = success(computeTransaction(tx(0n, 10n, deposit(A, A, 5n)), start, contract))
    expect(out.state.accounts).toEqual([
      [key(A), 6n],
      [key(B), 1n]
    ])
  })
})

describe('computeTransaction: choices and notifications', () => {
  const c = choiceId('price')
  const choiceCase = when(
    [
      onCase(
        {
          type: 'Choice',
          choice: c,
          bounds: [
            { from: 1n, to: 3n },
            { from: 10n, to: 10n }
          ]
        },
        when([], 100n)
      )
    ],
    100n
  )

  it('accepts a choice within any bound and rejects others', () => {
    expect(success(computeTransaction(tx(0n, 1n, choose(c, 10n)), emptyState(0n), choiceCase)).state.choices).toEqual([
      [c, 10n]
    ])
    expect(computeTransaction(tx(0n, 1n, choose(c, 4n)), emptyState(0n), choiceCase).type).toBe('Error')
    const otherOwner = tx(0n, 1n, choose(choiceId('price', B), 2n))
    expect(computeTransaction(otherOwner, emptyState(0n), choiceCase).type).toBe('Error')
  })

  it('evaluates a deposit amount with the state reached so far in the transaction', () => {
    const depositChosen = when([onCase(depositAction(A, A, { type: 'ChoiceValue', choice: c }), when([], 100n))], 100n)
    const chooseAny: Action = { type: 'Choice', choice: c, bounds: [{ from: 0n, to: 100n }] }
    const contract = when([onCase(chooseAny, depositChosen)], 100n)
    const inputs = tx(0n, 1n, choose(c, 42n), deposit(A, A, 42n))
    const out = success(computeTransaction(inputs, emptyState(0n), contract))
    expect(out.state.accounts).toEqual([[key(A), 42n]])
  })

  it('accepts a notification only when its observation holds', () => {
    const contract = when([onCase({ type: 'Notify', observation: false }), onCase(notifyTrue, when([], 100n))], 100n)
    expect(success(computeTransaction(tx(0n, 1n, notify), emptyState(0n), contract)).contract).toEqual(when([], 100n))
  })
})

describe('the reduction and application steps', () => {
  const e = env(0n, 10n)

  it('reduceContractStep distinguishes NotReduced, ambiguity and a step', () => {
    expect(reduceContractStep(e, emptyState(0n), CLOSE)).toEqual({ type: 'NotReduced' })
    expect(reduceContractStep(e, emptyState(0n), when([], 11n))).toEqual({ type: 'NotReduced' })
    expect(reduceContractStep(e, emptyState(0n), when([], 10n))).toEqual({
      type: 'AmbiguousTimeIntervalReductionError'
    })
    expect(reduceContractStep(e, emptyState(0n), when([], 0n, pay(A, toParty(B), 1n)))).toEqual({
      type: 'Reduced',
      warning: undefined,
      payment: undefined,
      state: emptyState(0n),
      contract: pay(A, toParty(B), 1n)
    })
  })

  it('reduceContractUntilQuiescent reports whether anything happened', () => {
    expect(reduceContractUntilQuiescent(e, emptyState(0n), when([], 100n))).toEqual({
      type: 'ContractQuiescent',
      reduced: false,
      warnings: [],
      payments: [],
      state: emptyState(0n),
      contract: when([], 100n)
    })
    const result = reduceContractUntilQuiescent(e, stateWith([[key(A), 3n]]), pay(A, toParty(B), 5n))
    expect(result).toMatchObject({ type: 'ContractQuiescent', reduced: true, contract: CLOSE })
    const ambiguous: Contract = { type: 'If', observation: true, then: when([], 5n), else: CLOSE }
    expect(reduceContractUntilQuiescent(e, emptyState(0n), ambiguous)).toEqual({ type: 'RRAmbiguousTimeIntervalError' })
  })

  it('applyInput only accepts inputs on a When', () => {
    expect(applyInput(e, emptyState(0n), notify, CLOSE)).toEqual({ type: 'ApplyNoMatchError' })
  })

  it('applyAllInputs flags whether the contract changed', () => {
    const contract = when([onCase(notifyTrue, when([], 100n))], 100n)
    expect(applyAllInputs(e, emptyState(0n), contract, [])).toMatchObject({ type: 'ApplyAllSuccess', changed: false })
    expect(applyAllInputs(e, emptyState(0n), contract, [notify])).toMatchObject({
      type: 'ApplyAllSuccess',
      changed: true
    })
    expect(applyAllInputs(e, emptyState(0n), contract, [notify, notify])).toEqual({ type: 'ApplyAllNoMatchError' })
  })
})

describe('playTrace', () => {
  const afterDeposit = when([onCase(notifyTrue, pay(A, toParty(B), 15n))], 200n)
  const contract = when([onCase(depositAction(A, A, 10n), afterDeposit)], 100n)

  it('accumulates warnings and payments over transactions from the empty state', () => {
    const out = success(playTrace(5n, contract, [tx(10n, 20n, deposit(A, A, 10n)), tx(30n, 40n, notify)]))
    expect(out.payments).toEqual([payment(A, toParty(B), 10n)])
    expect(out.warnings).toEqual([
      { type: 'PartialPay', account: A, payee: toParty(B), token: ADA, paid: 10n, expected: 15n }
    ])
    expect(out.state).toEqual(emptyState(30n))
    expect(out.contract).toEqual(CLOSE)
  })

  it('returns the initial state for an empty trace', () => {
    expect(playTrace(5n, contract, [])).toEqual({
      type: 'Success',
      warnings: [],
      payments: [],
      state: emptyState(5n),
      contract
    })
  })

  it('stops at the first error', () => {
    const txs = [tx(10n, 20n, deposit(A, A, 10n)), tx(50n, 300n, notify), tx(300n, 400n)]
    expect(playTrace(0n, contract, txs)).toEqual({ type: 'Error', error: { type: 'TEAmbiguousTimeIntervalError' } })
    expect(playTrace(0n, contract, [tx(10n, 20n, deposit(A, A, 9n))])).toEqual({
      type: 'Error',
      error: { type: 'TEApplyNoMatchError' }
    })
  })

  it('checks intervals against the minTime reached so far', () => {
    const out = playTrace(0n, contract, [tx(50n, 60n, deposit(A, A, 10n)), tx(10n, 20n, notify)])
    expect(out).toEqual({
      type: 'Error',
      error: {
        type: 'TEIntervalError',
        error: { type: 'IntervalInPastError', minTime: 50n, interval: { from: 10n, to: 20n } }
      }
    })
  })
})

describe('timeout analysis', () => {
  const nested: Contract = {
    type: 'If',
    observation: true,
    then: when([onCase(notifyTrue, when([], 500n))], 100n),
    else: {
      type: 'Let',
      id: 'x',
      value: 1n,
      then: when([{ type: 'MerkleizedCase', action: notifyTrue, hash: HASH_1 }], 50n, when([], 300n))
    }
  }

  it('contractLifespanUpperBound is the largest timeout outside merkleized continuations', () => {
    expect(contractLifespanUpperBound(CLOSE)).toBe(0n)
    expect(contractLifespanUpperBound(nested)).toBe(500n)
    expect(contractLifespanUpperBound(pay(A, toParty(B), 1n, when([], 7n)))).toBe(7n)
  })

  it('nextTimeout is the earliest pending timeout after the given time', () => {
    expect(nextTimeout(nested, 0n)).toBe(50n)
    expect(nextTimeout(nested, 50n)).toBe(100n)
    expect(nextTimeout(nested, 100n)).toBe(300n)
    expect(nextTimeout(nested, 300n)).toBeUndefined()
    expect(nextTimeout(CLOSE, 0n)).toBeUndefined()
  })
})
