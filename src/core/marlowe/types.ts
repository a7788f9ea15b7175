/**
 * Marlowe language core v1: the contract model.
 *
 * Every quantity and time is a `bigint`. Constants inside `Value` are bare bigints and the trivial
 * observations are bare booleans, mirroring the JSON form; everything else carries a `type` tag so the
 * semantics can switch on it. Byte strings (currency symbols, merkle hashes) are lowercase hex; token,
 * role, choice and value names are text (their UTF-8 bytes go on chain).
 */

export interface AddressParty {
  readonly type: 'Address'
  /** CIP-19 Shelley address in bech32, lowercase. */
  readonly address: string
}

export interface RoleParty {
  readonly type: 'Role'
  readonly role: string
}

export type Party = AddressParty | RoleParty
export type AccountId = Party

export interface Token {
  /** Policy id as lowercase hex; empty for ada. */
  readonly currencySymbol: string
  readonly tokenName: string
}

export interface ChoiceId {
  readonly name: string
  readonly owner: Party
}

export type ValueId = string

/** Inclusive at both ends. */
export interface Bound {
  readonly from: bigint
  readonly to: bigint
}

export type Payee =
  { readonly type: 'Account'; readonly account: AccountId } | { readonly type: 'Party'; readonly party: Party }

export type Value =
  | bigint
  | { readonly type: 'AvailableMoney'; readonly account: AccountId; readonly token: Token }
  | { readonly type: 'NegValue'; readonly value: Value }
  | { readonly type: 'AddValue'; readonly left: Value; readonly right: Value }
  | { readonly type: 'SubValue'; readonly left: Value; readonly right: Value }
  | { readonly type: 'MulValue'; readonly left: Value; readonly right: Value }
  | { readonly type: 'DivValue'; readonly left: Value; readonly right: Value }
  | { readonly type: 'ChoiceValue'; readonly choice: ChoiceId }
  | { readonly type: 'TimeIntervalStart' }
  | { readonly type: 'TimeIntervalEnd' }
  | { readonly type: 'UseValue'; readonly id: ValueId }
  | { readonly type: 'Cond'; readonly observation: Observation; readonly then: Value; readonly else: Value }

export type Observation =
  | boolean
  | { readonly type: 'AndObs'; readonly left: Observation; readonly right: Observation }
  | { readonly type: 'OrObs'; readonly left: Observation; readonly right: Observation }
  | { readonly type: 'NotObs'; readonly observation: Observation }
  | { readonly type: 'ChoseSomething'; readonly choice: ChoiceId }
  | { readonly type: 'ValueGE'; readonly left: Value; readonly right: Value }
  | { readonly type: 'ValueGT'; readonly left: Value; readonly right: Value }
  | { readonly type: 'ValueLT'; readonly left: Value; readonly right: Value }
  | { readonly type: 'ValueLE'; readonly left: Value; readonly right: Value }
  | { readonly type: 'ValueEQ'; readonly left: Value; readonly right: Value }

export type Action =
  | {
      readonly type: 'Deposit'
      readonly account: AccountId
      readonly party: Party
      readonly token: Token
      readonly value: Value
    }
  | { readonly type: 'Choice'; readonly choice: ChoiceId; readonly bounds: readonly Bound[] }
  | { readonly type: 'Notify'; readonly observation: Observation }

export type Case =
  | { readonly type: 'Case'; readonly action: Action; readonly then: Contract }
  /** `hash` is the blake2b-256 of the continuation's Plutus Data bytes, lowercase hex. */
  | { readonly type: 'MerkleizedCase'; readonly action: Action; readonly hash: string }

export type Contract =
  | { readonly type: 'Close' }
  | {
      readonly type: 'Pay'
      readonly from: AccountId
      readonly to: Payee
      readonly token: Token
      readonly value: Value
      readonly then: Contract
    }
  | { readonly type: 'If'; readonly observation: Observation; readonly then: Contract; readonly else: Contract }
  | {
      readonly type: 'When'
      readonly cases: readonly Case[]
      /** POSIX milliseconds. */
      readonly timeout: bigint
      readonly timeoutContinuation: Contract
    }
  | { readonly type: 'Let'; readonly id: ValueId; readonly value: Value; readonly then: Contract }
  | { readonly type: 'Assert'; readonly observation: Observation; readonly then: Contract }

