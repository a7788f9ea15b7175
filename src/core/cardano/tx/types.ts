/**
 * A transaction as decoded from its bytes: every body field, the witness set and the auxiliary data, with the
 * original byte slices that hashes are taken over. Hashes, policy ids and key hashes are lowercase hex; every
 * quantity is a bigint; offsets are positions in the transaction bytes.
 */
import type { Credential } from '../address'
import type { EncodingIssueLog } from '../cbor'
import type { PlutusData } from '../../marlowe/plutus/data'
import type { DecodedAddress } from './address'

export interface TxIn {
  /** 32-byte transaction id. */
  readonly txId: string
  readonly index: number
}

/** The names `src/chain/provider.ts` uses for script languages. */
export type ScriptLanguage = 'Native' | 'PlutusV1' | 'PlutusV2' | 'PlutusV3'

/** cardano-cli's names: `after` is "invalid before" (valid from the slot), `before` is "invalid hereafter". */
export type NativeScript =
  | { readonly type: 'sig'; readonly keyHash: string }
  | { readonly type: 'all'; readonly scripts: readonly NativeScript[] }
  | { readonly type: 'any'; readonly scripts: readonly NativeScript[] }
  | { readonly type: 'atLeast'; readonly required: bigint; readonly scripts: readonly NativeScript[] }
  | { readonly type: 'after'; readonly slot: bigint }
  | { readonly type: 'before'; readonly slot: bigint }

export interface DecodedScript {
  readonly language: ScriptLanguage
  /** blake2b-224 of the language tag and `bytes`. */
  readonly hash: string
  /** Plutus: the serialised script (the CBOR byte string of flat) — native: the script's CBOR. */
  readonly bytes: Uint8Array
  readonly native?: NativeScript
}

export interface AssetQuantity {
  /** Asset name bytes, hex (0–32 bytes). */
  readonly assetName: string
  readonly quantity: bigint
}

export interface PolicyAssets {
  readonly policyId: string
  readonly assets: readonly AssetQuantity[]
}

export interface DecodedValue {
  readonly coin: bigint
  readonly multiAsset: readonly PolicyAssets[]
}

export type DecodedDatum =
  | { readonly kind: 'hash'; readonly hash: string }
  | {
      readonly kind: 'inline'
      /** blake2b-256 of `bytes`, the hash the datum would have in a witness set. */
      readonly hash: string
      /** The datum's CBOR exactly as embedded (the content of the tag-24 byte string), checked to be Data. */
      readonly bytes: Uint8Array
    }

export interface DecodedOutput {
  /** `legacy` is the pre-Babbage array form `[address, value, ?datum_hash]`; `map` the Babbage form. */
  readonly format: 'legacy' | 'map'
  readonly address: DecodedAddress
  readonly value: DecodedValue
  readonly datum?: DecodedDatum
  readonly scriptRef?: DecodedScript
  readonly start: number
  readonly end: number
}

export type DRep =
  | { readonly type: 'key' | 'script'; readonly hash: string }
  | { readonly type: 'abstain' }
  | { readonly type: 'no-confidence' }

export interface Anchor {
  readonly url: string
  readonly dataHash: string
}

export type CertificateKind =
  | 'stake-registration'
  | 'stake-deregistration'
  | 'stake-delegation'
  | 'pool-registration'
  | 'pool-retirement'
  | 'genesis-key-delegation'
  | 'move-instantaneous-rewards'
  | 'registration'
  | 'unregistration'
  | 'vote-delegation'
  | 'stake-vote-delegation'
  | 'stake-registration-delegation'
  | 'vote-registration-delegation'
  | 'stake-vote-registration-delegation'
  | 'committee-hot-key-authorization'
  | 'committee-cold-key-resignation'
  | 'drep-registration'
  | 'drep-unregistration'
  | 'drep-update'

export interface PoolRegistration {
  readonly vrfKeyHash: string
  readonly pledge: bigint
  readonly cost: bigint
  readonly margin: { readonly numerator: bigint; readonly denominator: bigint }
  readonly rewardAccount: DecodedAddress
  readonly owners: readonly string[]
}

export interface Certificate {
  readonly kind: CertificateKind
  /** The CDDL number of the kind (0–18). */
  readonly code: number
  /** The stake credential, or the DRep / committee cold credential for governance certificates. */
  readonly credential?: Credential
  readonly hotCredential?: Credential
  /** Pool key hash (operator). */
  readonly poolId?: string
  readonly drep?: DRep
  readonly deposit?: bigint
  readonly refund?: bigint
  readonly epoch?: bigint
  readonly anchor?: Anchor
  readonly pool?: PoolRegistration
}

export interface Withdrawal {
  readonly rewardAccount: DecodedAddress
  readonly amount: bigint
}

export type VoterKind = 'committee-key' | 'committee-script' | 'drep-key' | 'drep-script' | 'pool'

export interface Voter {
  readonly kind: VoterKind
  readonly hash: string
}

export interface Vote {
  readonly actionId: TxIn
  readonly vote: 'no' | 'yes' | 'abstain'
  readonly anchor?: Anchor
}

export interface VoterVotes {
  readonly voter: Voter
  readonly votes: readonly Vote[]
}

