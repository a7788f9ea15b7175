import { describe, expect, it } from 'vitest'
import { swap, type SwapParameters } from '../../../../src/core/marlowe/examples'
import { stringifyContract } from '../../../../src/core/marlowe/json'
import { haveVectors } from '../../../support/vectors'
import {
  ADA,
  ADDRESS,
  DOLLAR,
  HUGE,
  canonicalJson,
  deposit,
  expectParameterError,
  expectRoundTrips,
  firstInputs,
  playToClose,
  readReference,
  role,
  toParty,
  tx
} from './support'

const adaProvider = role('Ada provider')
const dollarProvider = role('Dollar provider')
const lovelace = 300_000_000n
const dollars = 100n

/** The parameters of Playground's "Swap of Ada and dollar token" (`swap-of-ada-and-dollar-token.contract`). */
const P: SwapParameters = {
  first: { party: adaProvider, token: ADA, amount: lovelace, depositDeadline: 1678288406251n },
  second: { party: dollarProvider, token: DOLLAR, amount: dollars, depositDeadline: 1678288706251n }
}
const { contract } = swap(P)
const adaIn = deposit(adaProvider, adaProvider, ADA, lovelace)
const dollarsIn = deposit(dollarProvider, dollarProvider, DOLLAR, dollars)

describe.skipIf(!haveVectors)('swap against the Playground reference', () => {
  it('is swap-of-ada-and-dollar-token.contract once its "300 × 1000000" lovelace is folded to a constant', () => {
    const reference = readReference('swap-of-ada-and-dollar-token.contract')
    expect(stringifyContract(contract)).toBe(canonicalJson(reference, true))
    expect(stringifyContract(contract)).not.toBe(canonicalJson(reference))
  })
})

describe('swap', () => {
  it('uses both roles', () => {
    expect(swap(P).roles).toEqual(['Ada provider', 'Dollar provider'])
  })

  it('first accepts only the first party’s deposit into its own account', () => {
    expect(firstInputs(contract, 0n)).toEqual({
      deposits: [
        {
          party: adaProvider,
          account: adaProvider,
          token: ADA,
          canDeposit: lovelace,
          caseIndex: 0,
          isMerkleizedContinuation: false
        }
      ],
      choices: []
    })
  })

  it('pays each side to the other once both are in', () => {
    const out = playToClose(contract, [tx(0n, adaIn), tx(1n, dollarsIn)])
    expect(out.payments).toEqual([
      toParty(adaProvider, dollarProvider, ADA, lovelace),
      toParty(dollarProvider, adaProvider, DOLLAR, dollars)
    ])
  })

  it('also settles when both deposit in one transaction', () => {
    expect(playToClose(contract, [tx(0n, adaIn, dollarsIn)]).payments).toHaveLength(2)
  })

  it('refunds the first party when the second misses its deadline', () => {
    const out = playToClose(contract, [tx(0n, adaIn), tx(P.second.depositDeadline)])
    expect(out.payments).toEqual([toParty(adaProvider, adaProvider, ADA, lovelace)])
  })

  it('closes with nothing paid when the first party never deposits', () => {
    expect(playToClose(contract, [tx(P.first.depositDeadline)]).payments).toEqual([])
  })

  it('rejects the second deposit after the first deadline has passed', () => {
    const late = swap({ ...P, second: { ...P.second, depositDeadline: P.first.depositDeadline } })
    const out = playToClose(late.contract, [tx(0n, adaIn), tx(P.first.depositDeadline)])
    expect(out.payments).toEqual([toParty(adaProvider, adaProvider, ADA, lovelace)])
  })

  it('swaps amounts above 2^53 with an address party', () => {
    const huge = swap({
      first: { party: ADDRESS, token: DOLLAR, amount: HUGE, depositDeadline: 10n },
      second: { party: dollarProvider, token: ADA, amount: HUGE * 3n, depositDeadline: 20n }
    })
    expect(huge.roles).toEqual(['Dollar provider'])
    const out = playToClose(huge.contract, [
      tx(0n, deposit(ADDRESS, ADDRESS, DOLLAR, HUGE)),
      tx(1n, deposit(dollarProvider, dollarProvider, ADA, HUGE * 3n))
    ])
    expect(out.payments).toEqual([
      toParty(ADDRESS, dollarProvider, DOLLAR, HUGE),
      toParty(dollarProvider, ADDRESS, ADA, HUGE * 3n)
    ])
    expectRoundTrips(huge.contract)
  })

  it('round-trips through JSON and Plutus Data', () => {
    expectRoundTrips(contract)
  })

  it('rejects nonsense parameters, naming them', () => {
    expectParameterError(() => swap({ ...P, first: { ...P.first, amount: 0n } }), 'first.amount', 'must be positive')
    expectParameterError(
      () => swap({ ...P, second: { ...P.second, amount: -1n } }),
      'second.amount',
      'must be positive'
    )
    expectParameterError(
      () => swap({ ...P, second: { ...P.second, depositDeadline: P.first.depositDeadline - 1n } }),
      'second.depositDeadline',
      'must not be before first.depositDeadline'
    )
    expectParameterError(
      () => swap({ ...P, second: { ...P.second, party: adaProvider } }),
      'second.party',
      'must differ from first.party'
    )
    expectParameterError(
      () => swap({ ...P, second: { ...P.second, token: { currencySymbol: 'xyz', tokenName: 'dollar' } } }),
      'second.token',
      'currency symbol'
    )
  })
})
