/**
 * The service's records, whichever database keeps them (SQLite by default, PostgreSQL for several processes):
 * every transaction it built (kept from the build until it is confirmed, so an unsigned tx survives a restart),
 * the contracts those transactions open and move, and the payouts they create. Rows are plain data; `details` is
 * lossless JSON text the engine writes and reads. Every operation is asynchronous, so that a store over the
 * network is a drop-in for the file.
 */

export type TxKind = 'create' | 'apply' | 'withdraw' | 'burn'
export type TxStatusName = 'unsigned' | 'submitted' | 'confirmed'
/** `built`: by this service; `chain`: read from the chain, built by someone else. */
export type TxOrigin = 'built' | 'chain'

export interface BlockRow {
  readonly slot: bigint
  readonly blockNo: bigint
  readonly blockHash: string
}

export interface TxRow {
  readonly txId: string
  readonly kind: TxKind
  /** `txid#ix`; absent for withdrawals. */
  readonly contractId?: string
  readonly era: string
  readonly unsignedTx: Uint8Array
  /** The last signed form handed to the node, kept so an interrupted submit can be recognised on restart. */
  readonly signedTx?: Uint8Array
  readonly status: TxStatusName
  readonly reservationKey: string
  /** Epoch ms. */
  readonly createdAt: number
  readonly submittedAt?: number
  /** Epoch ms when a newer build took this unsigned build's inputs: it can no longer be submitted. */
  readonly supersededAt?: number
  /** Epoch ms when the user discarded this unsigned build: it can no longer be submitted. */
  readonly discardedAt?: number
  readonly block?: BlockRow
  readonly details: string
  readonly origin: TxOrigin
}

/** A live reservation on some of the given outputs, with the build that holds it. */
export interface HeldBy {
  readonly txId: string
  readonly status: TxStatusName
  readonly reservationKey: string
  readonly superseded: boolean
  /** The outputs (`txid#ix`) among those asked about that it spends. */
  readonly refs: readonly string[]
}

export interface PayoutRow {
  readonly payoutId: string
  readonly contractId: string
  readonly txId: string
  readonly rolesCurrency: string
  readonly role: string
  /** Lossless JSON of the payout's value. */
  readonly assets: string
  readonly withdrawalId?: string
}

export interface ContractRow {
  readonly contractId: string
  readonly createTxId: string
  readonly rolesCurrency: string
  /** The newest confirmed transaction of the contract; absent until its creation is confirmed. */
  readonly headTxId?: string
  /** The contract's current Marlowe UTxO (`txid#ix`); absent before its creation is confirmed and once closed. */
  readonly utxo?: string
}

/** A party as the party filters find it: an address, or a role of a roles currency. */
export const addressPartyKey = (address: string): string => `address:${address}`
export const rolePartyKey = (rolesCurrency: string, role: string): string => `role:${rolesCurrency}:${role}`

/** Which contracts a list wants; each filter matches any of its values, and an empty or absent one is no filter. */
export interface ContractQuery {
  readonly roleCurrencies?: readonly string[]
  readonly tags?: readonly string[]
  /** Party keys (`addressPartyKey`, `rolePartyKey`). */
  readonly parties?: readonly string[]
}

/** A page of a list, newest first (`desc`) or oldest first, from an item (its id, included) or the first. */
export interface PageRequest {
  readonly start?: string
  readonly order: 'asc' | 'desc'
  readonly offset: number
  readonly limit: number
}

/** What a creation or application keeps beside its record, so that lists and lookups need not read the record. */
export interface RecordColumns {
  /** Lossless JSON objects (Runtime's tags and metadata). */
  readonly tags?: string
  readonly metadata?: string
  /** An application's Marlowe input UTxO, and the UTxO it continues at (absent: it closes the contract). */
  readonly marloweInput?: string
  readonly marloweOutput?: string
}

/** A confirmed application as a list of the contract's transactions shows it: no datum, no transaction bytes. */
export interface TxHeaderRow {
  readonly txId: string
  readonly contractId: string
  readonly status: TxStatusName
  readonly block?: BlockRow
  /** Absent on a row kept without them (a record SQLite could not read when schema 4 added them, or a row written by hand): `details` then holds its record. */
  readonly columns?: Required<Pick<RecordColumns, 'tags' | 'metadata'>> & Pick<RecordColumns, 'marloweOutput'>
  readonly details?: string
}

/** A contract as its list shows it: its creation's status, block and labels, read from columns (no record). */
export interface ContractHeaderRow {
  readonly contractId: string
  readonly rolesCurrency: string
  readonly status: TxStatusName
  readonly block?: BlockRow
  /** Absent on a creation kept without them (see TxHeaderRow.columns): `details` then holds its record. */
  readonly columns?: Required<Pick<RecordColumns, 'tags' | 'metadata'>>
  readonly details?: string
}

