/**
 * The one contract between the renderer and the engine: every call the UI may make, with its request and
 * response. Main implements it over IPC (src/main), `marlowe-desk serve --ui` over HTTP (src/server); the
 * renderer calls it through `DeskClient` and cannot tell which. Values are plain data: bigints for amounts
 * and times, hex strings for bytes, the core's Marlowe model (src/core/marlowe/types.ts) for contracts, states
 * and inputs. Runtime's resource JSON is the REST API's (src/server), never the desk's. Nothing here ever
 * carries a private key; the only secret a response holds is a new wallet's recovery phrase, once.
 */
import type { TxReview } from '../core/cardano/review'
import type { JsonObject } from '../core/json/lossless'
import type { NextSteps } from '../core/marlowe/next'
import type { Contract, Input, State } from '../core/marlowe/types'

export type NetworkName = 'mainnet' | 'preprod' | 'preview' | 'sandbox'

/** The keystore's rule for a new password (in characters, as people count them); forms show it before submit. */
export const MIN_PASSWORD_LENGTH = 8

/** The most contracts one page of `contracts.list` holds. */
export const MAX_CONTRACT_LIST_PAGE = 500

export interface AppStatus {
  readonly version: string
  readonly network: NetworkName
  /** Absent while no node answers. */
  readonly tip?: { readonly slot: bigint; readonly blockNo: bigint; readonly time: bigint }
  /** Epoch ms on the chain's clock (the sandbox can run ahead of the wall clock; with no node, the wall clock). */
  readonly chainTime: bigint
  /**
   * Present while no node answers (an air-gapped Desk, or the node down): why, in a sentence. Files can still be
   * imported, reviewed and signed; nothing can be built or submitted.
   */
  readonly offline?: string
}

export type WalletKind = 'mnemonic' | 'watch-only' | 'signing-key' | 'hardware'

export interface WalletSummary {
  readonly id: string
  readonly name: string
  readonly kind: WalletKind
  /** A hardware wallet's device. */
  readonly vendor?: HardwareVendor
  readonly locked: boolean
  /**
   * While unlocked: when it locks itself unless used before, epoch ms on the engine's wall clock (each signature
   * moves it on). Absent when locked.
   */
  readonly locksAt?: bigint
  /** The first payment address (receive here; change comes back here). */
  readonly address: string
}

export interface AssetBalance {
  readonly policyId: string
  /** Hex. */
  readonly assetName: string
  /** UTF-8 text of the name when it is text, else the hex. */
  readonly displayName: string
  readonly quantity: bigint
}

/** One unspent output at the wallet's addresses. */
export interface WalletUtxo {
  /** "txid#index". */
  readonly ref: string
  readonly address: string
  readonly lovelace: bigint
  readonly assets: readonly AssetBalance[]
  /** Whether the output carries a datum (inline or by hash). */
  readonly hasDatum: boolean
}

/** Ada and tokens: of some of the wallet's outputs, a contract's output or a payout. */
export interface Funds {
  readonly lovelace: bigint
  readonly assets: readonly AssetBalance[]
}

/** What the wallet's transactions built here but not yet confirmed spend of its outputs. */
export interface HeldFunds extends Funds {
  /** How many transactions spend them. */
  readonly count: number
}

export interface WalletBalance {
  readonly walletId: string
  readonly address: string
  readonly lovelace: bigint
  readonly assets: readonly AssetBalance[]
  readonly utxoCount: number
  /** Every unspent output counted above, ordered by reference. */
  readonly utxos: readonly WalletUtxo[]
  /** What no pending transaction spends: what a new build can use. */
  readonly available: Funds
  /**
   * Held by unsigned builds (until signed, discarded, superseded or lapsed) and by submitted transactions not yet
   * confirmed; the outputs stay in `utxos` until the chain spends them.
   */
  readonly held: { readonly unsigned: HeldFunds; readonly submitted: HeldFunds }
}

