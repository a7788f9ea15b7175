/**
 * The resources the service reports, put together from stored rows: a contract (its creation plus its newest
 * confirmed transaction), a transaction, a withdrawal, a payout. Marlowe state comes from the datum bytes.
 */
import { splitTransaction } from '../../core/cardano/witnesses'
import { isJsonObject, parseJson, type JsonObject } from '../../core/json/lossless'
import { decodeMarloweData } from '../../core/marlowe/plutus/marlowe-data'
import { computeTransaction, ValueTooLargeError } from '../../core/marlowe/semantics'
import type { Era } from '../../core/cardano/tx-envelope'
import type { MarloweData } from '../../core/marlowe/types'
import type {
  ContractHeaderRow,
  ContractRow,
  PayoutRow,
  ServiceStore,
  TxHeaderRow,
  TxRow
} from '../../store/service-store'
import { EngineError } from '../errors'
import {
  parseRecord,
  readValue,
  type ApplyRecord,
  type CreateRecord,
  type PayoutRecord,
  type TxRecord
} from './records'
import type {
  ContractHeader,
  ContractView,
  PayoutView,
  TransactionHeader,
  TransactionView,
  UnsignedTx,
  WithdrawalView
} from './types'

const NO_ASSETS = { lovelace: 0n, assets: {} }

export function unsignedOf(row: TxRow): UnsignedTx {
  return { era: row.era as Era, tx: row.unsignedTx, body: splitTransaction(row.unsignedTx).body }
}

const block = (row: Pick<TxRow, 'block'>) => (row.block === undefined ? {} : { block: row.block })
const unsigned = (row: TxRow) => (row.status === 'unsigned' ? { unsigned: unsignedOf(row) } : {})

export function recordOf<K extends TxRecord['kind']>(
  row: Pick<TxRow, 'txId' | 'details'>,
  kind: K
): Extract<TxRecord, { kind: K }> {
  const record = parseRecord(row.details)
  if (record.kind !== kind) {
    throw new EngineError('Internal', 'CorruptStore', `transaction ${row.txId} is stored as a ${record.kind}`)
  }
  return record as Extract<TxRecord, { kind: K }>
}

/** The Marlowe output a contract's head transaction left (absent once the contract closed), and its datum. */
export function currentOutputOf(head: TxRow): { readonly ref: string; readonly datum: Uint8Array } | undefined {
  if (head.kind === 'create') return { ref: head.contractId ?? '', datum: recordOf(head, 'create').datum }
  const output = recordOf(head, 'apply').output
  return output === undefined ? undefined : { ref: output.ref, datum: output.datum }
}

function labelObject(text: string, what: string): JsonObject {
  const value = parseJson(text)
  if (!isJsonObject(value)) throw new EngineError('Internal', 'CorruptStore', `the stored ${what} are not an object`)
  return value
}

/** A confirmed application's header, from the columns kept beside its record (or the record, where they are not). */
export function transactionHeader(row: TxHeaderRow): TransactionHeader {
  const head = { contractId: row.contractId, transactionId: row.txId, status: row.status, ...block(row) }
  if (row.columns === undefined) {
    const record = recordOf({ txId: row.txId, details: row.details ?? '' }, 'apply')
    return {
      ...head,
      tags: record.tags,
      metadata: record.metadata,
      ...(record.output === undefined ? {} : { utxo: record.output.ref })
    }
  }
  return {
    ...head,
    tags: labelObject(row.columns.tags, 'tags'),
    metadata: labelObject(row.columns.metadata, 'metadata'),
    ...(row.columns.marloweOutput === undefined ? {} : { utxo: row.columns.marloweOutput })
  }
}

/** A contract's header, from its creation's columns (or its record, where they are not). */
export function contractHeader(row: ContractHeaderRow): ContractHeader {
  const head = { contractId: row.contractId, rolesCurrency: row.rolesCurrency, status: row.status, ...block(row) }
  if (row.columns === undefined) {
    const record = recordOf({ txId: row.contractId.slice(0, 64), details: row.details ?? '' }, 'create')
    return { ...head, tags: record.tags, metadata: record.metadata }
  }
  return {
    ...head,
    tags: labelObject(row.columns.tags, 'tags'),
    metadata: labelObject(row.columns.metadata, 'metadata')
  }
}

export class Views {
  constructor(
    private readonly store: ServiceStore,
    private readonly payoutAddress: string
  ) {}

  payout(row: PayoutRow): PayoutView {
    return {
      payoutId: row.payoutId,
      contractId: row.contractId,
      transactionId: row.txId,
      rolesCurrency: row.rolesCurrency,
      role: row.role,
      assets: readValue(parseJson(row.assets)),
      status: row.withdrawalId === undefined ? 'available' : 'withdrawn',
      ...(row.withdrawalId === undefined ? {} : { withdrawalId: row.withdrawalId }),
      payoutValidatorAddress: this.payoutAddress
    }
  }

  /** A payout known only from a build's record (its paying tx is not confirmed, or it is not ours). */
  private unstoredPayout(
    p: PayoutRecord,
    contractId: string,
    transactionId: string,
    withdrawalId?: string
  ): PayoutView {
    return {
      payoutId: p.ref,
      contractId,
      transactionId,
      rolesCurrency: p.rolesCurrency,
      role: p.role,
      assets: p.assets,
      status: withdrawalId === undefined ? 'available' : 'withdrawn',
      ...(withdrawalId === undefined ? {} : { withdrawalId }),
      payoutValidatorAddress: this.payoutAddress
    }
  }

