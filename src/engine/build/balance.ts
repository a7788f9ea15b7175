/**
 * From a plan to a finished unsigned tx: inputs chosen among the UTxOs no other pending build holds, an atomic
 * reservation (retried when a concurrent build took an input first), then CSL passes — a draft declaring the
 * whole execution budget, the provider's evaluation, and the final tx with the measured units.
 */
import { randomUUID } from 'node:crypto'
import {
  ChainError,
  type ChainProvider,
  type ExUnits,
  type ProtocolParameters,
  type TxOutRef
} from '../../chain/provider'
import { scriptFee } from '../../core/cardano/review'
import { assembleOffThread } from '../worker'
import { placeholderUnits, redeemerKey, type Assembled } from './assemble'
import { engineFailure } from './build-errors'
import { checkReadableDepth } from './depth'
import { outOfBudget } from './cost-check'
import { chooseInputs, feeAllowance, type ChosenInputs } from './inputs'
import type { PlanFactory, TxPlan } from './plan'
import { requiredCollateral } from './protocol'
import { formatRef } from '../../core/cardano/refs'
import type { InputReservations } from './reservations'
import type { BuiltTx } from './types'
import type { Wallet } from './wallet'

export interface BalanceDeps {
  readonly provider: ChainProvider
  readonly pp: ProtocolParameters
  readonly reservations: InputReservations
  readonly now: () => number
  readonly ttlMs: number
  /** Which of `count` equally good coins selection takes (selection.ts). */
  readonly pickAmongEqual: (count: number) => number
}

export interface Balanced<T> extends Assembled {
  readonly plan: TxPlan
  readonly info: T
  readonly spent: readonly TxOutRef[]
  readonly collateral: readonly TxOutRef[]
  readonly reservation: { readonly key: string; readonly expiresAt: number }
}

/** The fields every build result shares (`BuiltTx` without its validity bounds). */
export function builtTxFields<T>(
  b: Balanced<T>
): Pick<BuiltTx, 'txId' | 'tx' | 'fee' | 'spent' | 'collateral' | 'reservation'> {
  return { txId: b.txId, tx: b.tx, fee: b.fee, spent: b.spent, collateral: b.collateral, reservation: b.reservation }
}

/**
 * Races lost to concurrent builds before giving up. An attempt is a read of the reservations and a selection (the
 * evaluation comes after a won race): cheap against a build. Each lost race is another build's won one, so a
 * build loses at most as many as there are concurrent builds: 16 clients on each of three replicas are 48.
 */
const MAX_ATTEMPTS = 64
const CONVERGE_PASSES = 4

function balancingError(message: string, msg: string): Error {
  return engineFailure('Internal', 'BalancingError', message, { tag: 'BalancingError', msg })
}

async function evaluate(deps: BalanceDeps, draft: Assembled, needed: Iterable<string>): Promise<Map<string, ExUnits>> {
  let budgets
  try {
    budgets = await deps.provider.evaluate(draft.tx)
  } catch (e) {
    if (e instanceof ChainError && e.kind === 'EvaluationFailed') {
      // Past the budget, the request asks more than one transaction can do (e.g. too many roles minted at once).
      if (outOfBudget(e)) throw overBudget(deps.pp, e.reason)
      throw balancingError(`Script evaluation failed: ${e.reason}`, e.reason)
    }
    throw e
  }
  const units = new Map<string, ExUnits>()
  for (const b of budgets) {
    if (b.tag === 'spend' || b.tag === 'mint') units.set(redeemerKey(b.tag, b.index), b.exUnits)
  }
  for (const key of needed) {
    if (!units.has(key)) throw balancingError(`The evaluator returned no budget for redeemer ${key}`, key)
  }
  const used = totalUnits(units)
  const max = deps.pp.maxTxExUnits
  if (used.mem > max.mem || used.steps > max.steps)
    throw overBudget(deps.pp, `needs mem ${used.mem}, steps ${used.steps}`)
  return units
}