export type TxKind = 'create' | 'apply' | 'withdraw' | 'burn'
export type TxStatusName = 'unsigned' | 'submitted' | 'confirmed'

/** A built, stored, unsigned transaction and what it does. */
export interface PreparedTx {
  readonly kind: TxKind
  readonly txId: string
  readonly contractId?: string
  readonly review: TxReview
  /** The unsigned transaction's CBOR, hex. */
  readonly cborHex: string
  /** Runtime's safety findings for a create/apply (empty when none). */
  readonly safetyErrors: readonly JsonObject[]
}

/** Something a contract waits for from a wallet's own parties (its addresses and the role tokens it holds). */
export type AwaitedAction =
  | {
      readonly kind: 'deposit'
      /** The party that deposits: `role:<name>` or a bech32 address. */
      readonly party: string
      readonly amount: bigint
      /** Empty strings for ada. */
      readonly token: { readonly currencySymbol: string; readonly tokenName: string }
      /** The deadline of the step that waits, POSIX ms. */
      readonly before?: bigint
    }
  | { readonly kind: 'choice'; readonly party: string; readonly choiceName: string; readonly before?: bigint }

/** The block a transaction is in. */
export interface ChainBlock {
  readonly slot: bigint
  readonly blockNo: bigint
  /** Hex. */
  readonly blockHash: string
}

/** What a list shows of a contract: nothing that needs its datum. */
export interface ContractHeaderInfo {
  /** "txid#index": the creating transaction's output. */
  readonly contractId: string
  /** The role tokens' minting policy id; empty for a contract without roles. */
  readonly rolesCurrency: string
  /** The creation's tags, each a key (its value often null). */
  readonly tags: JsonObject
  /** The creation's transaction metadata, `{ "<label>": metadatum }`. */
  readonly metadata: JsonObject
  /** The creating transaction's status. */
  readonly status: TxStatusName
  /** The creation's block, once confirmed. */
  readonly block?: ChainBlock
}

/** A payment to a role, held by the payout validator until the role token's holder withdraws it. */
export interface PayoutInfo {
  /** "txid#index" of the payout output. */
  readonly payoutId: string
  readonly contractId: string
  /** The apply transaction that paid it. */
  readonly transactionId: string
  readonly rolesCurrency: string
  /** The role's name (the role token's name as text). */
  readonly role: string
  readonly assets: Funds
  readonly status: 'available' | 'withdrawn'
  readonly withdrawalId?: string
}

/** A contract with its datum read: the contract and state it started with and holds now. */
export interface ContractInfo extends ContractHeaderInfo {
  readonly initialContract: Contract
  readonly initialState: State
  /** Absent once the contract has closed. */
  readonly current?: {
    readonly contract: Contract
    readonly state: State
    /** The Marlowe output, "txid#index", once on chain. */
    readonly utxo?: string
  }
  /** What the Marlowe output holds (nothing once closed). */
  readonly assets: Funds
  readonly unclaimedPayouts: readonly PayoutInfo[]
}

/** An input application: what it spent, the inputs it applied, and what it left. */
export interface ContractTx {
  readonly transactionId: string
  readonly status: TxStatusName
  readonly block?: ChainBlock
  readonly tags: JsonObject
  readonly metadata: JsonObject
  /** The Marlowe output it spends, "txid#index". */
  readonly inputUtxo: string
  /** Empty: a deadline passed and the contract moved on. */
  readonly inputs: readonly Input[]
  /** Its validity interval, POSIX ms. */
  readonly invalidBefore?: bigint
  readonly invalidHereafter?: bigint
  /** The Marlowe output it leaves, with the contract and state there; absent when it closes the contract. */
  readonly output?: { readonly utxo: string; readonly contract: Contract; readonly state: State }
  readonly payouts: readonly PayoutInfo[]
  /** The transaction that spent its Marlowe output, once one has. */
  readonly consumingTx?: string
}

