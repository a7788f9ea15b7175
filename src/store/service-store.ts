/**
 * The service's records in SQLite: every transaction it built (kept from the build until it is confirmed, so
 * an unsigned tx survives a restart), the contracts those transactions open and move, and the payouts they
 * create. Rows are plain data; `details` is lossless JSON text the engine writes and reads.
 */
import type { Db } from './database'

export type TxKind = 'create' | 'apply' | 'withdraw'
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
  readonly block?: BlockRow
  readonly details: string
  readonly origin: TxOrigin
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

/** What a confirmed transaction does to the stored contracts and payouts. */
export interface ConfirmEffects {
  /** The contract moves to this transaction, now at `utxo` (`null`: closed). */
  readonly head?: { readonly contractId: string; readonly utxo: string | null }
  readonly newPayouts?: readonly Omit<PayoutRow, 'withdrawalId'>[]
  readonly withdrawn?: readonly string[]
}

interface RawTx {
  tx_id: string
  kind: TxKind
  contract_id: string | null
  era: string
  unsigned_tx: Buffer
  signed_tx: Buffer | null
  status: TxStatusName
  reservation_key: string
  created_at: number
  submitted_at: number | null
  block_slot: bigint | null
  block_no: bigint | null
  block_hash: string | null
  details: string
  origin: TxOrigin
}

interface RawPayout {
  payout_id: string
  contract_id: string
  tx_id: string
  roles_currency: string
  role: string
  assets: string
  withdrawal_id: string | null
}

interface RawContract {
  contract_id: string
  create_tx_id: string
  roles_currency: string
  head_tx_id: string | null
  utxo: string | null
}

const bytes = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength)

function txFromRaw(r: RawTx): TxRow {
  return {
    txId: r.tx_id,
    kind: r.kind,
    ...(r.contract_id === null ? {} : { contractId: r.contract_id }),
    era: r.era,
    unsignedTx: bytes(r.unsigned_tx),
    ...(r.signed_tx === null ? {} : { signedTx: bytes(r.signed_tx) }),
    status: r.status,
    reservationKey: r.reservation_key,
    createdAt: Number(r.created_at),
    ...(r.submitted_at === null ? {} : { submittedAt: Number(r.submitted_at) }),
    ...(r.block_hash === null || r.block_slot === null || r.block_no === null
      ? {}
      : { block: { slot: BigInt(r.block_slot), blockNo: BigInt(r.block_no), blockHash: r.block_hash } }),
    details: r.details,
    origin: r.origin
  }
}

function payoutFromRaw(r: RawPayout): PayoutRow {
  return {
    payoutId: r.payout_id,
    contractId: r.contract_id,
    txId: r.tx_id,
    rolesCurrency: r.roles_currency,
    role: r.role,
    assets: r.assets,
    ...(r.withdrawal_id === null ? {} : { withdrawalId: r.withdrawal_id })
  }
}

function contractFromRaw(r: RawContract): ContractRow {
  return {
    contractId: r.contract_id,
    createTxId: r.create_tx_id,
    rolesCurrency: r.roles_currency,
    ...(r.head_tx_id === null ? {} : { headTxId: r.head_tx_id }),
    ...(r.utxo === null ? {} : { utxo: r.utxo })
  }
}

export class ServiceStore {
  private readonly statements
  private writes = 0

  /** Changes with every write through this store: what was read at one version holds until it changes. */
  get version(): number {
    return this.writes
  }

