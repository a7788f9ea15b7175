/**
 * The review model: everything a careful signer looks at before signing, as plain serialisable data (strings,
 * bigints, booleans, arrays and plain objects — the lossless JSON codec carries it to the renderer), and the
 * optional context that makes it richer. Hashes, key hashes, policy ids and asset names are lowercase hex.
 */
import type { JsonObject, JsonValue } from '../../json/lossless'
import type { Ratio } from '../../ratio'
import type { EncodingIssueKind } from '../cbor'
import type { Value } from '../value'
import type {
  AddressKind,
  Anchor,
  CertificateKind,
  DRep,
  ExUnits,
  GovActionKind,
  Metadatum,
  Pointer,
  RedeemerTag,
  ScriptLanguage,
  TxIn,
  Voter
} from '../tx'

// ------------------------------------------------------------------ context

/** A resolved transaction output; structurally the `Utxo` of `src/chain/provider.ts`, which core cannot import. */
export interface ResolvedOutput {
  readonly ref: TxIn
  /** bech32 (or base58 for Byron). */
  readonly address: string
  readonly value: Value
  readonly datumHash?: string
  /** The datum's CBOR, inline or resolved from its hash. */
  readonly datum?: Uint8Array
  /** For Plutus: the serialised script (the CBOR byte string of flat), as in a script reference. */
  readonly scriptRef?: { readonly language: ScriptLanguage; readonly bytes: Uint8Array }
}

/** One era's slot ↔ POSIX-millisecond mapping; the `EraSummary` of `src/chain/provider.ts`. */
export interface SlotEra {
  readonly start: { readonly slot: bigint; readonly time: bigint }
  readonly end?: { readonly slot: bigint; readonly time: bigint }
  /** Milliseconds. */
  readonly slotLength: bigint
}

export interface OwnWallet {
  /** How the review names the wallet (a label or an id the UI understands). */
  readonly id: string
  /** Addresses (bech32/base58) the wallet owns. */
  readonly addresses?: readonly string[]
  /** Payment and stake key hashes the wallet holds keys for. */
  readonly keyHashes?: readonly string[]
}

export type MarloweScriptName = 'marlowe-semantics' | 'marlowe-payout' | 'marlowe-open-role'

/** The protocol parameters the review uses; `ProtocolParameters` of `src/chain/provider.ts` fits. */
export interface ReviewProtocolParameters {
  readonly maxTxSize?: number
  readonly minFeeA?: bigint
  readonly minFeeB?: bigint
  readonly priceMem?: Ratio
  readonly priceSteps?: Ratio
  readonly minFeeRefScriptCostPerByte?: Ratio
  readonly collateralPercentage?: number
  /** Cost model parameters per Plutus language, in ledger order. */
  readonly costModels?: Readonly<Partial<Record<'PlutusV1' | 'PlutusV2' | 'PlutusV3', readonly bigint[]>>>
}

export interface ReviewContext {
  /** Outputs spent, used as collateral or referenced by the transaction. */
  readonly resolvedInputs?: readonly ResolvedOutput[]
  readonly eraSummaries?: readonly SlotEra[]
  readonly wallets?: readonly OwnWallet[]
  /** Script hash → Marlowe validator, added to the published deployment built in. */
  readonly marloweScripts?: Readonly<Record<string, MarloweScriptName>>
  /** Policy id → name, for minting policies the user trusts (e.g. role token policies). */
  readonly knownPolicies?: Readonly<Record<string, string>>
  readonly protocolParameters?: ReviewProtocolParameters
  /** POSIX milliseconds, for expiry warnings. */
  readonly now?: bigint
  /** The network the node is on: 1 mainnet, 0 testnets. */
  readonly networkId?: number
}

// ------------------------------------------------------------------ model
// Every integer is a bigint (the lossless JSON codec has no other number), and absent fields are left out.

export interface OutRef {
  readonly txId: string
  readonly index: bigint
}

export type Severity = 'danger' | 'warning' | 'info'

