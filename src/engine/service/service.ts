/**
 * `MarloweService`: the one set of operations the HTTP API, the CLI and the desktop app call — build
 * (create, apply inputs, withdraw), submit, and read (contracts, transactions, withdrawals, payouts, next
 * steps, health). Every build is stored before it is returned, so an unsigned tx survives a restart; a submit
 * answers once the node accepted the tx; the follower (./follower.ts) moves statuses on from there.
 */
import { deploymentOf, payoutValidatorAddress } from '../../chain/deployments'
import { ChainError, type ChainProvider, type ChainTip, type TxOutRef } from '../../chain/provider'
import type { JsonObject } from '../../core/json/lossless'
import { next as nextSteps, type NextSteps } from '../../core/marlowe/next'
import { decodeMarloweData, encodePayoutDatum } from '../../core/marlowe/plutus/marlowe-data'
import type { MarloweData } from '../../core/marlowe/types'
import type { HeldBy, PageRequest, PayoutRow, ServiceStore, TxRow } from '../../store/service-store'
import {
  evaluating,
  formatRef,
  parseRef,
  type CreateRequest,
  type MarloweTxBuilder,
  type WalletRequest,
  SlotClock
} from '../build'
import { EngineError } from '../errors'
import type { TransactionFile } from '../sign'
import { contractPartyKeys, contractQuery } from './parties'
import { chooseBurns } from './burns'
import { applyRecord, burnRecord, createRecord, storedRecord, withdrawRecord } from './records'
import type { RoleTokenFilter } from './role-token-filter'
import { signedTransaction, type SignedForm } from './signed-tx'
import type { ContractSources, SourceWithContinuations } from './sources'
import { readableRows, readStored } from './unreadable'
import { unneededWitnessKeys } from './witness-keys'
import type {
  ApplyInputsRequest,
  ApplyInputsResult,
  BuildRef,
  BurnResult,
  ContractFilter,
  ContractHeader,
  ContractView,
  CreateContractRequest,
  CreateContractResult,
  Labelled,
  NextRequest,
  PayoutFilter,
  PayoutView,
  SignedSubmission,
  SubmitOutcome,
  TransactionHeader,
  TransactionView,
  WithdrawalView,
  WithdrawPayoutsRequest,
  WithdrawResult
} from './types'
import { contractHeader, currentOutputOf, recordOf, transactionHeader, unsignedOf, Views } from './views'

/** Build failures that outputs held by other builds can cause. */
const HELD_INPUT_FAILURES: ReadonlySet<string> = new Set(['CoinSelectionFailed', 'RoleTokenNotFound'])
/** Unsigned builds one build may supersede before it gives up (each frees at least one output). */
const MAX_SUPERSEDED = 16

interface HeldOutputs {
  readonly builds: readonly HeldBy[]
  /** Lovelace of each of the wallet's outputs, by `txid#ix`. */
  readonly lovelace: ReadonlyMap<string, bigint>
}

function superseded(row: TxRow): EngineError {
  return new EngineError(
    'Conflict',
    'BuildSuperseded',
    `transaction ${row.txId} was superseded: a newer build of the same wallet needed its inputs, so it can no longer be submitted; build it again`,
    { txId: row.txId, supersededAt: row.supersededAt ?? null }
  )
}

/** A submit of a build that is no longer unsigned (submitted, on chain, or being submitted now). */
function alreadySubmitted(row: TxRow, status: string): EngineError {
  return new EngineError('Conflict', 'AlreadySubmitted', `transaction ${row.txId} is already ${status}`, {
    txId: row.txId,
    kind: row.kind,
    status
  })
}

function discarded(row: TxRow): EngineError {
  return new EngineError(
    'Conflict',
    'BuildDiscarded',
    `transaction ${row.txId} was discarded, so it can no longer be submitted; build it again`,
    { txId: row.txId, discardedAt: row.discardedAt ?? null }
  )
}

