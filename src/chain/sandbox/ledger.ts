/**
 * The sandbox ledger: its UTxOs (indexed by reference and by address), the datums it has seen and its clock,
 * with `checks.ts` and `rules.ts` deciding what it accepts — all on our own decoding of the transaction bytes.
 * It confirms each accepted transaction at once, in its own block at the current slot: there is no mempool
 * between submit and confirmation, so two transactions spending one UTxO can never both land, and confirming
 * does not move the clock. Blocks get numbers 1, 2, … and hashes chained from the genesis id:
 * blake2b-256(previous block hash ‖ slot as 8 bytes big-endian ‖ tx id).
 */
import { formatRef } from '../../core/cardano/refs'
import { blake2bHex } from '../../core/blake2b'
import { hexToBytes } from '../../core/bytes'
import { decodeTransaction, parseAddressText, type DecodedTx } from '../../core/cardano/tx'
import {
  ChainError,
  type BlockPoint,
  type RedeemerBudget,
  type ScriptTxPage,
  type ScriptTxQuery,
  type TxOutRef,
  type Utxo
} from '../provider'
import { Costmdls, fromHex } from '@blaze-cardano/core'
import { checkBeforeSubmit } from './checks'
import {
  evaluatorWords,
  inThreadEvaluator,
  RecyclingEvaluator,
  type PlutusEvaluator,
  type PlutusOutcome,
  type PlutusSetup,
  type SpentOutput
} from './evaluator'
import { STAND_IN_GENESIS, type SandboxGenesis } from './genesis'
import { decodeTxIn, encodeOutput, encodeTxIn, outputAddressHex, toUtxo } from './outputs'
import { SANDBOX_BLAZE_PARAMS } from './params'
import { checkLedgerRules } from './rules'
import { ScriptTxLog } from './script-log'
import type { BlockRef, LedgerSnapshot } from './state-file'
import { UtxoSet } from './utxo-set'

export const SLOT_LENGTH_MS = 1000n
/**
 * Blocks back from the tip whose transactions the ledger always answers the status of (Cardano's security
 * parameter k: no rollback reaches further). Past them, it keeps only what still matters: transactions with an
 * output unspent, the chain index's, and genesis.
 */
export const RECENT_BLOCKS = 2160

const words = evaluatorWords

/** Our own decoding: byte-exact, and milliseconds where Blaze's takes seconds on a Marlowe datum. */
function decodeTx(bytes: Uint8Array, kind: 'Rejected' | 'EvaluationFailed'): DecodedTx {
  let tx: DecodedTx
  try {
    tx = decodeTransaction(bytes)
  } catch (e) {
    throw new ChainError(kind, `DeserialiseFailure: not a Conway transaction (${words(e)})`)
  }
  const unknown = [
    ...tx.body.unknownKeys.map((k) => `body field ${k}`),
    ...tx.witnessSet.unknownKeys.map((k) => `witness set field ${k}`)
  ]
  if (tx.body.hasUpdate) unknown.unshift('body field 6 (a pre-Conway update proposal)')
  if (unknown.length > 0) {
    throw new ChainError(kind, `DeserialiseFailure: not a Conway transaction (unknown ${unknown.join(', ')})`)
  }
  return tx
}

/** What Marlowe never does and this ledger does not keep the state for (stake, rewards, governance). */
function unsupported(tx: DecodedTx): string | undefined {
  const { body } = tx
  const parts = [
    body.certificates.length > 0 ? 'certificates' : undefined,
    body.withdrawals.length > 0 ? 'withdrawals' : undefined,
    body.votingProcedures.length > 0 ? 'votes' : undefined,
    body.proposals.length > 0 ? 'governance proposals' : undefined
  ].filter((p) => p !== undefined)
  return parts.length === 0
    ? undefined
    : `the sandbox ledger does not take ${parts.join(', ')}: it keeps no stake or governance state`
}

function nextBlockHash(previous: string, slot: bigint, txId: string): string {
  const bytes = new Uint8Array(32 + 8 + 32)
  bytes.set(hexToBytes(previous))
  new DataView(bytes.buffer).setBigUint64(32, slot)
  bytes.set(hexToBytes(txId), 40)
  return blake2bHex(bytes, 32)
}

/** A transaction the ledger took, as it took it. */
export interface Accepted {
  readonly txId: string
  readonly block: BlockRef
  readonly bytes: Uint8Array
  readonly tx: DecodedTx
  /** Whether the chain index keeps it (it pays to or spends from a script address). */
  readonly indexed: boolean
}

