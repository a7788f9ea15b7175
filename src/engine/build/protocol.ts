/** Protocol parameters as CSL builder configuration, cost models and fee bounds. */
import type { ProtocolParameters, Ratio } from '../../chain/provider'
import { referenceScriptFee, scriptFee } from '../../core/cardano/review'
import { CSL, type CslScope } from '../../csl'

const big = (n: bigint | number): CSL.BigNum => CSL.BigNum.from_str(String(n))

function unitInterval(scope: CslScope, r: Ratio): CSL.UnitInterval {
  return scope.own(CSL.UnitInterval.new(scope.own(big(r.numerator)), scope.own(big(r.denominator))))
}

export function builderConfig(scope: CslScope, pp: ProtocolParameters): CSL.TransactionBuilderConfig {
  const prices = scope.own(CSL.ExUnitPrices.new(unitInterval(scope, pp.priceMem), unitInterval(scope, pp.priceSteps)))
  const fees = scope.own(CSL.LinearFee.new(scope.own(big(pp.minFeeA)), scope.own(big(pp.minFeeB))))
  // Every chained call returns a fresh wasm object, so each one is owned.
  let b = scope.own(CSL.TransactionBuilderConfigBuilder.new())
  b = scope.own(b.fee_algo(fees))
  b = scope.own(b.coins_per_utxo_byte(scope.own(big(pp.coinsPerUtxoByte))))
  b = scope.own(b.pool_deposit(scope.own(big(pp.poolDeposit))))
  b = scope.own(b.key_deposit(scope.own(big(pp.keyDeposit))))
  b = scope.own(b.max_value_size(pp.maxValueSize))
  b = scope.own(b.max_tx_size(pp.maxTxSize))
  b = scope.own(b.ex_unit_prices(prices))
  b = scope.own(b.ref_script_coins_per_byte(unitInterval(scope, pp.minFeeRefScriptCostPerByte)))
  return scope.own(b.build())
}

const LANGUAGES = [
  ['PlutusV1', () => CSL.Language.new_plutus_v1()],
  ['PlutusV2', () => CSL.Language.new_plutus_v2()],
  ['PlutusV3', () => CSL.Language.new_plutus_v3()]
] as const

/**
 * Cost models serialised once per object (parameter sets made from one, as the cost check's, share it): building
 * them costs hundreds of wasm calls.
 */
const costModelBytes = new WeakMap<ProtocolParameters['costModels'], Uint8Array>()

export function costModels(scope: CslScope, pp: ProtocolParameters): CSL.Costmdls {
  const cached = costModelBytes.get(pp.costModels)
  if (cached !== undefined) return scope.own(CSL.Costmdls.from_bytes(cached))
  const models = scope.own(CSL.Costmdls.new())
  for (const [name, language] of LANGUAGES) {
    const params = pp.costModels[name]
    if (params === undefined) continue
    const model = scope.own(CSL.CostModel.new())
    params.forEach((p, i) => scope.own(model.set(i, scope.own(CSL.Int.from_str(String(p))))))
    const previous = models.insert(scope.own(language()), model)
    if (previous !== undefined) scope.own(previous)
  }
  costModelBytes.set(pp.costModels, models.to_bytes())
  return models
}

/**
 * A fee no transaction can exceed: the largest tx, every execution unit a tx may use when it runs scripts,
 * and its reference scripts. Coin selection covers it, so a selection never has to grow after evaluation.
 */
export function maxFee(pp: ProtocolParameters, runsScripts: boolean, refScriptBytes: number): bigint {
  const sizeFee = pp.minFeeA * BigInt(pp.maxTxSize) + pp.minFeeB
  const unitsFee = runsScripts ? scriptFee(pp.maxTxExUnits, pp) : 0n
  return sizeFee + unitsFee + referenceScriptFee(BigInt(refScriptBytes), pp.minFeeRefScriptCostPerByte)
}

/** Lovelace the collateral must cover for a given fee. */
export function requiredCollateral(pp: ProtocolParameters, fee: bigint): bigint {
  const pct = BigInt(pp.collateralPercentage)
  return (fee * pct + 99n) / 100n
}
