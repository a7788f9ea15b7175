/** Each template's draft (with sensible defaults from the chain's clock) and how it becomes core parameters. */
import { couponBond, escrow, swap, vesting, zeroCouponBond, type ExampleContract } from '../../../core/marlowe/examples'
import {
  DAY_MS,
  adaDraft,
  deadlineDraft,
  durationDraft,
  roleDraft,
  toAmount,
  toCount,
  toDuration,
  toParty,
  toTime,
  toToken,
  type DurationDraft,
  type FieldLabels,
  type PartyDraft,
  type TokenDraft
} from './drafts'

export interface EscrowDraft {
  seller: PartyDraft
  buyer: PartyDraft
  mediator: PartyDraft
  token: TokenDraft
  price: string
  paymentDeadline: string
  complaintDeadline: string
  disputeDeadline: string
  mediationDeadline: string
}

/** The labels of the form's fields, for its errors. */
export const ESCROW_LABELS: FieldLabels = {
  seller: 'Seller',
  buyer: 'Buyer',
  mediator: 'Mediator',
  token: 'Paid in',
  price: 'Price',
  paymentDeadline: 'Buyer pays before',
  complaintDeadline: 'Buyer confirms or complains before',
  disputeDeadline: 'Seller answers a complaint before',
  mediationDeadline: 'Mediator decides before'
}

export function escrowDraft(now: bigint): EscrowDraft {
  return {
    seller: roleDraft('Seller'),
    buyer: roleDraft('Buyer'),
    mediator: roleDraft('Mediator'),
    token: adaDraft(),
    price: '10',
    paymentDeadline: deadlineDraft(now, DAY_MS),
    complaintDeadline: deadlineDraft(now, 2n * DAY_MS),
    disputeDeadline: deadlineDraft(now, 3n * DAY_MS),
    mediationDeadline: deadlineDraft(now, 4n * DAY_MS)
  }
}

export function buildEscrow(d: EscrowDraft): ExampleContract {
  const token = toToken('token', d.token)
  return escrow({
    seller: toParty(d.seller),
    buyer: toParty(d.buyer),
    mediator: toParty(d.mediator),
    token,
    price: toAmount('price', d.price, token),
    paymentDeadline: toTime('paymentDeadline', d.paymentDeadline),
    complaintDeadline: toTime('complaintDeadline', d.complaintDeadline),
    disputeDeadline: toTime('disputeDeadline', d.disputeDeadline),
    mediationDeadline: toTime('mediationDeadline', d.mediationDeadline)
  })
}

export interface SwapSideDraft {
  party: PartyDraft
  token: TokenDraft
  amount: string
  depositDeadline: string
}

export interface SwapDraft {
  first: SwapSideDraft
  second: SwapSideDraft
}

/** The labels of the form's fields, for its errors. */
export const SWAP_LABELS: FieldLabels = {
  'first.party': 'Party (first side)',
  'first.token': 'Gives (first side)',
  'first.amount': 'Amount (first side)',
  'first.depositDeadline': 'Deposits before (first side)',
  'second.party': 'Party (second side)',
  'second.token': 'Gives (second side)',
  'second.amount': 'Amount (second side)',
  'second.depositDeadline': 'Deposits before (second side)'
}

export function swapDraft(now: bigint): SwapDraft {
  return {
    first: {
      party: roleDraft('Ada provider'),
      token: adaDraft(),
      amount: '10',
      depositDeadline: deadlineDraft(now, DAY_MS)
    },
    second: {
      party: roleDraft('Token provider'),
      token: { kind: 'token', policyId: '', name: '' },
      amount: '10',
      depositDeadline: deadlineDraft(now, 2n * DAY_MS)
    }
  }
}

export function buildSwap(d: SwapDraft): ExampleContract {
  const side = (name: 'first' | 'second', s: SwapSideDraft) => {
    const token = toToken(`${name}.token`, s.token)
    return {
      party: toParty(s.party),
      token,
      amount: toAmount(`${name}.amount`, s.amount, token),
      depositDeadline: toTime(`${name}.depositDeadline`, s.depositDeadline)
    }
  }
  return swap({ first: side('first', d.first), second: side('second', d.second) })
}

export interface ZeroCouponBondDraft {
  lender: PartyDraft
  borrower: PartyDraft
  token: TokenDraft
  principal: string
  interest: string
  lendingDeadline: string
  repaymentDeadline: string
}

