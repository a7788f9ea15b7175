/**
 * The ledger's minimum fee: `minFeeA × size + minFeeB`, plus the script fee ⌈Σmem × priceMem + Σsteps ×
 * priceSteps⌉, plus Conway's tiered reference-script fee (each 25,600 bytes cost 1.2× the tier before).
 */
import type { ExUnits } from '../tx'
import type { Ratio, ReviewProtocolParameters } from './types'

const REF_SCRIPT_TIER_BYTES = 25_600n
/** The tier multiplier, 1.2. */
const TIER_NUMERATOR = 6n
const TIER_DENOMINATOR = 5n
/** `[vkey, signature]`: 1 + (2 + 32) + (2 + 64) bytes. */
export const VKEY_WITNESS_BYTES = 101

function ceilDiv(n: bigint, d: bigint): bigint {
  return n <= 0n ? -(-n / d) : (n + d - 1n) / d
}

/** ⌈mem × priceMem + steps × priceSteps⌉, or undefined without prices. */
export function exUnitsFee(exUnits: ExUnits, params: ReviewProtocolParameters): bigint | undefined {
  const { priceMem, priceSteps } = params
  if (priceMem === undefined || priceSteps === undefined) return undefined
  if (priceMem.denominator <= 0n || priceSteps.denominator <= 0n) return undefined
  const numerator =
    exUnits.mem * priceMem.numerator * priceSteps.denominator +
    exUnits.steps * priceSteps.numerator * priceMem.denominator
  return ceilDiv(numerator, priceMem.denominator * priceSteps.denominator)
}

/** Conway's reference-script fee for `size` bytes of reference scripts, or undefined without its price. */
export function referenceScriptFee(size: bigint, price: Ratio | undefined): bigint | undefined {
  if (price === undefined || price.denominator <= 0n) return undefined
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