/** The failure, with what of the wallet is held and by which builds, in words and in its details. */
function withHeldInputs(e: EngineError, held: HeldOutputs): EngineError {
  if (held.builds.length === 0) return e
  const lovelace = held.builds.flatMap((b) => b.refs).reduce((sum, ref) => sum + (held.lovelace.get(ref) ?? 0n), 0n)
  const builds = held.builds.map((b) => `${b.txId} (${b.superseded ? 'superseded' : b.status})`)
  const message = `${e.message}; ${builds.length} pending transaction(s) hold ${lovelace} lovelace of this wallet's outputs: ${builds.join(', ')}`
  return new EngineError(e.kind, e.code, message, {
    ...e.details,
    heldBy: held.builds.map((b) => ({ txId: b.txId, status: b.status, outputs: [...b.refs] }))
  })
}

/** Why a stored build can no longer be submitted, if it cannot. */
function unsubmittable(row: TxRow): EngineError | undefined {
  if (row.status !== 'unsigned') return alreadySubmitted(row, row.status)
  if (row.discardedAt !== undefined) return discarded(row)
  if (row.supersededAt !== undefined) return superseded(row)
  return undefined
}

/** Which build a stored transaction is: its kind, and the contract it creates or applies inputs to. */
function buildRefOf(row: TxRow): BuildRef {
  return { kind: row.kind, txId: row.txId, ...(row.contractId === undefined ? {} : { contractId: row.contractId }) }
}

/** Runtime's safety findings a creation or application was built with (a withdrawal or burn has none). */
export function safetyErrorsOf(row: TxRow): readonly JsonObject[] {
  return row.kind === 'create' || row.kind === 'apply' ? recordOf(row, row.kind).safetyErrors : []
}

export interface ServiceOptions {
  readonly provider: ChainProvider
  readonly store: ServiceStore
  readonly builder: MarloweTxBuilder
  /** The contract store: sources, merkleized creates, and the continuations an apply reveals. */
  readonly sources: ContractSources
  /** Epoch ms; injectable for tests. */
  readonly now?: () => number
}

/** The era every build is made in: the builder writes Conway transactions. */
const BUILD_ERA = 'Conway'

const STATUS_TTL_MS = 1000

export interface ChainStatus {
  readonly tip: ChainTip
  /** POSIX ms of the tip's slot. */
  readonly tipTime: bigint
}

const notFound = (code: string, message: string): EngineError => new EngineError('NotFound', code, message)

function fromSource(
  { sourceId: _, ...request }: Extract<CreateContractRequest, { readonly sourceId: string }>,
  source: SourceWithContinuations
): CreateRequest & Labelled {
  return { ...request, contract: source.contract, continuations: source.continuations }
}

export class MarloweService {
  readonly provider: ChainProvider
  readonly sources: ContractSources
  private readonly store: ServiceStore
  private readonly builder: MarloweTxBuilder
  private readonly now: () => number
  private readonly views: Views
  private status: { readonly at: number; readonly value: ChainStatus } | undefined
  /** Submits in progress, so that two PUTs of one tx cannot both reach the node. */
  private readonly inFlight = new Set<string>()

  constructor(options: ServiceOptions) {
    this.provider = options.provider
    this.sources = options.sources
    this.store = options.store
    this.builder = options.builder
    this.now = options.now ?? Date.now
    this.views = new Views(this.store, payoutValidatorAddress(deploymentOf(options.provider)))
  }

  // ---- builds ---------------------------------------------------------------------------------------------

  /** A `sourceId` creates the stored contract merkleized, its continuations known to the safety checks. */
  async createContract(wallet: WalletRequest, asked: CreateContractRequest): Promise<CreateContractResult> {
    const request =
      'sourceId' in asked ? fromSource(asked, await this.sources.withContinuations(asked.sourceId)) : asked
    const build = await this.freeingInputs(wallet, () => this.builder.create(wallet, request))
    const contractId = formatRef(build.contractId)
    await this.keep(build.reservation.key, () =>
      this.store.insertBuilt({
        txId: build.txId,
        kind: 'create',
        contractId,
        rolesCurrency: build.rolesCurrency,
        era: BUILD_ERA,
        unsignedTx: build.tx,
        reservationKey: build.reservation.key,
        createdAt: this.now(),
        ...storedRecord(createRecord(build, { tags: request.tags, metadata: request.metadata })),
        parties: contractPartyKeys(build.datum)
      })
    )
    return { contractId, unsigned: unsignedOf(await this.mustTx(build.txId)), safetyErrors: build.safetyErrors }
  }

