/** What the service operations take and return: plain data (bigints, hex, bech32, the Marlowe model). */
import type { BlockPoint, TxOutRef } from '../../chain/provider'
import type { Value } from '../../core/cardano/value'
import type { Era } from '../../core/cardano/tx-envelope'
import type { JsonObject } from '../../core/json/lossless'
import type { Contract, Input, Party, State, TimeInterval, TransactionOutput } from '../../core/marlowe/types'
import type { NextSteps } from '../../core/marlowe/next'
import type { ApplyRequest, CreateRequest, WithdrawRequest } from '../build'
import type { BlockRow, PageRequest, TxKind, TxStatusName } from '../../store/service-store'

export type { BlockRow, PageRequest, TxKind, TxStatusName }

/** Every build carries Runtime's tags and metadata maps (required, possibly empty). */
export interface Labelled {
  readonly tags: JsonObject
  readonly metadata: JsonObject
}

/** A contract given whole, or by the id of a contract source in the store (merkleized). */
export type CreateContractRequest = (
  CreateRequest | (Omit<CreateRequest, 'contract'> & { readonly sourceId: string })
) &
  Labelled
export type ApplyInputsRequest = Omit<ApplyRequest, 'contractId' | 'marloweUtxo' | 'datum'> & Labelled
export type WithdrawPayoutsRequest = Pick<WithdrawRequest, 'payouts'>

/** An unsigned transaction as built, for the client to sign. */
export interface UnsignedTx {
  readonly era: Era
  /** The whole transaction: body plus the witness set holding scripts, datums and redeemers. */
  readonly tx: Uint8Array
  /** The body alone (Runtime's `txBody` envelope). */
  readonly body: Uint8Array
}

export interface BurnResult {
  readonly txId: string
  /** Every token the transaction burns. */
  readonly burned: Value
  readonly unsigned: UnsignedTx
}

export interface CreateContractResult {
  readonly contractId: string
  readonly unsigned: UnsignedTx
  readonly safetyErrors: readonly JsonObject[]
}

export interface ApplyInputsResult {
  readonly contractId: string
  readonly transactionId: string
  readonly unsigned: UnsignedTx
  readonly safetyErrors: readonly JsonObject[]
}

export interface WithdrawResult {
  readonly withdrawalId: string
  readonly unsigned: UnsignedTx
}

/** Which of the stored builds a transaction is: its kind, and the contract it creates or applies inputs to. */
export interface BuildRef {
  readonly kind: TxKind
  readonly txId: string
  readonly contractId?: string
}

/**
 * How a submit ended: the node took the transaction now, or it refused it because it had it already (an earlier
 * attempt whose answer was lost, or the wallet sent it itself) — recorded as submitted either way.
 */
export type SubmitOutcome = 'accepted' | 'alreadyOnChain'

/** A signed transaction taken by the node: which of our builds it was, if one, and whether it was there already. */
export interface SignedSubmission {
  readonly txId: string
  readonly build?: BuildRef
  /** Not sent again: the node has it (in a block, or waiting), or our record says it was submitted. */
  readonly already?:
    | { readonly status: 'confirmed'; readonly block: BlockPoint }
    | { readonly status: 'pending' }
    | { readonly status: 'submitted' }
}

export interface PayoutView {
  readonly payoutId: string
  readonly contractId: string
  /** The apply transaction that paid it. */
  readonly transactionId: string
  readonly rolesCurrency: string
  readonly role: string
  readonly assets: Value
  readonly status: 'available' | 'withdrawn'
  readonly withdrawalId?: string
  readonly payoutValidatorAddress: string
}

/** What a list of contracts shows of each (Runtime's ContractHeader): nothing that needs the datum. */
export interface ContractHeader {
  readonly contractId: string
  readonly rolesCurrency: string
  readonly tags: JsonObject
  readonly metadata: JsonObject
  readonly status: TxStatusName
  readonly block?: BlockRow
}

export interface ContractView extends ContractHeader {
  readonly initialContract: Contract
  readonly initialState: State
  /** Absent once the contract has closed. */
  readonly current?: {
    readonly contract: Contract
    readonly state: State
    /** The Marlowe UTxO, once on chain. */
    readonly utxo?: string
  }
  /** Value of the current Marlowe UTxO (zero once closed). */
  readonly assets: Value
  /** While the creation is unsigned. */
  readonly unsigned?: UnsignedTx
  readonly unclaimedPayouts: readonly PayoutView[]
  readonly marloweAddress: string
}

/** What a list of a contract's transactions shows of each (Runtime's TxHeader): nothing that needs a datum. */
export interface TransactionHeader {
  readonly contractId: string
  readonly transactionId: string
  readonly tags: JsonObject
  readonly metadata: JsonObject
  readonly status: TxStatusName
  readonly block?: BlockRow
  /** The Marlowe UTxO the transaction leaves; absent when it closes the contract. */
  readonly utxo?: string
}

export interface TransactionView extends Omit<TransactionHeader, 'utxo'> {
  readonly inputUtxo: string
  readonly inputContract: Contract
  readonly inputState: State
  readonly inputs: readonly Input[]
  readonly output?: { readonly utxo: string; readonly contract: Contract; readonly state: State }
  /** Value of the output Marlowe UTxO (zero when the contract closes). */
  readonly assets: Value
  readonly payouts: readonly PayoutView[]
  readonly consumingTx?: string
  /** POSIX ms of the validity bounds' slots. */
  readonly invalidBefore?: bigint
  readonly invalidHereafter?: bigint
  readonly interval: TimeInterval
  /**
   * What the semantics did over the interval and inputs (payments and warnings are reported only here); absent
   * when a value went beyond the core's limit (a transaction read from the chain that the engine cannot evaluate).
   */
  readonly semanticOutput?: TransactionOutput
  readonly unsigned?: UnsignedTx
}

export interface WithdrawalView {
  readonly withdrawalId: string
  readonly status: TxStatusName
  readonly block?: BlockRow
  readonly payouts: readonly PayoutView[]
  readonly unsigned?: UnsignedTx
}

export interface ContractFilter {
  readonly roleCurrencies?: readonly string[]
  readonly tags?: readonly string[]
  readonly partyAddresses?: readonly string[]
  readonly partyRoles?: readonly { readonly policyId: string; readonly role: string }[]
}

export interface PayoutFilter {
  readonly contractIds?: readonly string[]
  readonly roleTokens?: readonly { readonly policyId: string; readonly role: string }[]
  readonly status?: 'available' | 'withdrawn'
}

export interface NextRequest {
  readonly interval: TimeInterval
  readonly parties?: readonly Party[]
}

export type { NextSteps, TxOutRef }