  constructor(private readonly db: Db) {
    const txs = (sql: string) => db.prepare(sql).safeIntegers(true)
    this.statements = {
      insertTx: db.prepare(
        `INSERT INTO txs (tx_id, kind, contract_id, era, unsigned_tx, status, reservation_key, created_at, details)
         VALUES (@txId, @kind, @contractId, @era, @unsignedTx, 'unsigned', @reservationKey, @createdAt, @details)
         ON CONFLICT (tx_id) DO UPDATE SET reservation_key = excluded.reservation_key WHERE status = 'unsigned'`
      ),
      insertContract: db.prepare(
        'INSERT OR IGNORE INTO contracts (contract_id, create_tx_id, roles_currency) VALUES (?, ?, ?)'
      ),
      tx: txs('SELECT * FROM txs WHERE tx_id = ?'),
      txsByStatus: txs('SELECT * FROM txs WHERE status = ? ORDER BY created_at, tx_id'),
      attempted: txs(
        "SELECT * FROM txs WHERE status = 'unsigned' AND signed_tx IS NOT NULL ORDER BY created_at, tx_id"
      ),
      txsOfContract: txs('SELECT * FROM txs WHERE contract_id = ? ORDER BY created_at, tx_id'),
      confirmedTxs: txs("SELECT * FROM txs WHERE status = 'confirmed' AND kind = ? ORDER BY block_no DESC, tx_id DESC"),
      recordAttempt: db.prepare("UPDATE txs SET signed_tx = ? WHERE tx_id = ? AND status = 'unsigned'"),
      clearAttempt: db.prepare("UPDATE txs SET signed_tx = NULL WHERE tx_id = ? AND status = 'unsigned'"),
      markSubmitted: db.prepare(
        "UPDATE txs SET status = 'submitted', signed_tx = ?, submitted_at = ? WHERE tx_id = ? AND status = 'unsigned'"
      ),
      markUnsigned: db.prepare(
        "UPDATE txs SET status = 'unsigned', submitted_at = NULL WHERE tx_id = ? AND status = 'submitted'"
      ),
      markConfirmed: db.prepare(
        `UPDATE txs SET status = 'confirmed', block_slot = ?, block_no = ?, block_hash = ?,
                chain_seq = (SELECT COALESCE(MAX(chain_seq), 0) + 1 FROM txs)
          WHERE tx_id = ? AND status <> 'confirmed'`
      ),
      insertChainTx: db.prepare(
        `INSERT INTO txs (tx_id, kind, contract_id, era, unsigned_tx, status, reservation_key, created_at, details,
                          block_slot, block_no, block_hash, origin, chain_seq)
         VALUES (@txId, @kind, @contractId, @era, @tx, 'confirmed', '', @createdAt, @details,
                 @slot, @blockNo, @blockHash, 'chain', (SELECT COALESCE(MAX(chain_seq), 0) + 1 FROM txs))
         ON CONFLICT (tx_id) DO NOTHING`
      ),
      confirmedAfter: txs(
        "SELECT * FROM txs WHERE status = 'confirmed' AND block_no > ? ORDER BY block_no DESC, chain_seq DESC"
      ),
      unconfirm: db.prepare(
        `UPDATE txs SET status = 'submitted', block_slot = NULL, block_no = NULL, block_hash = NULL, chain_seq = NULL,
                submitted_at = COALESCE(submitted_at, ?)
          WHERE tx_id = ?`
      ),
      deleteTx: db.prepare('DELETE FROM txs WHERE tx_id = ?'),
      deleteContract: db.prepare('DELETE FROM contracts WHERE contract_id = ?'),
      deletePayoutsOf: db.prepare('DELETE FROM payouts WHERE tx_id = ?'),
      unwithdraw: db.prepare('UPDATE payouts SET withdrawal_id = NULL WHERE withdrawal_id = ?'),
      newestConfirmedOf: txs(
        `SELECT * FROM txs WHERE contract_id = ? AND status = 'confirmed'
          ORDER BY block_no DESC, chain_seq DESC LIMIT 1`
      ),
      cursor: db.prepare('SELECT slot, block_no, block_hash FROM chain_cursor WHERE id = 1').safeIntegers(true),
      blocksBelow: db
        .prepare(
          `SELECT DISTINCT block_slot AS slot, block_no, block_hash FROM txs
            WHERE status = 'confirmed' AND block_no < ? ORDER BY block_no DESC LIMIT ?`
        )
        .safeIntegers(true),
      setCursor: db.prepare(
        `INSERT INTO chain_cursor (id, slot, block_no, block_hash) VALUES (1, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET slot = excluded.slot, block_no = excluded.block_no,
                                        block_hash = excluded.block_hash`
      ),
      clearCursor: db.prepare('DELETE FROM chain_cursor'),
      contract: db.prepare('SELECT * FROM contracts WHERE contract_id = ?'),
      contractAtUtxo: db.prepare('SELECT * FROM contracts WHERE utxo = ?'),
      contracts: db.prepare('SELECT * FROM contracts'),
      setHead: db.prepare('UPDATE contracts SET head_tx_id = ?, utxo = ? WHERE contract_id = ?'),
      insertPayout: db.prepare(
        `INSERT OR IGNORE INTO payouts (payout_id, contract_id, tx_id, roles_currency, role, assets)
         VALUES (@payoutId, @contractId, @txId, @rolesCurrency, @role, @assets)`
      ),
      payout: db.prepare('SELECT * FROM payouts WHERE payout_id = ?'),
      payouts: db.prepare('SELECT * FROM payouts ORDER BY payout_id'),
      payoutsOfContract: db.prepare('SELECT * FROM payouts WHERE contract_id = ? ORDER BY payout_id'),
      payoutsOfWithdrawal: db.prepare('SELECT * FROM payouts WHERE withdrawal_id = ? ORDER BY payout_id'),
      withdrawPayout: db.prepare('UPDATE payouts SET withdrawal_id = ? WHERE payout_id = ?')
    }
  }

