/** A transaction before coin selection and balancing, as plain data: what each builder decides. */
import type { Utxo } from '../../chain/provider'
import type { Value } from '../../core/cardano/value'
import type { TransactionMetadata } from './metadata'
import type { RefScript } from './scripts'

export interface ScriptSpend {
  readonly utxo: Utxo
  readonly script: RefScript
  /** The datum's CBOR, placed in the witness set (the output holds its hash). */
  readonly datum: Uint8Array
  readonly redeemer: Uint8Array
}

export interface PlannedOutput {
  readonly address: string
  readonly value: Value
  /** Attached by hash, with the datum in the witness set (Runtime's `TxOutDatumInTx`). */
  readonly datum?: Uint8Array
}

export interface PlannedMint {
  /** Plutus V2 script, CBOR byte string of flat; it goes in the witness set. */
  readonly script: Uint8Array
  readonly policyId: string
  readonly redeemer: Uint8Array
  readonly assets: ReadonlyArray<{ readonly assetName: string; readonly quantity: bigint }>
}

export interface TxPlan {
  readonly scriptSpends: readonly ScriptSpend[]
  /** Wallet UTxOs the tx must spend (role tokens, the minting seed); coin selection adds more. */
  readonly walletSpends: readonly Utxo[]
  readonly outputs: readonly PlannedOutput[]
  /** Mints or burns, one per policy; their redeemers are indexed in policy-id order. */
  readonly mints?: readonly PlannedMint[]
  /** Payment key hashes, hex. */
  readonly requiredSigners: readonly string[]
  readonly metadata: TransactionMetadata
  readonly validity?: { readonly invalidBefore: bigint; readonly invalidHereafter: bigint }
}

/** A plan and what the builder derived along with it (datum, safety errors, …). */
export interface Planned<T> {
  readonly plan: TxPlan
  readonly info: T
}

/** Builds the plan from the wallet UTxOs no pending build holds; run again when a reservation races. */
export type PlanFactory<T> = (available: readonly Utxo[]) => Planned<T> | Promise<Planned<T>>

/** The plan's mints in ledger order (by policy id), which is the order of their redeemer indices. */
export function sortedMints(plan: TxPlan): PlannedMint[] {
  return [...(plan.mints ?? [])].sort((a, b) => (a.policyId < b.policyId ? -1 : a.policyId > b.policyId ? 1 : 0))
}

export function runsScripts(plan: TxPlan): boolean {
  return plan.scriptSpends.length > 0 || (plan.mints ?? []).length > 0
}
