/**
 * The Marlowe validators' bytes: read from their reference-script UTxOs through a node, and kept as cardano-cli
 * TextEnvelopes (`PlutusScriptV2`) in a directory, one file per validator (`VALIDATOR_FILES`). Such a directory
 * is what `validators fetch` writes and what the sandbox deploys instead of its stand-ins.
 *
 * A script is held as a script reference holds it (`ScriptRef.bytes`: the CBOR byte string of the flat program,
 * which is what its hash covers); a TextEnvelope's `cborHex` wraps that in one more CBOR byte string, as
 * cardano-cli writes Plutus scripts.
 */
import { formatRef } from '../core/cardano/refs'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CborError, decodeCbor, encodeByteString } from '../core/cardano/cbor'
import { EnvelopeError, parseTextEnvelope, stringifyTextEnvelope } from '../core/cardano/envelope'
import { LANGUAGE_TAG, scriptHashHex } from '../core/cardano/tx'
import type { MarloweDeployment } from './deployments'
import type { ChainProvider, ScriptRef } from './provider'

export type MarloweScriptRole = 'semantics' | 'payout' | 'openRole'

export const MARLOWE_SCRIPT_ROLES: readonly MarloweScriptRole[] = ['semantics', 'payout', 'openRole']

/** A Marlowe validator: a Plutus V2 script with its hash (28 bytes, lowercase hex). */
export interface MarloweValidator extends ScriptRef {
  readonly language: 'PlutusV2'
  readonly hash: string
}

export type MarloweValidators = Readonly<Record<MarloweScriptRole, MarloweValidator>>

/** The file of each validator in a validators directory. */
export const VALIDATOR_FILES: Readonly<Record<MarloweScriptRole, string>> = Object.freeze({
  semantics: 'semantics.plutus',
  payout: 'payout.plutus',
  openRole: 'open-role.plutus'
})

const ENVELOPE_TYPE = 'PlutusScriptV2'

/** A validator that could not be fetched or read; the message names which one and why. */
export class MarloweScriptsError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'MarloweScriptsError'
  }
}

const ROLE_NAMES: Readonly<Record<MarloweScriptRole, string>> = {
  semantics: 'semantics validator',
  payout: 'payout validator',
  openRole: 'open-role validator'
}

export function plutusV2Validator(bytes: Uint8Array): MarloweValidator {
  return { language: 'PlutusV2', bytes, hash: scriptHashHex(LANGUAGE_TAG.PlutusV2, bytes) }
}

/**
 * Reads the three reference-script UTxOs of `deployment` through `provider` and checks each: present, a Plutus
 * V2 script, and the hash the deployment names.
 */
export async function fetchMarloweScripts(
  provider: ChainProvider,
  deployment: MarloweDeployment
): Promise<MarloweValidators> {
  const refs = MARLOWE_SCRIPT_ROLES.map((role) => deployment[role].reference)
  const utxos = await provider.utxosByRef(refs)
  const fetched = (role: MarloweScriptRole): MarloweValidator => {
    const { reference, hash } = deployment[role]
    const at = `the ${ROLE_NAMES[role]} at ${formatRef(reference)} on ${deployment.network}`
    const utxo = utxos.find((u) => u.ref.txId === reference.txId && u.ref.index === reference.index)
    if (utxo === undefined) throw new MarloweScriptsError(`${at}: no such unspent output`)
    const script = utxo.scriptRef
    if (script === undefined) throw new MarloweScriptsError(`${at}: the output holds no reference script`)
    if (script.language !== 'PlutusV2') {
      throw new MarloweScriptsError(`${at}: the reference script is ${script.language}, not PlutusV2`)
    }
    const validator = plutusV2Validator(script.bytes)
    if (validator.hash !== hash) {
      throw new MarloweScriptsError(`${at}: the script's hash is ${validator.hash}, the deployment's is ${hash}`)
    }
    return validator
  }
  return Object.freeze({ semantics: fetched('semantics'), payout: fetched('payout'), openRole: fetched('openRole') })
}

/** A validator as cardano-cli writes a Plutus V2 script file. */
export function validatorEnvelopeText(validator: MarloweValidator): string {
  return stringifyTextEnvelope({ type: ENVELOPE_TYPE, description: '', cbor: encodeByteString(validator.bytes) })
}

/** The validator in a `PlutusScriptV2` TextEnvelope; `what` names the file in errors. */
export function parseValidatorEnvelope(text: string, what: string): MarloweValidator {
  let envelope
  try {
    envelope = parseTextEnvelope(text)
  } catch (e) {
    if (e instanceof EnvelopeError) throw new MarloweScriptsError(`${what}: ${e.message}`)
    throw e
  }
  if (envelope.type !== ENVELOPE_TYPE) {
    throw new MarloweScriptsError(`${what}: a ${JSON.stringify(envelope.type)} envelope, not ${ENVELOPE_TYPE}`)
  }
  return plutusV2Validator(serialisedScript(envelope.cbor, what))
}

/** The byte string `cborHex` holds, which must itself be a CBOR byte string (the serialised script). */
function serialisedScript(cbor: Uint8Array, what: string): Uint8Array {
  const bad = `${what}: cborHex is not a CBOR byte string holding a serialised Plutus script`
  try {
    const outer = decodeCbor(cbor).item
    if (outer.kind !== 'bytes') throw new MarloweScriptsError(bad)
    if (decodeCbor(outer.value).item.kind !== 'bytes') throw new MarloweScriptsError(bad)
    return outer.value
  } catch (e) {
    if (e instanceof CborError) throw new MarloweScriptsError(`${bad} (${e.message})`)
    throw e
  }
}

/** Reads the three validators of a validators directory. */
export function readValidatorDir(dir: string): MarloweValidators {
  const read = (role: MarloweScriptRole): MarloweValidator => {
    const path = join(dir, VALIDATOR_FILES[role])
    let text
    try {
      text = readFileSync(path, 'utf8')
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e)
      throw new MarloweScriptsError(`the ${ROLE_NAMES[role]} file ${path} cannot be read (${reason})`)
    }
    return parseValidatorEnvelope(text, `the ${ROLE_NAMES[role]} file ${path}`)
  }
  return Object.freeze({ semantics: read('semantics'), payout: read('payout'), openRole: read('openRole') })
}
