/**
 * The sandbox's protocol parameters: the emulator's `hardCodedProtocolParams` (mainnet-like Conway values and
 * cost models) plus the Conway reference-script fee, which the emulator charges only when it is set — 15
 * lovelace per byte, in 25,600-byte tiers that cost 1.2× more each, as on mainnet.
 */
import { Costmdls, hardCodedProtocolParams, type ProtocolParameters as BlazeParams } from '@blaze-cardano/core'
import { decimalRatio } from '../../core/ratio'
import type { ProtocolParameters, Ratio, ScriptLanguage } from '../provider'

const REF_SCRIPT_FEE = { base: 15, range: 25_600, multiplier: 1.2 }

export const SANDBOX_BLAZE_PARAMS: BlazeParams = Object.freeze({
  ...hardCodedProtocolParams,
  // A copy: the emulator's defaults are a shared module-level object.
  costModels: new Map(hardCodedProtocolParams.costModels),
  minFeeRefScriptCostPerByte: REF_SCRIPT_FEE.base,
  minFeeReferenceScripts: REF_SCRIPT_FEE
})

/** The exact ratio a decimal parameter was written as (0.0577 → 577/10000), from its shortest decimal form. */
export function ratioFromDecimal(x: number): Ratio {
  const ratio = decimalRatio(String(x))
  if (ratio === undefined) throw new Error(`not a non-negative decimal: ${x}`)
  return ratio
}

/** Cost-model keys of the emulator's `costModels` map (the ledger's language ids). */
const LANGUAGE_IDS: Readonly<Record<Exclude<ScriptLanguage, 'Native'>, number>> = {
  PlutusV1: 0,
  PlutusV2: 1,
  PlutusV3: 2
}

function costModel(p: BlazeParams, language: keyof typeof LANGUAGE_IDS): readonly bigint[] | undefined {
  return p.costModels.get(LANGUAGE_IDS[language])?.map(BigInt)
}

export function toProtocolParameters(p: BlazeParams): ProtocolParameters {
  const costModels: Partial<Record<keyof typeof LANGUAGE_IDS, readonly bigint[]>> = {}
  for (const language of ['PlutusV1', 'PlutusV2', 'PlutusV3'] as const) {
    const model = costModel(p, language)
    if (model !== undefined) costModels[language] = model
  }
  return {
    minFeeA: BigInt(p.minFeeCoefficient),
    minFeeB: BigInt(p.minFeeConstant),
    coinsPerUtxoByte: BigInt(p.coinsPerUtxoByte),
    maxTxSize: p.maxTxSize,
    maxValueSize: p.maxValueSize,
    keyDeposit: BigInt(p.stakeKeyDeposit),
    poolDeposit: BigInt(p.poolDeposit ?? 0),
    priceMem: ratioFromDecimal(p.prices.memory),
    priceSteps: ratioFromDecimal(p.prices.steps),
    minFeeRefScriptCostPerByte: ratioFromDecimal(p.minFeeRefScriptCostPerByte ?? 0),
    collateralPercentage: p.collateralPercentage,
    maxCollateralInputs: p.maxCollateralInputs,
    maxTxExUnits: {
      mem: BigInt(p.maxExecutionUnitsPerTransaction.memory),
      steps: BigInt(p.maxExecutionUnitsPerTransaction.steps)
    },
    costModels,
    protocolVersion: { major: p.protocolVersion.major, minor: p.protocolVersion.minor }
  }
}

/** The ledger's "language views" encoding of the cost models of `languages` (a part of the script data hash). */
export function languageViews(p: BlazeParams, languages: ReadonlySet<number>): string {
  const used = new Map([...p.costModels].filter(([id]) => languages.has(id)))
  return Costmdls.fromCore(used).languageViewsEncoding()
}