export interface ContractListItem {
  readonly header: ContractHeaderInfo
  readonly closed: boolean
  /** The next deadline of the current contract, POSIX ms. */
  readonly nextTimeout?: bigint
  /** Listed for a wallet: what the contract waits for from it now (empty: nothing). */
  readonly awaiting?: readonly AwaitedAction[]
  /** Listed for a wallet: the parties it is in the contract (see `ContractDetail.parties`). */
  readonly parties?: readonly string[]
  /** When the contract was created, POSIX ms: its creation's block on chain, else when it was built here. */
  readonly createdAt?: bigint
}

export interface ContractDetail {
  readonly contract: ContractInfo
  /** Each input application, oldest first (unsigned and submitted ones included). */
  readonly transactions: readonly ContractTx[]
  readonly nextTimeout?: bigint
  /**
   * Asked for a wallet: the parties it is in the contract, `role:<name>` for each role token of the contract it
   * holds, then each of its addresses that is an address party (empty: it is not a party).
   */
  readonly parties?: readonly string[]
}

/** One of a wallet's transactions, as its activity list shows it. */
export interface WalletActivityItem {
  readonly txId: string
  readonly kind: TxKind
  /** The contract it opened or moved; absent for a withdrawal. */
  readonly contractId?: string
  readonly status: TxStatusName
  /** `built`: by a wallet here; `chain`: by someone else, seen paying this wallet. */
  readonly origin: 'built' | 'chain'
  /** POSIX ms: its block's time once on chain, else when it was built. */
  readonly at: bigint
}

/** A page of a wallet's activity, newest first, and how many there are in all. */
export interface WalletActivityPage {
  readonly items: readonly WalletActivityItem[]
  readonly total: number
}

export interface RoleRecipient {
  readonly role: string
  /** bech32 address that receives the role token. */
  readonly address: string
}

export interface CreateContractRequest {
  readonly walletId: string
  /** Marlowe core JSON of the contract, as text (amounts may exceed 2^53). */
  readonly contractJson: string
  /** Roles to mint, one token each, to these addresses; empty: a contract without roles. */
  readonly roles: readonly RoleRecipient[]
  readonly tags: readonly string[]
  /** Transaction metadata as JSON text, `{ "<uint64 label>": metadatum }` (cardano-api's no-schema mapping). */
  readonly metadataJson?: string
  readonly minUTxODeposit?: bigint
}

export interface ApplyInputsRequest {
  readonly walletId: string
  readonly contractId: string
  /** Marlowe core JSON of the inputs (an array), as text; "[]" advances past a timeout. */
  readonly inputsJson: string
}

export interface WithdrawRequest {
  readonly walletId: string
  readonly payoutIds: readonly string[]
}

export interface ExportedFile {
  readonly fileName: string
  readonly text: string
}

/** A file carried by animated QR codes between the online and the offline Desk: a review bundle or a witness. */
export interface QrPayload {
  readonly kind: 'bundle' | 'witness'
  /** The transaction the file is for. */
  readonly txId: string
  readonly text: string
}

/** A payload's frames (UR, fountain-coded), shown in a loop; `fragments` of them hold the payload once. */
export interface QrSequence {
  readonly parts: readonly string[]
  readonly fragments: number
  readonly payloadBytes: number
}

/** A scan's progress; `payload` once the sequence is whole and verified. */
export interface QrScanState {
  readonly received: number
  readonly expected: number
  readonly percent: number
  readonly kind?: QrPayload['kind']
  readonly payload?: QrPayload
}

/** A Keystone sign request (`ur:cardano-sign-request`) for a stored build, shown as animated QR codes. */
export interface KeystoneRequestShown {
  /** The UUID the Keystone's signature must name back. */
  readonly requestId: string
  readonly sequence: QrSequence
  /** The paths of the keys the Keystone is asked to sign with. */
  readonly paths: readonly string[]
  /** Key hashes the transaction needs that the wallet's account does not hold. */
  readonly missing: readonly string[]
}