  async applyInputs(id: string, wallet: WalletRequest, request: ApplyInputsRequest): Promise<ApplyInputsResult> {
    const contractId = id.toLowerCase()
    const head = await this.confirmedHead(contractId, 'LoadMarloweContextErrorNotFound')
    const current = await readStored('contract', contractId, () => currentOutputOf(head))
    if (current === undefined) {
      throw new EngineError(
        'BadRequest',
        'ScriptOutputNotFound',
        `contract ${contractId} has closed: it takes no more inputs`
      )
    }
    const continuations = await this.sources.continuationsOf(
      await readStored('contract', contractId, () => decodeMarloweData(current.datum).contract)
    )
    const build = await this.freeingInputs(wallet, () =>
      this.builder.applyInputs(wallet, {
        ...request,
        continuation: (hash) => continuations.get(hash),
        contractId: mustRef(contractId),
        marloweUtxo: mustRef(current.ref),
        datum: current.datum
      })
    )
    await this.keep(build.reservation.key, () =>
      this.store.insertBuilt({
        txId: build.txId,
        kind: 'apply',
        contractId,
        era: BUILD_ERA,
        unsignedTx: build.tx,
        reservationKey: build.reservation.key,
        createdAt: this.now(),
        ...storedRecord(applyRecord(build, current.datum, { tags: request.tags, metadata: request.metadata }))
      })
    )
    return {
      contractId,
      transactionId: build.txId,
      unsigned: unsignedOf(await this.mustTx(build.txId)),
      safetyErrors: build.safetyErrors
    }
  }

  async withdraw(wallet: WalletRequest, request: WithdrawPayoutsRequest): Promise<WithdrawResult> {
    const datums = new Map<string, Uint8Array>()
    for (const ref of request.payouts) {
      const known = await this.store.payout(formatRef(ref))
      if (known !== undefined) {
        datums.set(known.payoutId, encodePayoutDatum({ rolesCurrency: known.rolesCurrency, role: known.role }))
      }
    }
    const build = await this.freeingInputs(wallet, () =>
      this.builder.withdraw(wallet, { payouts: request.payouts, datums })
    )
    await this.keep(build.reservation.key, () =>
      this.store.insertBuilt({
        txId: build.txId,
        kind: 'withdraw',
        era: BUILD_ERA,
        unsignedTx: build.tx,
        reservationKey: build.reservation.key,
        createdAt: this.now(),
        ...storedRecord(withdrawRecord(build))
      })
    )
    return { withdrawalId: build.txId, unsigned: unsignedOf(await this.mustTx(build.txId)) }
  }

  /**
   * Burns the wallet's role tokens of closed contracts that the filter picks (POST /role-tokens/burnTxs): 400
   * `BurnRolesActive` when it picks a token of a contract still open (unless `skipActive` leaves those out),
   * `BurnNoTokensToBurn` when it picks none.
   */
  async burnRoleTokens(wallet: WalletRequest, filter: RoleTokenFilter, skipActive = false): Promise<BurnResult> {
    const choose = (held: Parameters<typeof chooseBurns>[1]) => chooseBurns(this.store, held, filter, skipActive)
    const build = await this.freeingInputs(wallet, () => this.builder.burn(wallet, { choose }))
    await this.keep(build.reservation.key, () =>
      this.store.insertBuilt({
        txId: build.txId,
        kind: 'burn',
        era: BUILD_ERA,
        unsignedTx: build.tx,
        reservationKey: build.reservation.key,
        createdAt: this.now(),
        ...storedRecord(burnRecord(build))
      })
    )
    return { txId: build.txId, burned: build.burned, unsigned: unsignedOf(await this.mustTx(build.txId)) }
  }

