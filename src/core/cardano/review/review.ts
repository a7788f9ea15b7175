/**
 * `reviewTransaction`: transaction bytes (and optional context) → the review model a signer reads before
 * signing. Pure and synchronous; hostile bytes give a `TxDecodeError`, never a crash or a hang.
 */
import { formatRef } from '../refs'
import { decodeTransaction, type DecodedTx } from '../tx'
import { certificateViews, governanceView, mintViews, redeemerFinder, withdrawalViews } from './body-views'
import { DatumDecoder } from './datum-view'
import { encodingView } from './encoding-view'
import { createEnv, refKey, type ReviewEnv } from './env'
import { conwayFeatures } from './era'
import { VKEY_WITNESS_BYTES, exUnitsFee, ratioCeil, referenceScriptFee, sizeFee } from './fees'
import { inputView, outputView } from './io-view'
import { marloweSteps } from './marlowe-step'
import { metadataView } from './metadata-view'
import { netEffect } from './net-effect'
import { opt } from './optional'
import { plutusDataJson } from './plutus-json'
import { ledgerOrder, redeemerTarget } from './redeemer-targets'
import { checkScriptDataHash } from './script-data-hash'
import { neededScriptHashes, scriptViews, usedLanguages } from './scripts-view'
import { witnessesView } from './signatures'
import type {
  CollateralView,
  FeeView,
  InputView,
  MarloweScriptName,
  OutputView,
  RedeemerView,
  ReviewContext,
  ReviewProtocolParameters,
  TxReview,
  WitnessDatumView
} from './types'
import { validityView } from './validity'
import { collectWarnings, type ReviewWithoutWarnings } from './warnings'

/**
 * Reviews transaction bytes. Everything in `context` is optional: resolved inputs add values, owners and
 * datums; era summaries add wall-clock times and the Marlowe run; wallets add ownership and the net effect;
 * protocol parameters add the size limit, minimum fee, collateral requirement and the script data hash check.
 * Throws `TxDecodeError` when the bytes are not a transaction.
 */
export function reviewTransaction(bytes: Uint8Array, context: ReviewContext = {}): TxReview {
  const tx = decodeTransaction(bytes)
  const env = createEnv(tx, context)
  const params = context.protocolParameters ?? {}
  const datums = new DatumDecoder(env)
  const { body, witnessSet } = tx
  const order = ledgerOrder(body)
  const targets = witnessSet.redeemers.map((r) => redeemerTarget(body, order, r))
  const findRedeemer = redeemerFinder(targets)

  const inputs = body.inputs.map((ref) => {
    const view = inputView(env, datums, ref)
    return { ...view, ...opt('redeemer', findRedeemer({ kind: 'input', ref: view.ref })) }
  })
  const referenceInputs = body.referenceInputs.map((ref) => inputView(env, datums, ref))
  const outputs = body.outputs.map((o, i) => outputView(env, datums, o, i))
  const validity = validityView(body, context.eraSummaries ?? [])
  const scripts = scriptViews(env, tx, inputs, referenceInputs)
  const marlowe = marloweSteps({
    env,
    datums,
    order,
    inputs: new Map(inputs.map((i) => [refKey(i.ref), i])),
    outputs,
    validity
  })
  const redeemers: RedeemerView[] = witnessSet.redeemers.map((r, position) => {
    const marloweInputs = marlowe.redeemerInputs.get(position)
    return {
      tag: r.tag,
      index: BigInt(r.index),
      target: targets[position] ?? { kind: 'missing' },
      exUnits: r.exUnits,
      ...opt('fee', exUnitsFee(r.exUnits, params)),
      data: plutusDataJson(r.data),
      ...opt('marloweInputs', marloweInputs)
    }
  })
  const rolesCurrencies = new Set(
    [...marlowe.view.steps.map((s) => s.rolesCurrency), ...marlowe.view.created.map((c) => c.rolesCurrency)].filter(
      (c): c is string => c !== undefined && c !== ''
    )
  )
  const collateral = collateralView(env, datums, tx, params)
  const witnesses = witnessesView(env, tx, inputs, collateral.inputs)
  const withdrawals = withdrawalViews(env, order, findRedeemer)
  const missingSignatures = witnesses.needed.filter((n) => !n.signed).length

  const partial: ReviewWithoutWarnings = {
    txId: tx.id,
    era: conwayFeatures(tx).length > 0 ? 'conway' : 'babbage',
    size: {
      bytes: BigInt(tx.size),
      ...opt('max', params.maxTxSize === undefined ? undefined : BigInt(params.maxTxSize))
    },
    isValid: tx.isValid,
    ...opt('networkId', body.networkId === undefined ? undefined : BigInt(body.networkId)),
    fee: feeView(tx, params, [...inputs, ...referenceInputs], env, missingSignatures),
    inputs,
    referenceInputs,
    collateral,
    outputs,
    mint: mintViews(env, tx, scripts, rolesCurrencies, findRedeemer),
    validity,
    certificates: certificateViews(env, tx, findRedeemer),
    withdrawals,
    governance: governanceView(env, tx, findRedeemer),
    requiredSigners: body.requiredSigners.map((keyHash) => ({
      keyHash,
      signed: witnesses.vkeys.some((w) => w.keyHash === keyHash),
      ...opt('wallet', env.walletOfKey(keyHash))
    })),
    witnesses,
    scripts,
    redeemers,
    datums: witnessDatumViews(env, datums, inputs, outputs, collateral.return),
    scriptDataHash: checkScriptDataHash({
      declared: body.scriptDataHash,
      redeemersBytes: witnessSet.redeemersBytes,
      datumsBytes: witnessSet.datumsBytes,
      languages: usedLanguages(scripts, neededScriptHashes(tx, inputs)),
      certain: [...inputs, ...referenceInputs].every((i) => i.resolved),
      costModels: params.costModels
    }),
    ...opt('metadata', tx.auxData === undefined ? undefined : metadataView(tx.auxData, body.auxDataHash)),
    netEffect: netEffect(env, inputs, outputs, withdrawals),
    marlowe: marlowe.view,
    encoding: encodingView(tx)
  }
  return { ...partial, warnings: collectWarnings(env, tx, partial) }
}

