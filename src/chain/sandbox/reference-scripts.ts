/**
 * Where the sandbox's stand-in Marlowe validators live as reference scripts: outputs of one synthetic genesis
 * transaction, each at the enterprise address of its own script hash without a datum — the layout of the real
 * deployments, and like them unspendable (a Plutus V2 output without a datum cannot be spent).
 */
import { blake2bHex } from '../../core/blake2b'
import { formatShelleyAddress } from '../../core/cardano/address'
import type { TxOutRef } from '../provider'
import { STAND_IN_VALIDATORS, type StandInRole, type StandInScript } from './stand-ins'

export interface ReferenceScriptOutput {
  readonly ref: TxOutRef
  readonly address: string
  readonly lovelace: bigint
  readonly script: StandInScript
}

/** A synthetic genesis transaction id: blake2b-256 of a label, so it is fixed and cannot collide with a real tx. */
export function genesisTxId(label: string): string {
  return blake2bHex(new TextEncoder().encode(`marlowe-desk sandbox genesis: ${label}`), 32)
}

const SCRIPTS_TX_ID = genesisTxId('marlowe reference scripts')
/** Comfortably above the min-ADA of a ~130-byte output. */
const REFERENCE_OUTPUT_LOVELACE = 10_000_000n

function referenceOutput(index: number, script: StandInScript): ReferenceScriptOutput {
  return Object.freeze({
    ref: Object.freeze({ txId: SCRIPTS_TX_ID, index }),
    address: formatShelleyAddress({ mainnet: false, payment: { type: 'script', hash: script.hash } }),
    lovelace: REFERENCE_OUTPUT_LOVELACE,
    script
  })
}

export const SANDBOX_REFERENCE_SCRIPTS: Readonly<Record<StandInRole, ReferenceScriptOutput>> = Object.freeze({
  semantics: referenceOutput(0, STAND_IN_VALIDATORS.semantics),
  payout: referenceOutput(1, STAND_IN_VALIDATORS.payout),
  openRole: referenceOutput(2, STAND_IN_VALIDATORS.openRole)
})