/** Which payouts a list wants; each filter matches any of its values, and an empty or absent one is no filter. */
export interface PayoutQuery {
  readonly contractIds?: readonly string[]
  readonly roleTokens?: readonly { readonly rolesCurrency: string; readonly role: string }[]
  /** true: only withdrawn ones; false: only available ones. */
  readonly withdrawn?: boolean
}

/** What a confirmed transaction does to the stored contracts and payouts. */
export interface ConfirmEffects {
  /** The contract moves to this transaction, now at `utxo` (`null`: closed). */
  readonly head?: { readonly contractId: string; readonly utxo: string | null }
  readonly newPayouts?: readonly Omit<PayoutRow, 'withdrawalId'>[]
  readonly withdrawn?: readonly string[]
}

/** A built transaction as it is first recorded (unsigned), with its contract for a create. */
export interface BuiltTxRow {
  readonly txId: string
  readonly kind: TxKind
  readonly contractId?: string
  readonly rolesCurrency?: string
  readonly era: string
  readonly unsignedTx: Uint8Array
  readonly reservationKey: string
  readonly createdAt: number
  readonly details: string
  readonly columns: RecordColumns
  /** A create's party keys. */
  readonly parties?: readonly string[]
}

/** A confirmed transaction someone else built, as read from the chain. */
export interface ChainTxRow {
  readonly txId: string
  readonly kind: TxKind
  readonly contractId?: string
  readonly rolesCurrency?: string
  readonly tx: Uint8Array
  readonly block: BlockRow
  readonly createdAt: number
  readonly details: string
  readonly columns: RecordColumns
  /** A create's party keys. */
  readonly parties?: readonly string[]
}

/** A page of rows with how many the whole list holds. */
export interface Counted<R> {
  readonly rows: R[]
  readonly total: number
}

