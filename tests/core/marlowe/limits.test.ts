/**
 * The bound on Marlowe arithmetic (src/core/marlowe/limits.ts): every value evaluated stays within
 * MAX_VALUE_BITS, and going beyond is a `ValueTooLargeError` that names the value's path and its size, found
 * before any operation works on a number longer than twice the limit.
 */
import { describe, expect, it } from 'vitest'
import { bitLength, MAX_VALUE_BITS, ValueTooLargeError } from '../../../src/core/marlowe/limits'
import { next } from '../../../src/core/marlowe/next'
import { computeTransaction, evalValue } from '../../../src/core/marlowe/semantics'
import { onDeposit, when } from '../../../src/core/marlowe/examples/dsl'
import {
  ADA,
  CLOSE,
  emptyState,
  type Contract,
  type Input,
  type Party,
  type State,
  type TransactionOutput,
  type Value
} from '../../../src/core/marlowe/types'
import { largestWithin, rebinding, squaring } from '../../support/arithmetic'

const A: Party = { type: 'Role', role: 'A' }
const LIMIT = 2n ** BigInt(MAX_VALUE_BITS)
const NOW = { from: 10n, to: 20n }
const thens = (n: number): string => 'contract' + '.then'.repeat(n)

function run(contract: Contract, inputs: readonly Input[] = [], state: State = emptyState(0n)): TransactionOutput {
  return computeTransaction({ interval: NOW, inputs }, state, contract)
}

function refusal(f: () => unknown): ValueTooLargeError {
  try {
    f()
  } catch (e) {
    if (e instanceof ValueTooLargeError) return e
    throw e
  }
  throw new Error('no ValueTooLargeError')
}

describe('the limit', () => {
  it('is 4096 bits: |n| < 2^4096', () => {
    expect(MAX_VALUE_BITS).toBe(4096)
    expect(bitLength(LIMIT - 1n)).toBe(4096)
    expect(bitLength(-LIMIT)).toBe(4097)
    expect(bitLength(0n)).toBe(0)
    expect(bitLength(1n)).toBe(1)
    expect(bitLength(-255n)).toBe(8)
  })

  it('admits the largest values within it, positive and negative', () => {
    const largest = largestWithin(MAX_VALUE_BITS)
    const contract: Contract = { type: 'Let', id: 'big', value: largest, then: CLOSE }
    expect(run(contract)).toMatchObject({ type: 'Success', state: { boundValues: [['big', LIMIT - 1n]] } })
    const negative: Contract = { type: 'Let', id: 'big', value: { type: 'NegValue', value: largest }, then: CLOSE }
    expect(run(negative)).toMatchObject({ type: 'Success', state: { boundValues: [['big', 1n - LIMIT]] } })
  })

  it('refuses one more, either side, naming the path and the size', () => {
    const over: Value = { type: 'AddValue', left: largestWithin(MAX_VALUE_BITS), right: 1n }
    const e = refusal(() => run({ type: 'Let', id: 'big', value: over, then: CLOSE }))
    expect(e).toMatchObject({ path: 'contract.be', bits: 4097, limitBits: 4096, value: over })
    expect(e.message).toBe('contract.be: a value of 4097 bits, over the limit of 4096 bits')
    const under: Value = {
      type: 'SubValue',
      left: { type: 'NegValue', value: largestWithin(MAX_VALUE_BITS) },
      right: 1n
    }
    expect(refusal(() => run({ type: 'Let', id: 'big', value: under, then: CLOSE }))).toMatchObject({
      path: 'contract.be',
      bits: 4097
    })
  })

  it('applies to constants and to what the state holds, not only to results', () => {
    expect(refusal(() => run({ type: 'Let', id: 'c', value: LIMIT, then: CLOSE }))).toMatchObject({
      path: 'contract.be',
      bits: 4097,
      value: LIMIT
    })
    const use: Value = { type: 'UseValue', id: 'huge' }
    const state: State = { ...emptyState(0n), boundValues: [['huge', 2n ** 5000n]] }
    expect(refusal(() => run({ type: 'Let', id: 'y', value: use, then: CLOSE }, [], state))).toMatchObject({
      path: 'contract.be',
      bits: 5001,
      value: use
    })
    const start: Value = { type: 'TimeIntervalStart' }
    const later = { interval: { from: LIMIT, to: LIMIT }, inputs: [] }
    const e = refusal(() =>
      computeTransaction(later, emptyState(0n), { type: 'Let', id: 't', value: start, then: CLOSE })
    )
    expect(e).toMatchObject({ path: 'contract.be', bits: 4097 })
  })
})