  /**
   * A build never fails because of our own unsigned builds: when the wallet's outputs it needs are held by them,
   * the oldest such build is superseded (its reservation freed, its submit refused from then on) and the build
   * tried again. A failure left after that says which of the wallet's outputs are held, and by what.
   */
  private async freeingInputs<T>(wallet: WalletRequest, build: () => Promise<T>): Promise<T> {
    for (let superseded = 0; ; superseded += 1) {
      try {
        return await build()
      } catch (e) {
        // Losing every race for free inputs to concurrent builds (kind Unavailable) is not a lack of free inputs:
        // superseding a build then would throw away a good one while the wallet has funds.
        if (!(e instanceof EngineError && HELD_INPUT_FAILURES.has(e.code)) || e.kind === 'Unavailable') throw e
        const held = await this.heldWalletOutputs(wallet)
        const oldest = held.builds.find((b) => b.status === 'unsigned' && !b.superseded && !this.inFlight.has(b.txId))
        if (oldest === undefined || superseded >= MAX_SUPERSEDED) throw withHeldInputs(e, held)
        if (await this.store.markSuperseded(oldest.txId, this.now())) await this.builder.release(oldest.reservationKey)
      }
    }
  }

  /** The builds whose live reservations spend any of `refs` (`txid#ix`), oldest first. */
  heldBy(refs: readonly string[]): Promise<HeldBy[]> {
    return this.store.heldBy(refs, this.now())
  }

  /** The wallet's outputs that live reservations hold, and the builds holding them (oldest first). */
  private async heldWalletOutputs(wallet: WalletRequest): Promise<HeldOutputs> {
    const utxos = await this.provider.utxosAt([wallet.changeAddress, ...(wallet.extraAddresses ?? [])])
    const lovelace = new Map(utxos.map((u) => [formatRef(u.ref), u.value.lovelace]))
    const builds = await this.heldBy([...lovelace.keys()])
    return { builds, lovelace }
  }

  /**
   * The user gives up an unsigned build: its inputs are freed for other builds and its submit is refused from
   * then on. Discarding it again changes nothing; a transaction already submitted cannot be taken back.
   */
  async discard(id: string): Promise<TxRow> {
    const txId = id.toLowerCase()
    const row = await this.store.tx(txId)
    if (row === undefined) throw notFound('TxNotFound', `there is no transaction ${txId} built here`)
    const undiscardable = (status: string): EngineError =>
      new EngineError(
        'Conflict',
        'AlreadySubmitted',
        `transaction ${txId} is ${status}: only an unsigned build can be discarded`,
        { txId, status }
      )
    if (row.status !== 'unsigned') throw undiscardable(row.status)
    if (this.inFlight.has(txId)) throw undiscardable('being submitted')
    if (!(await this.store.markDiscarded(txId, this.now()))) {
      // Discarded before (harmless), or submitted meanwhile — perhaps by another process sharing the store.
      const now = await this.mustTx(txId)
      if (now.discardedAt !== undefined && now.status === 'unsigned') return now
      throw undiscardable(now.status === 'unsigned' ? 'being submitted' : now.status)
    }
    await this.builder.release(row.reservationKey)
    return await this.mustTx(txId)
  }

  /** A build that cannot be stored must not keep its inputs reserved. */
  private async keep(reservationKey: string, store: () => Promise<void>): Promise<void> {
    try {
      await store()
    } catch (e) {
      await this.builder.release(reservationKey)
      throw e
    }
  }

  // ---- submit ---------------------------------------------------------------------------------------------

  /**
   * The stored build `txId` while it can still be submitted: NotFound when there is none, Conflict once it was
   * submitted (or is being submitted now), discarded or superseded.
   */
  async submittable(txId: string): Promise<TxRow> {
    const row = await this.store.tx(txId.toLowerCase())
    if (row === undefined) throw notFound('TxNotFound', `there is no transaction ${txId} built here`)
    if (this.inFlight.has(row.txId)) throw alreadySubmitted(row, 'being submitted')
    const refusal = unsubmittable(row)
    if (refusal !== undefined) throw refusal
    return row
  }

