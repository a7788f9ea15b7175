/**
 * What a Marlowe transaction read from the chain did, in the same records the service keeps for its own builds
 * (./records.ts), so that a contract someone else created or moved is listed, shown and acted on like ours.
 * Everything comes from the transaction's own bytes and the store: the spent Marlowe output's datum is the one
 * the store holds for the contract at that UTxO, the payouts a withdrawal spends are the stored ones.
 *
 * Read the way the validators would have it: one Marlowe input per transaction (validator check "single
 * Marlowe script input"), the continuation at the semantics script with a MarloweData datum, payouts at the
 * payout script with a payout datum. A transaction the real validators would refuse may still stand on the
 * sandbox (its stand-ins accept anything): what it visibly did is recorded, and nothing that does not decode.
 */
import { formatRef } from '../../core/cardano/refs'
import type { Value } from '../../core/cardano/value'
import type { DecodedOutput, DecodedTx, DecodedValue } from '../../core/cardano/tx'
import { metadataView, ledgerOrder } from '../../core/cardano/review'
import { newJsonObject, parseJson, setJsonKey, type JsonObject } from '../../core/json/lossless'
import {
  PlutusDecodeError,
  decodeContract,
  decodeMarloweData,
  decodePayoutDatum,
  decodeRedeemer
} from '../../core/marlowe/plutus/marlowe-data'
import type { Input, TimeInterval } from '../../core/marlowe/types'
import type { PayoutRow } from '../../store/service-store'
import type { SlotClock } from '../build'
import { contractPartyKeys } from './parties'
import {
  readValue,
  type ApplyRecord,
  type CreateRecord,
  type PayoutRecord,
  type TxRecord,
  type WithdrawRecord
} from './records'

export interface ChainRecordContext {
  readonly semanticsHash: string
  readonly payoutHash: string
  readonly payoutAddress: string
  readonly clock: SlotClock
  /** The contract whose current Marlowe UTxO is `ref`, with that output's datum. */
  readonly contractAt: (ref: string) => { readonly contractId: string; readonly datum: Uint8Array } | undefined
  /** A stored payout not yet withdrawn. */
  readonly openPayout: (ref: string) => PayoutRow | undefined
}

export interface ChainRecord {
  readonly kind: TxRecord['kind']
  readonly contractId?: string
  readonly rolesCurrency?: string
  /** A create's party keys (./parties.ts). */
  readonly parties?: readonly string[]
  readonly record: TxRecord
}

/** The Marlowe record of a confirmed transaction, or undefined when it opens, moves or pays out no contract. */
export function chainRecord(tx: DecodedTx, ctx: ChainRecordContext): ChainRecord | undefined {
  if (!tx.isValid) return undefined
  for (const input of tx.body.inputs) {
    const spent = ctx.contractAt(formatRef(input))
    if (spent !== undefined) return applied(tx, ctx, { txId: input.txId, index: input.index }, spent)
  }
  const withdrawn = tx.body.inputs.flatMap((i) => {
    const payout = ctx.openPayout(formatRef(i))
    return payout === undefined ? [] : [payout]
  })
  if (withdrawn.length > 0) return withdrawal(withdrawn)
  return created(tx, ctx)
}

function created(tx: DecodedTx, ctx: ChainRecordContext): ChainRecord | undefined {
  for (const [index, output] of tx.body.outputs.entries()) {
    if (!paysTo(output, ctx.semanticsHash)) continue
    const datum = datumBytes(tx, output)
    const md = datum === undefined ? undefined : readOrUndefined(() => decodeMarloweData(datum))
    if (datum === undefined || md === undefined) continue
    const contractId = formatRef({ txId: tx.id, index })
    const record: CreateRecord = {
      kind: 'create',
      ...labels(tx),
      datum,
      marloweAddress: output.address.text,
      payoutAddress: ctx.payoutAddress,
      assets: valueOf(output.value),
      minUTxODeposit: output.value.coin,
      safetyErrors: []
    }
    return {
      kind: 'create',
      contractId,
      rolesCurrency: md.params.rolesCurrency,
      parties: contractPartyKeys(md),
      record
    }
  }
  return undefined
}

function applied(
  tx: DecodedTx,
  ctx: ChainRecordContext,
  input: { readonly txId: string; readonly index: number },
  spent: { readonly contractId: string; readonly datum: Uint8Array }
): ChainRecord {
  const inputRef = formatRef(input)
  const output = continuation(tx, ctx)
  const payouts = payoutsOf(tx, ctx)
  const validity = validityOf(tx, ctx.clock)
  const record: ApplyRecord = {
    kind: 'apply',
    ...labels(tx),
    input: inputRef,
    inputDatum: spent.datum,
    inputs: redeemerInputs(tx, input),
    ...validity,
    ...(output === undefined ? {} : { output }),
    payouts,
    safetyErrors: []
  }
  return { kind: 'apply', contractId: spent.contractId, record }
}