  /**
   * Records a built transaction (and, for a create, its contract) as unsigned. The same inputs and request
   * build the same transaction again once an abandoned build's reservation has lapsed: that is the one
   * already stored, which keeps the new reservation.
   */
  insertBuilt(row: {
    readonly txId: string
    readonly kind: TxKind
    readonly contractId?: string
    readonly rolesCurrency?: string
    readonly era: string
    readonly unsignedTx: Uint8Array
    readonly reservationKey: string
    readonly createdAt: number
    readonly details: string
  }): void {
    const s = this.statements
    this.writes += 1
    this.db.transaction(() => {
      s.insertTx.run({ ...row, contractId: row.contractId ?? null })
      if (row.kind === 'create' && row.contractId !== undefined) {
        s.insertContract.run(row.contractId, row.txId, row.rolesCurrency ?? '')
      }
    })()
  }

  tx(txId: string): TxRow | undefined {
    const raw = this.statements.tx.get(txId) as RawTx | undefined
    return raw === undefined ? undefined : txFromRaw(raw)
  }

  txsWithStatus(status: TxStatusName): TxRow[] {
    return (this.statements.txsByStatus.all(status) as RawTx[]).map(txFromRaw)
  }

  /** Unsigned transactions whose submit was started but never recorded as accepted (a crash, or a refusal). */
  attemptedSubmits(): TxRow[] {
    return (this.statements.attempted.all() as RawTx[]).map(txFromRaw)
  }

  txsOfContract(contractId: string): TxRow[] {
    return (this.statements.txsOfContract.all(contractId) as RawTx[]).map(txFromRaw)
  }

  /** Confirmed transactions of one kind, newest first. */
  confirmedTxs(kind: TxKind): TxRow[] {
    return (this.statements.confirmedTxs.all(kind) as RawTx[]).map(txFromRaw)
  }

  /** Written before the node sees the tx, so that after a crash the follower can ask the node about it. */
  recordSubmitAttempt(txId: string, signedTx: Uint8Array): void {
    this.writes += 1
    this.statements.recordAttempt.run(signedTx, txId)
  }

  /** The node refused the attempt outright: forget it. */
  clearSubmitAttempt(txId: string): void {
    this.writes += 1
    this.statements.clearAttempt.run(txId)
  }

  /** False when the tx was no longer unsigned (someone else submitted it first). */
  markSubmitted(txId: string, signedTx: Uint8Array, at: number): boolean {
    this.writes += 1
    return this.statements.markSubmitted.run(signedTx, at, txId).changes === 1
  }

  /** The node dropped a submitted tx: it may be submitted again. */
  markUnsigned(txId: string): void {
    this.writes += 1
    this.statements.markUnsigned.run(txId)
  }

  /**
   * Marks a tx confirmed and applies what it does, atomically: the contract's head moves to it, the payouts
   * it creates appear, and the payouts a withdrawal spends are marked withdrawn.
   */
  confirm(txId: string, block: BlockRow, effects: ConfirmEffects): void {
    const s = this.statements
    this.writes += 1
    this.db.transaction(() => {
      if (s.markConfirmed.run(block.slot, block.blockNo, block.blockHash, txId).changes === 0) return
      this.applyEffects(txId, effects)
    })()
  }

  private applyEffects(txId: string, effects: ConfirmEffects): void {
    const s = this.statements
    if (effects.head !== undefined) s.setHead.run(txId, effects.head.utxo, effects.head.contractId)
    for (const p of effects.newPayouts ?? []) s.insertPayout.run(p)
    for (const id of effects.withdrawn ?? []) s.withdrawPayout.run(txId, id)
  }

  /**
   * Records a confirmed transaction someone else built, as read from the chain, with what it does: a creation
   * also opens its contract. A transaction already stored is left as it is.
   */
  insertChainTx(
    row: {
      readonly txId: string
      readonly kind: TxKind
      readonly contractId?: string
      readonly rolesCurrency?: string
      readonly tx: Uint8Array
      readonly block: BlockRow
      readonly createdAt: number
      readonly details: string
    },
    effects: ConfirmEffects
  ): void {
    const s = this.statements
    this.writes += 1
    this.db.transaction(() => {
      const inserted = s.insertChainTx.run({
        txId: row.txId,
        kind: row.kind,
        contractId: row.contractId ?? null,
        era: 'Conway',
        tx: row.tx,
        createdAt: row.createdAt,
        details: row.details,
        slot: row.block.slot,
        blockNo: row.block.blockNo,
        blockHash: row.block.blockHash
      })
      if (inserted.changes === 0) return
      if (row.kind === 'create' && row.contractId !== undefined) {
        s.insertContract.run(row.contractId, row.txId, row.rolesCurrency ?? '')
      }
      this.applyEffects(row.txId, effects)
    })()
  }

