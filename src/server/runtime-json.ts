/**
 * The service's views as Marlowe Runtime's resource JSON (runtime-api.md §6): every field present, `null`
 * where Runtime has a Maybe, times as ISO-8601, token names as text. Only the HTTP API answers with them; the
 * desk answers in the API contract's shape (src/engine/desk/contract-views.ts).
 */
import { bytesToHex, hexToBytes, utf8DecodeStrict } from '../core/bytes'
import type { Value } from '../core/cardano/value'
import type { JsonObject, JsonValue } from '../core/json/lossless'
import {
  encodeContract,
  encodeInput,
  encodeNextSteps,
  encodeState,
  encodeTransactionOutput
} from '../core/marlowe/json'
import type {
  BlockRow,
  ContractHeader,
  ContractView,
  NextSteps,
  PayoutView,
  TransactionHeader,
  TransactionView,
  UnsignedTx,
  WithdrawalView
} from '../engine/service'
import { isoUtc } from '../core/time'

/** A token name as Runtime writes it: the UTF-8 text of its bytes (hex when they are not text). */
function tokenNameText(hex: string): string {
  return utf8DecodeStrict(hexToBytes(hex)) ?? hex
}

function assetsJson(value: Value): JsonObject {
  const tokens: JsonObject = {}
  for (const [policy, names] of Object.entries(value.assets)) {
    const byName: JsonObject = {}
    for (const [name, quantity] of Object.entries(names)) byName[tokenNameText(name)] = quantity
    tokens[policy] = byName
  }
  return { lovelace: value.lovelace, tokens }
}

/** ISO-8601 UTC as aeson writes a UTCTime: no fraction when the milliseconds are zero. */
export function isoTime(ms: bigint): string {
  return isoUtc(ms).replace('.000Z', 'Z')
}

const blockJson = (b: BlockRow | undefined): JsonValue =>
  b === undefined ? null : { slotNo: b.slot, blockNo: b.blockNo, blockHeaderHash: b.blockHash }

const envelope = (type: string, cbor: Uint8Array): JsonObject => ({
  type,
  description: '',
  cborHex: bytesToHex(cbor)
})

/** Runtime's unsigned body envelope (cardano-api's `TxBody<Era>` type string). */
export const txBodyEnvelope = (u: UnsignedTx): JsonObject => envelope(`TxBody${u.era}`, u.body)

/** The unsigned transaction as a wallet signs it (body plus scripts, datums and redeemers). */
export const txEnvelope = (u: UnsignedTx): JsonObject => envelope(`Tx ${u.era}Era`, u.tx)

const unsignedBody = (u: UnsignedTx | undefined): JsonValue => (u === undefined ? null : txBodyEnvelope(u))

const payoutJson = (p: PayoutView): JsonObject => ({
  payoutId: p.payoutId,
  role: p.role,
  assets: assetsJson(p.assets)
})

export function contractHeaderJson(c: ContractHeader): JsonObject {
  return {
    contractId: c.contractId,
    roleTokenMintingPolicyId: c.rolesCurrency,
    version: 'v1',
    tags: c.tags,
    metadata: c.metadata,
    status: c.status,
    block: blockJson(c.block)
  }
}

export function contractStateJson(c: ContractView): JsonObject {
  return {
    ...contractHeaderJson(c),
    initialContract: encodeContract(c.initialContract),
    initialState: encodeState(c.initialState),
    currentContract: c.current === undefined ? null : encodeContract(c.current.contract),
    state: c.current === undefined ? null : encodeState(c.current.state),
    utxo: c.current?.utxo ?? null,
    assets: assetsJson(c.assets),
    txBody: unsignedBody(c.unsigned),
    unclaimedPayouts: c.unclaimedPayouts.map(payoutJson)
  }
}

export function txHeaderJson(t: TransactionHeader): JsonObject {
  return {
    contractId: t.contractId,
    transactionId: t.transactionId,
    tags: t.tags,
    metadata: t.metadata,
    status: t.status,
    block: blockJson(t.block),
    utxo: t.utxo ?? null
  }
}

export function txJson(t: TransactionView): JsonObject {
  const { utxo: _utxo, ...header } = txHeaderJson(t)
  return {
    ...header,
    inputUtxo: t.inputUtxo,
    inputContract: encodeContract(t.inputContract),
    inputState: encodeState(t.inputState),
    inputs: t.inputs.map(encodeInput),
    outputUtxo: t.output?.utxo ?? null,
    outputContract: t.output === undefined ? null : encodeContract(t.output.contract),
    outputState: t.output === undefined ? null : encodeState(t.output.state),
    assets: assetsJson(t.assets),
    payouts: t.payouts.map(payoutJson),
    consumingTx: t.consumingTx ?? null,
    invalidBefore: t.invalidBefore === undefined ? null : isoTime(t.invalidBefore),
    invalidHereafter: t.invalidHereafter === undefined ? null : isoTime(t.invalidHereafter),
    reconstructedSemanticInput: {
      tx_interval: { from: t.interval.from, to: t.interval.to },
      tx_inputs: t.inputs.map(encodeInput)
    },
    reconstructedSemanticOutput: t.semanticOutput === undefined ? null : encodeTransactionOutput(t.semanticOutput),
    txBody: unsignedBody(t.unsigned)
  }
}

export function payoutHeaderJson(p: PayoutView): JsonObject {
  return {
    payoutId: p.payoutId,
    contractId: p.contractId,
    withdrawalId: p.withdrawalId ?? null,
    role: { policyId: p.rolesCurrency, assetName: p.role },
    status: p.status
  }
}

export function payoutStateJson(p: PayoutView): JsonObject {
  return { ...payoutHeaderJson(p), payoutValidatorAddress: p.payoutValidatorAddress, assets: assetsJson(p.assets) }
}

export function withdrawalHeaderJson(w: WithdrawalView): JsonObject {
  return { withdrawalId: w.withdrawalId, status: w.status, block: blockJson(w.block) }
}

export function withdrawalJson(w: WithdrawalView): JsonObject {
  return { payouts: w.payouts.map(payoutHeaderJson), ...withdrawalHeaderJson(w) }
}

export const nextJson = (n: NextSteps): JsonObject => encodeNextSteps(n)