function collateralView(
  env: ReviewEnv,
  datums: DatumDecoder,
  tx: DecodedTx,
  params: ReviewProtocolParameters
): CollateralView {
  const { body } = tx
  const inputs = body.collateral.map((ref) => inputView(env, datums, ref))
  // The collateral return is numbered after the outputs, as the ledger numbers it.
  const ret =
    body.collateralReturn === undefined
      ? undefined
      : outputView(env, datums, body.collateralReturn, body.outputs.length)
  const resolvedTotal = inputs.every((i) => i.value !== undefined)
    ? inputs.reduce((sum, i) => sum + (i.value?.lovelace ?? 0n), 0n) - (ret?.value.lovelace ?? 0n)
    : undefined
  const atRisk = body.totalCollateral ?? (inputs.length > 0 ? resolvedTotal : undefined)
  const required =
    params.collateralPercentage === undefined || tx.witnessSet.redeemers.length === 0
      ? undefined
      : ratioCeil(body.fee, params.collateralPercentage)
  return {
    inputs,
    ...opt('return', ret),
    ...opt('total', body.totalCollateral),
    ...opt('atRisk', atRisk),
    ...opt('required', required)
  }
}

function feeView(
  tx: DecodedTx,
  params: ReviewProtocolParameters,
  reached: readonly InputView[],
  env: ReviewEnv,
  missingSignatures: number
): FeeView {
  let refBytes = 0
  for (const input of reached) refBytes += env.resolved(input.ref)?.scriptRef?.bytes.length ?? 0
  const total = tx.witnessSet.redeemers.reduce(
    (sum, r) => ({ mem: sum.mem + r.exUnits.mem, steps: sum.steps + r.exUnits.steps }),
    { mem: 0n, steps: 0n }
  )
  const scriptFee = tx.witnessSet.redeemers.length === 0 ? 0n : exUnitsFee(total, params)
  const refPrice = params.minFeeRefScriptCostPerByte
  const refFee =
    refPrice === undefined || refPrice.denominator <= 0n ? undefined : referenceScriptFee(BigInt(refBytes), refPrice)
  // Signatures still to come enlarge the transaction: each vkey witness adds about 101 bytes.
  const grown = tx.size + missingSignatures * VKEY_WITNESS_BYTES
  const base = sizeFee(grown, params)
  const minimum =
    base === undefined || scriptFee === undefined
      ? undefined
      : base + scriptFee + (refBytes === 0 ? 0n : (refFee ?? 0n))
  return {
    fee: tx.body.fee,
    ...opt('minimum', minimum),
    ...opt('scriptFee', tx.witnessSet.redeemers.length === 0 ? undefined : scriptFee),
    ...opt('referenceScriptFee', refBytes === 0 ? undefined : refFee),
    referenceScriptBytes: BigInt(refBytes)
  }
}

function witnessDatumViews(
  env: ReviewEnv,
  datums: DatumDecoder,
  inputs: readonly InputView[],
  outputs: readonly OutputView[],
  collateralReturn: OutputView | undefined
): WitnessDatumView[] {
  const usedBy = new Map<string, string[]>()
  const use = (hash: string | undefined, by: string): void => {
    if (hash === undefined) return
    const list = usedBy.get(hash)
    if (list === undefined) usedBy.set(hash, [by])
    else list.push(by)
  }
  for (const i of inputs) use(i.datum?.hash, `input ${formatRef(i.ref)}`)
  const all = collateralReturn === undefined ? outputs : [...outputs, collateralReturn]
  for (const o of all) use(o.datum?.hash, `output ${o.index}`)
  const scriptNames = new Map<string, MarloweScriptName | undefined>()
  for (const o of outputs)
    if (o.datum !== undefined && !scriptNames.has(o.datum.hash)) scriptNames.set(o.datum.hash, o.address.scriptName)
  return env.tx.witnessSet.datums.map((d) => {
    return {
      hash: d.hash,
      size: BigInt(d.bytes.length),
      usedBy: usedBy.get(d.hash) ?? [],
      content: datums.content(d.hash, d.bytes, scriptNames.get(d.hash))
    }
  })
}