function withdrawal(payouts: readonly PayoutRow[]): ChainRecord {
  const record: WithdrawRecord = {
    kind: 'withdraw',
    payouts: payouts.map((p) => ({
      ref: p.payoutId,
      rolesCurrency: p.rolesCurrency,
      role: p.role,
      assets: readValue(parseJson(p.assets))
    }))
  }
  return { kind: 'withdraw', record }
}

/** The redeemer's inputs, merkleized continuations read from the witness set; none when it is not Marlowe's. */
function redeemerInputs(tx: DecodedTx, input: { readonly txId: string; readonly index: number }): Input[] {
  const position = ledgerOrder(tx.body).inputs.findIndex((i) => i.txId === input.txId && i.index === input.index)
  const redeemer = tx.witnessSet.redeemers.find((r) => r.tag === 'spend' && r.index === position)
  if (redeemer === undefined) return []
  const witness = new Map(tx.witnessSet.datums.map((d) => [d.hash, d.bytes]))
  const lookup = (hash: string) => {
    const bytes = witness.get(hash)
    return bytes === undefined ? undefined : readOrUndefined(() => decodeContract(bytes))
  }
  return readOrUndefined(() => decodeRedeemer(redeemer.dataBytes, lookup)) ?? []
}

/** Marlowe time is the validity interval: [start of the first slot, start of the first invalid slot − 1 ms]. */
function validityOf(
  tx: DecodedTx,
  clock: SlotClock
): Pick<ApplyRecord, 'interval' | 'invalidBefore' | 'invalidHereafter'> {
  const { validityStart, ttl } = tx.body
  const before =
    validityStart === undefined ? undefined : { slot: validityStart, time: clock.slotToTime(validityStart) }
  const hereafter = ttl === undefined ? undefined : { slot: ttl, time: clock.slotToTime(ttl) }
  const from = before?.time ?? 0n
  const interval: TimeInterval = { from, to: hereafter === undefined ? from : hereafter.time - 1n }
  return {
    interval,
    ...(before === undefined ? {} : { invalidBefore: before }),
    ...(hereafter === undefined ? {} : { invalidHereafter: hereafter })
  }
}

function continuation(tx: DecodedTx, ctx: ChainRecordContext): ApplyRecord['output'] {
  for (const [index, output] of tx.body.outputs.entries()) {
    if (!paysTo(output, ctx.semanticsHash)) continue
    const datum = datumBytes(tx, output)
    if (datum === undefined || readOrUndefined(() => decodeMarloweData(datum)) === undefined) continue
    return { ref: formatRef({ txId: tx.id, index }), datum, assets: valueOf(output.value) }
  }
  return undefined
}

function payoutsOf(tx: DecodedTx, ctx: ChainRecordContext): PayoutRecord[] {
  const payouts: PayoutRecord[] = []
  for (const [index, output] of tx.body.outputs.entries()) {
    if (!paysTo(output, ctx.payoutHash)) continue
    const datum = datumBytes(tx, output)
    const payout = datum === undefined ? undefined : readOrUndefined(() => decodePayoutDatum(datum))
    if (payout === undefined) continue
    payouts.push({ ref: formatRef({ txId: tx.id, index }), ...payout, assets: valueOf(output.value) })
  }
  return payouts
}

const paysTo = (output: DecodedOutput, scriptHash: string): boolean =>
  output.address.payment?.type === 'script' && output.address.payment.hash === scriptHash

/** An inline datum, or the witness set's copy of a datum given by hash. */
function datumBytes(tx: DecodedTx, output: DecodedOutput): Uint8Array | undefined {
  const datum = output.datum
  if (datum === undefined) return undefined
  if (datum.kind === 'inline') return datum.bytes
  return tx.witnessSet.datums.find((d) => d.hash === datum.hash)?.bytes
}

function readOrUndefined<T>(read: () => T): T | undefined {
  try {
    return read()
  } catch (e) {
    if (e instanceof PlutusDecodeError) return undefined
    throw e
  }
}

function valueOf(value: DecodedValue): Value {
  const assets: Record<string, Record<string, bigint>> = {}
  for (const policy of value.multiAsset) {
    const names: Record<string, bigint> = (assets[policy.policyId] ??= {})
    for (const a of policy.assets) names[a.assetName] = (names[a.assetName] ?? 0n) + a.quantity
  }
  return { lovelace: value.coin, assets }
}

/** Runtime's tags (label 1564) and the transaction's metadata, as its clients read them. */
function labels(tx: DecodedTx): { tags: JsonObject; metadata: JsonObject } {
  const tags = newJsonObject()
  const metadata = newJsonObject()
  if (tx.auxData === undefined) return { tags, metadata }
  const view = metadataView(tx.auxData, tx.body.auxDataHash)
  for (const entry of view.entries) setJsonKey(metadata, String(entry.label), entry.json)
  for (const t of view.marlowe?.tags ?? []) setJsonKey(tags, t.tag, t.payload ?? null)
  return { tags, metadata }
}
