/**
 * A library of real Marlowe contracts built from typed parameters. Each builder validates its parameters
 * (throwing `ExampleParameterError`), and returns the contract with the role names it uses.
 */
export { ExampleParameterError } from './parameters'
export type { ExampleContract } from './dsl'
export { ESCROW_CHOICES, escrow, type EscrowParameters } from './escrow'
export { swap, type SwapParameters, type SwapSide } from './swap'
export { zeroCouponBond, type ZeroCouponBondParameters } from './zero-coupon-bond'
export { MAX_COUPONS, couponBond, couponDeadlines, type CouponBondParameters } from './coupon-bond'
export {
  MAX_VESTING_PERIODS,
  VESTING_CHOICES,
  vesting,
  vestingSchedule,
  type VestingParameters,
  type VestingPeriod
} from './vesting'

export type ExampleTemplateId = 'escrow' | 'swap' | 'zero-coupon-bond' | 'coupon-bond' | 'vesting'

export interface ExampleTemplate {
  readonly id: ExampleTemplateId
  readonly title: string
  /** One line for the template picker. */
  readonly description: string
}

export const templates: readonly ExampleTemplate[] = [
  {
    id: 'escrow',
    title: 'Escrow',
    description: 'A buyer pays a seller through the contract; a mediator settles any complaint.'
  },
  {
    id: 'swap',
    title: 'Swap',
    description: 'Two parties each deposit a token before their deadline, then each receives the other’s.'
  },
  {
    id: 'zero-coupon-bond',
    title: 'Zero-coupon bond',
    description: 'A lender lends a principal; the borrower repays it with interest before maturity.'
  },
  {
    id: 'coupon-bond',
    title: 'Coupon bond',
    description: 'An investor buys a bond; the issuer pays coupons at fixed intervals, then the principal.'
  },
  {
    id: 'vesting',
    title: 'Vesting',
    description: 'A provider locks tokens that vest to a claimer period by period; unvested tokens can be reclaimed.'
  }
]