export type InputContent =
  | {
      readonly type: 'IDeposit'
      readonly account: AccountId
      readonly party: Party
      readonly token: Token
      readonly amount: bigint
    }
  | { readonly type: 'IChoice'; readonly choice: ChoiceId; readonly chosen: bigint }
  | { readonly type: 'INotify' }

export interface MerkleizedContinuation {
  /** blake2b-256 of the continuation's Plutus Data bytes, lowercase hex. */
  readonly hash: string
  readonly continuation: Contract
}

export interface Input {
  readonly content: InputContent
  /** Present for a merkleized input: the revealed continuation of a `MerkleizedCase`. */
  readonly merkleized?: MerkleizedContinuation
}

export interface AccountKey {
  readonly account: AccountId
  readonly token: Token
}

/**
 * An association list kept in insertion order, as PlutusTx's AssocMap: lookups scan for an equal key,
 * inserts replace in place or append. Order is observable (datum bytes, refund order).
 */
export type AssocList<K, V> = ReadonlyArray<readonly [K, V]>

export interface State {
  readonly accounts: AssocList<AccountKey, bigint>
  readonly choices: AssocList<ChoiceId, bigint>
  readonly boundValues: AssocList<ValueId, bigint>
  readonly minTime: bigint
}

/** Inclusive at both ends, POSIX milliseconds. */
export interface TimeInterval {
  readonly from: bigint
  readonly to: bigint
}

export interface TransactionInput {
  readonly interval: TimeInterval
  readonly inputs: readonly Input[]
}

export interface Payment {
  readonly from: AccountId
  readonly to: Payee
  readonly token: Token
  readonly amount: bigint
}

export type TransactionWarning =
  | {
      readonly type: 'NonPositiveDeposit'
      readonly party: Party
      readonly account: AccountId
      readonly token: Token
      readonly amount: bigint
    }
  | {
      readonly type: 'NonPositivePay'
      readonly account: AccountId
      readonly payee: Payee
      readonly token: Token
      readonly amount: bigint
    }
  | {
      readonly type: 'PartialPay'
      readonly account: AccountId
      readonly payee: Payee
      readonly token: Token
      readonly paid: bigint
      readonly expected: bigint
    }
  | { readonly type: 'Shadowing'; readonly id: ValueId; readonly hadValue: bigint; readonly isNowAssigned: bigint }
  | { readonly type: 'AssertionFailed' }

export type IntervalError =
  | { readonly type: 'InvalidInterval'; readonly interval: TimeInterval }
  | { readonly type: 'IntervalInPastError'; readonly minTime: bigint; readonly interval: TimeInterval }

export type TransactionError =
  | { readonly type: 'TEAmbiguousTimeIntervalError' }
  | { readonly type: 'TEApplyNoMatchError' }
  | { readonly type: 'TEIntervalError'; readonly error: IntervalError }
  | { readonly type: 'TEUselessTransaction' }
  | { readonly type: 'TEHashMismatch' }

export interface TransactionSuccess {
  readonly type: 'Success'
  readonly warnings: readonly TransactionWarning[]
  readonly payments: readonly Payment[]
  readonly state: State
  readonly contract: Contract
}

export interface TransactionFailure {
  readonly type: 'Error'
  readonly error: TransactionError
}

export type TransactionOutput = TransactionSuccess | TransactionFailure

export interface MarloweParams {
  /** Policy id of the role tokens, lowercase hex; empty when the contract has no roles. */
  readonly rolesCurrency: string
}

/** The datum of a Marlowe semantics validator output. */
export interface MarloweData {
  readonly params: MarloweParams
  readonly state: State
  readonly contract: Contract
}

/** The datum of a role payout validator output: which role token may withdraw it. */
export interface PayoutDatum {
  readonly rolesCurrency: string
  readonly role: string
}

export const ADA: Token = { currencySymbol: '', tokenName: '' }
export const CLOSE: Contract = { type: 'Close' }

export function emptyState(minTime: bigint): State {
  return { accounts: [], choices: [], boundValues: [], minTime }
}