/** Every warning a review can give, by code (the desk's answer schema checks against this list). */
export const WARNING_CODES = [
  'expired',
  'not-yet-valid',
  'far-future-validity',
  'no-expiry',
  'network-mismatch',
  'mixed-networks',
  'unknown-policy-mint',
  'burns-own-tokens',
  'collateral-has-tokens',
  'collateral-too-large',
  'missing-signatures',
  'fee-unusually-high',
  'fee-below-minimum',
  'tx-too-large',
  'unresolved-inputs',
  'non-canonical-encoding',
  'duplicate-keys',
  'unknown-fields',
  'not-valid-in-conway',
  'script-data-hash-mismatch',
  'aux-data-hash-mismatch',
  'invalid-metadata',
  'scripts-marked-failing',
  'missing-datum',
  'redeemer-without-target',
  'marlowe-failure',
  'scripts-not-marlowe'
] as const

export type WarningCode = (typeof WARNING_CODES)[number]

export interface ReviewWarning {
  readonly code: WarningCode
  readonly severity: Severity
  /** One readable sentence. */
  readonly message: string
}

export interface AssetView {
  readonly policyId: string
  readonly assetName: string
  /** The name as text, when it is valid UTF-8 without control characters. */
  readonly assetNameText?: string
  /** Signed where it is a difference or a mint. */
  readonly quantity: bigint
  readonly policyName?: string
}

export interface ValueView {
  readonly lovelace: bigint
  readonly assets: readonly AssetView[]
}

export type Owner = 'own' | 'foreign' | 'script'

export interface CredentialView {
  readonly type: 'key' | 'script'
  readonly hash: string
  /** The wallet holding the key, for key credentials. */
  readonly wallet?: string
  readonly scriptName?: MarloweScriptName
}

export interface AddressView {
  /** bech32, or base58 for Byron; the raw hex when a context address could not be read. */
  readonly text: string
  readonly kind: AddressKind | 'unreadable'
  readonly networkId?: bigint
  readonly payment?: CredentialView
  readonly stake?: CredentialView
  readonly pointer?: Pointer
  /** `own` when a wallet owns it, `script` when its payment part is a script, else `foreign`. */
  readonly owner: Owner
  readonly wallet?: string
  readonly scriptName?: MarloweScriptName
}

export type DatumContent =
  | {
      readonly type: 'marlowe-data'
      /** `{marloweContract, marloweParams, marloweState}` as Marlowe Runtime writes it. */
      readonly marlowe: JsonObject
      /** The earliest timeout the contract waits on after its state's `minTime`. */
      readonly nextTimeout?: bigint
    }
  | { readonly type: 'marlowe-payout'; readonly rolesCurrency: string; readonly role: string }
  /** Any other datum, in the detailed schema (`{constructor, fields}`, `{int}`, `{bytes}`, `{list}`, `{map}`). */
  | { readonly type: 'plutus-data'; readonly json: JsonValue }

export interface DatumView {
  /** How the output names its datum. */
  readonly form: 'hash' | 'inline'
  readonly hash: string
  /** Where the datum's bytes came from; `missing` when only its hash is known. */
  readonly source: 'inline' | 'witness-set' | 'resolved' | 'missing'
  /** The datum's CBOR as signed, hex. */
  readonly bytes?: string
  readonly content?: DatumContent
}

export interface ScriptRefView {
  readonly language: ScriptLanguage
  readonly hash: string
  /** Bytes, as counted for the reference-script fee. */
  readonly size: bigint
  readonly name?: MarloweScriptName
}

export interface OutputView {
  readonly index: bigint
  readonly format: 'legacy' | 'map'
  readonly address: AddressView
  readonly value: ValueView
  readonly datum?: DatumView
  readonly scriptRef?: ScriptRefView
}

export interface InputView {
  readonly ref: OutRef
  /** Whether the context resolved the output this input points at. */
  readonly resolved: boolean
  /** `unknown` when unresolved. */
  readonly owner: Owner | 'unknown'
  readonly wallet?: string
  readonly address?: AddressView
  readonly value?: ValueView
  readonly datum?: DatumView
  readonly scriptRef?: ScriptRefView
  /** Index in `redeemers` of the redeemer spending this input. */
  readonly redeemer?: bigint
}