/** What the service asks of its store; each call is its own transaction unless run inside `atomically`. */
export interface StoreOperations {
  /**
   * Records a built transaction (and, for a create, its contract) as unsigned. The same inputs and request
   * build the same transaction again once an abandoned build's reservation has lapsed: that is the one
   * already stored, which keeps the new reservation.
   */
  insertBuilt(row: BuiltTxRow): Promise<void>
  /** Records a contract's parties (for contracts stored before they were kept). */
  setContractParties(contractId: string, parties: readonly string[]): Promise<void>
  /** Contracts whose parties are not recorded yet, at most `limit`. */
  contractsWithoutParties(limit: number): Promise<ContractRow[]>
  tx(txId: string): Promise<TxRow | undefined>
  /** The stored transactions among `txIds`, in no order: one read for a page's rows, not one per row. */
  txs(txIds: readonly string[]): Promise<TxRow[]>
  txsWithStatus(status: TxStatusName): Promise<TxRow[]>
  /** Unsigned transactions whose submit was started but never recorded as accepted (a crash, or a refusal). */
  attemptedSubmits(): Promise<TxRow[]>
  txsOfContract(contractId: string): Promise<TxRow[]>
  /**
   * Written before the node sees the tx, so that after a crash the follower can ask the node about it. False when
   * the build can no longer be submitted — submitted, superseded or discarded meanwhile (by another process sharing
   * the store, after this one read the build): it must not be sent.
   */
  recordSubmitAttempt(txId: string, signedTx: Uint8Array): Promise<boolean>
  /** The node refused the attempt outright: forget it. */
  clearSubmitAttempt(txId: string): Promise<void>
  /** False when the tx was no longer unsigned (someone else submitted it first). */
  markSubmitted(txId: string, signedTx: Uint8Array, at: number): Promise<boolean>
  /**
   * A newer build took this unsigned build's inputs; false when it was no longer unsigned, or its submit is under
   * way (here or in another process sharing the store: its signed form may be at the node).
   */
  markSuperseded(txId: string, at: number): Promise<boolean>
  /**
   * The user gave up this unsigned build; false when it was no longer unsigned, already discarded, or its submit is
   * under way (here or in another process sharing the store).
   */
  markDiscarded(txId: string, at: number): Promise<boolean>
  /** The builds whose live reservations spend any of `refs` (`txid#ix`), oldest build first. */
  heldBy(refs: readonly string[], now: number): Promise<HeldBy[]>
  /** The node dropped a submitted tx: it may be submitted again. */
  markUnsigned(txId: string): Promise<void>
  /**
   * Marks a tx confirmed and applies what it does, atomically: the contract's head moves to it, the payouts
   * it creates appear, and the payouts a withdrawal spends are marked withdrawn.
   */
  confirm(txId: string, block: BlockRow, effects: ConfirmEffects): Promise<void>
  /**
   * Records a confirmed transaction someone else built, with what it does: a creation also opens its contract.
   * A transaction already stored is left as it is.
   */
  insertChainTx(row: ChainTxRow, effects: ConfirmEffects): Promise<void>
  /** The contract whose current Marlowe UTxO is `ref` (`txid#ix`). */
  contractAtUtxo(ref: string): Promise<ContractRow | undefined>
  /** The last block the chain index read. */
  chainCursor(): Promise<BlockRow | undefined>
  /** Blocks holding confirmed transactions below `blockNo`, newest first: the points a rollback may return to. */
  confirmedBlocksBelow(blockNo: bigint, limit: number): Promise<BlockRow[]>
  setChainCursor(point: BlockRow): Promise<void>
  /**
   * The chain rolled back to `point` (absent: to its start): every confirmation in a later block is undone,
   * newest first. Transactions read from the chain are forgotten with what they did; our own builds go back to
   * submitted (the follower asks the node about them again). Each contract that moved is put back on its newest
   * remaining confirmed transaction, whose UTxO `utxoOf` names.
   */
  rollBack(point: BlockRow | undefined, at: number, utxoOf: (head: TxRow) => string | null): Promise<void>
  contract(contractId: string): Promise<ContractRow | undefined>
  /** The stored contracts among `contractIds`, in no order: one read for a page's rows, not one per row. */
  contracts(contractIds: readonly string[]): Promise<ContractRow[]>
  /**
   * One page of the contracts on chain that match, by creation newest first (or oldest first), as their headers,
   * with how many match in all; undefined when `start` is not one of them. Costs the page, not the number of
   * contracts: the page by index, each header from columns, and the unfiltered count kept as contracts come and go.
   */
  contractPage(query: ContractQuery, page: PageRequest): Promise<Counted<ContractHeaderRow> | undefined>
  /**
   * One page of the stored contracts that match (every one without `query`), confirmed or not (a just-built one
   * too), newest build first (build time, then creation tx id), as their headers; the page starts at the stored
   * contract `page.start`, included when it matches, and is undefined when it is not stored. By the index on the
   * creations' build time: a page costs the same at 100 and at 100,000 contracts when most match.
   */
  storedContractPage(page: PageRequest, query?: ContractQuery): Promise<ContractHeaderRow[] | undefined>
  /**
   * One page of a contract's confirmed applications, newest first (block, then tx id) or oldest first, with how
   * many it has (kept as they are confirmed, not counted); undefined when `start` is not one of them. Reads the
   * header columns only, by index: a page costs the same at 10 and at 100,000 transactions.
   */
  appliedTxPage(contractId: string, page: PageRequest): Promise<Counted<TxHeaderRow> | undefined>
  /**
   * One page of the confirmed withdrawals, newest first (block, then tx id) or oldest first, optionally only those
   * withdrawing a payout of one of `roleCurrencies` (as their records name them), with how many match.
   */
  withdrawalPage(roleCurrencies: readonly string[], page: PageRequest): Promise<Counted<TxRow> | undefined>
  /** Every contract that matches, confirmed or not (a just-built one too), newest build first. */
  contractsWhere(query: ContractQuery): Promise<ContractRow[]>
  /**
   * One page of the payouts that match, newest first as Runtime orders them (the paying transaction's block, its
   * id, the output index) or oldest first, with how many match; undefined when `start` is not one of them.
   */
  payoutPage(query: PayoutQuery, page: PageRequest): Promise<Counted<PayoutRow> | undefined>
  payout(payoutId: string): Promise<PayoutRow | undefined>
  /** The contracts' payouts not withdrawn yet, by payout id, found by index: their withdrawn ones are not read. */
  unclaimedPayoutsOf(contractIds: readonly string[]): Promise<PayoutRow[]>
  /** The payouts a confirmed transaction made. */
  payoutsOfTx(txId: string): Promise<PayoutRow[]>
  /** The confirmed application that spent the Marlowe UTxO `ref` (`txid#ix`), found by index. */
  spenderOf(ref: string): Promise<string | undefined>
  payoutsOfWithdrawal(withdrawalId: string): Promise<PayoutRow[]>
}

export interface ServiceStore extends StoreOperations {
  /**
   * Changes with every write this store can see: what was read at one version holds until it changes. A store
   * other processes write too cannot see their writes, so it answers a new version every time it is asked.
   */
  readonly version: number
  /** Runs `work` in one transaction: all of its writes through `store`, or none; nothing else runs inside it. */
  atomically<T>(work: (store: StoreOperations) => Promise<T>): Promise<T>
}
