/** Requests and results of the builders: plain data (bigints, hex, bech32), no CSL objects. */
import type { MarloweDeployment } from '../../chain/deployments'
import type { ChainProvider, TxOutRef } from '../../chain/provider'
import type { Value } from '../../core/cardano/value'
import type { JsonValue } from '../../core/json/lossless'
import type {
  Contract,
  Input,
  MarloweData,
  Party,
  Payment,
  TimeInterval,
  Token,
  TransactionWarning
} from '../../core/marlowe/types'
import type { RoleTokenMetadata } from './metadata'
import type { InputReservations } from './reservations'
import type { SafetyError } from './safety'

/** Runtime's wallet headers: X-Change-Address, X-Address, X-Collateral-UTxO. */
export interface WalletRequest {
  /** bech32; receives change and, for a create, provides the min-UTxO deposit. */
  readonly changeAddress: string
  readonly extraAddresses?: readonly string[]
  /** Preferred collateral; refs that are not wallet UTxOs are dropped, as Runtime does. */
  readonly collateral?: readonly TxOutRef[]
}

export interface BuilderOptions {
  readonly provider: ChainProvider
  /**
   * The current script set first; older sets are still accepted for contracts and payouts made with them.
   * Default: the provider's deployment (`deploymentOf` in `chain/deployments`).
   */
  readonly scripts?: readonly [MarloweDeployment, ...MarloweDeployment[]]
  readonly reservations: InputReservations
  /** How long a build holds its inputs if it is never submitted; default 30 minutes. */
  readonly reservationTtlMs?: number
  /** Slots past the tip that time conversion trusts when the era has no announced end; default 3k/f. */
  readonly safeZoneSlots?: bigint
  /** Epoch milliseconds; injectable for tests. */
  readonly now?: () => number
  /**
   * Which of `count` equally good coins a build takes (an index below `count`); default at random, so that
   * concurrent builds by one wallet seldom reach for the same coin. No build has to be reproduced: a tx is kept as
   * built, and building again is a new tx, as Runtime's POST is.
   */
  readonly pickAmongEqual?: (count: number) => number
}

export type RoleTokenDestination = { readonly address: string } | { readonly openRole: true }

export interface MintRole {
  readonly name: string
  /** Zero quantities are dropped, as Runtime does. */
  readonly recipients: ReadonlyArray<{ readonly destination: RoleTokenDestination; readonly quantity: bigint }>
  readonly metadata?: RoleTokenMetadata
}

/** Runtime's `RolesConfig`: no roles, an existing policy (optionally with open roles), or a policy to mint. */
export type RolesConfig =
  | { readonly type: 'UsePolicy'; readonly policyId: string; readonly openRoles?: readonly string[] }
  | { readonly type: 'Mint'; readonly roles: readonly MintRole[] }

export interface InitialAccount {
  readonly party: Party
  readonly token: Token
  readonly amount: bigint
}

export interface TransactionMetadataRequest {
  /** Marlowe tags (label 1564); `null` means a tag without payload. */
  readonly tags?: Readonly<Record<string, JsonValue>>
  /** Raw metadata by uint64 label, converted with cardano-api's no-schema mapping. */
  readonly metadata?: Readonly<Record<string, JsonValue>>
}

export interface CreateRequest extends TransactionMetadataRequest {
  readonly contract: Contract
  readonly roles?: RolesConfig
  /** Default "". Only used when open roles are present. */
  readonly threadTokenName?: string
  /** Lovelace; defaults to Runtime's worst-case bound, a smaller value is refused. */
  readonly minUTxODeposit?: bigint
  readonly accounts?: readonly InitialAccount[]
  /** bech32 stake address for the Marlowe output (X-Stake-Address). */
  readonly stakeAddress?: string
  /** Known merkleized continuations, by hash, for the safety checks. */
  readonly continuations?: ReadonlyMap<string, Contract>
}