describe('squaring with Let', () => {
  it('runs as long as the value fits: 3^(2^11) is 3,247 bits', () => {
    const out = run(squaring(11))
    expect(out.type).toBe('Success')
    if (out.type !== 'Success') return
    expect(out.state.boundValues).toEqual([['x', 3n ** 2048n]])
    expect(out.warnings).toHaveLength(11)
  })

  it('is refused at the first step past the limit, however many steps follow', () => {
    for (const steps of [12, 40, 1000]) {
      const e = refusal(() => run(squaring(steps)))
      expect(e.path).toBe(`${thens(12)}.be`)
      expect(e.bits).toBe(bitLength(3n ** 4096n))
      expect(e.message).toBe(`${thens(12)}.be: a value of 6493 bits, over the limit of 4096 bits`)
    }
  })

  it('is refused by next steps too, and by evalValue (without a path: it has no contract)', () => {
    const e = refusal(() => next({ timeInterval: NOW }, emptyState(0n), squaring(30)))
    expect(e.path).toBe(`${thens(12)}.be`)
    const square: Value = { type: 'MulValue', left: LIMIT - 1n, right: LIMIT - 1n }
    const direct = refusal(() => evalValue({ timeInterval: NOW }, emptyState(0n), square))
    expect(direct).toMatchObject({ path: undefined, bits: 8192, value: square })
    expect(direct.message).toBe('a value of 8192 bits, over the limit of 4096 bits')
  })

  it('rebinding a value within the limit is fine: each warning carries it', () => {
    const out = run(rebinding(50, largestWithin(MAX_VALUE_BITS)))
    expect(out).toMatchObject({ type: 'Success', state: { boundValues: [['x', LIMIT - 1n]] } })
    if (out.type === 'Success') expect(out.warnings).toHaveLength(50)
  })
})

describe('the path names where the value is, in every place a value can be', () => {
  const huge: Value = { type: 'MulValue', left: LIMIT - 1n, right: 2n }
  const pay = (value: Value): Contract => ({
    type: 'Pay',
    from: A,
    to: { type: 'Party', party: A },
    token: ADA,
    value,
    then: CLOSE
  })
  const deposit: Input = { content: { type: 'IDeposit', account: A, party: A, token: ADA, amount: 1n } }

  it('in contracts, observations and cases', () => {
    const cases: Array<[Contract, string, readonly Input[]]> = [
      [pay({ type: 'NegValue', value: huge }), 'contract.pay.negate', []],
      [
        { type: 'If', observation: { type: 'ValueGE', left: 1n, right: huge }, then: CLOSE, else: CLOSE },
        'contract.if.ge_than',
        []
      ],
      [
        {
          type: 'Assert',
          observation: { type: 'NotObs', observation: { type: 'ValueEQ', left: huge, right: 0n } },
          then: CLOSE
        },
        'contract.assert.not.value',
        []
      ],
      [
        pay({ type: 'Cond', observation: true, then: { type: 'DivValue', left: huge, right: 3n }, else: 0n }),
        'contract.pay.then.divide',
        []
      ],
      [
        when(
          [
            onDeposit(A, A, ADA, 2n, CLOSE),
            onDeposit(A, A, ADA, 1n, { type: 'Let', id: 'x', value: huge, then: CLOSE })
          ],
          100n
        ),
        'contract.when[1].then.be',
        [deposit]
      ]
    ]
    for (const [contract, path, inputs] of cases) expect(refusal(() => run(contract, inputs)).path).toBe(path)
  })

  it('in a Deposit whose amount next steps evaluate', () => {
    const contract = when([onDeposit(A, A, ADA, 1n, CLOSE), onDeposit(A, A, ADA, huge, CLOSE)], 100n)
    expect(refusal(() => next({ timeInterval: NOW }, emptyState(0n), contract)).path).toBe(
      'contract.when[1].case.deposits'
    )
  })

  it('in the merkleized continuation an input reveals', () => {
    const hash = 'ab'.repeat(32)
    const contract: Contract = {
      type: 'When',
      cases: [{ type: 'MerkleizedCase', action: { type: 'Notify', observation: true }, hash }],
      timeout: 100n,
      timeoutContinuation: CLOSE
    }
    const revealed: Contract = { type: 'Let', id: 'x', value: 5n, then: pay(huge) }
    const e = refusal(() =>
      run(contract, [{ content: { type: 'INotify' }, merkleized: { hash, continuation: revealed } }])
    )
    expect(e.path).toBe('inputs[0].merkleized_continuation.then.pay')
  })
})