  /**
   * Submits the signed form of the stored build `txId`; resolves once the node accepted it, or with
   * `alreadyOnChain` when the node turned it down because it had it already.
   */
  async submitBuild(txId: string, signedForm: SignedForm): Promise<SubmitOutcome> {
    const row = await this.submittable(txId)
    const signed = signedTransaction({ txId: row.txId, era: BUILD_ERA, unsignedTx: row.unsignedTx }, signedForm)
    const unneeded = await unneededWitnessKeys(this.provider, signed)
    if (unneeded.length > 0) {
      throw new EngineError(
        'BadRequest',
        'UnneededSignature',
        `the transaction does not need a signature by key ${unneeded.join(', ')}: the node would refuse it; sign with the wallet that spends its inputs`,
        { keyHashes: unneeded }
      )
    }
    if (this.inFlight.has(row.txId)) throw alreadySubmitted(row, 'being submitted')
    this.inFlight.add(row.txId)
    try {
      // Another process sharing the store may have submitted, superseded or discarded it since it was read.
      if (!(await this.store.recordSubmitAttempt(row.txId, signed))) {
        throw unsubmittable(await this.mustTx(row.txId)) ?? alreadySubmitted(row, 'being submitted')
      }
      let outcome: SubmitOutcome = 'accepted'
      try {
        await this.sendToNode(signed)
      } catch (e) {
        if (!(e instanceof EngineError && e.kind === 'Forbidden')) throw e
        // A refusal can mean the node already has this very tx (an earlier attempt whose answer was lost, or
        // the wallet submitted it too): then the submit has happened and must not be forgotten.
        if (!(await this.nodeHas(row.txId))) {
          await this.store.clearSubmitAttempt(row.txId)
          throw e
        }
        outcome = 'alreadyOnChain'
      }
      // The inputs stay reserved until the tx is confirmed: until then the ledger still lists them as unspent.
      if (!(await this.store.markSubmitted(row.txId, signed, this.now()))) throw alreadySubmitted(row, 'submitted')
      return outcome
    } finally {
      this.inFlight.delete(row.txId)
    }
  }

  /**
   * A signed transaction, whoever built it (`tx submit` through a running `serve`): one of our builds goes
   * through `submit`, checked against the build and recorded as submitted; any other goes to the node as it is
   * (the chain index then shows what it did). Resolves once the node accepted it. Safe to repeat: a transaction
   * already submitted, or that the node refuses because it already has it, is said so instead of sent again.
   */
  async submitSigned(file: Pick<TransactionFile, 'tx' | 'txId'>): Promise<SignedSubmission> {
    const { txId } = file
    const row = await this.store.tx(txId)
    const answer = (already?: SignedSubmission['already']): SignedSubmission => ({
      txId,
      ...(row === undefined ? {} : { build: buildRefOf(row) }),
      ...(already === undefined ? {} : { already })
    })
    if (row !== undefined && row.status !== 'unsigned')
      return answer((await this.onChain(txId)) ?? { status: 'submitted' })
    try {
      if (row === undefined) await this.sendToNode(file.tx)
      else if ((await this.submitBuild(txId, { tx: file.tx })) === 'alreadyOnChain') {
        return answer((await this.onChain(txId)) ?? { status: 'submitted' })
      }
      return answer()
    } catch (e) {
      if (!(e instanceof EngineError && e.kind === 'Forbidden')) throw e
      const already = await this.onChain(txId)
      if (already === undefined) throw e
      return answer(already)
    }
  }

  /** Where the node has the transaction (in a block, or its mempool), if it does. */
  private async onChain(txId: string): Promise<SignedSubmission['already'] | undefined> {
    try {
      const status = await this.provider.txStatus(txId)
      return status.status === 'unknown' ? undefined : status
    } catch (e) {
      if (e instanceof ChainError) return undefined
      throw e
    }
  }

  private async nodeHas(txId: string): Promise<boolean> {
    try {
      return (await this.provider.txStatus(txId)).status !== 'unknown'
    } catch (e) {
      if (e instanceof ChainError) return false
      throw e
    }
  }

