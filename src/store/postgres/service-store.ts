/**
 * The service's records in PostgreSQL, for several processes sharing one database: the same operations with the
 * same answers as the SQLite store (src/store/sqlite-service-store.ts), read through the same row mappers. An
 * operation that writes several rows is one transaction; inside `atomically` everything runs in its transaction.
 */
import type pg from 'pg'
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
} from '../sql-rows'
import type {
  BlockRow,
  BuiltTxRow,
  ChainTxRow,
  ConfirmEffects,
  ContractHeaderRow,
  ContractQuery,
  ContractRow,
  Counted,
  HeldBy,
  PageRequest,
  PayoutQuery,
  PayoutRow,
  ServiceStore,
  StoreOperations,
  TxHeaderRow,
  TxRow,
  TxStatusName
} from '../service-store'
import { PoolSession, type PgSession } from './session'

/** Values of a statement being written, each named by the placeholder `add` answers. */
class Params {
  readonly values: unknown[] = []

  add(value: unknown): string {
    this.values.push(value)
    return `$${this.values.length}`
  }
}

type RawBlock = { slot: bigint; block_no: bigint; block_hash: string }

const blockFrom = (r: RawBlock): BlockRow => ({ slot: r.slot, blockNo: r.block_no, blockHash: r.block_hash })

class PgServiceRows implements StoreOperations {
  constructor(protected readonly session: PgSession) {}

  async insertBuilt(row: BuiltTxRow): Promise<void> {
    await this.session.transaction(async (s) => {
      const c = columnValues(row.columns)
      await s.run(
        `INSERT INTO txs (tx_id, kind, contract_id, era, unsigned_tx, status, reservation_key, created_at, details,
                          tags, metadata, marlowe_input, marlowe_output)
         VALUES ($1, $2, $3, $4, $5, 'unsigned', $6, $7, $8, $9, $10, $11, $12)
         ON CONFLICT (tx_id) DO UPDATE SET reservation_key = excluded.reservation_key, superseded_at = NULL,
                                            discarded_at = NULL
           WHERE txs.status = 'unsigned'`,
        [
          row.txId,
          row.kind,
          row.contractId ?? null,
          row.era,
          row.unsignedTx,
          row.reservationKey,
          row.createdAt,
          row.details,
          c.tags,
          c.metadata,
          c.marloweInput,
          c.marloweOutput
        ]
      )
      if (row.kind === 'create' && row.contractId !== undefined) {
        await insertContract(s, row.contractId, row.txId, row.rolesCurrency ?? '')
        if (row.parties !== undefined) await writeParties(s, row.contractId, row.parties)
      }
    })
  }

  setContractParties(contractId: string, parties: readonly string[]): Promise<void> {
    return this.session.transaction((s) => writeParties(s, contractId, parties))
  }

  async contractsWithoutParties(limit: number): Promise<ContractRow[]> {
    const rows = await this.session.rows<RawContract>('SELECT * FROM contracts WHERE parties_known = 0 LIMIT $1', [
      limit
    ])
    return rows.map(contractFromRaw)
  }

  async tx(txId: string): Promise<TxRow | undefined> {
    const [raw] = await this.session.rows<RawTx>('SELECT * FROM txs WHERE tx_id = $1', [txId])
    return raw === undefined ? undefined : txFromRaw(raw)
  }

  async txs(txIds: readonly string[]): Promise<TxRow[]> {
    const rows = await this.session.rows<RawTx>('SELECT * FROM txs WHERE tx_id = ANY($1::text[])', [txIds])
    return rows.map(txFromRaw)
  }

  async txsWithStatus(status: TxStatusName): Promise<TxRow[]> {
    const rows = await this.session.rows<RawTx>('SELECT * FROM txs WHERE status = $1 ORDER BY created_at, tx_id', [
      status
    ])
    return rows.map(txFromRaw)
  }

  async attemptedSubmits(): Promise<TxRow[]> {
    const rows = await this.session.rows<RawTx>(
      "SELECT * FROM txs WHERE status = 'unsigned' AND signed_tx IS NOT NULL ORDER BY created_at, tx_id"
    )
    return rows.map(txFromRaw)
  }

