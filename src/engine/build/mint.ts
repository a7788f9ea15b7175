/**
 * Minting role tokens with the one-shot policy (runtime-api.md §9.2): pick the seed UTxO as Runtime does (the
 * smallest wallet UTxO that alone could hold every token, else the first), ask the factory for the policy
 * parameterised by the seed and the exact tokens, and mint them all with the unit redeemer.
 */
import type { Utxo } from '../../chain/provider'
import { CSL, withCsl } from '../../csl'
import { engineFailure } from './build-errors'
import type { BuildContext } from './context'
import { SAFE_LOVELACE } from './initial-state'
import { minAdaBound } from './min-utxo'
import type { PlannedMint } from './plan'
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
  const bound = withCsl((scope) => minAdaBound(scope, ctx.pp, value))
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
export async function planMint(
  ctx: BuildContext,
  tokens: ReadonlyMap<string, bigint>,
  available: readonly Utxo[]
): Promise<{ mint: PlannedMint; seed: Utxo }> {
  const factory = ctx.roleTokenPolicy
  if (factory === undefined) {
    throw engineFailure(
      'Internal',
      'MintingScriptDecodingFailed',
      'No role-token minting policy is available for this network',
      {
        tag: 'MintingScriptDecodingFailed'
      }
    )
  }
  const seed = chooseSeed(available, seedEstimate(ctx, tokens))
  const script = await factory(seed.ref, tokens)
  const policyId = withCsl((scope) => scope.own(scope.own(CSL.PlutusScript.new_v2(script)).hash()).to_hex())
  const assets = [...tokens].map(([name, quantity]) => ({ assetName: assetNameHex(name) ?? '', quantity }))
  return { mint: { script, policyId, redeemer: UNIT_REDEEMER, assets }, seed }
}
