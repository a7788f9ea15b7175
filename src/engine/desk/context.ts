/**
 * What every group of calls shares: the engine parts, the wallets, the chain's clock, stored builds by tx id,
 * and one way to review a transaction — so a build, a stored tx and an imported file are reviewed alike.
 */
import type { AppStatus, PreparedTx, TxKind } from '../../api/contract'
import { ChainError, type ChainProvider, type ChainTip, type TxOutRef } from '../../chain/provider'
import { bytesToHex } from '../../core/bytes'
import type { TxReview } from '../../core/cardano/review'
import type { JsonObject } from '../../core/json/lossless'
import type { ServiceStore, TxRow } from '../../store/service-store'
import { SlotClock } from '../build'
import type { EngineError } from '../errors'
import type { Keystore } from '../keys'
import { reviewContext, type ReviewFacts } from '../offline-tx'
import type { MarloweService } from '../service'
import { reviewOffThread } from '../worker'
import { chainFacts, marloweScripts } from './chain-facts'
import type { HardwareDevices } from './device-calls'
import { deskFailure } from './errors'
import { ActivityTracker } from './progress'
import { Wallets } from './wallets'

/** The sandbox's faucet and clock: only the sandbox has them. */
export interface SandboxControls {
  fund(address: string, lovelace: bigint): Promise<TxOutRef>
  advanceTo(posixMs: bigint): Promise<ChainTip>
}

/** The stored builds, by tx id and by contract (the service store fits). */
export type BuildStore = Pick<ServiceStore, 'tx' | 'txs' | 'txsOfContract' | 'txsWithStatus' | 'storedContractPage'>

export interface DeskOptions {
  readonly service: MarloweService
  readonly store: BuildStore
  readonly keystore: Keystore
  /** Present on the sandbox only; `sandbox.*` calls are refused without it. */
  readonly sandbox?: SandboxControls
  /** The app's version, for `app.status`. */
  readonly version: string
  /** Epoch ms; injectable for tests. */
  readonly now?: () => number
  /** Where long calls publish their stage; a host shares one across engine switches. Default: a new one. */
  readonly progress?: ActivityTracker
  /** How hardware wallets are reached; default: USB. */
  readonly hardware?: HardwareDevices
}

/** Reviews remembered for signing: far more than a person has open at once. */
const MAX_REVIEWED = 1000

/** The failure for a transaction id that names no build of this app. */
export function notBuiltHere(txId: string): EngineError {
  return deskFailure('NotFound', 'TxNotFound', `there is no transaction ${txId} built here`, { txId })
}

export class DeskContext {
  readonly service: MarloweService
  readonly provider: ChainProvider
  readonly store: BuildStore
  readonly keystore: Keystore
  readonly wallets: Wallets
  readonly sandbox: SandboxControls | undefined
  readonly version: string
  readonly progress: ActivityTracker
  private readonly now: () => number

  constructor(options: DeskOptions) {
    this.service = options.service
    this.provider = options.service.provider
    this.store = options.store
    this.keystore = options.keystore
    this.wallets = new Wallets(options.keystore, this.provider, (refs) => options.service.heldBy(refs))
    this.sandbox = options.sandbox
    this.version = options.version
    this.now = options.now ?? Date.now
    this.progress = options.progress ?? new ActivityTracker(this.now)
  }

  /** Transactions reviewed by this engine, oldest first (bounded: the review of a long-gone one lapses). */
  private readonly reviewed = new Set<string>()

  /** With the node unreachable the status still answers (an air-gapped Desk opens), saying so in `offline`. */
  async status(): Promise<AppStatus> {
    const read = await Promise.all([this.provider.tip(), this.provider.eraSummaries()]).catch((e: unknown) => {
      if (e instanceof ChainError && e.kind === 'Unavailable') return e
      throw e
    })
    if (read instanceof ChainError) {
      return {
        version: this.version,
        network: this.provider.network,
        chainTime: BigInt(this.now()),
        offline: `no ${this.provider.network} node can be reached (${read.reason})`
      }
    }
    const [tip, eras] = read
    const time = new SlotClock(eras, tip.slot, 0n).slotToTime(tip.slot)
    return {
      version: this.version,
      network: this.provider.network,
      tip: { slot: tip.slot, blockNo: tip.blockNo, time },
      // The sandbox's clock is its tip (it can run ahead of the wall clock); a real chain's is the wall clock.
      chainTime: this.sandbox === undefined ? BigInt(this.now()) : time
    }
  }

  async chainTime(): Promise<bigint> {
    return (await this.status()).chainTime
  }

  /** A build this app (or its HTTP API) stored, or a NotFound failure. */
  async build(txId: string): Promise<TxRow> {
    const row = await this.store.tx(txId)
    if (row === undefined) throw notBuiltHere(txId)
    return row
  }

  /** Reviews `tx` with the chain's facts when given, and every wallet of the keystore as "own". */
  async review(tx: Uint8Array, facts: ReviewFacts | undefined): Promise<TxReview> {
    const base = {
      wallets: await this.wallets.ownWallets(),
      marloweScripts: marloweScripts(this.provider),
      networkId: this.provider.networkId,
      now: await this.chainTime().catch(() => BigInt(this.now()))
    }
    const context = reviewContext(base, facts)
    const review = await reviewOffThread(tx, context)
    this.reviewed.delete(review.txId)
    this.reviewed.add(review.txId)
    if (this.reviewed.size > MAX_REVIEWED) this.reviewed.delete(this.reviewed.values().next().value!)
    return review
  }

  /**
   * Refuses to sign a transaction this engine has not reviewed: signing acts only on bytes whose review was
   * shown (a build's comes with it, a file's with its import), never on a body a caller brings unseen.
   */
  checkReviewed(txId: string): void {
    if (!this.reviewed.has(txId)) {
      throw deskFailure(
        'Conflict',
        'NotReviewed',
        `transaction ${txId} has not been reviewed here: review it (or import its file) before signing`,
        { txId }
      )
    }
  }

  /** Reviews `tx` against the chain as it is now. */
  async reviewOnChain(tx: Uint8Array): Promise<TxReview> {
    return this.review(tx, await chainFacts(this.provider, tx))
  }

  async prepared(
    kind: TxKind,
    built: { txId: string; tx: Uint8Array; contractId?: string; safetyErrors?: readonly JsonObject[] }
  ): Promise<PreparedTx> {
    return {
      kind,
      txId: built.txId,
      ...(built.contractId === undefined ? {} : { contractId: built.contractId }),
      review: await this.reviewOnChain(built.tx),
      cborHex: bytesToHex(built.tx),
      safetyErrors: built.safetyErrors ?? []
    }
  }
}
