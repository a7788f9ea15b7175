/**
 * The burn transaction (runtime-api.md §3.13, Runtime's `Burn.hs`): spend every wallet UTxO holding a role
 * token chosen for burning, mint the negated tokens under each policy with that policy's own script, and give
 * each UTxO back without them; ada-only remainders go back merged, one output per address. Nothing is spent
 * from a script.
 */
import type { Utxo } from '../../chain/provider'
import { decodeTransaction } from '../../core/cardano/tx'
import type { Value } from '../../core/cardano/value'
import { engineFailure, roleTokenNotFound } from './build-errors'
import { formatRef } from '../../core/cardano/refs'
import { balanceAndBuild, builtTxFields } from './balance'
import type { BuildContext } from './context'
import type { PlannedMint, PlannedOutput, TxPlan } from './plan'
import type { BurnBuild, BurnPolicy, BurnRequest, WalletRequest } from './types'
import {
  assetList,
  fromAssetList,
  hasAssets,
  negateValue,
  subtractValues,
  sumValues,
  type AssetQuantity
} from './values'
import { loadWallet } from './wallet'

/** Runtime's burn redeemer `Constr 1 []` (our policy ignores it). */
const BURN_REDEEMER = new Uint8Array([0xd8, 0x7a, 0x80])

export function noTokensToBurn(): Error {
  return engineFailure('BadRequest', 'BurnNoTokensToBurn', 'No tokens to burn', { tag: 'BurnNoTokensToBurn' })
}

/**
 * The Plutus V2 script of policy `policyId` among a transaction's witnesses: a minted policy is not derivable from
 * its id, but the tx that minted the tokens (the contract's create) carries its script.
 */
export function policyScriptIn(tx: Uint8Array, policyId: string): Uint8Array | undefined {
  return decodeTransaction(tx).witnessSet.plutusScripts.find((s) => s.language === 'PlutusV2' && s.hash === policyId)
    ?.bytes
}

/** The distinct tokens the UTxOs hold, quantities dropped. */
function heldTokens(utxos: readonly Utxo[]): AssetQuantity[] {
  const seen = new Map<string, AssetQuantity>()
  for (const u of utxos) {
    for (const a of assetList(u.value)) seen.set(`${a.policyId}.${a.assetName}`, { ...a, quantity: 1n })
  }
  return [...seen.values()]
}

/** The part of `value` that is burned: the chosen tokens it holds. */
function burnedPart(value: Value, chosen: ReadonlyMap<string, BurnPolicy>): Value {
  const burned = assetList(value).filter((a) => chosen.get(a.policyId)?.assetNames.has(a.assetName) === true)
  return fromAssetList(0n, burned)
}

/** Each holder back to its address without the burned tokens; ada-only remainders merged per address. */
function returnedOutputs(holders: readonly Utxo[], chosen: ReadonlyMap<string, BurnPolicy>): PlannedOutput[] {
  const outputs: PlannedOutput[] = []
  const adaOnly = new Map<string, bigint>()
  for (const u of holders) {
    const rest = subtractValues(u.value, burnedPart(u.value, chosen))
    if (hasAssets(rest)) outputs.push({ address: u.address, value: rest })
    else adaOnly.set(u.address, (adaOnly.get(u.address) ?? 0n) + rest.lovelace)
  }
  for (const [address, lovelace] of adaOnly) outputs.push({ address, value: { lovelace, assets: {} } })
  return outputs
}

function plannedBurns(burned: Value, chosen: ReadonlyMap<string, BurnPolicy>): PlannedMint[] {
  const negated = negateValue(burned)
  return Object.keys(negated.assets).map((policyId) => ({
    policyId,
    script: chosen.get(policyId)!.script,
    redeemer: BURN_REDEEMER,
    assets: assetList({ lovelace: 0n, assets: { [policyId]: negated.assets[policyId] ?? {} } })
  }))
}

export async function buildBurn(
  ctx: BuildContext,
  walletRequest: WalletRequest,
  request: BurnRequest
): Promise<BurnBuild> {
  const wallet = await loadWallet(ctx.provider, walletRequest)
  const chosen = new Map((await request.choose(heldTokens(wallet.utxos))).map((p) => [p.policyId, p]))
  const holds = (u: Utxo): boolean => hasAssets(burnedPart(u.value, chosen))
  const holders = wallet.utxos.filter(holds)
  if (holders.length === 0) throw noTokensToBurn()

  const plan = (available: readonly Utxo[]) => {
    // Every holder, or none: a token left in a UTxO another pending build spends is one the caller asked to burn.
    const free = new Set(available.map((u) => formatRef(u.ref)))
    const held = holders.find((u) => !free.has(formatRef(u.ref)))
    if (held !== undefined) {
      const first = assetList(burnedPart(held.value, chosen))[0]!
      throw roleTokenNotFound(first.policyId, first.assetName, true)
    }
    const burned = sumValues(holders.map((u) => burnedPart(u.value, chosen)))
    const txPlan: TxPlan = {
      scriptSpends: [],
      walletSpends: holders,
      outputs: returnedOutputs(holders, chosen),
      mints: plannedBurns(burned, chosen),
      requiredSigners: [],
      metadata: new Map()
    }
    return { plan: txPlan, info: burned }
  }

  const built = await balanceAndBuild(ctx.balance, wallet, plan)
  return { ...builtTxFields(built), burned: built.info }
}