/** A Keystone signature (`ur:cardano-signature`) as scanned: the request it answers, its CBOR in hex. */
export interface KeystoneSignatureScan {
  readonly requestId: string
  readonly cbor: string
}

/** A scan of a Keystone's signature; `signature` once whole. */
export interface KeystoneScanState {
  readonly received: number
  readonly expected: number
  readonly percent: number
  readonly signature?: KeystoneSignatureScan
}

/** A wallet's account public key: what a watch-only copy of it is made from. */
export interface PublicKeyExport {
  /** `acct_xvk1…`, to paste. */
  readonly accountKey: string
  /** The same key as a cardano-cli key file (an account extended verification key). */
  readonly file: ExportedFile
}

export interface ImportedTx {
  readonly txId: string
  /** True when the tx is one this app built (it can be signed and submitted from here). */
  readonly known: boolean
  /**
   * For a transaction this app did not build: where the chain has already seen it (in its mempool or a block), so
   * it is not offered for signing again. Absent when the chain has not seen it or cannot be asked (offline).
   */
  readonly chainStatus?: 'submitted' | 'confirmed'
  readonly review: TxReview
  /** The transaction's CBOR as read from the file, hex. */
  readonly cborHex: string
}

/**
 * How a real network is reached: exactly one of Ogmios or Blockfrost, Kupo beside Ogmios for the chain index,
 * and optionally cardano-submit-api.
 */
export interface NodeSettings {
  /** Ogmios v6 WebSocket URL (ws:// or wss://). */
  readonly ogmios?: string
  /** Kupo's HTTP URL, with Ogmios: every Marlowe contract on chain is then known, whoever created it. */
  readonly kupo?: string
  /** A Blockfrost project id, and the URL of a self-hosted instance when not Blockfrost's own. */
  readonly blockfrost?: { readonly projectId: string; readonly url?: string }
  /** cardano-submit-api URL to submit through (queries still go to Ogmios/Blockfrost). */
  readonly submitApi?: string
}

/** What the user chose in Settings; kept in a file in the app's data directory. */
export interface DeskSettings {
  readonly network: NetworkName
  /** Empty on the sandbox (it is embedded). */
  readonly node: NodeSettings
  /** An unlocked wallet locks itself after this many minutes without use. */
  readonly autoLockMinutes: number
  /** The Runtime-compatible HTTP API on 127.0.0.1:port for other programs; off by default. */
  readonly localApi: { readonly enabled: boolean; readonly port: number }
  /**
   * On the sandbox: a directory of the Marlowe validators (cardano-cli TextEnvelopes, as `validators fetch`
   * writes them) to run instead of the stand-ins. Each set of scripts has a sandbox and a store of its own.
   */
  readonly sandboxValidators?: string
}

/** The local API server as it runs now. */
export interface LocalApiState {
  readonly listening: boolean
  /** The base URL (without the token) while listening. */
  readonly url?: string
  /** The token other programs send as `Authorization: Bearer <token>`. */
  readonly token?: string
  /** Why it is not listening although enabled (for example, the port is taken), as a sentence. */
  readonly problem?: string
}

export interface SettingsState {
  readonly settings: DeskSettings
  readonly localApi: LocalApiState
  /** Set when the network and node cannot be changed here, with the reason (`serve --ui` fixes them by flags). */
  readonly networkFixed?: string
  /** Set when the local API cannot be switched here, with the reason. */
  readonly localApiFixed?: string
  /** A problem with the settings file (unreadable, so defaults are in use), as a sentence. */
  readonly warning?: string
}

/**
 * A connection test that passed. It says only that each endpoint answered as what it should be and which network
 * the node serves, never what a peer answered: the call takes any URL, so it must not read other services.
 */
export interface ConnectionReport {
  readonly network: NetworkName
  /** What was checked, one sentence each ("Ogmios at … answers and serves preprod."). */
  readonly checks: readonly string[]
}