export interface ApplyRequest extends TransactionMetadataRequest {
  readonly contractId: TxOutRef
  /** The contract's current UTxO; defaults to `contractId` (its creation output). */
  readonly marloweUtxo?: TxOutRef
  /** The datum's CBOR, for providers that cannot resolve a datum hash (the service stores it per build). */
  readonly datum?: Uint8Array
  readonly inputs: readonly Input[]
  /** POSIX ms; default the tip slot. */
  readonly invalidBefore?: bigint
  /** POSIX ms; default the next timeout of the contract, else the safe horizon. */
  readonly invalidHereafter?: bigint
  /** The contract store: inputs that take a merkleized case without its continuation get it from here. */
  readonly continuation?: (hash: string) => Contract | undefined
}

export interface WithdrawRequest {
  readonly payouts: readonly TxOutRef[]
  /** Payout datums' CBOR by `txid#ix`, for providers that cannot resolve datum hashes. */
  readonly datums?: ReadonlyMap<string, Uint8Array>
}

export interface SlotTime {
  readonly slot: bigint
  /** POSIX ms of the slot's start. */
  readonly time: bigint
}

/** What every build returns. */
export interface BuiltTx {
  readonly txId: string
  /** The unsigned Conway transaction: body plus the witness set (scripts, datums, redeemers), no signatures. */
  readonly tx: Uint8Array
  readonly fee: bigint
  /** Every UTxO the transaction spends, wallet and script. */
  readonly spent: readonly TxOutRef[]
  readonly collateral: readonly TxOutRef[]
  readonly invalidBefore?: SlotTime
  readonly invalidHereafter?: SlotTime
  /** Release it on submit; it lapses on its own at `expiresAt` (epoch ms). */
  readonly reservation: { readonly key: string; readonly expiresAt: number }
}

export interface CreateBuild extends BuiltTx {
  readonly contractId: TxOutRef
  readonly datum: MarloweData
  readonly datumBytes: Uint8Array
  /** Empty when the contract has no roles. */
  readonly rolesCurrency: string
  readonly marloweAddress: string
  readonly payoutAddress: string
  readonly assets: Value
  /** Lovelace the creator deposits into its account (paid back on close): at least the requested or computed bound. */
  readonly minUTxODeposit: bigint
  readonly safetyErrors: readonly SafetyError[]
}

export interface BuiltPayout {
  readonly ref: TxOutRef
  readonly rolesCurrency: string
  readonly role: string
  readonly assets: Value
}

export interface ApplyBuild extends BuiltTx {
  readonly contractId: TxOutRef
  /** The Marlowe UTxO this transaction spends. */
  readonly input: TxOutRef
  readonly inputs: readonly Input[]
  /** The Marlowe time interval the semantics ran over. */
  readonly interval: TimeInterval
  /** The continuing Marlowe output; absent when the contract closes. */
  readonly output?: {
    readonly ref: TxOutRef
    readonly datum: MarloweData
    readonly datumBytes: Uint8Array
    readonly assets: Value
  }
  readonly payouts: readonly BuiltPayout[]
  readonly payments: readonly Payment[]
  readonly warnings: readonly TransactionWarning[]
  readonly safetyErrors: readonly SafetyError[]
}

export interface WithdrawBuild extends BuiltTx {
  readonly payouts: readonly BuiltPayout[]
}

/** A roles policy whose tokens a burn destroys. */
export interface BurnPolicy {
  readonly policyId: string
  /** Its Plutus V2 script as a witness set holds it (from the create tx that minted the tokens). */
  readonly script: Uint8Array
  /** The names (hex) of its tokens to burn. */
  readonly assetNames: ReadonlySet<string>
}

export interface BurnRequest {
  /**
   * Which of the tokens the wallet holds (each once, quantity 1) to burn, by policy; may throw to refuse (e.g.
   * tokens of contracts still open). Nothing chosen is Runtime's `BurnNoTokensToBurn`.
   */
  readonly choose: (
    held: ReadonlyArray<{ readonly policyId: string; readonly assetName: string }>
  ) => readonly BurnPolicy[] | Promise<readonly BurnPolicy[]>
}

export interface BurnBuild extends BuiltTx {
  /** Every token the tx burns (positive quantities). */
  readonly burned: Value
}