  /**
   * The stored rows of the contracts `contractIds` (their creations, heads and unclaimed payouts), read in three
   * queries whatever their number, and each one's view built from them on demand: undefined when it is not
   * stored; a view whose rows do not decode throws, the others still build.
   */
  async contracts(contractIds: readonly string[]): Promise<(contractId: string) => ContractView | undefined> {
    const contracts = new Map((await this.store.contracts(contractIds)).map((c) => [c.contractId, c]))
    const txIds = [...contracts.values()].flatMap((c) =>
      c.headTxId === undefined ? [c.createTxId] : [c.createTxId, c.headTxId]
    )
    const txs = new Map((await this.store.txs(txIds)).map((t) => [t.txId, t]))
    const payouts = new Map<string, PayoutRow[]>()
    for (const p of await this.store.unclaimedPayoutsOf([...contracts.keys()])) {
      payouts.set(p.contractId, [...(payouts.get(p.contractId) ?? []), p])
    }
    return (contractId) => {
      const c = contracts.get(contractId)
      const createRow = c === undefined ? undefined : txs.get(c.createTxId)
      if (c === undefined || createRow === undefined) return undefined
      const head = c.headTxId === undefined ? undefined : txs.get(c.headTxId)
      return this.contractView(c, createRow, head, payouts.get(contractId) ?? [])
    }
  }

  private contractView(
    c: ContractRow,
    createRow: TxRow,
    head: TxRow | undefined,
    payouts: readonly PayoutRow[]
  ): ContractView {
    const created = recordOf(createRow, 'create')
    const initial = decodeMarloweData(created.datum)
    const view = {
      contractId: c.contractId,
      rolesCurrency: c.rolesCurrency,
      tags: created.tags,
      metadata: created.metadata,
      status: createRow.status,
      ...block(createRow),
      initialContract: initial.contract,
      initialState: initial.state,
      ...unsigned(createRow),
      unclaimedPayouts: payouts.map((p) => this.payout(p)),
      marloweAddress: created.marloweAddress
    }
    if (head === undefined) {
      return { ...view, current: { contract: initial.contract, state: initial.state }, assets: created.assets }
    }
    return { ...view, ...this.headState(c.contractId, head, created) }
  }

  private headState(contractId: string, head: TxRow, created: CreateRecord): Pick<ContractView, 'current' | 'assets'> {
    if (head.kind === 'create') {
      const md = decodeMarloweData(created.datum)
      return { current: { contract: md.contract, state: md.state, utxo: contractId }, assets: created.assets }
    }
    const output = recordOf(head, 'apply').output
    if (output === undefined) return { assets: NO_ASSETS }
    const md = decodeMarloweData(output.datum)
    return { current: { contract: md.contract, state: md.state, utxo: output.ref }, assets: output.assets }
  }

  async transaction(row: TxRow, record: ApplyRecord): Promise<TransactionView> {
    const input = decodeMarloweData(record.inputDatum)
    const output = record.output === undefined ? undefined : decodeMarloweData(record.output.datum)
    const contractId = row.contractId ?? ''
    // Both by index, from this transaction alone: a view never reads the rest of the contract's history.
    const consuming = record.output === undefined ? undefined : await this.store.spenderOf(record.output.ref)
    const paid = new Map((await this.store.payoutsOfTx(row.txId)).map((p) => [p.payoutId, p]))
    return {
      contractId,
      transactionId: row.txId,
      tags: record.tags,
      metadata: record.metadata,
      status: row.status,
      ...block(row),
      inputUtxo: record.input,
      inputContract: input.contract,
      inputState: input.state,
      inputs: record.inputs,
      ...(record.output === undefined || output === undefined
        ? {}
        : { output: { utxo: record.output.ref, contract: output.contract, state: output.state } }),
      assets: record.output?.assets ?? NO_ASSETS,
      payouts: record.payouts.map((p) => {
        const stored = paid.get(p.ref)
        return stored !== undefined ? this.payout(stored) : this.unstoredPayout(p, contractId, row.txId)
      }),
      ...(consuming === undefined ? {} : { consumingTx: consuming }),
      ...(record.invalidBefore === undefined ? {} : { invalidBefore: record.invalidBefore.time }),
      ...(record.invalidHereafter === undefined ? {} : { invalidHereafter: record.invalidHereafter.time }),
      interval: record.interval,
      ...semanticOutput(record, input),
      ...unsigned(row)
    }
  }

  async withdrawal(row: TxRow): Promise<WithdrawalView> {
    const record = recordOf(row, 'withdraw')
    const stored = new Map((await this.store.payoutsOfWithdrawal(row.txId)).map((p) => [p.payoutId, p]))
    const payouts: PayoutView[] = []
    for (const p of record.payouts) {
      const known = stored.get(p.ref) ?? (await this.store.payout(p.ref))
      payouts.push(
        known !== undefined
          ? this.payout(known)
          : this.unstoredPayout(p, '', p.ref.slice(0, 64), row.status === 'confirmed' ? row.txId : undefined)
      )
    }
    return {
      withdrawalId: row.txId,
      status: row.status,
      ...block(row),
      payouts,
      ...unsigned(row)
    }
  }
}

/** The transaction's semantics, left out when a value goes beyond the limit: the rest of the view still stands. */
function semanticOutput(record: ApplyRecord, input: MarloweData): Pick<TransactionView, 'semanticOutput'> {
  try {
    return {
      semanticOutput: computeTransaction(
        { interval: record.interval, inputs: record.inputs },
        input.state,
        input.contract
      )
    }
  } catch (e) {
    if (e instanceof ValueTooLargeError) return {}
    throw e
  }
}