  private async sendToNode(tx: Uint8Array): Promise<void> {
    try {
      await this.provider.submit(tx)
    } catch (e) {
      if (!(e instanceof ChainError)) throw e
      if (e.kind === 'Rejected' || e.kind === 'EvaluationFailed') {
        throw new EngineError('Forbidden', 'SubmissionError', `SubmitFailed ${JSON.stringify(e.reason)}`, {
          reason: e.reason,
          ...e.details
        })
      }
      throw new EngineError(
        'Unavailable',
        'NodeUnavailable',
        `the node did not take the transaction (${e.reason}); it is kept and can be submitted again`,
        { reason: e.reason }
      )
    }
  }

  /** Changes whenever anything the reads report may have changed (see ServiceStore.version). */
  get stateVersion(): number {
    return this.store.version
  }

  // ---- reads ----------------------------------------------------------------------------------------------

  /** The stored build `txId`, whatever its status. */
  builtTx(txId: string): Promise<TxRow | undefined> {
    return this.store.tx(txId.toLowerCase())
  }

  /** The stored build that creates the contract `contractId`. */
  async creationOf(contractId: string): Promise<TxRow | undefined> {
    const contract = await this.store.contract(contractId.toLowerCase())
    return contract === undefined ? undefined : this.store.tx(contract.createTxId)
  }

  async getContract(id: string): Promise<ContractView> {
    const contractId = id.toLowerCase()
    const viewOf = await this.views.contracts([contractId])
    return readStored('contract', contractId, () => storedView(viewOf(contractId)))
  }

  /**
   * The views of the contracts `ids` that read back, in their order (those that do not are left out, see
   * readableRows): their rows are read in a few queries for them all, not a few for each.
   */
  async contractViews(ids: readonly string[]): Promise<ContractView[]> {
    const viewOf = await this.views.contracts(ids)
    return readableRows(ids, (id) => readStored('contract', id, () => storedView(viewOf(id))))
  }

  /** Contracts whose creation is confirmed, newest first (Runtime lists only what is on chain). */
  async listContracts(filter: ContractFilter = {}): Promise<ContractView[]> {
    const found = await this.store.contractPage(contractQuery(filter), { order: 'desc', offset: 0, limit: -1 })
    return this.contractViews((found?.rows ?? []).map((row) => row.contractId))
  }

  /** Every stored contract that matches, whatever its status (a just-built one too), newest build first. */
  async storedContracts(filter: ContractFilter = {}): Promise<ContractView[]> {
    const rows = await this.store.contractsWhere(contractQuery(filter))
    return this.contractViews(rows.map((row) => row.contractId))
  }

  /**
   * One page of the contracts on chain that match: the ids the page spans, the headers of those that read back,
   * and how many match in all; undefined when `page.start` is not one of them. Only the page's contracts are
   * read, and no datum.
   */
  async pageContracts(
    filter: ContractFilter,
    page: PageRequest
  ): Promise<{ readonly ids: string[]; readonly headers: ContractHeader[]; readonly total: number } | undefined> {
    const found = await this.store.contractPage(contractQuery(filter), page)
    if (found === undefined) return undefined
    return {
      ids: found.rows.map((row) => row.contractId),
      headers: await readableRows(found.rows, (row) =>
        readStored('contract', row.contractId, () => contractHeader(row))
      ),
      total: found.total
    }
  }

  /**
   * One page of every stored contract, whatever its status, newest build first, from `page.start` (a contract
   * id, included): the ids the page spans and the views of those that read back; undefined when `page.start` is
   * not stored. Only the page's contracts are read.
   */
  async pageStoredContracts(
    page: PageRequest
  ): Promise<{ readonly ids: string[]; readonly views: ContractView[] } | undefined> {
    const rows = await this.store.storedContractPage(page)
    if (rows === undefined) return undefined
    const ids = rows.map((row) => row.contractId)
    return { ids, views: await this.contractViews(ids) }
  }

  async getTransaction(contractId: string, transactionId: string): Promise<TransactionView> {
    const row = await this.store.tx(transactionId.toLowerCase())
    if (row === undefined || row.kind !== 'apply' || row.contractId !== contractId.toLowerCase()) {
      throw notFound('NotFound', 'Transaction not found')
    }
    return this.transactionView(row)
  }

