/**
 * Open roles on apply (runtime-api.md §9.4): a role the wallet lacks may wait at the open-role validator; the
 * first input by that role spends it through the validator's reference script (unit redeemer, datum
 * `B threadTokenName`), and the token goes to the change address.
 */
import type { MarloweDeployment } from '../../chain/deployments'
import type { Utxo } from '../../chain/provider'
import { hexToBytes } from '../../core/bytes'
import { encodePlutusData } from '../../core/marlowe/plutus/data'
import { datumHash } from '../../core/marlowe/plutus/hash'
import type { BuildContext } from './context'
import type { ScriptSpend } from './plan'
import { scriptAddress } from './scripts'
import { assetNameHex, holdsAsset } from './values'

/** `Constr 0 []`, the open-role validator's redeemer. */
const UNIT_REDEEMER = new Uint8Array([0xd8, 0x79, 0x80])

/**
 * Open-role UTxOs holding the roles the wallet lacks, with their datum (`B threadTokenName`): the thread token
 * sits in the Marlowe UTxO, so its name is found among the UTxO's role-currency assets by hash.
 */
export async function openRoleSpends(
  ctx: BuildContext,
  scripts: MarloweDeployment,
  marlowe: Utxo,
  rolesCurrency: string,
  missing: readonly string[]
): Promise<Map<string, ScriptSpend>> {
  const spends = new Map<string, ScriptSpend>()
  if (missing.length === 0) return spends
  const address = scriptAddress(ctx.mainnet, scripts.openRole.hash)
  const [utxos, script] = await Promise.all([
    ctx.provider.utxosAt([address]),
    ctx.refScripts.get(scripts.openRole, 'HelperScriptNotFound')
  ])
  const threadNames = Object.keys(marlowe.value.assets[rolesCurrency] ?? {})
  for (const role of missing) {
    const name = assetNameHex(role) ?? ''
    for (const u of utxos.filter((x) => holdsAsset(x.value, rolesCurrency, name))) {
      const datum = [u.datum, ...threadNames.map((t) => encodePlutusData(hexToBytes(t)))].find(
        (d) => d !== undefined && datumHash(d) === u.datumHash
      )
      if (datum === undefined) continue
      spends.set(role, { utxo: u, script, datum, redeemer: UNIT_REDEEMER })
      break
    }
  }
  return spends
}
