/**
 * The withdraw transaction (runtime-api.md §9.5): spend each payout UTxO through the reference script of the
 * payout validator its address names, with its datum in the witness set and the unit redeemer, and spend and
 * return a wallet UTxO holding the matching role token. The payouts reach the change address as change.
 */
import type { Utxo } from '../../chain/provider'
import { hexToBytes, utf8DecodeStrict } from '../../core/bytes'
import { parseShelleyAddress } from '../../core/cardano/address'
import { datumHash } from '../../core/marlowe/plutus/hash'
import { PlutusDataError } from '../../core/marlowe/plutus/data'
import { PlutusDecodeError, decodePayoutDatum, encodePayoutDatum } from '../../core/marlowe/plutus/marlowe-data'
import type { PayoutDatum } from '../../core/marlowe/types'
import { balanceAndBuild, builtTxFields } from './balance'
import { engineFailure, payoutNotFound, roleTokenNotFound } from './build-errors'
import type { BuildContext } from './context'
import type { ScriptSpend, TxPlan } from './plan'
import { formatRef } from '../../core/cardano/refs'
import type { RefScript } from './scripts'
import type { WalletRequest, WithdrawBuild, WithdrawRequest } from './types'
import { assetList, assetNameHex, holdsAsset } from './values'
import { loadWallet, type Wallet } from './wallet'

/** The payout validator's redeemer `Constr 0 []`. */
const UNIT_REDEEMER = new Uint8Array([0xd8, 0x79, 0x80])

interface Payout {
  readonly utxo: Utxo
  readonly datum: PayoutDatum
  readonly datumBytes: Uint8Array
  readonly script: RefScript
}

/**
 * The payout datum of a UTxO: resolved by the provider, given by the caller, or found among the wallet's role
 * tokens by hash (the datum is just `(policy, role)`, so the wallet's own tokens reveal it).
 */
function payoutDatumBytes(utxo: Utxo, request: WithdrawRequest, wallet: Wallet): Uint8Array | undefined {
  const known = [utxo.datum, request.datums?.get(formatRef(utxo.ref))].find(
    (d) => d !== undefined && datumHash(d) === utxo.datumHash
  )
  if (known !== undefined) return known
  for (const u of wallet.utxos) {
    for (const q of assetList(u.value)) {
      const role = utf8DecodeStrict(hexToBytes(q.assetName))
      if (role === undefined) continue
      const bytes = encodePayoutDatum({ rolesCurrency: q.policyId, role })
      if (datumHash(bytes) === utxo.datumHash) return bytes
    }
  }
  return undefined
}

function tryDecodePayoutDatum(bytes: Uint8Array): PayoutDatum | undefined {
  try {
    return decodePayoutDatum(bytes)
  } catch (e) {
    if (e instanceof PlutusDecodeError || e instanceof PlutusDataError) return undefined
    throw e
  }
}

async function loadPayout(ctx: BuildContext, utxo: Utxo, request: WithdrawRequest, wallet: Wallet): Promise<Payout> {
  const ref = formatRef(utxo.ref)
  const payment = parseShelleyAddress(utxo.address).payment
  const set = ctx.scripts.find((s) => payment.type === 'script' && s.payout.hash === payment.hash)
  if (set === undefined) {
    // Runtime answers an output that is no payout as it answers an unknown one.
    throw engineFailure(
      'BadRequest',
      'PayoutNotFound',
      `${ref} is not a payout: it is not at a payout validator address`,
      {
        tag: 'PayoutNotFound',
        txOutRef: ref,
        address: utxo.address
      }
    )
  }
  const bytes = payoutDatumBytes(utxo, request, wallet)
  const datum = bytes === undefined ? undefined : tryDecodePayoutDatum(bytes)
  if (bytes === undefined || datum === undefined) {
    throw engineFailure('BadRequest', 'InvalidPayoutDatum', `The datum of payout ${ref} is unknown or invalid`, {
      tag: 'InvalidPayoutDatum',
      txOutRef: ref
    })
  }
  const script = await ctx.refScripts.get(set.payout, 'PayoutScriptNotPublished')
  return { utxo, datum, datumBytes: bytes, script }
}

export async function buildWithdraw(
  ctx: BuildContext,
  walletRequest: WalletRequest,
  request: WithdrawRequest
): Promise<WithdrawBuild> {
  const unique = [...new Map(request.payouts.map((r) => [formatRef(r), r])).values()]
  if (unique.length === 0) throw engineFailure('BadRequest', 'EmptyPayouts', 'No payouts to withdraw')
  const [wallet, found] = await Promise.all([loadWallet(ctx.provider, walletRequest), ctx.provider.utxosByRef(unique)])
  const byRef = new Map(found.map((u) => [formatRef(u.ref), u]))
  const payouts: Payout[] = []
  for (const ref of unique) {
    const utxo = byRef.get(formatRef(ref))
    if (utxo === undefined) throw payoutNotFound(ref)
    payouts.push(await loadPayout(ctx, utxo, request, wallet))
  }
  const spends: ScriptSpend[] = payouts.map((p) => ({
    utxo: p.utxo,
    script: p.script,
    datum: p.datumBytes,
    redeemer: UNIT_REDEEMER
  }))

  const plan = (available: readonly Utxo[]) => {
    const roleUtxos: Utxo[] = []
    for (const { datum } of payouts) {
      const name = assetNameHex(datum.role) ?? ''
      const holds = (u: Utxo) => holdsAsset(u.value, datum.rolesCurrency, name)
      if (roleUtxos.some(holds)) continue
      const holder = available.find(holds)
      if (holder === undefined) throw roleTokenNotFound(datum.rolesCurrency, datum.role, wallet.utxos.some(holds))
      roleUtxos.push(holder)
    }
    const txPlan: TxPlan = {
      scriptSpends: spends,
      walletSpends: roleUtxos,
      outputs: roleUtxos.map((u) => ({ address: u.address, value: u.value })),
      requiredSigners: [],
      metadata: new Map()
    }
    return { plan: txPlan, info: undefined }
  }

  const built = await balanceAndBuild(ctx.balance, wallet, plan)
  return {
    ...builtTxFields(built),
    payouts: payouts.map((p) => ({
      ref: p.utxo.ref,
      rolesCurrency: p.datum.rolesCurrency,
      role: p.datum.role,
      assets: p.utxo.value
    }))
  }
}