export interface LedgerOptions {
  /** Where the scripts run (default: on this thread, a recycling evaluator of the ledger's own). */
  readonly evaluate?: PlutusEvaluator
  /** The genesis this ledger starts from, or must have started from (default: the stand-ins'). */
  readonly genesis?: SandboxGenesis
  /** Blocks back from the tip whose transactions are all kept, and how often the rest is forgotten (default `RECENT_BLOCKS`). */
  readonly recentBlocks?: number
}

/**
 * What the ledger holds; the chain index grows with history, the rest with the UTxOs (the confirmed transactions:
 * the recent ones, and of the older ones those with an output unspent or in the chain index).
 */
interface LedgerState {
  readonly utxos: UtxoSet
  /** The datums of witness sets that unspent outputs name by hash (and those seen since the last forgetting). */
  readonly datums: Map<string, Uint8Array>
  readonly slot: bigint
  readonly tip: BlockRef
  readonly transactions: Map<string, BlockRef>
  readonly scriptTxs: ScriptTxLog
}

export class SandboxLedger {
  private readonly blockHashes = new Set<string>()
  private readonly plutus: PlutusSetup
  private readonly evaluator: PlutusEvaluator
  private readonly utxos: UtxoSet
  private readonly datums: Map<string, Uint8Array>
  private currentSlot: bigint
  private lastBlock: BlockRef
  private readonly transactions: Map<string, BlockRef>
  private readonly scriptTxs: ScriptTxLog
  private readonly recentBlocks: bigint

  private constructor(
    state: LedgerState,
    readonly zeroTime: bigint,
    private readonly genesisId: string,
    options: LedgerOptions
  ) {
    this.utxos = state.utxos
    this.datums = state.datums
    this.transactions = state.transactions
    this.scriptTxs = state.scriptTxs
    this.currentSlot = state.slot
    this.lastBlock = state.tip
    this.plutus = plutusSetup(zeroTime)
    this.evaluator = options.evaluate ?? inThreadEvaluator(new RecyclingEvaluator())
    this.recentBlocks = BigInt(options.recentBlocks ?? RECENT_BLOCKS)
    for (const block of this.transactions.values()) this.blockHashes.add(block.blockHash)
  }

  static genesis(zeroTime: bigint, options: LedgerOptions = {}): SandboxLedger {
    const genesis = options.genesis ?? STAND_IN_GENESIS
    const utxos = new UtxoSet()
    for (const o of genesis.outputs) {
      const value = { lovelace: o.lovelace, assets: {} }
      const scriptRef = o.scriptRef === undefined ? {} : { scriptRef: o.scriptRef }
      utxos.add(o.ref, encodeOutput({ address: o.address, value, ...scriptRef }))
    }
    const tip: BlockRef = { slot: 0n, blockNo: 0n, blockHash: genesis.id }
    const transactions = new Map(genesis.txIds.map((id) => [id, tip]))
    const state = { utxos, datums: new Map(), slot: 0n, tip, transactions, scriptTxs: new ScriptTxLog() }
    return new SandboxLedger(state, zeroTime, genesis.id, options)
  }

  /** Throws `Error` when the snapshot's contents do not decode (the caller reports the file as corrupt). */
  static restore(s: LedgerSnapshot, options: LedgerOptions = {}): SandboxLedger {
    const genesis = options.genesis ?? STAND_IN_GENESIS
    if (s.genesisId !== genesis.id) {
      const scripts = genesis.standIn ? 'the stand-in Marlowe scripts' : 'the given Marlowe validators'
      throw new Error(
        `it was made by another sandbox genesis (${s.genesisId}; this sandbox's, with ${scripts}, is ${genesis.id}): ` +
          'other Marlowe validators or another version of the app'
      )
    }
    if (s.slotLength !== SLOT_LENGTH_MS) throw new Error(`its slot length is ${s.slotLength} ms, not ${SLOT_LENGTH_MS}`)
    const utxos = new UtxoSet()
    s.utxos.forEach(([input, output], i) => {
      try {
        utxos.add(decodeTxIn(input), output, s.outputsChecked ? outputAddressHex(output) : undefined)
      } catch (e) {
        throw new Error(`utxos[${i}] does not decode: ${words(e)}`)
      }
    })
    const datums = new Map(s.datums)
    const state = {
      utxos,
      datums,
      slot: s.slot,
      tip: s.tip,
      transactions: new Map(s.transactions),
      scriptTxs: new ScriptTxLog(s.scriptTxs)
    }
    return new SandboxLedger(state, s.zeroTime, genesis.id, options)
  }

