/** A CSL `TransactionBuilderConfig` from `ProtocolParameters` (the faucet's, and anyone's building for the sandbox). */
import { CSL, type CslScope } from '../../csl'
import type { ProtocolParameters, Ratio } from '../provider'

function big(s: CslScope, n: bigint): CSL.BigNum {
  return s.own(CSL.BigNum.from_str(n.toString()))
}

function interval(s: CslScope, r: Ratio): CSL.UnitInterval {
  return s.own(CSL.UnitInterval.new(big(s, r.numerator), big(s, r.denominator)))
}

export function txBuilderConfig(s: CslScope, p: ProtocolParameters): CSL.TransactionBuilderConfig {
  let b = s.own(CSL.TransactionBuilderConfigBuilder.new())
  b = s.own(b.fee_algo(s.own(CSL.LinearFee.new(big(s, p.minFeeA), big(s, p.minFeeB)))))
  b = s.own(b.coins_per_utxo_byte(big(s, p.coinsPerUtxoByte)))
  b = s.own(b.pool_deposit(big(s, p.poolDeposit)))
  b = s.own(b.key_deposit(big(s, p.keyDeposit)))
  b = s.own(b.max_value_size(p.maxValueSize))
  b = s.own(b.max_tx_size(p.maxTxSize))
  b = s.own(b.ex_unit_prices(s.own(CSL.ExUnitPrices.new(interval(s, p.priceMem), interval(s, p.priceSteps)))))
  b = s.own(b.ref_script_coins_per_byte(interval(s, p.minFeeRefScriptCostPerByte)))
  b = s.own(b.prefer_pure_change(true))
  return s.own(b.build())
}