  /** The confirmed input applications of a contract, newest first. */
  async listTransactions(id: string): Promise<TransactionView[]> {
    const contractId = id.toLowerCase()
    if ((await this.store.contract(contractId)) === undefined) throw notFound('NotFound', 'Contract not found')
    const rows = (await this.store.txsOfContract(contractId))
      .filter((t) => t.kind === 'apply' && t.status === 'confirmed')
      .sort(newestFirst)
    return readableRows(rows, (t) => this.transactionView(t))
  }

  /**
   * One page of a contract's confirmed input applications (Runtime's headers), newest first or oldest first: the
   * ids the page spans, the headers of those that read back, and how many there are in all; undefined when
   * `page.start` is not one of them. Only the page's rows are read, and no record or datum.
   */
  async pageTransactions(
    id: string,
    page: PageRequest
  ): Promise<{ readonly ids: string[]; readonly headers: TransactionHeader[]; readonly total: number } | undefined> {
    const contractId = id.toLowerCase()
    if ((await this.store.contract(contractId)) === undefined) throw notFound('NotFound', 'Contract not found')
    const found = await this.store.appliedTxPage(contractId, page)
    if (found === undefined) return undefined
    return {
      ids: found.rows.map((row) => row.txId),
      headers: await readableRows(found.rows, (row) =>
        readStored('transaction', row.txId, () => transactionHeader(row))
      ),
      total: found.total
    }
  }

  private transactionView(row: TxRow): Promise<TransactionView> {
    return readStored('transaction', row.txId, () => this.views.transaction(row, recordOf(row, 'apply')))
  }

  async getWithdrawal(withdrawalId: string): Promise<WithdrawalView> {
    const row = await this.store.tx(withdrawalId.toLowerCase())
    if (row === undefined || row.kind !== 'withdraw') throw notFound('NotFound', 'Withdrawal not found')
    return this.withdrawalView(row)
  }

  /** Confirmed withdrawals, newest first, optionally only those withdrawing payouts of given role currencies. */
  async listWithdrawals(roleCurrencies: readonly string[] = []): Promise<WithdrawalView[]> {
    return (await this.pageWithdrawals(roleCurrencies, { order: 'desc', offset: 0, limit: -1 }))?.views ?? []
  }

  /**
   * One page of the confirmed withdrawals that match, newest first or oldest first: the ids the page spans, the
   * views of those that read back, and how many match in all; undefined when `page.start` is not one of them.
   */
  async pageWithdrawals(
    roleCurrencies: readonly string[],
    page: PageRequest
  ): Promise<{ readonly ids: string[]; readonly views: WithdrawalView[]; readonly total: number } | undefined> {
    const found = await this.store.withdrawalPage(roleCurrencies, page)
    if (found === undefined) return undefined
    return {
      ids: found.rows.map((row) => row.txId),
      views: await readableRows(found.rows, (row) => this.withdrawalView(row)),
      total: found.total
    }
  }

  private withdrawalView(row: TxRow): Promise<WithdrawalView> {
    return readStored('withdrawal', row.txId, () => this.views.withdrawal(row))
  }

  async getPayout(payoutId: string): Promise<PayoutView> {
    const row = await this.store.payout(payoutId.toLowerCase())
    if (row === undefined) throw notFound('NotFound', 'Payout not found')
    return this.payoutView(row)
  }

  private payoutView(row: PayoutRow): Promise<PayoutView> {
    return readStored('payout', row.payoutId, () => this.views.payout(row))
  }

  /**
   * Payouts of confirmed transactions, newest first as Runtime orders them: by the paying transaction's place
   * in the chain (block number: blocks can share a slot on the sandbox), then its id, then the output index.
   */
  async listPayouts(filter: PayoutFilter = {}): Promise<PayoutView[]> {
    return (await this.pagePayouts(filter, { order: 'desc', offset: 0, limit: -1 }))?.views ?? []
  }

