/**
 * The service's records in SQLite (the default store): one file, read and written synchronously by the driver,
 * behind the asynchronous `ServiceStore` that every store offers. Calls wait while a transaction of `atomically`
 * holds the connection, so nothing runs inside another caller's transaction.
 */
import type { Statement } from 'better-sqlite3'
import type { Db } from './database'
import type { SqliteGate } from './sqlite-gate'
import {
  CONTRACT_HEADER_COLUMNS,
  columnValues,
  contractFromRaw,
  contractHeaderFromRaw,
  payoutFromRaw,
  txFromRaw,
  txHeaderFromRaw,
  type CountedList,
  type RawContract,
  type RawContractHeader,
  type RawPayout,
  type RawTx,
  type RawTxHeader
} from './sql-rows'
import type {
  BlockRow,
  BuiltTxRow,
  ChainTxRow,
  ConfirmEffects,
  ContractHeaderRow,
  ContractQuery,
  ContractRow,
  HeldBy,
  PageRequest,
  PayoutQuery,
  PayoutRow,
  ServiceStore,
  StoreOperations,
  TxHeaderRow,
  TxRow,
  TxStatusName
} from './service-store'

/** The operations with their answers given at once: what the SQLite driver does. */
type Synchronous<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : never
}

class SqliteServiceRows implements Synchronous<StoreOperations> {
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
        `INSERT INTO txs (tx_id, kind, contract_id, era, unsigned_tx, status, reservation_key, created_at, details,
                          tags, metadata, marlowe_input, marlowe_output)
         VALUES (@txId, @kind, @contractId, @era, @unsignedTx, 'unsigned', @reservationKey, @createdAt, @details,
                 @tags, @metadata, @marloweInput, @marloweOutput)
         ON CONFLICT (tx_id) DO UPDATE SET reservation_key = excluded.reservation_key, superseded_at = NULL,
                                            discarded_at = NULL
           WHERE status = 'unsigned'`
      ),
      markSuperseded: db.prepare(
        "UPDATE txs SET superseded_at = ? WHERE tx_id = ? AND status = 'unsigned' AND signed_tx IS NULL"
      ),
      markDiscarded: db.prepare(
        "UPDATE txs SET discarded_at = ? WHERE tx_id = ? AND status = 'unsigned' AND discarded_at IS NULL AND signed_tx IS NULL"
      ),
      heldBy: db.prepare<
        [number, string],
        { tx_id: string; status: TxStatusName; reservation_key: string; superseded_at: number | null; ref: string }
      >(
        `SELECT t.tx_id, t.status, t.reservation_key, t.superseded_at, r.ref
           FROM reservations v
           JOIN reservation_refs r ON r.key = v.key AND r.mode = 'spend'
           JOIN txs t ON t.reservation_key = v.key
          WHERE v.expires_at > ? AND r.ref IN (SELECT value FROM json_each(?))
          ORDER BY t.created_at, t.tx_id, r.ref`
      ),
      insertContract: db.prepare(
        'INSERT OR IGNORE INTO contracts (contract_id, create_tx_id, roles_currency) VALUES (?, ?, ?)'
      ),
      tx: txs('SELECT * FROM txs WHERE tx_id = ?'),
      txsIn: txs('SELECT * FROM txs WHERE tx_id IN (SELECT value FROM json_each(?))'),
      txsByStatus: txs('SELECT * FROM txs WHERE status = ? ORDER BY created_at, tx_id'),
      attempted: txs(
        "SELECT * FROM txs WHERE status = 'unsigned' AND signed_tx IS NOT NULL ORDER BY created_at, tx_id"
      ),
      txsOfContract: txs('SELECT * FROM txs WHERE contract_id = ? ORDER BY created_at, tx_id'),
      recordAttempt: db.prepare(
        `UPDATE txs SET signed_tx = ?
          WHERE tx_id = ? AND status = 'unsigned' AND superseded_at IS NULL AND discarded_at IS NULL`
      ),
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
                          tags, metadata, marlowe_input, marlowe_output, block_slot, block_no, block_hash, origin,
                          chain_seq)
         VALUES (@txId, @kind, @contractId, @era, @tx, 'confirmed', '', @createdAt, @details,
                 @tags, @metadata, @marloweInput, @marloweOutput, @slot, @blockNo, @blockHash, 'chain',
                 (SELECT COALESCE(MAX(chain_seq), 0) + 1 FROM txs))
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
      contractsIn: db.prepare('SELECT * FROM contracts WHERE contract_id IN (SELECT value FROM json_each(?))'),
      contractAtUtxo: db.prepare('SELECT * FROM contracts WHERE utxo = ?'),
      insertParty: db.prepare('INSERT OR IGNORE INTO contract_parties (party, contract_id) VALUES (?, ?)'),
      partiesKnown: db.prepare('UPDATE contracts SET parties_known = 1 WHERE contract_id = ?'),
      partiesUnknown: db.prepare('SELECT * FROM contracts WHERE parties_known = 0 LIMIT ?'),
      setHead: db.prepare('UPDATE contracts SET head_tx_id = ?, utxo = ? WHERE contract_id = ?'),
      countApplied: db.prepare('UPDATE contracts SET applied = applied + ? WHERE contract_id = ?'),
      countConfirmed: db.prepare(
        "UPDATE contracts SET applied = applied + 1 WHERE contract_id = (SELECT contract_id FROM txs WHERE tx_id = ? AND kind = 'apply')"
      ),
      applied: db.prepare('SELECT applied FROM contracts WHERE contract_id = ?'),
      listCount: db.prepare<[CountedList], { n: number }>('SELECT n FROM list_counts WHERE list = ?'),
      setCreatedBlock: db.prepare('UPDATE contracts SET created_block_no = ? WHERE create_tx_id = ?'),
      insertPayout: db.prepare(
        `INSERT OR IGNORE INTO payouts (payout_id, contract_id, tx_id, roles_currency, role, assets, block_no,
                                        output_index)
         VALUES (@payoutId, @contractId, @txId, @rolesCurrency, @role, @assets, @blockNo, @outputIndex)`
      ),
      payout: db.prepare('SELECT * FROM payouts WHERE payout_id = ?'),
      unclaimedPayoutsOf: db.prepare(
        `SELECT * FROM payouts
          WHERE contract_id IN (SELECT value FROM json_each(?)) AND withdrawal_id IS NULL ORDER BY payout_id`
      ),
      payoutsOfTx: db.prepare('SELECT * FROM payouts WHERE tx_id = ? ORDER BY payout_id'),
      spenderOf: db.prepare(
        "SELECT tx_id FROM txs WHERE marlowe_input = ? AND kind = 'apply' AND status = 'confirmed' LIMIT 1"
      ),
      payoutsOfWithdrawal: db.prepare('SELECT * FROM payouts WHERE withdrawal_id = ? ORDER BY payout_id'),
      withdrawPayout: db.prepare('UPDATE payouts SET withdrawal_id = ? WHERE payout_id = ?')
    }
  }

  /**
   * Records a built transaction (and, for a create, its contract) as unsigned. The same inputs and request
   * build the same transaction again once an abandoned build's reservation has lapsed: that is the one
   * already stored, which keeps the new reservation.
   */
  insertBuilt(row: BuiltTxRow): void {
    const s = this.statements
    this.writes += 1
    this.db.transaction(() => {
      const { parties, columns, ...tx } = row
      s.insertTx.run({ ...tx, ...columnValues(columns), contractId: row.contractId ?? null })
      if (row.kind === 'create' && row.contractId !== undefined) {
        s.insertContract.run(row.contractId, row.txId, row.rolesCurrency ?? '')
        if (parties !== undefined) this.writeParties(row.contractId, parties)
      }
    })()
  }

  private writeParties(contractId: string, parties: readonly string[]): void {
    for (const party of parties) this.statements.insertParty.run(party, contractId)
    this.statements.partiesKnown.run(contractId)
  }

  /** Records a contract's parties (for contracts stored before they were kept). */
  setContractParties(contractId: string, parties: readonly string[]): void {
    this.writes += 1
    this.db.transaction(() => this.writeParties(contractId, parties))()
  }

  /** Contracts whose parties are not recorded yet, at most `limit`. */
  contractsWithoutParties(limit: number): ContractRow[] {
    return (this.statements.partiesUnknown.all(limit) as RawContract[]).map(contractFromRaw)
  }

  tx(txId: string): TxRow | undefined {
    const raw = this.statements.tx.get(txId) as RawTx | undefined
    return raw === undefined ? undefined : txFromRaw(raw)
  }

  txs(txIds: readonly string[]): TxRow[] {
    return (this.statements.txsIn.all(JSON.stringify(txIds)) as RawTx[]).map(txFromRaw)
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

  /** Written before the node sees the tx; false when it can no longer be submitted. */
  recordSubmitAttempt(txId: string, signedTx: Uint8Array): boolean {
    this.writes += 1
    return this.statements.recordAttempt.run(signedTx, txId).changes === 1
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

  /** A newer build took this unsigned build's inputs; false when it was no longer unsigned or is being submitted. */
  markSuperseded(txId: string, at: number): boolean {
    this.writes += 1
    return this.statements.markSuperseded.run(at, txId).changes === 1
  }

  /** The user gave up this unsigned build; false when it was no longer unsigned, already discarded, or being submitted. */
  markDiscarded(txId: string, at: number): boolean {
    this.writes += 1
    return this.statements.markDiscarded.run(at, txId).changes === 1
  }

  /** The builds whose live reservations spend any of `refs` (`txid#ix`), oldest build first. */
  heldBy(refs: readonly string[], now: number): HeldBy[] {
    const held = new Map<
      string,
      { txId: string; status: TxStatusName; reservationKey: string; superseded: boolean; refs: string[] }
    >()
    for (const row of this.statements.heldBy.all(now, JSON.stringify(refs))) {
      const entry = held.get(row.tx_id) ?? {
        txId: row.tx_id,
        status: row.status,
        reservationKey: row.reservation_key,
        superseded: row.superseded_at !== null,
        refs: []
      }
      entry.refs.push(row.ref)
      held.set(row.tx_id, entry)
    }
    return [...held.values()]
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
      s.countConfirmed.run(txId)
      s.setCreatedBlock.run(block.blockNo, txId)
      this.applyEffects(txId, block.blockNo, effects)
    })()
  }

  private applyEffects(txId: string, blockNo: bigint, effects: ConfirmEffects): void {
    const s = this.statements
    if (effects.head !== undefined) s.setHead.run(txId, effects.head.utxo, effects.head.contractId)
    for (const p of effects.newPayouts ?? []) {
      // Runtime's order of payouts, kept beside each so that their lists page by index.
      s.insertPayout.run({ ...p, blockNo, outputIndex: Number(p.payoutId.slice(p.payoutId.indexOf('#') + 1)) })
    }
    for (const id of effects.withdrawn ?? []) s.withdrawPayout.run(txId, id)
  }

  /**
   * Records a confirmed transaction someone else built, as read from the chain, with what it does: a creation
   * also opens its contract. A transaction already stored is left as it is.
   */
  insertChainTx(row: ChainTxRow, effects: ConfirmEffects): void {
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
        ...columnValues(row.columns),
        slot: row.block.slot,
        blockNo: row.block.blockNo,
        blockHash: row.block.blockHash
      })
      if (inserted.changes === 0) return
      if (row.kind === 'apply' && row.contractId !== undefined) s.countApplied.run(1, row.contractId)
      if (row.kind === 'create' && row.contractId !== undefined) {
        s.insertContract.run(row.contractId, row.txId, row.rolesCurrency ?? '')
        s.setCreatedBlock.run(row.block.blockNo, row.txId)
        if (row.parties !== undefined) this.writeParties(row.contractId, row.parties)
      }
      this.applyEffects(row.txId, row.block.blockNo, effects)
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
   * remaining confirmed transaction, whose UTxO `utxoOf` names.
   */
  rollBack(point: BlockRow | undefined, at: number, utxoOf: (head: TxRow) => string | null): void {
    const s = this.statements
    this.writes += 1
    this.db.transaction(() => {
      const undone = (s.confirmedAfter.all(point?.blockNo ?? -1n) as RawTx[]).map(txFromRaw)
      const moved = new Set(undone.flatMap((row) => (row.contractId === undefined ? [] : [row.contractId])))
      // Heads first: a head names its transaction, which may be about to go.
      for (const contractId of moved) s.setHead.run(null, null, contractId)
      for (const row of undone) {
        s.unwithdraw.run(row.txId)
        s.deletePayoutsOf.run(row.txId)
        if (row.kind === 'apply' && row.contractId !== undefined) s.countApplied.run(-1, row.contractId)
        if (row.origin === 'built') {
          s.unconfirm.run(at, row.txId)
          s.setCreatedBlock.run(null, row.txId)
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
    })()
  }

  contract(contractId: string): ContractRow | undefined {
    const raw = this.statements.contract.get(contractId) as RawContract | undefined
    return raw === undefined ? undefined : contractFromRaw(raw)
  }

  contracts(contractIds: readonly string[]): ContractRow[] {
    return (this.statements.contractsIn.all(JSON.stringify(contractIds)) as RawContract[]).map(contractFromRaw)
  }

  private readonly queries = new Map<string, Statement>()

  /** A prepared statement per distinct SQL text (the lists' SQL varies only with how many values a filter has). */
  private query(sql: string): Statement {
    let statement = this.queries.get(sql)
    if (statement === undefined) {
      statement = this.db.prepare(sql).safeIntegers(true)
      if (this.queries.size >= 256) this.queries.clear()
      this.queries.set(sql, statement)
    }
    return statement
  }

  /**
   * Contracts with their creation, filtered; `confirmed`: only those whose creation is on chain, by the index on
   * `created_block_no` (the creation is joined only when the tags, kept in its record, are asked for).
   */
  private filtered(query: ContractQuery, confirmed: boolean): { where: string; values: unknown[] } {
    const where: string[] = confirmed ? ['c.created_block_no IS NOT NULL'] : []
    const values: unknown[] = []
    const anyOf = (list: readonly string[] | undefined, sql: (marks: string) => string): void => {
      if (list === undefined || list.length === 0) return
      where.push(sql(list.map(() => '?').join(', ')))
      values.push(...list)
    }
    anyOf(query.roleCurrencies, (m) => `c.roles_currency IN (${m})`)
    anyOf(
      query.tags,
      (m) =>
        `EXISTS (SELECT 1 FROM txs t, json_each(t.details, '$.tags') j WHERE t.tx_id = c.create_tx_id AND j.key IN (${m}))`
    )
    anyOf(
      query.parties,
      (m) => `EXISTS (SELECT 1 FROM contract_parties p WHERE p.contract_id = c.contract_id AND p.party IN (${m}))`
    )
    return { where: where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`, values }
  }

  /** How many rows `from` (`FROM … WHERE …`) holds. */
  private countOf(from: string, values: readonly unknown[]): number {
    return Number((this.query(`SELECT COUNT(*) AS n ${from}`).get(...values) as { n: bigint }).n)
  }

  /** How many rows an unfiltered list holds, as kept by schema 8's triggers: one row read, whatever the list's length. */
  private counted(list: CountedList): number {
    const row = this.statements.listCount.get(list)
    if (row === undefined) throw new Error(`the store keeps no count of ${list}`)
    return row.n
  }

  /**
   * One page of the rows `from` (`FROM … WHERE …`) holds, in the order of the `order` columns (unique together),
   * from the row whose `id` is `page.start` (included) or the first; undefined when `start` is not one of them.
   * An index on `order` (after the columns `from` fixes) makes a page cost its own rows, whatever `from` holds.
   * `startAmong` (`FROM … WHERE …`, no values) is where `start` is looked up instead, when the page may start at a
   * row `from` leaves out.
   */
  private keysetPage<R>(
    select: string,
    from: string,
    values: readonly unknown[],
    keys: { readonly order: readonly string[]; readonly id: string; readonly startAmong?: string },
    page: PageRequest
  ): R[] | undefined {
    const columns = keys.order.join(', ')
    let keyset = ''
    let keysetValues: unknown[] = []
    if (page.start !== undefined) {
      const found = this.query(`SELECT ${columns} ${keys.startAmong ?? from} AND ${keys.id} = ?`)
        .raw(true)
        .get(...(keys.startAmong === undefined ? values : []), page.start) as unknown[] | undefined
      if (found === undefined) return undefined
      keyset = `AND (${columns}) ${page.order === 'desc' ? '<=' : '>='} (${keys.order.map(() => '?').join(', ')})`
      keysetValues = found
    }
    const direction = page.order === 'desc' ? 'DESC' : 'ASC'
    return this.query(
      `SELECT ${select} ${from} ${keyset} ORDER BY ${keys.order.map((c) => `${c} ${direction}`).join(', ')}
        LIMIT ? OFFSET ?`
    ).all(...values, ...keysetValues, page.limit, page.offset) as R[]
  }

  /**
   * One page of the contracts on chain that match, by creation newest first (or oldest first), as their headers,
   * with how many match in all; undefined when `start` is not one of them. Costs the page, not the number of
   * contracts: the page by index, each header from columns, and the unfiltered count kept as contracts come and go.
   */
  contractPage(query: ContractQuery, page: PageRequest): { rows: ContractHeaderRow[]; total: number } | undefined {
    const { where, values } = this.filtered(query, true)
    const from = `FROM contracts c JOIN txs b ON b.tx_id = c.create_tx_id ${where}`
    const rows = this.keysetPage<RawContractHeader>(
      CONTRACT_HEADER_COLUMNS,
      from,
      values,
      { order: ['c.created_block_no', 'c.contract_id'], id: 'c.contract_id' },
      page
    )
    if (rows === undefined) return undefined
    const total = values.length === 0 ? this.counted('contracts') : this.countOf(`FROM contracts c ${where}`, values)
    return { rows: rows.map(contractHeaderFromRaw), total }
  }

  /**
   * One page of the stored contracts that match (every one without `query`), confirmed or not (a just-built one
   * too), newest build first (build time, then creation tx id), as their headers; the page starts at the stored
   * contract `page.start`, included when it matches, and is undefined when it is not stored. By the index on the
   * creations' build time, each row's filters checked by index: a page costs the same at 100 and at 100,000
   * contracts when most match (a party's list of its own contracts).
   */
  storedContractPage(page: PageRequest, query: ContractQuery = {}): ContractHeaderRow[] | undefined {
    const stored = "FROM txs b JOIN contracts c ON c.create_tx_id = b.tx_id WHERE b.kind = 'create'"
    const { where, values } = this.filtered(query, false)
    const rows = this.keysetPage<RawContractHeader>(
      CONTRACT_HEADER_COLUMNS,
      where === '' ? stored : `${stored} AND ${where.slice('WHERE '.length)}`,
      values,
      { order: ['b.created_at', 'b.tx_id'], id: 'c.contract_id', startAmong: stored },
      page
    )
    return rows?.map(contractHeaderFromRaw)
  }

  /**
   * One page of a contract's confirmed applications, newest first (block, then tx id) or oldest first, with how
   * many it has (kept as they are confirmed, not counted); undefined when `start` is not one of them. Reads the
   * header columns only, by index: a page costs the same at 10 and at 100,000 transactions.
   */
  appliedTxPage(contractId: string, page: PageRequest): { rows: TxHeaderRow[]; total: number } | undefined {
    const rows = this.keysetPage<RawTxHeader>(
      `tx_id, contract_id, status, block_slot, block_no, block_hash, tags, metadata, marlowe_output,
       CASE WHEN tags IS NULL OR metadata IS NULL THEN details END AS details`,
      "FROM txs WHERE contract_id = ? AND kind = 'apply' AND status = 'confirmed'",
      [contractId],
      { order: ['block_no', 'tx_id'], id: 'tx_id' },
      page
    )
    if (rows === undefined) return undefined
    const counted = this.statements.applied.get(contractId) as { applied: number } | undefined
    return { rows: rows.map(txHeaderFromRaw), total: counted?.applied ?? 0 }
  }

  /**
   * One page of the confirmed withdrawals, newest first (block, then tx id) or oldest first, optionally only those
   * withdrawing a payout of one of `roleCurrencies` (as their records name them), with how many match.
   */
  withdrawalPage(roleCurrencies: readonly string[], page: PageRequest): { rows: TxRow[]; total: number } | undefined {
    let where = "WHERE kind = 'withdraw' AND status = 'confirmed'"
    if (roleCurrencies.length > 0) {
      // CASE, so that a record that is not JSON is passed over rather than failing the whole list.
      where += ` AND CASE WHEN json_valid(details) THEN EXISTS (
                   SELECT 1 FROM json_each(details, '$.payouts') p
                    WHERE json_extract(p.value, '$.rolesCurrency') IN (${roleCurrencies.map(() => '?').join(', ')}))
                 ELSE 0 END`
    }
    const from = `FROM txs ${where}`
    const rows = this.keysetPage<RawTx>('*', from, roleCurrencies, { order: ['block_no', 'tx_id'], id: 'tx_id' }, page)
    if (rows === undefined) return undefined
    const total = roleCurrencies.length === 0 ? this.counted('withdrawals') : this.countOf(from, roleCurrencies)
    return { rows: rows.map(txFromRaw), total }
  }

  /** Every contract that matches, confirmed or not (a just-built one too), newest build first. */
  contractsWhere(query: ContractQuery): ContractRow[] {
    const { where, values } = this.filtered(query, false)
    const rows = this.query(
      `SELECT c.* FROM contracts c JOIN txs b ON b.tx_id = c.create_tx_id ${where}
        ORDER BY b.created_at DESC, c.contract_id DESC`
    ).all(...values) as RawContract[]
    return rows.map(contractFromRaw)
  }

  /**
   * One page of the payouts that match, newest first as Runtime orders them (the paying transaction's block, its
   * id, the output index) or oldest first, with how many match; undefined when `start` is not one of them.
   */
  payoutPage(query: PayoutQuery, page: PageRequest): { rows: PayoutRow[]; total: number } | undefined {
    const where: string[] = []
    const values: unknown[] = []
    if (query.contractIds !== undefined && query.contractIds.length > 0) {
      where.push(`contract_id IN (${query.contractIds.map(() => '?').join(', ')})`)
      values.push(...query.contractIds)
    }
    if (query.roleTokens !== undefined && query.roleTokens.length > 0) {
      where.push(`(${query.roleTokens.map(() => '(roles_currency = ? AND role = ?)').join(' OR ')})`)
      values.push(...query.roleTokens.flatMap((t) => [t.rolesCurrency, t.role]))
    }
    if (query.withdrawn !== undefined) where.push(`withdrawal_id IS ${query.withdrawn ? 'NOT NULL' : 'NULL'}`)
    const from = `FROM payouts WHERE ${where.length === 0 ? '1' : where.join(' AND ')}`
    const rows = this.keysetPage<RawPayout>(
      '*',
      from,
      values,
      { order: ['block_no', 'tx_id', 'output_index'], id: 'payout_id' },
      page
    )
    if (rows === undefined) return undefined
    return { rows: rows.map(payoutFromRaw), total: this.payoutCount(query, from, values) }
  }

  /** Unfiltered (or filtered by status alone), from the counts the store keeps; else counted. */
  private payoutCount(query: PayoutQuery, from: string, values: readonly unknown[]): number {
    if (values.length > 0) return this.countOf(from, values)
    if (query.withdrawn === undefined) return this.counted('payouts')
    const available = this.counted('payouts available')
    return query.withdrawn ? this.counted('payouts') - available : available
  }

  payout(payoutId: string): PayoutRow | undefined {
    const raw = this.statements.payout.get(payoutId) as RawPayout | undefined
    return raw === undefined ? undefined : payoutFromRaw(raw)
  }

  /** The contracts' payouts not withdrawn yet, by payout id, found by index: their withdrawn ones are not read. */
  unclaimedPayoutsOf(contractIds: readonly string[]): PayoutRow[] {
    return (this.statements.unclaimedPayoutsOf.all(JSON.stringify(contractIds)) as RawPayout[]).map(payoutFromRaw)
  }

  /** The payouts a confirmed transaction made. */
  payoutsOfTx(txId: string): PayoutRow[] {
    return (this.statements.payoutsOfTx.all(txId) as RawPayout[]).map(payoutFromRaw)
  }

  /** The confirmed application that spent the Marlowe UTxO `ref` (`txid#ix`), found by index. */
  spenderOf(ref: string): string | undefined {
    return (this.statements.spenderOf.get(ref) as { tx_id: string } | undefined)?.tx_id
  }

  payoutsOfWithdrawal(withdrawalId: string): PayoutRow[] {
    return (this.statements.payoutsOfWithdrawal.all(withdrawalId) as RawPayout[]).map(payoutFromRaw)
  }
}

/** Every operation by name, so that the asynchronous store is made from the synchronous one without omission. */
const OPERATIONS: Readonly<Record<keyof StoreOperations, null>> = {
  insertBuilt: null,
  setContractParties: null,
  contractsWithoutParties: null,
  tx: null,
  txs: null,
  txsWithStatus: null,
  attemptedSubmits: null,
  txsOfContract: null,
  recordSubmitAttempt: null,
  clearSubmitAttempt: null,
  markSubmitted: null,
  markSuperseded: null,
  markDiscarded: null,
  heldBy: null,
  markUnsigned: null,
  confirm: null,
  insertChainTx: null,
  contractAtUtxo: null,
  chainCursor: null,
  confirmedBlocksBelow: null,
  setChainCursor: null,
  rollBack: null,
  contract: null,
  contracts: null,
  contractPage: null,
  storedContractPage: null,
  appliedTxPage: null,
  withdrawalPage: null,
  contractsWhere: null,
  payoutPage: null,
  payout: null,
  unclaimedPayoutsOf: null,
  payoutsOfTx: null,
  spenderOf: null,
  payoutsOfWithdrawal: null
}

/** `rows`' operations, each run through `run` and answered as a promise. */
function promised(rows: SqliteServiceRows, run: (op: () => unknown) => Promise<unknown>): StoreOperations {
  const operations: Record<string, (...args: unknown[]) => Promise<unknown>> = {}
  for (const name of Object.keys(OPERATIONS) as (keyof StoreOperations)[]) {
    const operation = rows[name] as (...args: unknown[]) => unknown
    operations[name] = (...args) => run(() => operation.apply(rows, args))
  }
  return operations as unknown as StoreOperations
}

/** The service store over the SQLite connection `gate` guards, with that connection (for per-connection limits). */
export function sqliteServiceStore(gate: SqliteGate): ServiceStore & { readonly db: Db } {
  const rows = new SqliteServiceRows(gate.db)
  // Inside a transaction the work already holds the connection: its calls run at once.
  const inside = promised(rows, (op) => Promise.resolve().then(op))
  return {
    ...promised(rows, (op) => gate.run(op)),
    get version() {
      return rows.version
    },
    atomically: (work) => gate.transaction(() => work(inside)),
    db: gate.db
  }
}
