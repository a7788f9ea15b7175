/**
 * Blaze (cardano-js-sdk) ledger objects ↔ the plain data of `ChainProvider`, for the stock Blaze emulator the
 * sandbox tests and benchmarks compare against (the sandbox itself keeps no Blaze objects).
 */
import {
  AssetId,
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
  Value as BlazeValue
} from '@blaze-cardano/core'
import { bytesToHex, hexToBytes } from '../../../src/core/bytes'
import type { Value } from '../../../src/core/cardano/value'
import type { ScriptLanguage, ScriptRef, TxOutRef, Utxo } from '../../../src/chain/provider'

function toTxOutRef(input: TransactionInput): TxOutRef {
  return { txId: input.transactionId(), index: Number(input.index()) }
}

export function toBlazeInput(ref: TxOutRef): TransactionInput {
  return new TransactionInput(TransactionId(ref.txId), BigInt(ref.index))
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