export interface CollateralView {
  readonly inputs: readonly InputView[]
  readonly return?: OutputView
  readonly total?: bigint
  /** Lovelace lost if a script fails: `total`, else resolved collateral minus the return. */
  readonly atRisk?: bigint
  /** What the ledger requires: fee × collateral percentage. */
  readonly required?: bigint
}

export interface MintAssetView {
  readonly assetName: string
  readonly assetNameText?: string
  readonly quantity: bigint
}

export interface MintView {
  readonly policyId: string
  /** From the context's known policies, a Marlowe datum's roles currency, or a Marlowe script name. */
  readonly policyName?: string
  readonly known: boolean
  /** The policy's language when the transaction carries its script. */
  readonly language?: ScriptLanguage
  readonly assets: readonly MintAssetView[]
  /** Index in `redeemers` of the redeemer running this policy. */
  readonly redeemer?: bigint
}

export interface TimePoint {
  readonly slot: bigint
  /** POSIX milliseconds, when the era summaries cover the slot. */
  readonly posixMs?: bigint
  readonly utc?: string
}

export interface ValidityView {
  /** Valid from this slot (inclusive). */
  readonly start?: TimePoint
  /** Valid before this slot (exclusive): the TTL. */
  readonly end?: TimePoint
  /** What a Plutus script sees as Marlowe time: `[start time, end time − 1]` (marlowe-core.md §4 step 1). */
  readonly marloweInterval?: { readonly from: bigint; readonly to: bigint }
}

export interface CertificateView {
  readonly index: bigint
  readonly kind: CertificateKind
  readonly code: bigint
  readonly credential?: CredentialView
  readonly hotCredential?: CredentialView
  readonly poolId?: string
  readonly drep?: DRep
  readonly deposit?: bigint
  readonly refund?: bigint
  readonly epoch?: bigint
  readonly anchor?: Anchor
  readonly pool?: {
    readonly vrfKeyHash: string
    readonly pledge: bigint
    readonly cost: bigint
    readonly margin: Ratio
    readonly rewardAccount: AddressView
    readonly owners: readonly string[]
  }
  readonly redeemer?: bigint
}

export interface WithdrawalView {
  readonly address: AddressView
  readonly amount: bigint
  readonly redeemer?: bigint
}

export interface ProposalView {
  readonly index: bigint
  readonly deposit: bigint
  readonly returnAddress: AddressView
  readonly action: GovActionKind
  readonly anchor: Anchor
  readonly policyHash?: string
  readonly withdrawals?: readonly WithdrawalView[]
  readonly redeemer?: bigint
}

export interface VoteView {
  readonly actionId: OutRef
  readonly vote: 'no' | 'yes' | 'abstain'
  readonly anchor?: Anchor
}

export interface GovernanceView {
  readonly votes: ReadonlyArray<{
    readonly voter: Voter
    readonly votes: readonly VoteView[]
    readonly redeemer?: bigint
  }>
  readonly proposals: readonly ProposalView[]
  readonly currentTreasuryValue?: bigint
  readonly donation?: bigint
}

export type SignatureReason =
  'input' | 'collateral' | 'required-signer' | 'withdrawal' | 'certificate' | 'vote' | 'native-script'

export interface NeededSignature {
  readonly keyHash: string
  readonly reasons: readonly SignatureReason[]
  readonly signed: boolean
  /** The wallet that can add it. */
  readonly wallet?: string
}

export interface WitnessesView {
  readonly vkeys: ReadonlyArray<{ readonly vkey: string; readonly keyHash: string; readonly wallet?: string }>
  readonly bootstrapCount: bigint
  /** Keys the transaction needs, as far as the decoded (and resolved) parts tell. */
  readonly needed: readonly NeededSignature[]
}

export interface ScriptView {
  readonly hash: string
  readonly language: ScriptLanguage
  readonly size: bigint
  readonly source: 'witness-set' | 'reference-input' | 'input' | 'auxiliary-data'
  readonly name?: MarloweScriptName
}