  snapshot(timeOffsetMs: bigint): LedgerSnapshot {
    return {
      genesisId: this.genesisId,
      zeroTime: this.zeroTime,
      slotLength: SLOT_LENGTH_MS,
      timeOffsetMs,
      slot: this.slot,
      tip: this.lastBlock,
      utxos: [...this.utxos.values()].map((u) => [encodeTxIn(u.ref), u.bytes] as const),
      datums: [...this.datums],
      transactions: this.transactions,
      scriptTxs: this.scriptTxs.entries()
    }
  }

  get slot(): bigint {
    return this.currentSlot
  }

  get tip(): BlockRef {
    return this.lastBlock
  }

  slotStartTime(slot: bigint): bigint {
    return this.zeroTime + slot * SLOT_LENGTH_MS
  }

  /** Moves the clock forward to `slot`; an earlier or equal slot leaves it where it is. */
  advanceToSlot(slot: bigint): void {
    if (slot > this.currentSlot) this.currentSlot = slot
  }

  private resolveDatum = (hash: string): Uint8Array | undefined => this.datums.get(hash)

  utxosAt(addresses: readonly string[]): Utxo[] {
    const wanted = new Set(
      addresses.map((a) => {
        try {
          return parseAddressText(a).hex
        } catch {
          throw new ChainError('Rejected', `not a Cardano address: ${JSON.stringify(a)}`)
        }
      })
    )
    return this.utxos.at(wanted).map((u) => toUtxo(u.ref, u.output, this.resolveDatum))
  }

  utxosByRef(refs: readonly TxOutRef[]): Utxo[] {
    const found: Utxo[] = []
    for (const ref of refs) {
      const utxo = this.utxos.get(ref)
      if (utxo !== undefined) found.push(toUtxo(ref, utxo.output, this.resolveDatum))
    }
    return found
  }

  async evaluate(bytes: Uint8Array, additionalUtxos: readonly Utxo[]): Promise<RedeemerBudget[]> {
    const tx = decodeTx(bytes, 'EvaluationFailed')
    const extra = new Map(additionalUtxos.map((u) => [formatRef(u.ref), u]))
    const { inputs, referenceInputs, collateral } = tx.body
    const spent = [...inputs, ...referenceInputs, ...collateral].map((input): SpentOutput => {
      const ref = encodeTxIn(input)
      const known = extra.get(formatRef(input))
      if (known !== undefined) return { ref, output: additionalOutput(known) }
      const utxo = this.utxos.get(input)
      if (utxo === undefined) {
        throw new ChainError(
          'EvaluationFailed',
          `input ${formatRef(input)} is neither on the ledger nor among the additional UTxOs`
        )
      }
      return { ref, output: utxo.bytes }
    })
    const outcome = await this.run(bytes, spent)
    if (outcome.type === 'failed') throw new ChainError('EvaluationFailed', outcome.words, { txId: tx.id })
    return outcome.budgets
  }

  /** The scripts of `tx` run by the ledger's evaluator. */
  private run(tx: Uint8Array, utxos: readonly SpentOutput[]): Promise<PlutusOutcome> {
    return this.evaluator({ setup: this.plutus, tx, utxos })
  }

  /**
   * Validates the transaction (our checks, then the ledger rules) and confirms it in a new block. The ledger must
   * not change while the scripts run (the sandbox's queue sees to it).
   */
  async submit(bytes: Uint8Array): Promise<Accepted> {
    const tx = decodeTx(bytes, 'Rejected')
    const refusal = unsupported(tx)
    if (refusal !== undefined) throw new ChainError('Rejected', refusal, { txId: tx.id })
    const output = (input: TxOutRef) => this.utxos.get(input)?.output
    checkBeforeSubmit(tx, { params: SANDBOX_BLAZE_PARAMS, output })
    await checkLedgerRules(tx, bytes, {
      params: SANDBOX_BLAZE_PARAMS,
      slot: this.currentSlot,
      output: (input) => this.utxos.get(input),
      evaluate: (txBytes, spent) => this.run(txBytes, spent)
    })
    return this.accept(tx, bytes, this.nextBlock(tx.id, this.currentSlot))
  }

  /**
   * Confirms again, in the block it was confirmed in, a transaction read back from the log (its rules were
   * checked when it was submitted). Throws `Error` when the block does not follow the tip.
   */
  replay(bytes: Uint8Array, block: BlockRef): Accepted {
    const tx = decodeTransaction(bytes)
    const expected = this.nextBlock(tx.id, block.slot)
    if (
      block.slot < this.lastBlock.slot ||
      block.blockNo !== expected.blockNo ||
      block.blockHash !== expected.blockHash
    ) {
      throw new Error(`the logged transaction ${tx.id} is not the one that follows block ${this.lastBlock.blockNo}`)
    }
    this.advanceToSlot(block.slot)
    return this.accept(tx, bytes, block)
  }