/** The labels of the form's fields, for its errors. */
export const ZERO_COUPON_BOND_LABELS: FieldLabels = {
  lender: 'Lender',
  borrower: 'Borrower',
  token: 'Lent in',
  principal: 'Principal',
  interest: 'Interest',
  lendingDeadline: 'Lender lends before',
  repaymentDeadline: 'Borrower repays before'
}

export function zeroCouponBondDraft(now: bigint): ZeroCouponBondDraft {
  return {
    lender: roleDraft('Lender'),
    borrower: roleDraft('Borrower'),
    token: adaDraft(),
    principal: '100',
    interest: '5',
    lendingDeadline: deadlineDraft(now, DAY_MS),
    repaymentDeadline: deadlineDraft(now, 30n * DAY_MS)
  }
}

export function buildZeroCouponBond(d: ZeroCouponBondDraft): ExampleContract {
  const token = toToken('token', d.token)
  return zeroCouponBond({
    lender: toParty(d.lender),
    borrower: toParty(d.borrower),
    token,
    principal: toAmount('principal', d.principal, token),
    interest: toAmount('interest', d.interest, token),
    lendingDeadline: toTime('lendingDeadline', d.lendingDeadline),
    repaymentDeadline: toTime('repaymentDeadline', d.repaymentDeadline)
  })
}

export interface CouponBondDraft {
  investor: PartyDraft
  issuer: PartyDraft
  token: TokenDraft
  principal: string
  coupon: string
  numberOfCoupons: string
  investmentDeadline: string
  couponInterval: DurationDraft
}

/** The labels of the form's fields, for its errors. */
export const COUPON_BOND_LABELS: FieldLabels = {
  investor: 'Investor',
  issuer: 'Issuer',
  token: 'Paid in',
  principal: 'Principal',
  coupon: 'Each coupon',
  numberOfCoupons: 'Number of coupons',
  investmentDeadline: 'Investor pays before',
  couponInterval: 'Time between coupons'
}

export function couponBondDraft(now: bigint): CouponBondDraft {
  return {
    investor: roleDraft('Investor'),
    issuer: roleDraft('Issuer'),
    token: adaDraft(),
    principal: '100',
    coupon: '2',
    numberOfCoupons: '3',
    investmentDeadline: deadlineDraft(now, DAY_MS),
    couponInterval: durationDraft('30', 'days')
  }
}

export function buildCouponBond(d: CouponBondDraft): ExampleContract {
  const token = toToken('token', d.token)
  return couponBond({
    investor: toParty(d.investor),
    issuer: toParty(d.issuer),
    token,
    principal: toAmount('principal', d.principal, token),
    coupon: toAmount('coupon', d.coupon, token),
    numberOfCoupons: toCount('numberOfCoupons', d.numberOfCoupons),
    investmentDeadline: toTime('investmentDeadline', d.investmentDeadline),
    couponInterval: toDuration('couponInterval', d.couponInterval)
  })
}

export interface VestingDraft {
  provider: PartyDraft
  claimer: PartyDraft
  token: TokenDraft
  totalAmount: string
  startTime: string
  periodLength: DurationDraft
  numberOfPeriods: string
}

/** The labels of the form's fields, for its errors. */
export const VESTING_LABELS: FieldLabels = {
  provider: 'Provider',
  claimer: 'Claimer',
  token: 'Vested token',
  totalAmount: 'Total amount',
  numberOfPeriods: 'Number of periods',
  startTime: 'Start',
  periodLength: 'Period length'
}

export function vestingDraft(now: bigint): VestingDraft {
  return {
    provider: roleDraft('Provider'),
    claimer: roleDraft('Claimer'),
    token: adaDraft(),
    totalAmount: '120',
    startTime: deadlineDraft(now, 0n),
    periodLength: durationDraft('30', 'days'),
    numberOfPeriods: '3'
  }
}

export function buildVesting(d: VestingDraft): ExampleContract {
  const token = toToken('token', d.token)
  return vesting({
    provider: toParty(d.provider),
    claimer: toParty(d.claimer),
    token,
    totalAmount: toAmount('totalAmount', d.totalAmount, token),
    startTime: toTime('startTime', d.startTime),
    periodLength: toDuration('periodLength', d.periodLength),
    numberOfPeriods: toCount('numberOfPeriods', d.numberOfPeriods)
  })
}