export type RedeemerTarget =
  | { readonly kind: 'input'; readonly ref: OutRef }
  | { readonly kind: 'mint'; readonly policyId: string }
  | { readonly kind: 'certificate'; readonly index: bigint }
  | { readonly kind: 'withdrawal'; readonly address: string }
  | { readonly kind: 'voter'; readonly voter: Voter }
  | { readonly kind: 'proposal'; readonly index: bigint }
  | { readonly kind: 'missing' }

export interface RedeemerView {
  readonly tag: RedeemerTag
  readonly index: bigint
  readonly target: RedeemerTarget
  readonly exUnits: ExUnits
  /** Its share of the fee: ⌈mem × priceMem + steps × priceSteps⌉, when prices are known. */
  readonly fee?: bigint
  readonly data: JsonValue
  /** A Marlowe semantics spend: the redeemer's inputs, in Runtime JSON. */
  readonly marloweInputs?: readonly JsonValue[]
}

export interface WitnessDatumView {
  readonly hash: string
  readonly size: bigint
  /** What names this datum (`output 2`, `input <txid>#<ix>`); empty for e.g. a merkleized continuation. */
  readonly usedBy: readonly string[]
  readonly content: DatumContent
}

export interface ScriptDataHashView {
  readonly declared?: string
  readonly computed?: string
  /**
   * `match`/`mismatch` after recomputing; `missing` when redeemers or datums need one and the body has none;
   * `unexpected` when the body has one without redeemers or datums; `not-checked` with a `reason` otherwise.
   */
  readonly status: 'match' | 'mismatch' | 'missing' | 'unexpected' | 'not-checked' | 'not-needed'
  readonly languages: readonly ScriptLanguage[]
  readonly reason?: string
}

export interface MarloweTagView {
  readonly tag: string
  readonly payload?: JsonValue
}

export interface Cip25AssetView {
  readonly policyId: string
  /** Hex of the asset name bytes (CIP-25 v2 keys) or of the UTF-8 text key (v1). */
  readonly assetName: string
  readonly assetNameText?: string
  readonly name?: string
  readonly image?: string
  readonly mediaType?: string
  readonly description?: string
}

export interface MetadataView {
  readonly format: 'shelley' | 'shelley-ma' | 'alonzo'
  readonly declaredHash?: string
  readonly computedHash: string
  readonly entries: ReadonlyArray<{
    readonly label: bigint
    /** Lossless detailed schema. */
    readonly value: Metadatum
    /** cardano-cli's "no schema" JSON: maps with text/int keys become objects, bytes become `0x…` text. */
    readonly json: JsonValue
  }>
  /** Label 1564: Marlowe Runtime's tags. */
  readonly marlowe?: {
    readonly version: bigint
    readonly tags: readonly MarloweTagView[]
    readonly continuations?: string
  }
  /** Label 721: CIP-25 NFT metadata. */
  readonly cip25?: readonly Cip25AssetView[]
  /** Label 674: CIP-20 message lines. */
  readonly messages?: readonly string[]
  readonly scriptCount: bigint
}

export interface MarloweStepView {
  /** The Marlowe semantics input being spent. */
  readonly input: OutRef
  /** Where its datum came from; `inferred` means matched without resolved inputs (see `reviewTransaction`). */
  readonly datumSource: 'resolved' | 'witness-set' | 'inferred'
  /** Absent when the datum could not be read. */
  readonly rolesCurrency?: string
  readonly inputs: readonly JsonValue[]
  readonly interval?: { readonly from: bigint; readonly to: bigint }
  readonly result:
    | {
        readonly type: 'success'
        readonly payments: readonly JsonObject[]
        readonly warnings: readonly JsonValue[]
        readonly state: JsonObject
        readonly contract: JsonValue
        readonly closes: boolean
        /** The earliest timeout the new contract waits on after the interval's end. */
        readonly nextTimeout?: bigint
        /** The output back at the Marlowe script address, if any (there must be none when the contract closes). */
        readonly continuingOutput?: bigint
        /** Whether that output carries exactly the new MarloweData by datum hash (always false when closing). */
        readonly continuationMatches?: boolean
      }
    | { readonly type: 'error'; readonly error: JsonValue }
    | { readonly type: 'not-run'; readonly reason: string }
}

