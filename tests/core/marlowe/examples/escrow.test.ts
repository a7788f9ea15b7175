import { describe, expect, it } from 'vitest'
import { ESCROW_CHOICES, escrow, type EscrowParameters } from '../../../../src/core/marlowe/examples'
import { stringifyContract } from '../../../../src/core/marlowe/json'
import { haveVectors } from '../../../support/vectors'
import {
  ADA,
  ADDRESS,
  DOLLAR,
  HUGE,
  canonicalJson,
  choose,
  deposit,
  expectParameterError,
  expectRoundTrips,
  firstInputs,
  playToClose,
  readReference,
  referencePathContract,
  role,
  toAccount,
  toParty,
  tx
} from './support'

const seller = role('Seller')
const buyer = role('Buyer')
const mediator = role('Mediator')
const price = 100_000_000n

/** The parameters of the Runtime reference `escrow.contract`. */
const P: EscrowParameters = {
  seller,
  buyer,
  mediator,
  price,
  token: ADA,
  paymentDeadline: 1678288099894n,
  complaintDeadline: 1678288399894n,
  disputeDeadline: 1678288699894n,
  mediationDeadline: 1678288999894n
}
const { contract } = escrow(P)
const C = ESCROW_CHOICES
const paid = deposit(seller, buyer, ADA, price)

describe.skipIf(!haveVectors)('escrow against the Runtime reference', () => {
  it('writes exactly escrow.contract (keys sorted, as Aeson writes them)', () => {
    expect(stringifyContract(contract)).toBe(canonicalJson(readReference('escrow.contract')))
  })

  it('writes exactly the contract Aeson wrote in escrow.paths', () => {
    expect(stringifyContract(contract)).toBe(referencePathContract('escrow.paths'))
  })
})

describe('escrow', () => {
  it('uses the three roles', () => {
    expect(escrow(P).roles).toEqual(['Seller', 'Buyer', 'Mediator'])
  })

  it('first accepts only the buyer paying the price into the seller’s account', () => {
    expect(firstInputs(contract, 0n)).toEqual({
      deposits: [
        { party: buyer, account: seller, token: ADA, canDeposit: price, caseIndex: 0, isMerkleizedContinuation: false }
      ],
      choices: []
    })
  })

  it('pays the seller when the buyer is happy', () => {
    const out = playToClose(contract, [tx(0n, paid), tx(1n, choose(C.everythingIsAlright.name, buyer, 0n))])
    expect(out.payments).toEqual([toParty(seller, seller, ADA, price)])
  })

  it('refunds the buyer when the seller confirms the problem', () => {
    const out = playToClose(contract, [
      tx(0n, paid),
      tx(1n, choose(C.reportProblem.name, buyer, 1n)),
      tx(2n, choose(C.confirmProblem.name, seller, 1n))
    ])
    expect(out.payments).toEqual([toAccount(seller, buyer, ADA, price), toParty(buyer, buyer, ADA, price)])
  })

  it('pays the seller when the mediator dismisses the claim', () => {
    const out = playToClose(contract, [
      tx(0n, paid),
      tx(1n, choose(C.reportProblem.name, buyer, 1n)),
      tx(2n, choose(C.disputeProblem.name, seller, 0n)),
      tx(3n, choose(C.dismissClaim.name, mediator, 0n))
    ])
    expect(out.payments).toEqual([toAccount(seller, buyer, ADA, price), toParty(buyer, seller, ADA, price)])
  })

  it('refunds the buyer when the mediator confirms the problem', () => {
    const out = playToClose(contract, [
      tx(0n, paid),
      tx(1n, choose(C.reportProblem.name, buyer, 1n)),
      tx(2n, choose(C.disputeProblem.name, seller, 0n)),
      tx(3n, choose(C.confirmProblem.name, mediator, 1n))
    ])
    expect(out.payments).toEqual([toAccount(seller, buyer, ADA, price), toParty(buyer, buyer, ADA, price)])
  })

  it('closes with nothing paid when the buyer never pays', () => {
    expect(playToClose(contract, [tx(P.paymentDeadline)]).payments).toEqual([])
  })

  it('pays the seller when the buyer stays silent past the complaint deadline', () => {
    const out = playToClose(contract, [tx(0n, paid), tx(P.complaintDeadline)])
    expect(out.payments).toEqual([toParty(seller, seller, ADA, price)])
  })

  it('refunds the buyer when the seller ignores a complaint, or the mediator never decides', () => {
    const complained = [tx(0n, paid), tx(1n, choose(C.reportProblem.name, buyer, 1n))]
    const refund = [toAccount(seller, buyer, ADA, price), toParty(buyer, buyer, ADA, price)]
    expect(playToClose(contract, [...complained, tx(P.disputeDeadline)]).payments).toEqual(refund)
    const disputed = [...complained, tx(2n, choose(C.disputeProblem.name, seller, 0n))]
    expect(playToClose(contract, [...disputed, tx(P.mediationDeadline)]).payments).toEqual(refund)
  })

  it('handles a price above 2^53 between address and role parties', () => {
    const huge = escrow({ ...P, seller: ADDRESS, price: HUGE, token: DOLLAR })
    expect(huge.roles).toEqual(['Buyer', 'Mediator'])
    expect(stringifyContract(huge.contract)).toContain(`"deposits":${HUGE}`)
    const out = playToClose(huge.contract, [
      tx(0n, deposit(ADDRESS, buyer, DOLLAR, HUGE)),
      tx(1n, choose(C.reportProblem.name, buyer, 1n)),
      tx(2n, choose(C.disputeProblem.name, ADDRESS, 0n)),
      tx(3n, choose(C.dismissClaim.name, mediator, 0n))
    ])
    expect(out.payments).toEqual([toAccount(ADDRESS, buyer, DOLLAR, HUGE), toParty(buyer, ADDRESS, DOLLAR, HUGE)])
    expectRoundTrips(huge.contract)
  })

  it('round-trips through JSON and Plutus Data', () => {
    expectRoundTrips(contract)
  })

  it('rejects nonsense parameters, naming them', () => {
    expectParameterError(() => escrow({ ...P, price: 0n }), 'price', 'must be positive')
    expectParameterError(() => escrow({ ...P, price: -5n }), 'price', 'must be positive')
    expectParameterError(() => escrow({ ...P, paymentDeadline: -1n }), 'paymentDeadline', 'POSIX time')
    expectParameterError(
      () => escrow({ ...P, complaintDeadline: P.paymentDeadline }),
      'complaintDeadline',
      'must be after paymentDeadline'
    )
    expectParameterError(
      () => escrow({ ...P, disputeDeadline: P.complaintDeadline - 1n }),
      'disputeDeadline',
      'must be after complaintDeadline'
    )
    expectParameterError(
      () => escrow({ ...P, mediationDeadline: 0n }),
      'mediationDeadline',
      'must be after disputeDeadline'
    )
    expectParameterError(() => escrow({ ...P, mediator: seller }), 'mediator', 'must differ from seller')
    expectParameterError(() => escrow({ ...P, buyer: role('') }), 'buyer', 'must not be empty')
  })
})
