/**
 * The emulator wrapped as a ledger that confirms each accepted transaction at once, in its own block at the
 * current slot: there is no mempool between submit and confirmation, so two transactions spending one UTxO can
 * never both land, and confirming does not move the clock. Blocks get numbers 1, 2, … and hashes chained from
 * the genesis id: blake2b-256(previous block hash ‖ slot as 8 bytes big-endian ‖ tx id).
 */
import { blake2bHex } from '../../core/blake2b'
import {
  Address,
  HexBlob,
  PlutusData,
  RedeemerTag,
  Transaction,
  TransactionInput,
  TransactionOutput,
  TransactionUnspentOutput,
  TxCBOR,
  Value as BlazeValue,
  blake2b_256
} from '@blaze-cardano/core'
import { Emulator } from '@blaze-cardano/emulator'
import { bytesToHex, hexToBytes } from '../../core/bytes'
import type { Credential } from '../../core/cardano/address'
import { decodeAddress, decodeTransaction } from '../../core/cardano/tx'
import {
  ChainError,
  type BlockPoint,
  type RedeemerBudget,
  type ScriptTxPage,
  type ScriptTxQuery,
  type TxOutRef,
  type Utxo
} from '../provider'
import { checkBeforeSubmit } from './checks'
import { fromScriptRef, fromUtxo, refKey, toBlazeInput, toUtxo } from './convert'
import { RecyclingEvaluator } from './evaluator'
import { STAND_IN_GENESIS, type SandboxGenesis } from './genesis'
import { SANDBOX_BLAZE_PARAMS } from './params'
import { ScriptTxLog } from './script-log'
import type { BlockRef, LedgerSnapshot } from './state-file'

export const SLOT_LENGTH_MS = 1000n

const REDEEMER_TAGS: ReadonlyMap<RedeemerTag, RedeemerBudget['tag']> = new Map([
  [RedeemerTag.Spend, 'spend'],
  [RedeemerTag.Mint, 'mint'],
  [RedeemerTag.Cert, 'cert'],
  [RedeemerTag.Reward, 'reward'],
  [RedeemerTag.Voting, 'vote'],
  [RedeemerTag.Proposing, 'propose']
])

function redeemerTag(tag: RedeemerTag): RedeemerBudget['tag'] {
  const name = REDEEMER_TAGS.get(tag)
  if (name === undefined) throw new Error(`unknown redeemer tag ${tag}`)
  return name
}

