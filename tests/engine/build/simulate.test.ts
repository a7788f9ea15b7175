/** The simulated paths of the safety analysis: warnings, min-UTxO failures, and the walk's limit. */
import { describe, expect, test } from 'vitest'
import { semanticsValidatorAddress } from '../../../src/chain/deployments'
import { SANDBOX_BLAZE_PARAMS, toProtocolParameters } from '../../../src/chain/sandbox/params'
import { formatShelleyAddress } from '../../../src/core/cardano/address'
import { ADA, CLOSE, type Contract, type MarloweData, type Party } from '../../../src/core/marlowe/types'
import { stringifyJson } from '../../../src/core/json/lossless'
import { ValueTooLargeError } from '../../../src/core/marlowe/limits'
import { simulateTransactions, type SimulationInput } from '../../../src/engine/build/simulate'
import { rebinding, squaring } from '../../support/arithmetic'

const pp = toProtocolParameters(SANDBOX_BLAZE_PARAMS)
const creator: Party = {
  type: 'Address',
  address: formatShelleyAddress({ mainnet: false, payment: { type: 'key', hash: '11'.repeat(28) } })
}
const other: Party = { type: 'Role', role: 'Other' }
const T = 1_800_000_000_000n

function datum(contract: Contract, lovelace = 2_000_000n): MarloweData {
  return {
    params: { rolesCurrency: 'ab'.repeat(28) },
    state: { accounts: [[{ account: creator, token: ADA }, lovelace]], choices: [], boundValues: [], minTime: 0n },
    contract
  }
}

const simulate = (d: MarloweData, maxTransactions?: number, limits: Partial<SimulationInput> = {}) =>
  simulateTransactions({
    pp,
    datum: d,
    marloweAddress: semanticsValidatorAddress('sandbox'),
    ...(maxTransactions === undefined ? {} : { maxTransactions }),
    ...limits
  }).errors

const notifyThen = (then: Contract, timeout = T): Contract => ({
  type: 'When',
  cases: [{ type: 'Case', action: { type: 'Notify', observation: true }, then }],
  timeout,
  timeoutContinuation: CLOSE
})

describe('transaction simulation', () => {
  test('a safe contract yields nothing', () => {
    expect(simulate(datum(notifyThen(CLOSE)))).toEqual([])
  })

  test('warnings on a path: a zero deposit, a partial payment', () => {
    const zeroDeposit: Contract = {
      type: 'When',
      cases: [
        { type: 'Case', action: { type: 'Deposit', account: other, party: other, token: ADA, value: 0n }, then: CLOSE }
      ],
      timeout: T,
      timeoutContinuation: {
        type: 'Pay',
        from: other,
        to: { type: 'Party', party: other },
        token: ADA,
        value: 5n,
        then: CLOSE
      }
    }
    const errors = simulate(datum(zeroDeposit))
    expect(errors.map((e) => [e.error, e.fatal])).toEqual([
      ['TransactionWarning', false],
      ['TransactionWarning', false]
    ])
    expect(errors[0]!['warning']).toMatchObject({ asked_to_deposit: 0n })
    expect(errors[1]!['warning']).toMatchObject({ asked_to_pay: 5n, but_only_paid: 0n })
    expect(errors[1]!['transaction']).toMatchObject({ input: { tx_interval: { from: T, to: T }, tx_inputs: [] } })
  })

  test('a continuing output left without its min-UTxO fails validation', () => {
    const drain: Contract = {
      type: 'Pay',
      from: creator,
      to: { type: 'Party', party: creator },
      token: ADA,
      value: 2_000_000n,
      then: notifyThen(CLOSE)
    }
    const errors = simulate(datum(notifyThen(drain)))
    expect(errors.map((e) => e.error)).toEqual(['TransactionValidationError'])
    expect(errors[0]!['message']).toMatch(/would hold 0 lovelace, below its min-UTxO/)
    expect(errors[0]!.fatal).toBe(true)
  })

  test('the walk stops at its limit and says so', () => {
    let contract: Contract = CLOSE
    for (let i = 12; i > 0; i -= 1) contract = notifyThen(contract, T + BigInt(i) * 1000n)
    expect(simulate(datum(contract))).toEqual([])
    expect(simulate(datum(contract), 5).map((e) => e.error)).toEqual(['SafetyAnalysisTimeout'])
  })

  test('its report stops at a byte budget, with the warnings that fit', () => {
    // Each of the 50 warnings carries the one transaction, whose output lists all 50.
    const all = simulate(datum(rebinding(50, 1n)))
    expect(all.map((e) => e.error)).toEqual(Array(50).fill('TransactionWarning'))
    const size = stringifyJson(all[0]!['transaction']!).length
    const some = simulate(datum(rebinding(50, 1n)), undefined, { maxReportBytes: 10 * size + 1 })
    expect(some.map((e) => e.error)).toEqual([...Array(10).fill('TransactionWarning'), 'SafetyAnalysisTimeout'])
    expect(some.slice(0, 10)).toEqual(all.slice(0, 10))
    // Fewer bytes than the warnings' least possible size: the transaction is not even written out.
    const none = simulate(datum(rebinding(50, 1n)), undefined, { maxReportBytes: 50 * 39 })
    expect(none.map((e) => e.error)).toEqual(['SafetyAnalysisTimeout'])
  })

  test('and at a budget of datum bytes encoded for the min-UTxO check', () => {
    let contract: Contract = CLOSE
    for (let i = 12; i > 0; i -= 1) contract = notifyThen(contract, T + BigInt(i) * 1000n)
    expect(simulate(datum(contract), undefined, { maxDatumBytes: 2000 }).map((e) => e.error)).toEqual([
      'SafetyAnalysisTimeout'
    ])
  })

  test('a value beyond the limit on a path ends the walk, named by its path in the whole contract', () => {
    let thrown: unknown
    try {
      simulate(datum(notifyThen(squaring(40))))
    } catch (e) {
      thrown = e
    }
    expect(thrown).toBeInstanceOf(ValueTooLargeError)
    expect(thrown).toMatchObject({ path: `contract.when[0].then${'.then'.repeat(12)}.be`, bits: 6493 })
  })
})
