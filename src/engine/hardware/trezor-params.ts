/**
 * A transaction Desk built, as Trezor Connect's `cardanoSignTransaction` parameters in the Plutus signing mode
 * (`PLUTUS_TRANSACTION`). Every field comes from Desk's own decoding of the bytes, so the device rebuilds the same
 * body. The parameters are checked the way Connect checks them: its schema, strictly (Connect itself only warns
 * on most schema failures, and the device would then refuse), then the method's own `init`, which converts them
 * to the device's messages and validates paths, outputs and token bundles. A rule either enforces is named here,
 * before the device is reached.
 */
import { PROTO } from '@trezor/connect/lib/constants'
import CardanoSignTransactionMethod from '@trezor/connect/lib/api/cardano/api/cardanoSignTransaction'
import {
  CardanoSignTransaction as CardanoSignTransactionSchema,
  type CardanoAssetGroup,
  type CardanoOutput,
  type CardanoSignTransaction
} from '@trezor/connect/lib/types/api/cardano'
import { Assert } from '@trezor/schema-utils'
import { bytesToHex } from '../../core/bytes'
import type { DecodedOutput, DecodedTx, PolicyAssets, TxIn } from '../../core/cardano/tx'
import { checkRebuildable, deviceRuleError, type DeviceRequestContext } from './device-plan'

export function trezorSignParams(tx: DecodedTx, context: DeviceRequestContext): CardanoSignTransaction {
  checkRebuildable('trezor', tx, context)
  const { body } = tx
  const params: CardanoSignTransaction = {
    signingMode: PROTO.CardanoTxSigningMode.PLUTUS_TRANSACTION,
    // Trezor Suite's own derivation, so the account read here is the one Suite shows for the same device.
    derivationType: PROTO.CardanoDerivationType.ICARUS_TREZOR,
    protocolMagic: context.network.protocolMagic,
    networkId: context.network.networkId,
    inputs: body.inputs.map(input),
    outputs: body.outputs.map(output),
    fee: body.fee.toString(),
    ...(body.ttl === undefined ? {} : { ttl: body.ttl.toString() }),
    ...(body.validityStart === undefined ? {} : { validityIntervalStart: body.validityStart.toString() }),
    withdrawals: body.withdrawals.map((w) => {
      const stake = w.rewardAccount.stake
      if (stake === undefined) throw deviceRuleError('trezor', 'withdrawal', 'a withdrawal names no stake credential')
      const amount = w.amount.toString()
      return stake.type === 'key' ? { amount, keyHash: stake.hash } : { amount, scriptHash: stake.hash }
    }),
    ...(body.auxDataHash === undefined ? {} : { auxiliaryData: { hash: body.auxDataHash } }),
    ...(body.mint.length === 0 ? {} : { mint: body.mint.map((g) => assetGroup(g, 'mintAmount')) }),
    ...(body.scriptDataHash === undefined ? {} : { scriptDataHash: body.scriptDataHash }),
    collateralInputs: body.collateral.map(input),
    requiredSigners: body.requiredSigners.map((keyHash) => ({ keyHash })),
    ...(body.collateralReturn === undefined ? {} : { collateralReturn: output(body.collateralReturn) }),
    ...(body.totalCollateral === undefined ? {} : { totalCollateral: body.totalCollateral.toString() }),
    referenceInputs: body.referenceInputs.map(input),
    additionalWitnessRequests: context.witnessPaths.map((p) => [...p]),
    includeNetworkId: body.networkId !== undefined,
    tagCborSets: tx.setTags.tagged > 0
  }
  checkTrezorParams(params)
  return params
}

/** Connect's own checks of the parameters: its schema, then the method's conversion to device messages. */
export function checkTrezorParams(params: CardanoSignTransaction): void {
  try {
    Assert(CardanoSignTransactionSchema, structuredClone(params))
    new CardanoSignTransactionMethod({
      id: 0,
      payload: { method: 'cardanoSignTransaction', ...structuredClone(params) }
    }).init()
  } catch (e) {
    if (e instanceof Error) throw deviceRuleError('trezor', e.message, 'Trezor Connect refuses the parameters')
    throw e
  }
}

function input(ref: TxIn): { prev_hash: string; prev_index: number } {
  return { prev_hash: ref.txId, prev_index: ref.index }
}

function assetGroup(group: PolicyAssets, field: 'amount' | 'mintAmount'): CardanoAssetGroup {
  return {
    policyId: group.policyId,
    tokenAmounts: group.assets.map((a) => ({ assetNameBytes: a.assetName, [field]: a.quantity.toString() }))
  }
}

function output(o: DecodedOutput): CardanoOutput {
  const base = {
    address: o.address.text,
    amount: o.value.coin.toString(),
    ...(o.value.multiAsset.length === 0 ? {} : { tokenBundle: o.value.multiAsset.map((g) => assetGroup(g, 'amount')) })
  }
  if (o.format === 'legacy') {
    return {
      ...base,
      format: PROTO.CardanoTxOutputSerializationFormat.ARRAY_LEGACY,
      ...(o.datum === undefined ? {} : { datumHash: o.datum.hash })
    }
  }
  const datum =
    o.datum === undefined
      ? {}
      : o.datum.kind === 'hash'
        ? { datumHash: o.datum.hash }
        : { inlineDatum: bytesToHex(o.datum.bytes) }
  return { ...base, format: PROTO.CardanoTxOutputSerializationFormat.MAP_BABBAGE, ...datum }
}