/** The emulator throws Errors, strings, and TypeErrors where it trips over a malformed transaction. */
function ledgerWords(e: unknown): string {
  const words = (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ').trim()
  return e instanceof TypeError ? `the ledger could not process this transaction (${words})` : words
}

function decodeTx(bytes: Uint8Array, kind: 'Rejected' | 'EvaluationFailed'): Transaction {
  try {
    return Transaction.fromCbor(TxCBOR(bytesToHex(bytes)))
  } catch (e) {
    throw new ChainError(kind, `DeserialiseFailure: not a Conway transaction (${ledgerWords(e)})`)
  }
}

function nextBlockHash(previous: string, slot: bigint, txId: string): string {
  const bytes = new Uint8Array(32 + 8 + 32)
  bytes.set(hexToBytes(previous))
  new DataView(bytes.buffer).setBigUint64(32, slot)
  bytes.set(hexToBytes(txId), 40)
  return blake2bHex(bytes, 32)
}

export interface LedgerOptions {
  readonly recycleEvaluatorEvery?: number
  /** The genesis this ledger starts from, or must have started from (default: the stand-ins'). */
  readonly genesis?: SandboxGenesis
}

export class SandboxLedger {
  private readonly blockHashes = new Set<string>()

  private constructor(
    private readonly emulator: Emulator,
    readonly evaluator: RecyclingEvaluator,
    readonly zeroTime: bigint,
    private readonly genesisId: string,
    private lastBlock: BlockRef,
    private readonly transactions: Map<string, BlockRef>,
    private readonly scriptTxs: ScriptTxLog
  ) {
    for (const block of transactions.values()) this.blockHashes.add(block.blockHash)
  }

  private static emulator(zeroTime: bigint, options: LedgerOptions): [Emulator, RecyclingEvaluator] {
    const slotConfig = { zeroTime: Number(zeroTime), zeroSlot: 0, slotLength: Number(SLOT_LENGTH_MS) }
    const evaluator = new RecyclingEvaluator(SANDBOX_BLAZE_PARAMS, slotConfig, options.recycleEvaluatorEvery)
    const emulator = new Emulator([], { params: SANDBOX_BLAZE_PARAMS, evaluator: evaluator.evaluate, slotConfig })
    return [emulator, evaluator]
  }

  static genesis(zeroTime: bigint, options: LedgerOptions = {}): SandboxLedger {
    const [emulator, evaluator] = SandboxLedger.emulator(zeroTime, options)
    const genesis = options.genesis ?? STAND_IN_GENESIS
    for (const o of genesis.outputs) {
      const output = new TransactionOutput(Address.fromBech32(o.address), new BlazeValue(o.lovelace))
      if (o.scriptRef !== undefined) output.setScriptRef(fromScriptRef(o.scriptRef))
      emulator.addUtxo(new TransactionUnspentOutput(toBlazeInput(o.ref), output))
    }
    const block0: BlockRef = { slot: 0n, blockNo: 0n, blockHash: genesis.id }
    const transactions = new Map(genesis.txIds.map((id) => [id, block0]))
    return new SandboxLedger(emulator, evaluator, zeroTime, genesis.id, block0, transactions, new ScriptTxLog())
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
    const [emulator, evaluator] = SandboxLedger.emulator(s.zeroTime, options)
    s.utxos.forEach(([input, output], i) => {
      try {
        emulator.addUtxo(
          new TransactionUnspentOutput(
            TransactionInput.fromCbor(HexBlob(input)),
            TransactionOutput.fromCbor(HexBlob(output))
          )
        )
      } catch (e) {
        throw new Error(`utxos[${i}] does not decode: ${ledgerWords(e)}`)
      }
    })
    s.datums.forEach(([hash, cbor], i) => {
      if (blake2b_256(HexBlob(cbor)) !== hash) throw new Error(`datums[${i}] does not hash to ${hash}`)
      emulator.datumHashes[hash] = PlutusData.fromCbor(HexBlob(cbor))
    })
    if (s.slot > 0n) emulator.stepForwardToSlot(s.slot)
    return new SandboxLedger(
      emulator,
      evaluator,
      s.zeroTime,
      genesis.id,
      s.tip,
      new Map(s.transactions),
      new ScriptTxLog(s.scriptTxs)
    )
  }

  snapshot(timeOffsetMs: bigint): LedgerSnapshot {
    return {
      genesisId: this.genesisId,
      zeroTime: this.zeroTime,
      slotLength: SLOT_LENGTH_MS,
      timeOffsetMs,
      slot: this.slot,
      tip: this.lastBlock,
      utxos: this.emulator.utxos().map((u) => [u.input().toCbor(), u.output().toCbor()] as const),
      datums: Object.entries(this.emulator.datumHashes).map(([hash, datum]) => [hash, datum.toCbor()] as const),
      transactions: this.transactions,
      scriptTxs: this.scriptTxs.entries()
    }
  }

  get slot(): bigint {
    return BigInt(this.emulator.clock.slot)
  }

  get tip(): BlockRef {
    return this.lastBlock
  }

  slotStartTime(slot: bigint): bigint {
    return this.zeroTime + slot * SLOT_LENGTH_MS
  }

  /** Moves the clock forward to `slot`; an earlier or equal slot leaves it where it is. */
  advanceToSlot(slot: bigint): void {
    if (slot > this.slot) this.emulator.stepForwardToSlot(slot)
  }

  private resolveDatum = (hash: string): PlutusData | undefined => this.emulator.datumHashes[hash]

  utxosAt(addresses: readonly string[]): Utxo[] {
    const wanted = new Set(
      addresses.map((a) => {
        try {
          return Address.fromBech32(a).toBytes()
        } catch {
          throw new ChainError('Rejected', `not a Cardano address: ${JSON.stringify(a)}`)
        }
      })
    )
    return this.emulator
      .utxos()
      .filter((u) => wanted.has(u.output().address().toBytes()))
      .map((u) => toUtxo(u.input(), u.output(), this.resolveDatum))
  }

  utxosByRef(refs: readonly TxOutRef[]): Utxo[] {
    const found: Utxo[] = []
    for (const ref of refs) {
      const input = toBlazeInput(ref)
      const output = this.emulator.getOutput(input)
      if (output !== undefined) found.push(toUtxo(input, output, this.resolveDatum))
    }
    return found
  }

  async evaluate(bytes: Uint8Array, additionalUtxos: readonly Utxo[]): Promise<RedeemerBudget[]> {
    const tx = decodeTx(bytes, 'EvaluationFailed')
    const extra = new Map(additionalUtxos.map((u) => [refKey(u.ref), fromUtxo(u)]))
    const body = tx.body()
    const spent = [
      ...body.inputs().values(),
      ...(body.referenceInputs()?.values() ?? []),
      ...(body.collateral()?.values() ?? [])
    ]
    const utxos = spent.map((input) => {
      const known = extra.get(`${input.transactionId()}#${input.index()}`)
      if (known !== undefined) return known
      const output = this.emulator.getOutput(input)
      if (output === undefined) {
        throw new ChainError(
          'EvaluationFailed',
          `input ${input.transactionId()}#${input.index()} is neither on the ledger nor among the additional UTxOs`
        )
      }
      return new TransactionUnspentOutput(input, output)
    })
    try {
      const redeemers = await this.evaluator.evaluate(tx, utxos)
      return redeemers.values().map((r) => ({
        tag: redeemerTag(r.tag()),
        index: Number(r.index()),
        exUnits: { mem: r.exUnits().mem(), steps: r.exUnits().steps() }
      }))
    } catch (e) {
      throw new ChainError('EvaluationFailed', ledgerWords(e), { txId: tx.getId() })
    }
  }

  /** Validates the transaction (our checks, then the emulator's) and confirms it in a new block. */
  async submit(bytes: Uint8Array): Promise<string> {
    const tx = decodeTx(bytes, 'Rejected')
    const txId = tx.getId()
    checkBeforeSubmit(tx, { params: SANDBOX_BLAZE_PARAMS, output: (input) => this.emulator.getOutput(input) })
    const scripts = this.scriptsTouched(bytes)
    try {
      await this.emulator.submitTransaction(tx)
    } catch (e) {
      throw new ChainError('Rejected', ledgerWords(e), { txId })
    }
    const block = this.confirm(txId)
    if (scripts.length > 0) this.scriptTxs.add({ txId, block, cbor: bytes.slice(), scripts })
    return txId
  }

  /** The payment script hashes of what the transaction pays to and spends (read before the inputs are gone). */
  private scriptsTouched(bytes: Uint8Array): string[] {
    const tx = decodeTransaction(bytes)
    const scripts = new Set<string>()
    const add = (payment: Credential | undefined): void => {
      if (payment?.type === 'script') scripts.add(payment.hash)
    }
    for (const output of tx.body.outputs) add(output.address.payment)
    for (const input of tx.body.inputs) {
      const spent = this.emulator.getOutput(toBlazeInput(input))
      if (spent !== undefined) add(decodeAddress(hexToBytes(spent.address().toBytes())).payment)
    }
    return [...scripts].sort()
  }

  /** The chain index's page (see `ChainProvider.scriptTransactions`). */
  scriptTransactions(query: ScriptTxQuery): ScriptTxPage {
    return this.scriptTxs.page(query, this.lastBlock, (point: BlockPoint) => this.blockHashes.has(point.blockHash))
  }

  /**
   * Applies the emulator's mempool (just this transaction) in a block at the current slot. The emulator only
   * applies its mempool when the clock moves, so the clock is stepped back one slot and forward again.
   */
  private confirm(txId: string): BlockRef {
    const slot = this.emulator.clock.slot
    this.emulator.clock.slot = slot - 1
    this.emulator.stepForwardToSlot(slot)
    const block: BlockRef = {
      slot: BigInt(slot),
      blockNo: this.lastBlock.blockNo + 1n,
      blockHash: nextBlockHash(this.lastBlock.blockHash, BigInt(slot), txId)
    }
    this.lastBlock = block
    this.transactions.set(txId, block)
    this.blockHashes.add(block.blockHash)
    return block
  }

  confirmation(txId: string): BlockRef | undefined {
    return this.transactions.get(txId.toLowerCase())
  }
}
