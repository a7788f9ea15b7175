/**
 * The only way the engine sees a chain. Everything crossing this interface is plain data (hex, bytes,
 * bigints), so the sandbox, Ogmios, Blockfrost and cardano-submit-api adapters all fit it, and none of
 * their client libraries leak into the engine.
 */
import type { ExUnits, RedeemerTag, ScriptLanguage } from '../core/cardano/tx'
import type { Value } from '../core/cardano/value'
import type { Ratio } from '../core/ratio'
import type { MarloweDeployment } from './deployments'

/** The chain speaks the core's types of these. */
export type { ExUnits, Ratio, RedeemerTag, ScriptLanguage }

export const NETWORK_NAMES = ['mainnet', 'preprod', 'preview', 'sandbox'] as const
export type NetworkName = (typeof NETWORK_NAMES)[number]

export function isNetworkName(name: string): name is NetworkName {
  return (NETWORK_NAMES as readonly string[]).includes(name)
}

export interface TxOutRef {
  /** Transaction id, 64 hex chars. */
  readonly txId: string
  readonly index: number
}

export interface ScriptRef {
  readonly language: ScriptLanguage
  /** The script bytes as they appear in a script reference (for Plutus: the CBOR byte string of flat). */
  readonly bytes: Uint8Array
}

export interface Utxo {
  readonly ref: TxOutRef
  /** bech32 */
  readonly address: string
  readonly value: Value
  /** Hash of the datum, when the output holds a datum hash. */
  readonly datumHash?: string
  /** The datum's CBOR, when inline or when the provider could resolve the hash. */
  readonly datum?: Uint8Array
  readonly scriptRef?: ScriptRef
}

export interface ProtocolParameters {
  readonly minFeeA: bigint
  readonly minFeeB: bigint
  readonly coinsPerUtxoByte: bigint
  readonly maxTxSize: number
  readonly maxValueSize: number
  readonly keyDeposit: bigint
  readonly poolDeposit: bigint
  readonly priceMem: Ratio
  readonly priceSteps: Ratio
  readonly minFeeRefScriptCostPerByte: Ratio
  readonly collateralPercentage: number
  readonly maxCollateralInputs: number
  readonly maxTxExUnits: ExUnits
  /** Cost model parameters per Plutus language, in ledger order. */
  readonly costModels: Readonly<Partial<Record<'PlutusV1' | 'PlutusV2' | 'PlutusV3', readonly bigint[]>>>
  readonly protocolVersion: { readonly major: number; readonly minor: number }
}

/** One era's slot ↔ time mapping (POSIX milliseconds); `end` is absent for the current era. */
export interface EraSummary {
  readonly start: { readonly slot: bigint; readonly time: bigint }
  readonly end?: { readonly slot: bigint; readonly time: bigint }
  readonly slotLength: bigint
}

export interface ChainTip {
  readonly slot: bigint
  readonly blockNo: bigint
  readonly blockHash: string
}

export interface RedeemerBudget {
  readonly tag: RedeemerTag
  readonly index: number
  readonly exUnits: ExUnits
}

/** A block on chain: where a transaction was confirmed, or how far an index has read. */
export interface BlockPoint {
  readonly slot: bigint
  readonly blockNo: bigint
  readonly blockHash: string
}

export type TxStatus =
  | { readonly status: 'unknown' }
  | { readonly status: 'pending' }
  | { readonly status: 'confirmed'; readonly block: BlockPoint }

/** A confirmed transaction exactly as on chain, and its block. */
export interface ChainTx {
  readonly txId: string
  readonly block: BlockPoint
  /** The whole transaction's CBOR. */
  readonly cbor: Uint8Array
}

export interface ScriptTxQuery {
  /** Payment script hashes (28-byte hex): a transaction counts when it pays to or spends from any of them. */
  readonly scriptHashes: readonly string[]
  /** The last block already read; absent to read from the first such transaction on chain. */
  readonly after?: BlockPoint
  /** How many transactions a page holds at most (whole blocks: a block's transactions are never split). */
  readonly limit: number
}

export type ScriptTxPage =
  /** The transactions after `after`, in chain order; the next page starts after `until`. */
  | { readonly kind: 'forward'; readonly txs: readonly ChainTx[]; readonly until: BlockPoint }
  /** `after` is no longer on chain: forget what was read after `to` (absent: everything), and read on from there. */
  | { readonly kind: 'rollback'; readonly to?: BlockPoint }

export type ChainErrorKind =
  /** The node (or ledger) refused the transaction; `reason` is its own words. */
  | 'Rejected'
  /** Script evaluation failed or could not run. */
  | 'EvaluationFailed'
  /** The node could not be reached or did not answer in time: try again later. */
  | 'Unavailable'
  /** The provider answered something we could not understand. */
  | 'BadResponse'

export class ChainError extends Error {
  constructor(
    readonly kind: ChainErrorKind,
    readonly reason: string,
    readonly details: Readonly<Record<string, unknown>> = {}
  ) {
    super(`${kind}: ${reason}`)
    this.name = 'ChainError'
  }
}

export interface ChainProvider {
  readonly network: NetworkName
  /** 1 for mainnet, 0 for every testnet (and the sandbox). */
  readonly networkId: 0 | 1
  /**
   * The Marlowe scripts this chain runs, when they are not its network's published ones (a sandbox given
   * validators). Read through `deploymentOf` (./deployments.ts).
   */
  readonly deployment?: MarloweDeployment
  /** The ledger era transactions are built for, e.g. 'conway'. */
  era(): Promise<string>
  protocolParameters(): Promise<ProtocolParameters>
  eraSummaries(): Promise<readonly EraSummary[]>
  tip(): Promise<ChainTip>
  utxosAt(addresses: readonly string[]): Promise<Utxo[]>
  /** Outputs by reference; unknown or spent references are simply absent from the result. */
  utxosByRef(refs: readonly TxOutRef[]): Promise<Utxo[]>
  /** ExUnits per redeemer; `additionalUtxos` are outputs not yet on chain that the tx spends or references. */
  evaluate(tx: Uint8Array, additionalUtxos?: readonly Utxo[]): Promise<RedeemerBudget[]>
  /** Resolves with the tx id once the node accepted the tx into its mempool; rejects with a ChainError. */
  submit(tx: Uint8Array): Promise<string>
  txStatus(txId: string): Promise<TxStatus>
  /**
   * The chain index: every transaction touching the given script credentials, whoever built it. Providers
   * that cannot list them leave it out; the service then knows only the transactions it built.
   */
  scriptTransactions?(query: ScriptTxQuery): Promise<ScriptTxPage>
}