  /** The contract whose current Marlowe UTxO is `ref` (`txid#ix`). */
  contractAtUtxo(ref: string): ContractRow | undefined {
    const raw = this.statements.contractAtUtxo.get(ref) as RawContract | undefined
    return raw === undefined ? undefined : contractFromRaw(raw)
  }

  /** The last block the chain index read. */
  chainCursor(): BlockRow | undefined {
    const raw = this.statements.cursor.get() as { slot: bigint; block_no: bigint; block_hash: string } | undefined
    return raw === undefined ? undefined : { slot: raw.slot, blockNo: raw.block_no, blockHash: raw.block_hash }
  }

  /** Blocks holding confirmed transactions below `blockNo`, newest first: the points a rollback may return to. */
  confirmedBlocksBelow(blockNo: bigint, limit: number): BlockRow[] {
    const rows = this.statements.blocksBelow.all(blockNo, limit) as {
      slot: bigint
      block_no: bigint
      block_hash: string
    }[]
    return rows.map((r) => ({ slot: r.slot, blockNo: r.block_no, blockHash: r.block_hash }))
  }

  setChainCursor(point: BlockRow): void {
    this.writes += 1
    this.statements.setCursor.run(point.slot, point.blockNo, point.blockHash)
  }

  /**
   * The chain rolled back to `point` (absent: to its start): every confirmation in a later block is undone,
   * newest first. Transactions read from the chain are forgotten with what they did; our own builds go back to
   * submitted (the follower asks the node about them again). Each contract that moved is put back on its newest
   * remaining confirmed transaction, whose UTxO `utxoOf` names. Returns the undone transactions' ids.
   */
  rollBack(point: BlockRow | undefined, at: number, utxoOf: (head: TxRow) => string | null): string[] {
    const s = this.statements
    this.writes += 1
    return this.db.transaction(() => {
      const undone = (s.confirmedAfter.all(point?.blockNo ?? -1n) as RawTx[]).map(txFromRaw)
      const moved = new Set(undone.flatMap((row) => (row.contractId === undefined ? [] : [row.contractId])))
      // Heads first: a head names its transaction, which may be about to go.
      for (const contractId of moved) s.setHead.run(null, null, contractId)
      for (const row of undone) {
        s.unwithdraw.run(row.txId)
        s.deletePayoutsOf.run(row.txId)
        if (row.origin === 'built') {
          s.unconfirm.run(at, row.txId)
          continue
        }
        if (row.kind === 'create' && row.contractId !== undefined) s.deleteContract.run(row.contractId)
        s.deleteTx.run(row.txId)
      }
      for (const contractId of moved) {
        const raw = s.newestConfirmedOf.get(contractId) as RawTx | undefined
        if (raw === undefined) continue
        const head = txFromRaw(raw)
        s.setHead.run(head.txId, utxoOf(head), contractId)
      }
      if (point === undefined) s.clearCursor.run()
      else s.setCursor.run(point.slot, point.blockNo, point.blockHash)
      return undone.map((r) => r.txId)
    })()
  }

  contract(contractId: string): ContractRow | undefined {
    const raw = this.statements.contract.get(contractId) as RawContract | undefined
    return raw === undefined ? undefined : contractFromRaw(raw)
  }

  contracts(): ContractRow[] {
    return (this.statements.contracts.all() as RawContract[]).map(contractFromRaw)
  }

  payout(payoutId: string): PayoutRow | undefined {
    const raw = this.statements.payout.get(payoutId) as RawPayout | undefined
    return raw === undefined ? undefined : payoutFromRaw(raw)
  }

  payouts(): PayoutRow[] {
    return (this.statements.payouts.all() as RawPayout[]).map(payoutFromRaw)
  }

  payoutsOfContract(contractId: string): PayoutRow[] {
    return (this.statements.payoutsOfContract.all(contractId) as RawPayout[]).map(payoutFromRaw)
  }

  payoutsOfWithdrawal(withdrawalId: string): PayoutRow[] {
    return (this.statements.payoutsOfWithdrawal.all(withdrawalId) as RawPayout[]).map(payoutFromRaw)
  }
}
