/**
 * Which wallet UTxOs a plan spends: the collateral (the smallest pure-ada UTxO that covers the collateral of
 * any fee plus a return output, preferring the caller's list) and the coins that balance the plan with a fee
 * allowance no tx can exceed, so selection never has to grow after script evaluation.
 */
import type { ProtocolParameters, Utxo } from '../../chain/provider'
import type { Value } from '../../core/cardano/value'
import { coinSelectionFailed } from './build-errors'
import { requiredLovelace } from './min-utxo'
import { runsScripts, type TxPlan } from './plan'
import { maxFee, requiredCollateral } from './protocol'
import { formatRef } from '../../core/cardano/refs'
import type { ReservedRefs } from './reservations'
import { selectCoins } from './selection'
import { addValues, hasAssets, subtractValues, sumValues, ZERO } from './values'
import type { Wallet } from './wallet'

export interface ChosenInputs {
  readonly plan: TxPlan
  /** Forced (the plan's) then selected wallet inputs. */
  readonly walletInputs: readonly Utxo[]
  readonly collateral?: Utxo
}

/** Bytes of the distinct reference scripts the plan runs, for the reference-script fee. */
export function refScriptBytes(plan: TxPlan): number {
  const sizes = new Map(plan.scriptSpends.map((s) => [formatRef(s.script.ref), s.script.size]))
  return [...sizes.values()].reduce((a, b) => a + b, 0)
}

export function feeAllowance(pp: ProtocolParameters, plan: TxPlan): bigint {
  return maxFee(pp, runsScripts(plan), refScriptBytes(plan))
}

function mintedValue(plan: TxPlan): Value {
  return sumValues(
    (plan.mints ?? []).flatMap((m) =>
      m.assets.map((a) => ({ lovelace: 0n, assets: { [m.policyId]: { [a.assetName]: a.quantity } } }))
    )
  )
}

/** Lovelace an output to `address` holding `value`'s tokens needs. */
function minLovelace(pp: ProtocolParameters, address: string, value: Value): bigint {
  return requiredLovelace(pp, { address, value: { lovelace: 0n, assets: value.assets } })
}

/**
 * Collateral may be shared with other pending builds (only a failing script takes it) but never spent by one,
 * so candidates are the free UTxOs plus those other builds hold as collateral and do not also spend (a build
 * may spend its own collateral).
 */
function chooseCollateral(
  pp: ProtocolParameters,
  wallet: Wallet,
  free: readonly Utxo[],
  held: ReservedRefs,
  fee: bigint
): Utxo {
  const needed = requiredCollateral(pp, fee) + minLovelace(pp, wallet.changeAddress, ZERO)
  const shared = [...held.collateral].filter((ref) => !held.spent.has(ref))
  const usable = new Set([...free.map((u) => formatRef(u.ref)), ...shared])
  const pool = (wallet.collateral.length > 0 ? wallet.collateral : wallet.utxos).filter((u) =>
    usable.has(formatRef(u.ref))
  )
  const fits = pool.filter((u) => !hasAssets(u.value) && u.value.lovelace >= needed)
  fits.sort((a, b) => (a.value.lovelace < b.value.lovelace ? -1 : a.value.lovelace > b.value.lovelace ? 1 : 0))
  const best = fits[0]
  if (best === undefined) throw coinSelectionFailed({ tag: 'NoCollateralFound', txOutRefs: pool.map((u) => u.ref) })
  return best
}

export function chooseInputs(
  pp: ProtocolParameters,
  wallet: Wallet,
  plan: TxPlan,
  free: readonly Utxo[],
  held: ReservedRefs,
  pick: (count: number) => number
): ChosenInputs {
  const fee = feeAllowance(pp, plan)
  const collateral = runsScripts(plan) ? chooseCollateral(pp, wallet, free, held, fee) : undefined
  const balance = subtractValues(
    addValues(
      sumValues([...plan.scriptSpends.map((s) => s.utxo.value), ...plan.walletSpends.map((u) => u.value)]),
      mintedValue(plan)
    ),
    sumValues(plan.outputs.map((o) => o.value))
  )
  const changeMinLovelace = (change: Value): bigint => minLovelace(pp, wallet.changeAddress, change)
  const forced = new Set(plan.walletSpends.map((u) => formatRef(u.ref)))
  const pool = free.filter((u) => !forced.has(formatRef(u.ref)))
  // Spend the collateral only when nothing else will do.
  const preferred = pool.filter((u) => collateral === undefined || formatRef(u.ref) !== formatRef(collateral.ref))
  let result = selectCoins({ balance, fee, candidates: preferred, changeMinLovelace, pick })
  if (!result.ok && preferred.length < pool.length) {
    result = selectCoins({ balance, fee, candidates: pool, changeMinLovelace, pick })
  }
  if (!result.ok) throw coinSelectionFailed(result.failure)
  return {
    plan,
    walletInputs: [...plan.walletSpends, ...result.selected],
    ...(collateral === undefined ? {} : { collateral })
  }
}
