/** Blaze (cardano-js-sdk) ledger objects ↔ the plain data of `ChainProvider`; Blaze types stay inside the sandbox. */
import {
  Address,
  AssetId,
  Datum,
  DatumHash,
  DatumKind,
  HexBlob,
  NativeScript,
  PlutusData,
  PlutusV1Script,
  PlutusV2Script,
  PlutusV3Script,
  Script,
  TransactionId,
  TransactionInput,
  TransactionOutput,
  TransactionUnspentOutput,
  Value as BlazeValue
} from '@blaze-cardano/core'
import { bytesToHex, hexToBytes } from '../../core/bytes'
import type { Value } from '../../core/cardano/value'
import type { ScriptLanguage, ScriptRef, TxOutRef, Utxo } from '../provider'

const POLICY_ID_HEX_LENGTH = 56

function toTxOutRef(input: TransactionInput): TxOutRef {
  return { txId: input.transactionId(), index: Number(input.index()) }
}

export function toBlazeInput(ref: TxOutRef): TransactionInput {
  return new TransactionInput(TransactionId(ref.txId), BigInt(ref.index))
}

export function refKey(ref: TxOutRef): string {
  return `${ref.txId}#${ref.index}`
}

function toValue(value: BlazeValue): Value {
  const assets: Record<string, Record<string, bigint>> = {}
  for (const [assetId, quantity] of value.multiasset() ?? []) {
    const policy = AssetId.getPolicyId(assetId)
    const name = AssetId.getAssetName(assetId)
    assets[policy] = { ...assets[policy], [name]: quantity }
  }
  return { lovelace: value.coin(), assets }
}

function fromValue(value: Value): BlazeValue {
  const multiasset = new Map<AssetId, bigint>()
  for (const [policy, names] of Object.entries(value.assets)) {
    if (policy.length !== POLICY_ID_HEX_LENGTH) throw new Error(`policy id ${policy} is not 28 bytes of hex`)
    for (const [name, quantity] of Object.entries(names)) multiasset.set(AssetId(policy + name), quantity)
  }
  return new BlazeValue(value.lovelace, multiasset.size === 0 ? undefined : multiasset)
}

const LANGUAGES: readonly ScriptLanguage[] = ['Native', 'PlutusV1', 'PlutusV2', 'PlutusV3']

function toScriptRef(script: Script): ScriptRef {
  const language = LANGUAGES[script.language()]
  if (language === undefined) throw new Error(`unknown script language ${script.language()}`)
  const hex =
    script.asNative()?.toCbor() ??
    script.asPlutusV1()?.rawBytes() ??
    script.asPlutusV2()?.rawBytes() ??
    script.asPlutusV3()?.rawBytes() ??
    ''
  return { language, bytes: hexToBytes(hex) }
}

export function fromScriptRef(ref: ScriptRef): Script {
  const hex = HexBlob(bytesToHex(ref.bytes))
  switch (ref.language) {
    case 'Native':
      return Script.newNativeScript(NativeScript.fromCbor(hex))
    case 'PlutusV1':
      return Script.newPlutusV1Script(new PlutusV1Script(hex))
    case 'PlutusV2':
      return Script.newPlutusV2Script(new PlutusV2Script(hex))
    case 'PlutusV3':
      return Script.newPlutusV3Script(new PlutusV3Script(hex))
  }
}

/** Datum-hash outputs get their datum from `resolveDatum` (the datums the ledger has seen), when it knows it. */
export function toUtxo(
  input: TransactionInput,
  output: TransactionOutput,
  resolveDatum: (hash: string) => PlutusData | undefined
): Utxo {
  const datum = output.datum()
  const scriptRef = output.scriptRef()
  const base: Utxo = {
    ref: toTxOutRef(input),
    address: output.address().toBech32(),
    value: toValue(output.amount()),
    ...(scriptRef === undefined ? {} : { scriptRef: toScriptRef(scriptRef) })
  }
  if (datum === undefined) return base
  if (datum.kind() === DatumKind.InlineData) {
    return { ...base, datum: hexToBytes(datum.asInlineData()?.toCbor() ?? '') }
  }
  const hash = datum.asDataHash() ?? ''
  const resolved = resolveDatum(hash)
  return { ...base, datumHash: hash, ...(resolved === undefined ? {} : { datum: hexToBytes(resolved.toCbor()) }) }
}

/** `datumHash` makes a datum-hash output (its `datum`, if any, is only the resolution); `datum` alone is inline. */
export function fromUtxo(utxo: Utxo): TransactionUnspentOutput {
  const output = new TransactionOutput(Address.fromBech32(utxo.address), fromValue(utxo.value))
  if (utxo.datumHash !== undefined) {
    output.setDatum(Datum.newDataHash(DatumHash(utxo.datumHash)))
  } else if (utxo.datum !== undefined) {
    output.setDatum(Datum.newInlineData(PlutusData.fromCbor(HexBlob(bytesToHex(utxo.datum)))))
  }
  if (utxo.scriptRef !== undefined) output.setScriptRef(fromScriptRef(utxo.scriptRef))
  return new TransactionUnspentOutput(toBlazeInput(utxo.ref), output)
}
