import { describe, expect, it } from 'vitest'
import {
  MAX_VESTING_PERIODS,
  VESTING_CHOICES,
  vesting,
  vestingSchedule,
  type VestingParameters
} from '../../../../src/core/marlowe/examples'
import { stringifyContract } from '../../../../src/core/marlowe/json'
import { next } from '../../../../src/core/marlowe/next'
import { computeTransaction } from '../../../../src/core/marlowe/semantics'
import { emptyState, type Contract, type State } from '../../../../src/core/marlowe/types'
import {
  ADA,
  ADDRESS,
  DOLLAR,
  HUGE,
  choose,
  deposit,
  expectParameterError,
  expectRoundTrips,
  firstInputs,
  playToClose,
  role,
  toAccount,
  toParty,
  tx
} from './support'

const provider = role('Provider')
const claimer = role('Claimer')
const total = 100n

/** Three periods of 100 s from t = 1000 s: vesting dates 1100, 1200 and 1300 s; tranches 33, 33 and 34. */
const P: VestingParameters = {
  provider,
  claimer,
  token: ADA,
  totalAmount: total,
  startTime: 1_000_000n,
  periodLength: 100_000n,
  numberOfPeriods: 3n
}
const { contract } = vesting(P)
const funded = deposit(provider, provider, ADA, total)
const withdraw = (amount: bigint) => choose(VESTING_CHOICES.withdraw.name, claimer, amount)
const cancel = choose(VESTING_CHOICES.cancel.name, provider, 1n)

/** The contract and state after the provider's deposit at the start. */
function afterDeposit(): { state: State; contract: Contract } {
  const out = computeTransaction(tx(P.startTime, funded), emptyState(0n), contract)
  if (out.type === 'Error') throw new Error(out.error.type)
  return out
}

