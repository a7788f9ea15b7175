/** The simulated paths of the safety analysis: warnings, min-UTxO failures, and the walk's limit. */
import { describe, expect, test } from 'vitest'
import { semanticsValidatorAddress } from '../../../src/chain/deployments'
import { SANDBOX_BLAZE_PARAMS, toProtocolParameters } from '../../../src/chain/sandbox/params'
import { formatShelleyAddress } from '../../../src/core/cardano/address'
import { ADA, CLOSE, type Contract, type MarloweData, type Party } from '../../../src/core/marlowe/types'
import { simulateTransactions } from '../../../src/engine/build/simulate'

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

const simulate = (d: MarloweData, maxTransactions?: number) =>
  simulateTransactions({
    pp,
    datum: d,
    marloweAddress: semanticsValidatorAddress('sandbox'),
    ...(maxTransactions === undefined ? {} : { maxTransactions })
  })

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
})