/**
 * A long call in flight, as `app.progress` reports it (the renderer polls it while a call is pending: neither
 * IPC nor HTTP pushes). Finished calls are not listed.
 */
export interface ProgressReport {
  readonly id: string
  readonly call: DeskCall
  /** What it is doing now, as a short fixed sentence ("Building the transaction", "Submitting to the node"). */
  readonly stage: string
  /** Epoch ms. */
  readonly startedAt: bigint
  /** 1-based: the stage's place among `steps`, when their number is known. */
  readonly step: number
  readonly steps?: number
}

export type HardwareVendor = 'ledger' | 'trezor'

/** One line a hardware wallet shows: a label and a text or an amount. */
export type DeviceStepLine =
  { readonly label: string; readonly text: string } | { readonly label: string; readonly lovelace: bigint }

/** One thing the device asks the user to confirm, in order. */
export interface DeviceStep {
  readonly title: string
  readonly lines: readonly DeviceStepLine[]
}

/** What the wallet's device will show for a transaction, before anything is sent to it. */
export interface DeviceSteps {
  readonly vendor: HardwareVendor
  readonly steps: readonly DeviceStep[]
  /** Key hashes the transaction also needs that the device's account does not hold. */
  readonly missing: readonly string[]
}

/** Every call: its name, request and response. */
export interface DeskApi {
  'app.status': { request: Record<string, never>; response: AppStatus }
  /** The long calls in flight and their current stage. */
  'app.progress': { request: Record<string, never>; response: readonly ProgressReport[] }

  'wallets.list': { request: Record<string, never>; response: readonly WalletSummary[] }
  'wallets.create': {
    request: { name: string; password: string; words?: 12 | 15 | 24 }
    response: { wallet: WalletSummary; mnemonic: readonly string[] }
  }
  'wallets.restore': { request: { name: string; password: string; mnemonic: string }; response: WalletSummary }
  'wallets.watch': { request: { name: string; accountKey: string }; response: WalletSummary }
  /** A hardware wallet: its account public key is read from the device once, here. */
  'wallets.addHardware': {
    request: { name: string; vendor: HardwareVendor; accountIndex: number }
    response: WalletSummary
  }
  'wallets.unlock': { request: { walletId: string; password: string }; response: WalletSummary }
  'wallets.lock': { request: { walletId: string }; response: WalletSummary }
  'wallets.balance': { request: { walletId: string }; response: WalletBalance }
  'wallets.rename': { request: { walletId: string; name: string }; response: WalletSummary }
  /** Deletes the wallet's file from this computer; `confirmName` must repeat its name exactly. */
  'wallets.remove': { request: { walletId: string; confirmName: string }; response: { walletId: string } }
  'wallets.changePassword': {
    request: { walletId: string; oldPassword: string; newPassword: string }
    response: WalletSummary
  }
  /** The account public key, for a watch-only copy elsewhere; never a private key. Not for a signing-key wallet. */
  'wallets.exportPublic': { request: { walletId: string }; response: PublicKeyExport }
  /**
   * The wallet's transactions known here (its builds, unsigned ones too but not discarded or superseded ones, and
   * others' that pay it), newest first, `limit` from `offset`.
   */
  'wallets.activity': { request: { walletId: string; offset: number; limit: number }; response: WalletActivityPage }

  /** Sandbox only: test ada from the faucet; move the ledger clock forward to reach deadlines. */
  'sandbox.fund': { request: { walletId: string; ada: bigint }; response: { txId: string } }
  'sandbox.advance': { request: { toTime: bigint }; response: AppStatus }

