/** Inputs (resolved through the context when it can) and outputs for display. */
import {
  LANGUAGE_TAG,
  scriptHashHex,
  type DecodedOutput,
  type DecodedScript,
  type ScriptLanguage,
  type TxIn
} from '../tx'
import { addressView, unreadableAddressView } from './address-view'
import type { DatumDecoder } from './datum-view'
import { outRef, type ReviewEnv } from './env'
import type { InputView, OutputView, ScriptRefView } from './types'
import { contextValueView, decodedValueView } from './value-view'

function scriptRefView(env: ReviewEnv, script: DecodedScript): ScriptRefView {
  return scriptView(env, script.language, script.hash, BigInt(script.bytes.length))
}

export function contextScriptRefView(
  env: ReviewEnv,
  script: { readonly language: ScriptLanguage; readonly bytes: Uint8Array }
): ScriptRefView {
  const hash = scriptHashHex(LANGUAGE_TAG[script.language], script.bytes)
  return scriptView(env, script.language, hash, BigInt(script.bytes.length))
}

function scriptView(env: ReviewEnv, language: ScriptLanguage, hash: string, size: bigint): ScriptRefView {
  const name = env.scriptName(hash)
  return name === undefined ? { language, hash, size } : { language, hash, size, name }
}

export function outputView(env: ReviewEnv, datums: DatumDecoder, output: DecodedOutput, index: number): OutputView {
  const address = addressView(env, output.address)
  const datum = datums.outputDatum(output.datum, address.scriptName)
  return {
    index: BigInt(index),
    format: output.format,
    address,
    value: decodedValueView(env, output.value),
    ...(datum === undefined ? {} : { datum }),
    ...(output.scriptRef === undefined ? {} : { scriptRef: scriptRefView(env, output.scriptRef) })
  }
}

export function inputView(env: ReviewEnv, datums: DatumDecoder, txIn: TxIn): InputView {
  const ref = outRef(txIn)
  const output = env.resolved(ref)
  if (output === undefined) return { ref, resolved: false, owner: 'unknown' }
  const decoded = env.resolvedAddress(ref)
  const address = decoded === undefined ? unreadableAddressView(output.address) : addressView(env, decoded)
  const datum = datums.resolvedDatum(output, address.scriptName)
  return {
    ref,
    resolved: true,
    owner: address.owner,
    ...(address.wallet === undefined ? {} : { wallet: address.wallet }),
    address,
    value: contextValueView(env, output.value),
    ...(datum === undefined ? {} : { datum }),
    ...(output.scriptRef === undefined ? {} : { scriptRef: contextScriptRefView(env, output.scriptRef) })
  }
}