  async txsOfContract(contractId: string): Promise<TxRow[]> {
    const rows = await this.session.rows<RawTx>('SELECT * FROM txs WHERE contract_id = $1 ORDER BY created_at, tx_id', [
      contractId
    ])
    return rows.map(txFromRaw)
  }

  async recordSubmitAttempt(txId: string, signedTx: Uint8Array): Promise<boolean> {
    const changed = await this.session.run(
      `UPDATE txs SET signed_tx = $1
        WHERE tx_id = $2 AND status = 'unsigned' AND superseded_at IS NULL AND discarded_at IS NULL`,
      [signedTx, txId]
    )
    return changed === 1
  }

  async clearSubmitAttempt(txId: string): Promise<void> {
    await this.session.run("UPDATE txs SET signed_tx = NULL WHERE tx_id = $1 AND status = 'unsigned'", [txId])
  }

  async markSubmitted(txId: string, signedTx: Uint8Array, at: number): Promise<boolean> {
    const changed = await this.session.run(
      "UPDATE txs SET status = 'submitted', signed_tx = $1, submitted_at = $2 WHERE tx_id = $3 AND status = 'unsigned'",
      [signedTx, at, txId]
    )
    return changed === 1
  }

  async markSuperseded(txId: string, at: number): Promise<boolean> {
    const changed = await this.session.run(
      "UPDATE txs SET superseded_at = $1 WHERE tx_id = $2 AND status = 'unsigned' AND signed_tx IS NULL",
      [at, txId]
    )
    return changed === 1
  }

  async markDiscarded(txId: string, at: number): Promise<boolean> {
    const changed = await this.session.run(
      "UPDATE txs SET discarded_at = $1 WHERE tx_id = $2 AND status = 'unsigned' AND discarded_at IS NULL AND signed_tx IS NULL",
      [at, txId]
    )
    return changed === 1
  }