  /** The block after the tip holding just this transaction. */
  private nextBlock(txId: string, slot: bigint): BlockRef {
    return {
      slot,
      blockNo: this.lastBlock.blockNo + 1n,
      blockHash: nextBlockHash(this.lastBlock.blockHash, slot, txId)
    }
  }

  private accept(tx: DecodedTx, bytes: Uint8Array, block: BlockRef): Accepted {
    const scripts = this.scriptsTouched(tx)
    this.apply(tx, bytes)
    this.lastBlock = block
    this.transactions.set(tx.id, block)
    this.blockHashes.add(block.blockHash)
    if (scripts.length > 0) this.scriptTxs.add({ txId: tx.id, block, cbor: bytes.slice(), scripts })
    // Every `recentBlocks` blocks (on the block number, so a replay forgets the same), at most twice as many kept.
    if (block.blockNo % this.recentBlocks === 0n) this.forgetSettled()
    return { txId: tx.id, block, bytes, tx, indexed: scripts.length > 0 }
  }

  /**
   * Forgets what nothing refers to any more: the transactions older than the recent blocks with every output
   * spent, not in the chain index, not genesis (their status is then unknown, as a node that followed only the
   * recent blocks would answer), and the datums no unspent output names by its hash (the ledger gives a datum only
   * with such an output). The snapshot, and loading it, no longer grow with every transaction ever made.
   */
  private forgetSettled(): void {
    const oldest = this.lastBlock.blockNo - this.recentBlocks
    const unspent = new Set<string>()
    const named = new Set<string>()
    for (const utxo of this.utxos.values()) {
      unspent.add(utxo.ref.txId)
      const { datum } = utxo.output
      if (datum?.kind === 'hash') named.add(datum.hash)
    }
    for (const [txId, block] of this.transactions) {
      if (block.blockNo === 0n || block.blockNo > oldest || unspent.has(txId) || this.scriptTxs.has(txId)) continue
      this.transactions.delete(txId)
      this.blockHashes.delete(block.blockHash)
    }
    for (const hash of this.datums.keys()) if (!named.has(hash)) this.datums.delete(hash)
  }

  /** The payment script hashes of what the transaction pays to and spends (read before the inputs are gone). */
  private scriptsTouched(tx: DecodedTx): string[] {
    const scripts = new Set<string>()
    const addresses = [
      ...tx.body.outputs.map((o) => o.address),
      ...tx.body.inputs.map((i) => this.utxos.get(i)?.output.address)
    ]
    for (const address of addresses) if (address?.payment?.type === 'script') scripts.add(address.payment.hash)
    return [...scripts].sort()
  }

  /** Spends the inputs, adds the outputs (each its own copy of its bytes) and keeps the witness datums. */
  private apply(tx: DecodedTx, bytes: Uint8Array): void {
    for (const input of tx.body.inputs) this.utxos.remove(input)
    tx.body.outputs.forEach((o, index) =>
      this.utxos.add({ txId: tx.id, index }, bytes.slice(o.start, o.end), o.address.hex)
    )
    for (const datum of tx.witnessSet.datums) this.datums.set(datum.hash, datum.bytes.slice())
  }

  /** The chain index's page (see `ChainProvider.scriptTransactions`). */
  scriptTransactions(query: ScriptTxQuery): ScriptTxPage {
    return this.scriptTxs.page(query, this.lastBlock, (point: BlockPoint) => this.blockHashes.has(point.blockHash))
  }

  confirmation(txId: string): BlockRef | undefined {
    return this.transactions.get(txId.toLowerCase())
  }
}

/** The sandbox's parameters and slot clock as the evaluator takes them. */
function plutusSetup(zeroTime: bigint): PlutusSetup {
  const max = SANDBOX_BLAZE_PARAMS.maxExecutionUnitsPerTransaction
  return {
    costModels: fromHex(Costmdls.fromCore(SANDBOX_BLAZE_PARAMS.costModels).toCbor()),
    maxSteps: BigInt(max.steps),
    maxMem: BigInt(max.memory),
    zeroTime,
    zeroSlot: 0n,
    slotLength: Number(SLOT_LENGTH_MS)
  }
}

/** An additional UTxO's output as the evaluator takes it. */
function additionalOutput(utxo: Utxo): Uint8Array {
  try {
    return encodeOutput(utxo)
  } catch (e) {
    throw new ChainError('EvaluationFailed', `additional UTxO ${formatRef(utxo.ref)}: ${words(e)}`)
  }
}
