/**
 * A transaction Desk built, as the Ledger Cardano app's `SignTransactionRequest` in the app's Plutus signing
 * mode (`PLUTUS_TRANSACTION`: script inputs, reference inputs, collateral and its return, required signers,
 * mint, datums inline and by hash). Every field comes from Desk's own decoding of the bytes, so the device
 * rebuilds the same body; the request is then checked by the library's own validation (the one `signTransaction`
 * runs first), so a rule the app enforces is named here, before the device is reached.
 */
import {
  CredentialParamsType,
  DatumType,
  InvalidData,
  TransactionSigningMode,
  TxAuxiliaryDataType,
  TxOutputDestinationType,
  TxOutputFormat,
  TxRequiredSignerType,
  type AssetGroup,
  type CredentialParams,
  type SignTransactionRequest,
  type TxInput,
  type TxOutput
} from '@cardano-foundation/ledgerjs-hw-app-cardano'
import { parseSignTransactionRequest } from '@cardano-foundation/ledgerjs-hw-app-cardano/dist/parsing/transaction'
import { bytesToHex } from '../../core/bytes'
import type { Credential } from '../../core/cardano/address'
import type { DecodedOutput, DecodedTx, PolicyAssets, TxIn } from '../../core/cardano/tx'
import { checkRebuildable, deviceRuleError, type DeviceRequestContext } from './device-plan'

export function ledgerSignRequest(tx: DecodedTx, context: DeviceRequestContext): SignTransactionRequest {
  checkRebuildable('ledger', tx, context)
  const { body } = tx
  const request: SignTransactionRequest = {
    signingMode: TransactionSigningMode.PLUTUS_TRANSACTION,
    tx: {
      network: context.network,
      inputs: body.inputs.map(input),
      outputs: body.outputs.map(output),
      fee: body.fee,
      ttl: body.ttl ?? null,
      withdrawals: body.withdrawals.map((w) => ({
        stakeCredential: credential(w.rewardAccount.stake),
        amount: w.amount
      })),
      auxiliaryData:
        body.auxDataHash === undefined
          ? null
          : { type: TxAuxiliaryDataType.ARBITRARY_HASH, params: { hashHex: body.auxDataHash } },
      validityIntervalStart: body.validityStart ?? null,
      mint: body.mint.length === 0 ? null : body.mint.map(assetGroup),
      scriptDataHashHex: body.scriptDataHash ?? null,
      collateralInputs: body.collateral.map(input),
      requiredSigners: body.requiredSigners.map((hashHex) => ({ type: TxRequiredSignerType.HASH, hashHex })),
      includeNetworkId: body.networkId !== undefined,
      collateralOutput: body.collateralReturn === undefined ? null : output(body.collateralReturn),
      totalCollateral: body.totalCollateral ?? null,
      referenceInputs: body.referenceInputs.map(input)
    },
    additionalWitnessPaths: context.witnessPaths.map((p) => [...p]),
    options: { tagCborSets: tx.setTags.tagged > 0 }
  }
  checkLedgerRequest(request)
  return request
}

/** The library's own validation of a request; its reason names the app's rule. */
export function checkLedgerRequest(request: SignTransactionRequest): void {
  try {
    parseSignTransactionRequest(request)
  } catch (e) {
    if (e instanceof InvalidData) throw deviceRuleError('ledger', e.message, 'the Ledger library refuses the request')
    throw e
  }
}

function input(ref: TxIn): TxInput {
  return { txHashHex: ref.txId, outputIndex: ref.index, path: null }
}

function assetGroup(group: PolicyAssets): AssetGroup {
  return {
    policyIdHex: group.policyId,
    tokens: group.assets.map((a) => ({ assetNameHex: a.assetName, amount: a.quantity }))
  }
}

/** Every output as a third party's address: the device shows each one in full. */
function output(o: DecodedOutput): TxOutput {
  const destination = { type: TxOutputDestinationType.THIRD_PARTY, params: { addressHex: o.address.hex } } as const
  const tokenBundle = o.value.multiAsset.length === 0 ? null : o.value.multiAsset.map(assetGroup)
  if (o.format === 'legacy') {
    return {
      format: TxOutputFormat.ARRAY_LEGACY,
      destination,
      amount: o.value.coin,
      tokenBundle,
      datumHashHex: o.datum?.hash ?? null
    }
  }
  return {
    format: TxOutputFormat.MAP_BABBAGE,
    destination,
    amount: o.value.coin,
    tokenBundle,
    datum:
      o.datum === undefined
        ? null
        : o.datum.kind === 'hash'
          ? { type: DatumType.HASH, datumHashHex: o.datum.hash }
          : { type: DatumType.INLINE, datumHex: bytesToHex(o.datum.bytes) }
  }
}

function credential(c: Credential | undefined): CredentialParams {
  if (c === undefined) throw deviceRuleError('ledger', 'withdrawal', 'a withdrawal names no stake credential')
  return c.type === 'key'
    ? { type: CredentialParamsType.KEY_HASH, keyHashHex: c.hash }
    : { type: CredentialParamsType.SCRIPT_HASH, scriptHashHex: c.hash }
}