describe('vesting', () => {
  it('splits the total into tranches, the last one taking the remainder', () => {
    expect(vestingSchedule(P)).toEqual([
      { vestingDate: 1_100_000n, tranche: 33n, vested: 33n },
      { vestingDate: 1_200_000n, tranche: 33n, vested: 66n },
      { vestingDate: 1_300_000n, tranche: 34n, vested: 100n }
    ])
  })

  it('uses both roles', () => {
    expect(vesting(P).roles).toEqual(['Provider', 'Claimer'])
  })

  it('first accepts only the provider’s deposit of the total', () => {
    expect(firstInputs(contract, P.startTime)).toEqual({
      deposits: [
        {
          party: provider,
          account: provider,
          token: ADA,
          canDeposit: total,
          caseIndex: 0,
          isMerkleizedContinuation: false
        }
      ],
      choices: []
    })
  })

  it('offers withdrawal up to the vested amount and cancellation during a period, only withdrawal in the last', () => {
    const { state, contract: funding } = afterDeposit()
    const during = (at: bigint) => next({ timeInterval: { from: at, to: at } }, state, funding)
    expect(during(1_150_000n)).toMatchObject({
      canReduce: true,
      applicableInputs: {
        choices: [
          { choice: { name: 'withdraw', owner: claimer }, canChooseBetween: [{ from: 1n, to: 33n }], caseIndex: 0 },
          { choice: { name: 'cancel', owner: provider }, canChooseBetween: [{ from: 1n, to: 1n }], caseIndex: 1 }
        ]
      }
    })
    expect(during(1_350_000n)).toMatchObject({
      canReduce: true,
      applicableInputs: {
        choices: [{ choice: { name: 'withdraw', owner: claimer }, canChooseBetween: [{ from: 1n, to: 100n }] }]
      }
    })
  })

  it('lets the claimer withdraw each tranche as it vests', () => {
    const out = playToClose(contract, [
      tx(P.startTime, funded),
      tx(1_150_000n, withdraw(33n)),
      tx(1_250_000n, withdraw(33n)),
      tx(1_350_000n, withdraw(34n))
    ])
    expect(out.payments).toEqual([
      toAccount(provider, claimer, ADA, 33n),
      toParty(claimer, claimer, ADA, 33n),
      toAccount(provider, claimer, ADA, 33n),
      toParty(claimer, claimer, ADA, 33n),
      toAccount(provider, claimer, ADA, 34n),
      toParty(claimer, claimer, ADA, 34n)
    ])
  })

  it('pays the claimer everything at the end when nobody acts', () => {
    const out = playToClose(contract, [tx(P.startTime, funded), tx(1_400_000n)])
    expect(out.payments).toEqual([
      toAccount(provider, claimer, ADA, 33n),
      toAccount(provider, claimer, ADA, 33n),
      toAccount(provider, claimer, ADA, 34n),
      toParty(claimer, claimer, ADA, total)
    ])
  })

  it('returns the unvested funds to the provider on cancellation, paying out what vested', () => {
    const out = playToClose(contract, [tx(P.startTime, funded), tx(1_150_000n, cancel)])
    expect(out.payments).toEqual([
      toAccount(provider, claimer, ADA, 33n),
      toParty(provider, provider, ADA, 67n),
      toParty(claimer, claimer, ADA, 33n)
    ])
  })

  it('returns everything to the provider when it cancels before the first vesting date', () => {
    const out = playToClose(contract, [tx(P.startTime, funded), tx(P.startTime + 1n, cancel)])
    expect(out.payments).toEqual([toParty(provider, provider, ADA, total)])
  })

  it('closes with nothing paid when the provider never deposits', () => {
    expect(playToClose(contract, [tx(P.startTime + P.periodLength)]).payments).toEqual([])
  })

  it('vests amounts above 2^53', () => {
    const huge = vesting({ ...P, claimer: ADDRESS, token: DOLLAR, totalAmount: HUGE, numberOfPeriods: 2n })
    const half = HUGE / 2n
    const out = playToClose(huge.contract, [
      tx(P.startTime, deposit(provider, provider, DOLLAR, HUGE)),
      tx(1_150_000n, choose(VESTING_CHOICES.withdraw.name, ADDRESS, half)),
      tx(1_300_000n)
    ])
    expect(out.payments).toEqual([
      toAccount(provider, ADDRESS, DOLLAR, half),
      toParty(ADDRESS, ADDRESS, DOLLAR, half),
      toAccount(provider, ADDRESS, DOLLAR, HUGE - half),
      toParty(ADDRESS, ADDRESS, DOLLAR, HUGE - half)
    ])
    expectRoundTrips(huge.contract)
  })

  it('round-trips through JSON and Plutus Data', () => {
    expectRoundTrips(contract)
    expectRoundTrips(vesting({ ...P, numberOfPeriods: 1n }).contract)
  })

  it('stays within a few megabytes of JSON at the maximum number of periods', () => {
    const largest = stringifyContract(
      vesting({ ...P, totalAmount: 10n ** 9n, numberOfPeriods: MAX_VESTING_PERIODS }).contract
    )
    expect(largest.length).toBeLessThan(8 * 1024 * 1024)
  })

  it('rejects nonsense parameters, naming them', () => {
    expectParameterError(() => vesting({ ...P, numberOfPeriods: 0n }), 'numberOfPeriods', 'between 1 and')
    expectParameterError(
      () => vesting({ ...P, numberOfPeriods: MAX_VESTING_PERIODS + 1n }),
      'numberOfPeriods',
      'between 1 and'
    )
    expectParameterError(() => vesting({ ...P, totalAmount: 0n }), 'totalAmount', 'must be positive')
    expectParameterError(() => vesting({ ...P, totalAmount: 2n }), 'totalAmount', 'at least numberOfPeriods (3)')
    expectParameterError(() => vesting({ ...P, periodLength: 0n }), 'periodLength', 'must be positive')
    expectParameterError(() => vesting({ ...P, startTime: -1n }), 'startTime', 'POSIX time')
    expectParameterError(() => vesting({ ...P, claimer: provider }), 'claimer', 'must differ from provider')
    expectParameterError(() => vestingSchedule({ ...P, numberOfPeriods: -1n }), 'numberOfPeriods', 'between 1 and')
  })
})