export interface MarloweCreationView {
  readonly output: bigint
  readonly rolesCurrency: string
  readonly nextTimeout?: bigint
}

export interface MarloweView {
  readonly steps: readonly MarloweStepView[]
  readonly created: readonly MarloweCreationView[]
  /** Role payouts withdrawn in this transaction (payout validator spends). */
  readonly withdrawals: ReadonlyArray<{
    readonly input: OutRef
    readonly rolesCurrency?: string
    readonly role?: string
  }>
}

interface WalletEffectBase {
  readonly wallet: string
  /** Rewards withdrawn to the wallet's stake keys (arrive through outputs). */
  readonly withdrawn: bigint
}

/** Every input resolved: what leaves the wallet in all. */
export interface KnownWalletEffect extends WalletEffectBase {
  readonly complete: true
  /** Lovelace leaving the wallet: its inputs minus its outputs (negative when it receives). */
  readonly lovelace: bigint
  /** Per asset, what leaves the wallet (negative when it receives). */
  readonly assets: readonly AssetView[]
}

/**
 * Some inputs unresolved: whose they are and what they hold is unknown, so no net is claimed (outputs alone would
 * read as money received) — only what the outputs pay the wallet and what its resolved inputs hold. Which inputs
 * are unread is read from the review's inputs (`unreadInputs`).
 */
export interface PartialWalletEffect extends WalletEffectBase {
  readonly complete: false
  /** What the outputs pay to the wallet. */
  readonly received: ValueView
  /** What the wallet's resolved inputs hold: the part of what it spends that is known. */
  readonly spentKnown: ValueView
}

export type WalletEffectView = KnownWalletEffect | PartialWalletEffect

export interface FeeView {
  readonly fee: bigint
  /** The ledger minimum for this transaction (once its missing signatures are added), when parameters allow. */
  readonly minimum?: bigint
  readonly scriptFee?: bigint
  readonly referenceScriptFee?: bigint
  readonly referenceScriptBytes: bigint
}

export interface EncodingView {
  /** Tag 258 on sets: HW wallets want one style throughout. */
  readonly setTags: 'all' | 'none' | 'mixed' | 'no-sets'
  readonly issues: ReadonlyArray<{
    readonly kind: EncodingIssueKind
    readonly count: bigint
    /** Up to a few example offsets, and the parts of the transaction they fall in. */
    readonly offsets: readonly bigint[]
    readonly regions: ReadonlyArray<'body' | 'witness-set' | 'auxiliary-data' | 'transaction'>
  }>
  readonly redeemerFormat?: 'array' | 'map'
}

export interface TxReview {
  readonly txId: string
  /** `conway` when the transaction uses Conway-only features; `babbage` means it fits Babbage (and Conway). */
  readonly era: 'babbage' | 'conway'
  readonly size: { readonly bytes: bigint; readonly max?: bigint }
  /** False marks a transaction whose scripts are declared to fail: only its collateral is taken. */
  readonly isValid: boolean
  readonly networkId?: bigint
  readonly fee: FeeView
  readonly inputs: readonly InputView[]
  readonly referenceInputs: readonly InputView[]
  readonly collateral: CollateralView
  readonly outputs: readonly OutputView[]
  readonly mint: readonly MintView[]
  readonly validity: ValidityView
  readonly certificates: readonly CertificateView[]
  readonly withdrawals: readonly WithdrawalView[]
  readonly governance: GovernanceView
  readonly requiredSigners: ReadonlyArray<{
    readonly keyHash: string
    readonly signed: boolean
    readonly wallet?: string
  }>
  readonly witnesses: WitnessesView
  readonly scripts: readonly ScriptView[]
  readonly redeemers: readonly RedeemerView[]
  readonly datums: readonly WitnessDatumView[]
  readonly scriptDataHash: ScriptDataHashView
  readonly metadata?: MetadataView
  readonly netEffect: readonly WalletEffectView[]
  readonly marlowe: MarloweView
  readonly encoding: EncodingView
  readonly warnings: readonly ReviewWarning[]
}