  async heldBy(refs: readonly string[], now: number): Promise<HeldBy[]> {
    const rows = await this.session.rows<{
      tx_id: string
      status: TxStatusName
      reservation_key: string
      superseded_at: bigint | null
      ref: string
    }>(
      `SELECT t.tx_id, t.status, t.reservation_key, t.superseded_at, r.ref
         FROM reservations v
         JOIN reservation_refs r ON r.key = v.key AND r.mode = 'spend'
         JOIN txs t ON t.reservation_key = v.key
        WHERE v.expires_at > $1 AND r.ref = ANY($2::text[])
        ORDER BY t.created_at, t.tx_id, r.ref`,
      [now, refs]
    )
    const held = new Map<
      string,
      { txId: string; status: TxStatusName; reservationKey: string; superseded: boolean; refs: string[] }
    >()
    for (const row of rows) {
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

  async markUnsigned(txId: string): Promise<void> {
    await this.session.run(
      "UPDATE txs SET status = 'unsigned', submitted_at = NULL WHERE tx_id = $1 AND status = 'submitted'",
      [txId]
    )
  }

  async confirm(txId: string, block: BlockRow, effects: ConfirmEffects): Promise<void> {
    await this.session.transaction(async (s) => {
      const confirmed = await s.run(
        `UPDATE txs SET status = 'confirmed', block_slot = $1, block_no = $2, block_hash = $3,
                chain_seq = nextval('chain_seq')
          WHERE tx_id = $4 AND status <> 'confirmed'`,
        [block.slot, block.blockNo, block.blockHash, txId]
      )
      if (confirmed === 0) return
      await s.run(
        "UPDATE contracts SET applied = applied + 1 WHERE contract_id = (SELECT contract_id FROM txs WHERE tx_id = $1 AND kind = 'apply')",
        [txId]
      )
      await s.run('UPDATE contracts SET created_block_no = $1 WHERE create_tx_id = $2', [block.blockNo, txId])
      await applyEffects(s, txId, block.blockNo, effects)
    })
  }

  async insertChainTx(row: ChainTxRow, effects: ConfirmEffects): Promise<void> {
    await this.session.transaction(async (s) => {
      const c = columnValues(row.columns)
      const inserted = await s.run(
        `INSERT INTO txs (tx_id, kind, contract_id, era, unsigned_tx, status, reservation_key, created_at, details,
                          tags, metadata, marlowe_input, marlowe_output, block_slot, block_no, block_hash, origin,
                          chain_seq)
         VALUES ($1, $2, $3, 'Conway', $4, 'confirmed', '', $5, $6, $7, $8, $9, $10, $11, $12, $13, 'chain',
                 nextval('chain_seq'))
         ON CONFLICT (tx_id) DO NOTHING`,
        [
          row.txId,
          row.kind,
          row.contractId ?? null,
          row.tx,
          row.createdAt,
          row.details,
          c.tags,
          c.metadata,
          c.marloweInput,
          c.marloweOutput,
          row.block.slot,
          row.block.blockNo,
          row.block.blockHash
        ]
      )
      if (inserted === 0) return
      if (row.kind === 'apply' && row.contractId !== undefined) await countApplied(s, 1, row.contractId)
      if (row.kind === 'create' && row.contractId !== undefined) {
        await insertContract(s, row.contractId, row.txId, row.rolesCurrency ?? '')
        await s.run('UPDATE contracts SET created_block_no = $1 WHERE create_tx_id = $2', [row.block.blockNo, row.txId])
        if (row.parties !== undefined) await writeParties(s, row.contractId, row.parties)
      }
      await applyEffects(s, row.txId, row.block.blockNo, effects)
    })
  }

  async contractAtUtxo(ref: string): Promise<ContractRow | undefined> {
    const [raw] = await this.session.rows<RawContract>('SELECT * FROM contracts WHERE utxo = $1', [ref])
    return raw === undefined ? undefined : contractFromRaw(raw)
  }

  async chainCursor(): Promise<BlockRow | undefined> {
    const [raw] = await this.session.rows<RawBlock>('SELECT slot, block_no, block_hash FROM chain_cursor WHERE id = 1')
    return raw === undefined ? undefined : blockFrom(raw)
  }

  async confirmedBlocksBelow(blockNo: bigint, limit: number): Promise<BlockRow[]> {
    const rows = await this.session.rows<RawBlock>(
      `SELECT DISTINCT block_slot AS slot, block_no, block_hash FROM txs
        WHERE status = 'confirmed' AND block_no < $1 ORDER BY block_no DESC LIMIT $2`,
      [blockNo, limit]
    )
    return rows.map(blockFrom)
  }

  async setChainCursor(point: BlockRow): Promise<void> {
    await setCursor(this.session, point)
  }

  async rollBack(point: BlockRow | undefined, at: number, utxoOf: (head: TxRow) => string | null): Promise<void> {
    await this.session.transaction(async (s) => {
      const undone = (
        await s.rows<RawTx>(
          "SELECT * FROM txs WHERE status = 'confirmed' AND block_no > $1 ORDER BY block_no DESC, chain_seq DESC",
          [point?.blockNo ?? -1n]
        )
      ).map(txFromRaw)
      const moved = new Set(undone.flatMap((row) => (row.contractId === undefined ? [] : [row.contractId])))
      // Heads first: a head names its transaction, which may be about to go.
      for (const contractId of moved) await setHead(s, null, null, contractId)
      for (const row of undone) {
        await s.run('UPDATE payouts SET withdrawal_id = NULL WHERE withdrawal_id = $1', [row.txId])
        await s.run('DELETE FROM payouts WHERE tx_id = $1', [row.txId])
        if (row.kind === 'apply' && row.contractId !== undefined) await countApplied(s, -1, row.contractId)
        if (row.origin === 'built') {
          await s.run(
            `UPDATE txs SET status = 'submitted', block_slot = NULL, block_no = NULL, block_hash = NULL,
                    chain_seq = NULL, submitted_at = COALESCE(submitted_at, $1)
              WHERE tx_id = $2`,
            [at, row.txId]
          )
          await s.run('UPDATE contracts SET created_block_no = NULL WHERE create_tx_id = $1', [row.txId])
          continue
        }
        if (row.kind === 'create' && row.contractId !== undefined) {
          await s.run('DELETE FROM contracts WHERE contract_id = $1', [row.contractId])
        }
        await s.run('DELETE FROM txs WHERE tx_id = $1', [row.txId])
      }
      for (const contractId of moved) {
        const [raw] = await s.rows<RawTx>(
          `SELECT * FROM txs WHERE contract_id = $1 AND status = 'confirmed'
            ORDER BY block_no DESC, chain_seq DESC LIMIT 1`,
          [contractId]
        )
        if (raw === undefined) continue
        const head = txFromRaw(raw)
        await setHead(s, head.txId, utxoOf(head), contractId)
      }
      if (point === undefined) await s.run('DELETE FROM chain_cursor')
      else await setCursor(s, point)
    })
  }

  async contract(contractId: string): Promise<ContractRow | undefined> {
    const [raw] = await this.session.rows<RawContract>('SELECT * FROM contracts WHERE contract_id = $1', [contractId])
    return raw === undefined ? undefined : contractFromRaw(raw)
  }

  async contracts(contractIds: readonly string[]): Promise<ContractRow[]> {
    const rows = await this.session.rows<RawContract>('SELECT * FROM contracts WHERE contract_id = ANY($1::text[])', [
      contractIds
    ])
    return rows.map(contractFromRaw)
  }

  async contractPage(query: ContractQuery, page: PageRequest): Promise<Counted<ContractHeaderRow> | undefined> {
    const params = new Params()
    const where = contractFilter(query, true, params)
    const filter = [...params.values]
    const rows = await this.keysetPage<RawContractHeader>(
      CONTRACT_HEADER_COLUMNS,
      `FROM contracts c JOIN txs b ON b.tx_id = c.create_tx_id ${where}`,
      params,
      { order: ['c.created_block_no', 'c.contract_id'], id: 'c.contract_id' },
      page
    )
    if (rows === undefined) return undefined
    const total =
      filter.length === 0 ? await this.counted('contracts') : await this.countOf(`FROM contracts c ${where}`, filter)
    return { rows: rows.map(contractHeaderFromRaw), total }
  }

  /**
   * The stored contracts that match (every one without `query`), newest build first; the page starts at the stored
   * contract `page.start`, included when it matches (as the SQLite store's, whose interface may take a query).
   */
  async storedContractPage(page: PageRequest, query: ContractQuery = {}): Promise<ContractHeaderRow[] | undefined> {
    const stored = "FROM txs b JOIN contracts c ON c.create_tx_id = b.tx_id WHERE b.kind = 'create'"
    const params = new Params()
    const where = contractFilter(query, false, params)
    const rows = await this.keysetPage<RawContractHeader>(
      CONTRACT_HEADER_COLUMNS,
      where === '' ? stored : `${stored} AND ${where.slice('WHERE '.length)}`,
      params,
      { order: ['b.created_at', 'b.tx_id'], id: 'c.contract_id', startAmong: stored },
      page
    )
    return rows?.map(contractHeaderFromRaw)
  }

  async appliedTxPage(contractId: string, page: PageRequest): Promise<Counted<TxHeaderRow> | undefined> {
    const params = new Params()
    const rows = await this.keysetPage<RawTxHeader>(
      `tx_id, contract_id, status, block_slot, block_no, block_hash, tags, metadata, marlowe_output,
       CASE WHEN tags IS NULL OR metadata IS NULL THEN details END AS details`,
      `FROM txs WHERE contract_id = ${params.add(contractId)} AND kind = 'apply' AND status = 'confirmed'`,
      params,
      { order: ['block_no', 'tx_id'], id: 'tx_id' },
      page
    )
    if (rows === undefined) return undefined
    const [counted] = await this.session.rows<{ applied: bigint }>(
      'SELECT applied FROM contracts WHERE contract_id = $1',
      [contractId]
    )
    return { rows: rows.map(txHeaderFromRaw), total: Number(counted?.applied ?? 0) }
  }

  async withdrawalPage(roleCurrencies: readonly string[], page: PageRequest): Promise<Counted<TxRow> | undefined> {
    const params = new Params()
    let where = "WHERE kind = 'withdraw' AND status = 'confirmed'"
    if (roleCurrencies.length > 0) {
      // CASE, so that a record that is not JSON (or names no list of payouts) is passed over, not failing the list.
      where += ` AND CASE WHEN jsonb_typeof(json_or_null(details) -> 'payouts') = 'array' THEN EXISTS (
                   SELECT 1 FROM jsonb_array_elements(json_or_null(details) -> 'payouts') p
                    WHERE p ->> 'rolesCurrency' = ANY(${params.add(roleCurrencies)}::text[]))
                 ELSE false END`
    }
    const from = `FROM txs ${where}`
    const rows = await this.keysetPage<RawTx>('*', from, params, { order: ['block_no', 'tx_id'], id: 'tx_id' }, page)
    if (rows === undefined) return undefined
    const total =
      roleCurrencies.length === 0 ? await this.counted('withdrawals') : await this.countOf(from, [roleCurrencies])
    return { rows: rows.map(txFromRaw), total }
  }

  async contractsWhere(query: ContractQuery): Promise<ContractRow[]> {
    const params = new Params()
    const where = contractFilter(query, false, params)
    const rows = await this.session.rows<RawContract>(
      `SELECT c.* FROM contracts c JOIN txs b ON b.tx_id = c.create_tx_id ${where}
        ORDER BY b.created_at DESC, c.contract_id DESC`,
      params.values
    )
    return rows.map(contractFromRaw)
  }

  async payoutPage(query: PayoutQuery, page: PageRequest): Promise<Counted<PayoutRow> | undefined> {
    const params = new Params()
    const where: string[] = []
    if (query.contractIds !== undefined && query.contractIds.length > 0) {
      where.push(`contract_id = ANY(${params.add(query.contractIds)}::text[])`)
    }
    if (query.roleTokens !== undefined && query.roleTokens.length > 0) {
      where.push(
        `(${query.roleTokens.map((t) => `(roles_currency = ${params.add(t.rolesCurrency)} AND role = ${params.add(t.role)})`).join(' OR ')})`
      )
    }
    if (query.withdrawn !== undefined) where.push(`withdrawal_id IS ${query.withdrawn ? 'NOT NULL' : 'NULL'}`)
    const from = `FROM payouts WHERE ${where.length === 0 ? 'true' : where.join(' AND ')}`
    const filter = [...params.values]
    const rows = await this.keysetPage<RawPayout>(
      '*',
      from,
      params,
      { order: ['block_no', 'tx_id', 'output_index'], id: 'payout_id' },
      page
    )
    if (rows === undefined) return undefined
    return { rows: rows.map(payoutFromRaw), total: await this.payoutCount(query, from, filter) }
  }

  async payout(payoutId: string): Promise<PayoutRow | undefined> {
    const [raw] = await this.session.rows<RawPayout>('SELECT * FROM payouts WHERE payout_id = $1', [payoutId])
    return raw === undefined ? undefined : payoutFromRaw(raw)
  }

  async unclaimedPayoutsOf(contractIds: readonly string[]): Promise<PayoutRow[]> {
    const rows = await this.session.rows<RawPayout>(
      'SELECT * FROM payouts WHERE contract_id = ANY($1::text[]) AND withdrawal_id IS NULL ORDER BY payout_id',
      [contractIds]
    )
    return rows.map(payoutFromRaw)
  }

  async payoutsOfTx(txId: string): Promise<PayoutRow[]> {
    const rows = await this.session.rows<RawPayout>('SELECT * FROM payouts WHERE tx_id = $1 ORDER BY payout_id', [txId])
    return rows.map(payoutFromRaw)
  }

  async spenderOf(ref: string): Promise<string | undefined> {
    const [row] = await this.session.rows<{ tx_id: string }>(
      "SELECT tx_id FROM txs WHERE marlowe_input = $1 AND kind = 'apply' AND status = 'confirmed' LIMIT 1",
      [ref]
    )
    return row?.tx_id
  }

  async payoutsOfWithdrawal(withdrawalId: string): Promise<PayoutRow[]> {
    const rows = await this.session.rows<RawPayout>(
      'SELECT * FROM payouts WHERE withdrawal_id = $1 ORDER BY payout_id',
      [withdrawalId]
    )
    return rows.map(payoutFromRaw)
  }

  /** How many rows `from` (`FROM … WHERE …`, its placeholders numbered from $1) holds. */
  private async countOf(from: string, values: readonly unknown[]): Promise<number> {
    const [row] = await this.session.rows<{ n: bigint }>(`SELECT COUNT(*) AS n ${from}`, values)
    return Number(row?.n ?? 0)
  }

  /** How many rows an unfiltered list holds, as the triggers keep it: one row read, whatever the list's length. */
  private async counted(list: CountedList): Promise<number> {
    const [row] = await this.session.rows<{ n: bigint }>('SELECT n FROM list_counts WHERE list = $1', [list])
    if (row === undefined) throw new Error(`the store keeps no count of ${list}`)
    return Number(row.n)
  }

  /** Unfiltered (or filtered by status alone), from the counts the store keeps; else counted. */
  private async payoutCount(query: PayoutQuery, from: string, values: readonly unknown[]): Promise<number> {
    if (values.length > 0) return this.countOf(from, values)
    if (query.withdrawn === undefined) return this.counted('payouts')
    const available = await this.counted('payouts available')
    return query.withdrawn ? (await this.counted('payouts')) - available : available
  }

  /**
   * One page of the rows `from` (`FROM … WHERE …`, whose values `params` holds) holds, in the order of the `order`
   * columns (unique together), from the row whose `id` is `page.start` (included) or the first; undefined when
   * `start` is not one of them. An index on `order` (after the columns `from` fixes) makes a page cost its rows.
   * `startAmong` (`FROM … WHERE …`, no values) is where `start` is looked up instead, when the page may start at a
   * row `from` leaves out.
   */
  private async keysetPage<R>(
    select: string,
    from: string,
    params: Params,
    keys: { readonly order: readonly string[]; readonly id: string; readonly startAmong?: string },
    page: PageRequest
  ): Promise<R[] | undefined> {
    const columns = keys.order.join(', ')
    let keyset = ''
    if (page.start !== undefined) {
      const lookup = new Params()
      if (keys.startAmong === undefined) lookup.values.push(...params.values)
      const found = await this.session.rows<Record<string, unknown>>(
        `SELECT ${keys.order.map((c, i) => `${c} AS k${i}`).join(', ')} ${keys.startAmong ?? from} AND ${keys.id} = ${lookup.add(page.start)}`,
        lookup.values
      )
      const start = found[0]
      if (start === undefined) return undefined
      const bounds = keys.order.map((_, i) => params.add(start[`k${i}`]))
      keyset = `AND (${columns}) ${page.order === 'desc' ? '<=' : '>='} (${bounds.join(', ')})`
    }
    const direction = page.order === 'desc' ? 'DESC' : 'ASC'
    // A negative limit is SQLite's "no limit"; PostgreSQL's is NULL.
    const limit = page.limit < 0 ? null : page.limit
    return this.session.rows<R>(
      `SELECT ${select} ${from} ${keyset} ORDER BY ${keys.order.map((c) => `${c} ${direction}`).join(', ')}
        LIMIT ${params.add(limit)} OFFSET ${params.add(page.offset)}`,
      params.values
    )
  }
}

/**
 * Contracts (`c`) filtered; `confirmed`: only those whose creation is on chain, by the index on
 * `created_block_no`. A tag filter reads the creation's record, as the SQLite store does.
 */
function contractFilter(query: ContractQuery, confirmed: boolean, params: Params): string {
  const where: string[] = confirmed ? ['c.created_block_no IS NOT NULL'] : []
  const anyOf = (list: readonly string[] | undefined, sql: (values: string) => string): void => {
    if (list === undefined || list.length === 0) return
    where.push(sql(`${params.add(list)}::text[]`))
  }
  anyOf(query.roleCurrencies, (v) => `c.roles_currency = ANY(${v})`)
  anyOf(
    query.tags,
    (v) =>
      `EXISTS (SELECT 1 FROM txs t WHERE t.tx_id = c.create_tx_id
                 AND jsonb_typeof(json_or_null(t.details) -> 'tags') = 'object'
                 AND (json_or_null(t.details) -> 'tags') ?| ${v})`
  )
  anyOf(
    query.parties,
    (v) => `EXISTS (SELECT 1 FROM contract_parties p WHERE p.contract_id = c.contract_id AND p.party = ANY(${v}))`
  )
  return where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`
}

async function insertContract(s: PgSession, contractId: string, txId: string, rolesCurrency: string): Promise<void> {
  await s.run(
    'INSERT INTO contracts (contract_id, create_tx_id, roles_currency) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
    [contractId, txId, rolesCurrency]
  )
}

async function writeParties(s: PgSession, contractId: string, parties: readonly string[]): Promise<void> {
  await s.run(
    `INSERT INTO contract_parties (party, contract_id) SELECT p, $2 FROM unnest($1::text[]) AS p
     ON CONFLICT DO NOTHING`,
    [parties, contractId]
  )
  await s.run('UPDATE contracts SET parties_known = 1 WHERE contract_id = $1', [contractId])
}

async function setHead(s: PgSession, txId: string | null, utxo: string | null, contractId: string): Promise<void> {
  await s.run('UPDATE contracts SET head_tx_id = $1, utxo = $2 WHERE contract_id = $3', [txId, utxo, contractId])
}

async function countApplied(s: PgSession, delta: number, contractId: string): Promise<void> {
  await s.run('UPDATE contracts SET applied = applied + $1 WHERE contract_id = $2', [delta, contractId])
}

async function setCursor(s: PgSession, point: BlockRow): Promise<void> {
  await s.run(
    `INSERT INTO chain_cursor (id, slot, block_no, block_hash) VALUES (1, $1, $2, $3)
     ON CONFLICT (id) DO UPDATE SET slot = excluded.slot, block_no = excluded.block_no,
                                    block_hash = excluded.block_hash`,
    [point.slot, point.blockNo, point.blockHash]
  )
}

/** The contract's head moves, the payouts the transaction makes appear, and those it withdraws are marked. */
async function applyEffects(s: PgSession, txId: string, blockNo: bigint, effects: ConfirmEffects): Promise<void> {
  if (effects.head !== undefined) await setHead(s, txId, effects.head.utxo, effects.head.contractId)
  for (const p of effects.newPayouts ?? []) {
    // Runtime's order of payouts, kept beside each so that their lists page by index.
    await s.run(
      `INSERT INTO payouts (payout_id, contract_id, tx_id, roles_currency, role, assets, block_no, output_index)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
      [
        p.payoutId,
        p.contractId,
        p.txId,
        p.rolesCurrency,
        p.role,
        p.assets,
        blockNo,
        Number(p.payoutId.slice(p.payoutId.indexOf('#') + 1))
      ]
    )
  }
  for (const id of effects.withdrawn ?? []) {
    await s.run('UPDATE payouts SET withdrawal_id = $1 WHERE payout_id = $2', [txId, id])
  }
}

/**
 * The service store over `pool`. Other processes write the same database, so this one cannot know when what it
 * read has changed: `version` is new at every read, and the server's response cache never serves a stale answer.
 */
export class PgServiceStore extends PgServiceRows implements ServiceStore {
  private reads = 0

  constructor(pool: pg.Pool) {
    super(new PoolSession(pool))
  }

  get version(): number {
    this.reads += 1
    return this.reads
  }

  atomically<T>(work: (store: StoreOperations) => Promise<T>): Promise<T> {
    return this.session.transaction((s) => work(new PgServiceRows(s)))
  }
}
