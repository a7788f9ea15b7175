/**
 * The ledger's minimum fee: `minFeeA × size + minFeeB`, plus the script fee ⌈Σmem × priceMem + Σsteps ×
 * priceSteps⌉, plus Conway's tiered reference-script fee (each 25,600 bytes cost 1.2× the tier before).
 */
import type { ExUnits } from '../tx'
import type { Ratio } from '../../ratio'
import type { ReviewProtocolParameters } from './types'

const REF_SCRIPT_TIER_BYTES = 25_600n
/** The tier multiplier, 1.2. */
const TIER_NUMERATOR = 6n
const TIER_DENOMINATOR = 5n
/** `[vkey, signature]`: 1 + (2 + 32) + (2 + 64) bytes. */
export const VKEY_WITNESS_BYTES = 101

function ceilDiv(n: bigint, d: bigint): bigint {
  return n <= 0n ? -(-n / d) : (n + d - 1n) / d
}

/**
 * The ledger's `txscriptfee`: ⌈mem × priceMem + steps × priceSteps⌉ on the exact rationals, one ceiling for the
 * transaction's total units (a ceiling per price, or per redeemer, would overpay).
 */
export function scriptFee(exUnits: ExUnits, prices: { readonly priceMem: Ratio; readonly priceSteps: Ratio }): bigint {
  const { priceMem, priceSteps } = prices
  const numerator =
    exUnits.mem * priceMem.numerator * priceSteps.denominator +
    exUnits.steps * priceSteps.numerator * priceMem.denominator
  return ceilDiv(numerator, priceMem.denominator * priceSteps.denominator)
}

/** `scriptFee`, or undefined without valid prices. */
export function exUnitsFee(exUnits: ExUnits, params: ReviewProtocolParameters): bigint | undefined {
  const { priceMem, priceSteps } = params
  if (priceMem === undefined || priceSteps === undefined) return undefined
  if (priceMem.denominator <= 0n || priceSteps.denominator <= 0n) return undefined
  return scriptFee(exUnits, { priceMem, priceSteps })
}

/** Conway's reference-script fee for `size` bytes of reference scripts: the floor of the exact tiered sum. */
export function referenceScriptFee(size: bigint, price: Ratio): bigint {
  // Exact rationals: acc and tier price share the denominator price.denominator × 5^tier.
  let accNumerator = 0n
  let denominator = price.denominator
  let tierPrice = price.numerator
  let rest = size
  while (rest >= REF_SCRIPT_TIER_BYTES) {
    accNumerator += REF_SCRIPT_TIER_BYTES * tierPrice
    accNumerator *= TIER_DENOMINATOR
    tierPrice *= TIER_NUMERATOR
    denominator *= TIER_DENOMINATOR
    rest -= REF_SCRIPT_TIER_BYTES
  }
  return (accNumerator + rest * tierPrice) / denominator
}

/** `minFeeA × size + minFeeB`, or undefined without those parameters. */
export function sizeFee(size: number, params: ReviewProtocolParameters): bigint | undefined {
  const { minFeeA, minFeeB } = params
  return minFeeA === undefined || minFeeB === undefined ? undefined : minFeeA * BigInt(size) + minFeeB
}

export function ratioCeil(amount: bigint, percent: number): bigint {
  return ceilDiv(amount * BigInt(percent), 100n)
}