function overBudget(pp: ProtocolParameters, msg: string): Error {
  const max = pp.maxTxExUnits
  return engineFailure(
    'BadRequest',
    'BalancingError',
    `The scripts need more than a transaction's execution budget (memory ${max.mem}, steps ${max.steps}): ask for less in one transaction (fewer roles minted, a smaller contract)`,
    { tag: 'BalancingError', msg }
  )
}

const totalUnits = (units: ReadonlyMap<string, ExUnits>): ExUnits =>
  [...units.values()].reduce((a, u) => ({ mem: a.mem + u.mem, steps: a.steps + u.steps }), { mem: 0n, steps: 0n })

/** The ledger charges the transaction's total units, rounded up once. */
const unitsFee = (pp: ProtocolParameters, units: ReadonlyMap<string, ExUnits>): bigint =>
  scriptFee(totalUnits(units), pp)

async function finish(deps: BalanceDeps, wallet: Wallet, chosen: ChosenInputs): Promise<Assembled> {
  const { pp } = deps
  const base = { pp, plan: chosen.plan, walletInputs: chosen.walletInputs, changeAddress: wallet.changeAddress }
  const utxo = chosen.collateral
  if (utxo === undefined) return assembleOffThread({ ...base, exUnits: new Map() })
  const placeholder = placeholderUnits(pp, chosen.plan, chosen.walletInputs)
  const total = requiredCollateral(pp, feeAllowance(pp, chosen.plan))
  const draft = await assembleOffThread({ ...base, exUnits: placeholder, collateral: { utxo, total } })
  const units = await evaluate(deps, draft, placeholder.keys())
  // The collateral total depends on the fee, which depends (by a few bytes) on the total: converge.
  let fee = draft.fee - unitsFee(pp, placeholder) + unitsFee(pp, units)
  for (let pass = 0; pass < CONVERGE_PASSES; pass += 1) {
    const built = await assembleOffThread({
      ...base,
      exUnits: units,
      collateral: { utxo, total: requiredCollateral(pp, fee) }
    })
    if (requiredCollateral(pp, built.fee) <= requiredCollateral(pp, fee)) return built
    fee = built.fee
  }
  throw balancingError('Collateral and fee did not converge', 'collateral did not converge')
}

export async function balanceAndBuild<T>(
  deps: BalanceDeps,
  wallet: Wallet,
  makePlan: PlanFactory<T>,
  expiresBy?: number
): Promise<Balanced<T>> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const now = deps.now()
    const held = await deps.reservations.reserved(now)
    const free = wallet.utxos.filter((u) => !held.spent.has(formatRef(u.ref)) && !held.collateral.has(formatRef(u.ref)))
    const { plan, info } = await makePlan(free)
    checkReadableDepth(plan)
    const chosen = chooseInputs(deps.pp, wallet, plan, free, held, deps.pickAmongEqual)
    const key = randomUUID()
    const expiresAt = Math.min(now + deps.ttlMs, expiresBy ?? Number.POSITIVE_INFINITY)
    const spend = chosen.walletInputs.map((u) => u.ref)
    const collateral = chosen.collateral === undefined ? [] : [chosen.collateral.ref]
    const outcome = await deps.reservations.tryReserve({ key, spend, collateral, expiresAt }, now)
    if (!outcome.ok) continue
    try {
      const built = await finish(deps, wallet, chosen)
      const spent = [...plan.scriptSpends.map((s) => s.utxo.ref), ...spend]
      return { ...built, plan, info, spent, collateral, reservation: { key, expiresAt } }
    } catch (e) {
      await deps.reservations.release(key)
      throw e
    }
  }
  throw engineFailure(
    'Unavailable',
    'CoinSelectionFailed',
    'Concurrent builds kept taking the same inputs; try again',
    {
      tag: 'CoinSelectionFailed'
    }
  )
}
