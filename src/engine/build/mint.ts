/**
 * Minting role tokens with the one-shot policy (runtime-api.md §9.2): pick the seed UTxO as Runtime does (the
 * smallest wallet UTxO that alone could hold every token, else the first), parameterise our policy
 * (role-token-policy/) by the seed and the exact tokens, and mint them all with Runtime's unit redeemer.
 */
import type { Utxo } from '../../chain/provider'
import { engineFailure } from './build-errors'
import type { BuildContext } from './context'
import { SAFE_LOVELACE } from './initial-state'
import { minAdaBound } from './min-utxo'
import type { PlannedMint } from './plan'
import { roleTokenPolicy } from './role-token-policy/policy'
import { assetNameHex, sumValues, tokenValue } from './values'

/** The mint redeemer `Constr 0 []`. */
const UNIT_REDEEMER = new Uint8Array([0xd8, 0x79, 0x80])

/** Runtime's estimate for the seed: the min-UTxO of an output holding every token, at least 0.75 ada. */
function seedEstimate(ctx: BuildContext, tokens: ReadonlyMap<string, bigint>): bigint {
  const dummyPolicy = '00'.repeat(28)
  const value = sumValues([
    { lovelace: SAFE_LOVELACE, assets: {} },
    ...[...tokens].map(([name, q]) => tokenValue({ currencySymbol: dummyPolicy, tokenName: name }, q))
  ])
  const bound = minAdaBound(ctx.pp, value)
  return bound !== undefined && bound > SAFE_LOVELACE ? bound : SAFE_LOVELACE
}

function chooseSeed(available: readonly Utxo[], estimate: bigint): Utxo {
  const byLovelace = [...available].sort((a, b) =>
    a.value.lovelace < b.value.lovelace ? -1 : a.value.lovelace > b.value.lovelace ? 1 : 0
  )
  const seed = byLovelace.find((u) => u.value.lovelace > estimate) ?? available[0]
  if (seed === undefined) {
    throw engineFailure(
      'BadRequest',
      'MintingUtxoSelectionFailed',
      'No wallet UTxO is free to seed the role-token policy',
      {
        tag: 'MintingUtxoSelectionFailed'
      }
    )
  }
  return seed
}

/** The mint and the seed UTxO the tx must spend for it. */
export function planMint(
  ctx: BuildContext,
  tokens: ReadonlyMap<string, bigint>,
  available: readonly Utxo[]
): { mint: PlannedMint; seed: Utxo } {
  const seed = chooseSeed(available, seedEstimate(ctx, tokens))
  const assets = [...tokens].map(([name, quantity]) => ({ assetName: assetNameHex(name) ?? '', quantity }))
  const { script, policyId } = roleTokenPolicy(seed.ref, assets)
  return { mint: { script, policyId, redeemer: UNIT_REDEEMER, assets }, seed }
}
