/**
 * Where the sandbox's Marlowe validators (the stand-ins, or the validators it was given) live as reference
 * scripts: outputs of one synthetic genesis transaction, each at the enterprise address of its own script hash
 * without a datum — the layout of the real deployments, and like them unspendable (a Plutus V2 output without a
 * datum cannot be spent).
 */
import { blake2bHex } from '../../core/blake2b'
import { formatShelleyAddress } from '../../core/cardano/address'
import type { DeployedScript, MarloweDeployment } from '../deployments'
import type { MarloweScriptRole, MarloweValidator, MarloweValidators } from '../marlowe-scripts'
import type { TxOutRef } from '../provider'
import { STAND_IN_VALIDATORS } from './stand-ins'

export interface ReferenceScriptOutput {
  readonly ref: TxOutRef
  readonly address: string
  readonly lovelace: bigint
  readonly script: MarloweValidator
}

export type SandboxReferenceScripts = Readonly<Record<MarloweScriptRole, ReferenceScriptOutput>>

/** A synthetic genesis transaction id: blake2b-256 of a label, so it is fixed and cannot collide with a real tx. */
export function genesisTxId(label: string): string {
  return blake2bHex(new TextEncoder().encode(`marlowe-desk sandbox genesis: ${label}`), 32)
}

const SCRIPTS_TX_ID = genesisTxId('marlowe reference scripts')
/** Comfortably above the min-ADA of an output holding a stand-in; real validators are larger and need more. */
const REFERENCE_OUTPUT_LOVELACE = 10_000_000n
/** The ledger's min-ADA per byte of output on the sandbox, with room for the output's own fields. */
const LOVELACE_PER_SCRIPT_BYTE = 4_310n
const OUTPUT_OVERHEAD_BYTES = 300n

function referenceOutput(index: number, script: MarloweValidator): ReferenceScriptOutput {
  const minAda = (BigInt(script.bytes.length) + OUTPUT_OVERHEAD_BYTES) * LOVELACE_PER_SCRIPT_BYTE
  return Object.freeze({
    ref: Object.freeze({ txId: SCRIPTS_TX_ID, index }),
    address: formatShelleyAddress({ mainnet: false, payment: { type: 'script', hash: script.hash } }),
    lovelace: minAda > REFERENCE_OUTPUT_LOVELACE ? minAda : REFERENCE_OUTPUT_LOVELACE,
    script
  })
}

/** The reference-script outputs deploying `validators`, at the same references whichever validators they hold. */
export function sandboxReferenceScripts(validators: MarloweValidators): SandboxReferenceScripts {
  return Object.freeze({
    semantics: referenceOutput(0, validators.semantics),
    payout: referenceOutput(1, validators.payout),
    openRole: referenceOutput(2, validators.openRole)
  })
}

export const SANDBOX_REFERENCE_SCRIPTS: SandboxReferenceScripts = sandboxReferenceScripts(STAND_IN_VALIDATORS)

/** A sandbox's deployment: the scripts at its genesis reference-script outputs. */
export function sandboxDeployment(scripts: SandboxReferenceScripts, standIn: boolean): MarloweDeployment {
  const entry = (r: SandboxReferenceScripts[keyof SandboxReferenceScripts]): DeployedScript => ({
    hash: r.script.hash,
    reference: r.ref
  })
  return Object.freeze({
    network: 'sandbox',
    semantics: entry(scripts.semantics),
    payout: entry(scripts.payout),
    openRole: entry(scripts.openRole),
    standIn
  })
}