  /**
   * Every contract the engine knows (built here or found on chain), newest first; for a wallet, only those in
   * which it is a party (one of its addresses, or a role token it holds) and its own unsigned creations, with
   * what each waits for from it and its parties there. With `limit`, one page of at most that many, after the
   * contract `after` (the last one of the previous page); a page shorter than `limit` is the last.
   */
  'contracts.list': {
    request: { walletId?: string; after?: string; limit?: number }
    response: readonly ContractListItem[]
  }
  /** The contract, and the wallet's parties in it when given. */
  'contracts.get': { request: { contractId: string; walletId?: string }; response: ContractDetail }
  /** What the contract accepts now, for the wallet's parties when given. */
  'contracts.next': { request: { contractId: string; walletId?: string }; response: NextSteps }
  'contracts.create': { request: CreateContractRequest; response: PreparedTx }
  'contracts.apply': { request: ApplyInputsRequest; response: PreparedTx }

  /** Available payouts the wallet holds the role tokens for. */
  'payouts.list': { request: { walletId: string }; response: readonly PayoutInfo[] }
  'payouts.withdraw': { request: WithdrawRequest; response: PreparedTx }
  /** Builds the burn of every role token the wallet holds of closed contracts (none of an open one's policy). */
  'roles.burnClosed': { request: { walletId: string }; response: PreparedTx }

  'tx.review': { request: { txId: string }; response: TxReview }
  /** Signs a stored build with the wallet (unlocking it with the password if locked) and submits it. */
  'tx.signAndSubmit': {
    request: { txId: string; walletId: string; password?: string }
    response: { txId: string; status: TxStatusName }
  }
  /** A build's status; for a transaction another Desk built (imported here), the chain's, once the chain has it. */
  'tx.status': { request: { txId: string }; response: { txId: string; status: TxStatusName } }
  /** What a hardware wallet will show for a stored build, step by step; refused before the device if it cannot sign it. */
  'tx.deviceSteps': { request: { txId: string; walletId: string }; response: DeviceSteps }
  /** Signs a reviewed build on the hardware wallet (its witnesses verified and spliced here) and submits it. */
  'tx.signWithDevice': {
    request: { txId: string; walletId: string }
    response: { txId: string; status: TxStatusName }
  }
  /** Offline: what a hardware wallet will show for an imported tx or bundle file, as `tx.deviceSteps` for a build. */
  'tx.offlineDeviceSteps': { request: { text: string; walletId: string }; response: DeviceSteps }
  /** Offline: an imported, reviewed file signed on the hardware wallet into a witness file (verified here). */
  'tx.signOfflineWithDevice': { request: { text: string; walletId: string }; response: ExportedFile }
  /** A stored build as a Keystone sign request for a watch-only or hardware wallet's account (its keys' paths). */
  'tx.keystoneRequest': {
    request: { txId: string; walletId: string; masterFingerprint: string }
    response: KeystoneRequestShown
  }
  /** A reviewed build signed by a Keystone: its scanned signature must answer the request and verify; then submitted. */
  'tx.signWithKeystone': {
    request: { txId: string; walletId: string; requestId: string; signature: string }
    response: { txId: string; status: TxStatusName }
  }
  /** Offline: the unsigned tx (TextEnvelope) or a review bundle (tx + resolved inputs) as a file. */
  'tx.exportUnsigned': { request: { txId: string }; response: ExportedFile }
  'tx.exportBundle': { request: { txId: string }; response: ExportedFile }
  /** Offline: review a tx or bundle file; sign it into a witness file without any network. */
  'tx.import': { request: { text: string }; response: ImportedTx }
  'tx.signOffline': { request: { text: string; walletId: string; password?: string }; response: ExportedFile }
  /** Merges a witness file into a stored build and submits it. */
  'tx.submitWitness': { request: { txId: string; text: string }; response: { txId: string; status: TxStatusName } }
  /** A review bundle or witness as animated QR frames; each scanned frame, fed to the scan `scanId` names. */
  'qr.encode': { request: QrPayload; response: QrSequence }
  'qr.scan': { request: { scanId: string; part: string }; response: QrScanState }
  'qr.scanKeystone': { request: { scanId: string; part: string }; response: KeystoneScanState }
  /** An unsigned build, reviewed again against the chain as it is now, to sign it later than it was built. */
  'tx.resume': { request: { txId: string }; response: PreparedTx }
  /** Gives up an unsigned build: its inputs are free again and it can no longer be submitted. Repeating is harmless. */
  'tx.discard': { request: { txId: string }; response: { txId: string } }

