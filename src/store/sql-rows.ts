/**
 * Rows as the SQL stores read them (SQLite with safe integers, PostgreSQL with int8 as bigint: the same shapes)
 * and the records they make.
 */
import type {
  BlockRow,
  ContractHeaderRow,
  ContractRow,
  PayoutRow,
  RecordColumns,
  TxHeaderRow,
  TxKind,
  TxOrigin,
  TxRow,
  TxStatusName
} from './service-store'

export interface RawTx {
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
  superseded_at: number | null
  discarded_at: number | null
  block_slot: bigint | null
  block_no: bigint | null
  block_hash: string | null
  details: string
  origin: TxOrigin
}

export interface RawTxHeader {
  tx_id: string
  contract_id: string
  status: TxStatusName
  block_slot: bigint | null
  block_no: bigint | null
  block_hash: string | null
  tags: string | null
  metadata: string | null
  marlowe_output: string | null
  details: string | null
}

export interface RawContractHeader extends Pick<
  RawTxHeader,
  'status' | 'block_slot' | 'block_no' | 'block_hash' | 'tags' | 'metadata' | 'details'
> {
  contract_id: string
  roles_currency: string
}

/** The unfiltered lists whose length the store keeps (schema 8's triggers), so a Total-Count reads one row. */
export type CountedList = 'contracts' | 'withdrawals' | 'payouts' | 'payouts available'

export interface RawPayout {
  payout_id: string
  contract_id: string
  tx_id: string
  roles_currency: string
  role: string
  assets: string
  withdrawal_id: string | null
}

export interface RawContract {
  contract_id: string
  create_tx_id: string
  roles_currency: string
  head_tx_id: string | null
  utxo: string | null
  parties_known: number
}

export const columnValues = (c: RecordColumns) => ({
  tags: c.tags ?? null,
  metadata: c.metadata ?? null,
  marloweInput: c.marloweInput ?? null,
  marloweOutput: c.marloweOutput ?? null
})

const bytes = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength)

function blockFromRaw(r: Pick<RawTx, 'block_slot' | 'block_no' | 'block_hash'>): { block?: BlockRow } {
  return r.block_hash === null || r.block_slot === null || r.block_no === null
    ? {}
    : { block: { slot: BigInt(r.block_slot), blockNo: BigInt(r.block_no), blockHash: r.block_hash } }
}

/** A creation's or application's tags and metadata from their columns, or its record where they are missing. */
function labelsFromRaw(
  r: Pick<RawTxHeader, 'tags' | 'metadata' | 'details'>
): { details: string } | { columns: { tags: string; metadata: string } } {
  return r.tags === null || r.metadata === null
    ? { details: r.details ?? '' }
    : { columns: { tags: r.tags, metadata: r.metadata } }
}

export function txHeaderFromRaw(r: RawTxHeader): TxHeaderRow {
  const labels = labelsFromRaw(r)
  const output = r.marlowe_output === null ? {} : { marloweOutput: r.marlowe_output }
  return {
    txId: r.tx_id,
    contractId: r.contract_id,
    status: r.status,
    ...blockFromRaw(r),
    ...('columns' in labels ? { columns: { ...labels.columns, ...output } } : labels)
  }
}

export function txFromRaw(r: RawTx): TxRow {
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
    ...(r.superseded_at === null ? {} : { supersededAt: Number(r.superseded_at) }),
    ...(r.discarded_at === null ? {} : { discardedAt: Number(r.discarded_at) }),
    ...blockFromRaw(r),
    details: r.details,
    origin: r.origin
  }
}

export function contractHeaderFromRaw(r: RawContractHeader): ContractHeaderRow {
  return {
    contractId: r.contract_id,
    rolesCurrency: r.roles_currency,
    status: r.status,
    ...blockFromRaw(r),
    ...labelsFromRaw(r)
  }
}

/** What a contract's header reads: its row and its creation's columns, and the record only where they are missing. */
export const CONTRACT_HEADER_COLUMNS = `c.contract_id, c.roles_currency, b.status, b.block_slot, b.block_no, b.block_hash,
  b.tags, b.metadata, CASE WHEN b.tags IS NULL OR b.metadata IS NULL THEN b.details END AS details`

export function payoutFromRaw(r: RawPayout): PayoutRow {
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

export function contractFromRaw(r: RawContract): ContractRow {
  return {
    contractId: r.contract_id,
    createTxId: r.create_tx_id,
    rolesCurrency: r.roles_currency,
    ...(r.head_tx_id === null ? {} : { headTxId: r.head_tx_id }),
    ...(r.utxo === null ? {} : { utxo: r.utxo })
  }
}