export type GovActionKind =
  | 'parameter-change'
  | 'hard-fork-initiation'
  | 'treasury-withdrawals'
  | 'no-confidence'
  | 'update-committee'
  | 'new-constitution'
  | 'info'

export interface Proposal {
  readonly deposit: bigint
  readonly returnAccount: DecodedAddress
  readonly action: GovActionKind
  readonly anchor: Anchor
  /** The guardrail script of a parameter change or treasury withdrawal, when it names one. */
  readonly policyHash?: string
  /** Treasury withdrawals only. */
  readonly withdrawals?: readonly Withdrawal[]
}

export interface DecodedBody {
  readonly inputs: readonly TxIn[]
  readonly outputs: readonly DecodedOutput[]
  readonly fee: bigint
  readonly ttl?: bigint
  readonly certificates: readonly Certificate[]
  readonly withdrawals: readonly Withdrawal[]
  /** Key 6, the pre-Conway update proposal: only its presence. */
  readonly hasUpdate: boolean
  readonly auxDataHash?: string
  readonly validityStart?: bigint
  /** Quantities are signed: negative burns. */
  readonly mint: readonly PolicyAssets[]
  readonly scriptDataHash?: string
  readonly collateral: readonly TxIn[]
  readonly requiredSigners: readonly string[]
  readonly networkId?: number
  readonly collateralReturn?: DecodedOutput
  readonly totalCollateral?: bigint
  readonly referenceInputs: readonly TxIn[]
  readonly votingProcedures: readonly VoterVotes[]
  readonly proposals: readonly Proposal[]
  readonly currentTreasuryValue?: bigint
  readonly donation?: bigint
  /** Body keys no era defines, in order of appearance. */
  readonly unknownKeys: readonly bigint[]
}

export interface VkeyWitness {
  readonly vkey: string
  readonly signature: string
  /** blake2b-224 of the key: the hash required signers and addresses name. */
  readonly keyHash: string
}

export interface BootstrapWitness {
  readonly vkey: string
  readonly signature: string
  readonly chainCode: string
  readonly attributes: string
}

export interface WitnessDatum {
  readonly hash: string
  /** The datum's original encoding, checked to be Data: what `hash` is taken over. */
  readonly bytes: Uint8Array
  readonly offset: number
}

export type RedeemerTag = 'spend' | 'mint' | 'cert' | 'reward' | 'vote' | 'propose'

export interface ExUnits {
  readonly mem: bigint
  readonly steps: bigint
}

export interface DecodedRedeemer {
  readonly tag: RedeemerTag
  readonly index: number
  readonly data: PlutusData
  readonly dataBytes: Uint8Array
  readonly exUnits: ExUnits
}

export interface DecodedWitnessSet {
  readonly vkeys: readonly VkeyWitness[]
  readonly bootstraps: readonly BootstrapWitness[]
  readonly nativeScripts: readonly DecodedScript[]
  readonly plutusScripts: readonly DecodedScript[]
  readonly datums: readonly WitnessDatum[]
  /** Original encoding of the datums field (key 4), as the script data hash takes it. */
  readonly datumsBytes?: Uint8Array
  readonly redeemers: readonly DecodedRedeemer[]
  /** Original encoding of the redeemers field (key 5), as the script data hash takes it. */
  readonly redeemersBytes?: Uint8Array
  /** Babbage's array form or Conway's map form. */
  readonly redeemerFormat?: 'array' | 'map'
  readonly unknownKeys: readonly bigint[]
}

/** Transaction metadata in cardano-cli's detailed schema: lossless, any key type. */
export type Metadatum =
  | { readonly int: bigint }
  | { readonly bytes: string }
  | { readonly string: string }
  | { readonly list: readonly Metadatum[] }
  | { readonly map: ReadonlyArray<{ readonly k: Metadatum; readonly v: Metadatum }> }

export interface MetadataEntry {
  readonly label: bigint
  readonly value: Metadatum
}

export interface DecodedAuxData {
  /** `shelley`: a bare metadata map; `shelley-ma`: `[metadata, scripts]`; `alonzo`: the tag-259 map. */
  readonly format: 'shelley' | 'shelley-ma' | 'alonzo'
  readonly bytes: Uint8Array
  /** blake2b-256 of `bytes`: what the body's auxiliary data hash must equal. */
  readonly hash: string
  readonly metadata: readonly MetadataEntry[]
  readonly scripts: readonly DecodedScript[]
  /** Text or byte strings over 64 bytes, which the ledger rejects in metadata. */
  readonly oversizedStrings: number
}

export interface SetTagUse {
  readonly tagged: number
  readonly untagged: number
}

export interface DecodedTx {
  /** blake2b-256 of the original body bytes. */
  readonly id: string
  readonly size: number
  readonly body: DecodedBody
  readonly bodyBytes: Uint8Array
  readonly bodyRange: { readonly start: number; readonly end: number }
  readonly witnessSet: DecodedWitnessSet
  readonly witnessSetBytes: Uint8Array
  readonly isValid: boolean
  readonly auxData?: DecodedAuxData
  readonly auxDataRange?: { readonly start: number; readonly end: number }
  /** Non-canonical choices and duplicates seen anywhere outside Plutus Data. */
  readonly issues: EncodingIssueLog
  /** How many sets (inputs, signers, scripts, …) carried tag 258, and how many did not. */
  readonly setTags: SetTagUse
}