  'settings.get': { request: Record<string, never>; response: SettingsState }
  /** Validates and saves; a new network or node re-opens the engine on it (each network keeps its own builds). */
  'settings.update': { request: DeskSettings; response: SettingsState }
  /** Connects to the given node and reports its tip and network, changing nothing. */
  'settings.testConnection': { request: { network: NetworkName; node: NodeSettings }; response: ConnectionReport }
}

export type DeskCall = keyof DeskApi
export type DeskRequest<C extends DeskCall> = DeskApi[C]['request']
export type DeskResponse<C extends DeskCall> = DeskApi[C]['response']

/** An error as the renderer sees it: a sentence for the user, a code, and details on demand. */
export interface DeskErrorBody {
  readonly message: string
  readonly code: string
  readonly details?: JsonObject
}

/** The transport both implementations provide: wire text in, wire text out (see ./wire.ts). */
export interface DeskTransport {
  call(name: DeskCall, requestWire: string): Promise<string>
}

/** The one IPC channel the preload invokes and main handles: `(name, requestWire) → DeskResult wire text`. */
export const DESK_IPC_CHANNEL = 'marlowe-desk:call'

/** The calls, listed at run time (preload and main check names against it). */
export const DESK_CALLS: readonly DeskCall[] = [
  'app.status',
  'app.progress',
  'wallets.list',
  'wallets.create',
  'wallets.restore',
  'wallets.watch',
  'wallets.addHardware',
  'wallets.unlock',
  'wallets.lock',
  'wallets.balance',
  'wallets.rename',
  'wallets.remove',
  'wallets.changePassword',
  'wallets.exportPublic',
  'wallets.activity',
  'sandbox.fund',
  'sandbox.advance',
  'contracts.list',
  'contracts.get',
  'contracts.next',
  'contracts.create',
  'contracts.apply',
  'payouts.list',
  'payouts.withdraw',
  'roles.burnClosed',
  'tx.review',
  'tx.signAndSubmit',
  'tx.status',
  'tx.deviceSteps',
  'tx.signWithDevice',
  'tx.offlineDeviceSteps',
  'tx.signOfflineWithDevice',
  'tx.keystoneRequest',
  'tx.signWithKeystone',
  'tx.exportUnsigned',
  'tx.exportBundle',
  'tx.import',
  'tx.signOffline',
  'tx.submitWitness',
  'qr.encode',
  'qr.scan',
  'qr.scanKeystone',
  'tx.resume',
  'tx.discard',
  'settings.get',
  'settings.update',
  'settings.testConnection'
]

/** What the transport's answer decodes to. */
export type DeskResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: DeskErrorBody }

export class DeskError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: JsonObject
  ) {
    super(message)
    this.name = 'DeskError'
  }
}

export type DeskClient = { readonly [C in DeskCall]: (request: DeskRequest<C>) => Promise<DeskResponse<C>> }

/** The typed client over any transport; a failed call rejects with a `DeskError`. */
export function createDeskClient(
  transport: DeskTransport,
  codec: { encode(value: unknown): string; decode(text: string): unknown }
): DeskClient {
  const client: Partial<Record<DeskCall, (request: unknown) => Promise<unknown>>> = {}
  for (const name of DESK_CALLS) {
    client[name] = async (request: unknown) => {
      const result = codec.decode(await transport.call(name, codec.encode(request))) as DeskResult<unknown>
      if (result.ok) return result.value
      throw new DeskError(result.error.code, result.error.message, result.error.details)
    }
  }
  return Object.freeze(client) as DeskClient
}