  /**
   * One page of the payouts that match, in Runtime's order or oldest first: the ids the page spans, the views of
   * those that read back, and how many match in all; undefined when `page.start` is not one of them.
   */
  async pagePayouts(
    filter: PayoutFilter,
    page: PageRequest
  ): Promise<{ readonly ids: string[]; readonly views: PayoutView[]; readonly total: number } | undefined> {
    const found = await this.store.payoutPage(
      {
        ...(filter.contractIds === undefined ? {} : { contractIds: filter.contractIds }),
        ...(filter.roleTokens === undefined
          ? {}
          : { roleTokens: filter.roleTokens.map((t) => ({ rolesCurrency: t.policyId, role: t.role })) }),
        ...(filter.status === undefined ? {} : { withdrawn: filter.status === 'withdrawn' })
      },
      page
    )
    if (found === undefined) return undefined
    return {
      ids: found.rows.map((row) => row.payoutId),
      views: await readableRows(found.rows, (row) => this.payoutView(row)),
      total: found.total
    }
  }

  /** What the contract accepts next in an interval (Runtime's GET /contracts/{id}/next). */
  async next(id: string, request: NextRequest): Promise<NextSteps> {
    const contractId = id.toLowerCase()
    const head = await this.confirmedHead(contractId, 'contractNotFound')
    const current = await readStored('contract', contractId, () => currentOutputOf(head))
    if (current === undefined) throw notFound('contractClosed', `contract ${contractId} has closed`)
    const md = await readStored('contract', contractId, () => decodeMarloweData(current.datum))
    return nextStepsOf(md, request)
  }

  /** The node's tip and the time of its slot, for every response's status headers; cached for a second. */
  async chainStatus(): Promise<ChainStatus> {
    const cached = this.status
    if (cached !== undefined && this.now() - cached.at < STATUS_TTL_MS) return cached.value
    const [tip, eras] = await Promise.all([this.provider.tip(), this.provider.eraSummaries()])
    const value = { tip, tipTime: new SlotClock(eras, tip.slot, 0n).slotToTime(tip.slot) }
    this.status = { at: this.now(), value }
    return value
  }

  /** The contract's newest confirmed transaction; `code` is the 404's errorCode when there is none. */
  private async confirmedHead(contractId: string, code: string): Promise<TxRow> {
    const contract = await this.store.contract(contractId)
    const head = contract?.headTxId === undefined ? undefined : await this.store.tx(contract.headTxId)
    if (contract === undefined) throw notFound(code, 'Contract not found')
    if (head === undefined)
      throw notFound(code, `contract ${contractId} is not on chain yet: wait until it is confirmed`)
    return head
  }

  private async mustTx(txId: string): Promise<TxRow> {
    const row = await this.store.tx(txId)
    if (row === undefined)
      throw new EngineError('Internal', 'CorruptStore', `transaction ${txId} vanished from the store`)
    return row
  }
}

/** A view of a contract that is stored (a contract that is not is NotFound). */
function storedView(view: ContractView | undefined): ContractView {
  if (view === undefined) throw notFound('NotFound', 'Contract not found')
  return view
}

/**
 * What a contract at `current` (its contract and state) accepts next in an interval: what `next` answers for a
 * contract whose head left it there, worked out from a view already read.
 */
export function nextStepsOf(current: Pick<MarloweData, 'contract' | 'state'>, request: NextRequest): NextSteps {
  const result = evaluating(() =>
    nextSteps({ timeInterval: request.interval }, current.state, current.contract, request.parties)
  )
  if (result.type === 'IntervalError') {
    throw new EngineError('BadRequest', 'invalidInterval', 'the interval does not fit the contract state', {
      error: result.error.type
    })
  }
  return result
}

function mustRef(text: string): TxOutRef {
  const ref = parseRef(text)
  if (ref === undefined) throw new EngineError('BadRequest', 'BadRequest', `Invalid contract id value: ${text}`)
  return ref
}

function newestFirst(a: TxRow, b: TxRow): number {
  const sa = a.block?.blockNo ?? 0n
  const sb = b.block?.blockNo ?? 0n
  return sa === sb ? (a.txId < b.txId ? 1 : -1) : sa < sb ? 1 : -1
}
