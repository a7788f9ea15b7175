/**
 * The stock Blaze emulator — no pre-submit checks, no queue, its own evaluator, its own mempool — loaded with
 * the same ledger as a sandbox (read from the sandbox's state file). The tests use it to show each hole exists
 * before showing the sandbox closes it; the benchmark uses it as the peer.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  Address,
  HexBlob,
  PlutusData,
  Transaction,
  TransactionInput,
  TransactionOutput,
  TransactionUnspentOutput,
  TxCBOR,
  Value
} from '@blaze-cardano/core'
import { Emulator, EmulatorProvider } from '@blaze-cardano/emulator'
import type { RedeemerBudget, TxOutRef } from '../../../src/chain/provider'
import { fromScriptRef, toBlazeInput } from './blaze-convert'
import { GENESIS_OUTPUTS } from '../../../src/chain/sandbox/genesis'
import { SANDBOX_BLAZE_PARAMS } from '../../../src/chain/sandbox/params'
import { decodeSnapshot, STATE_FILE_NAME } from '../../../src/chain/sandbox/state-file'
import { bytesToHex } from '../../../src/core/bytes'

const TAGS: readonly RedeemerBudget['tag'][] = ['spend', 'mint', 'cert', 'reward', 'vote', 'propose']

export class RawEmulator {
  private constructor(readonly emulator: Emulator) {}

  /** The sandbox genesis at `slot`, as a new sandbox with slot 0 at `zeroTime` has it. */
  static genesis(zeroTime: bigint, slot: bigint): RawEmulator {
    const emulator = new Emulator([], {
      params: SANDBOX_BLAZE_PARAMS,
      slotConfig: { zeroTime: Number(zeroTime), zeroSlot: 0, slotLength: 1000 }
    })
    for (const o of GENESIS_OUTPUTS) {
      const output = new TransactionOutput(Address.fromBech32(o.address), new Value(o.lovelace))
      if (o.scriptRef !== undefined) output.setScriptRef(fromScriptRef(o.scriptRef))
      emulator.addUtxo(new TransactionUnspentOutput(toBlazeInput(o.ref), output))
    }
    if (slot > 0n) emulator.stepForwardToSlot(slot)
    return new RawEmulator(emulator)
  }

  static fromStateFile(dataDir: string): RawEmulator {
    const { snapshot: s } = decodeSnapshot(readFileSync(join(dataDir, STATE_FILE_NAME), 'utf8'))
    const slotConfig = { zeroTime: Number(s.zeroTime), zeroSlot: 0, slotLength: Number(s.slotLength) }
    const emulator = new Emulator([], { params: SANDBOX_BLAZE_PARAMS, slotConfig })
    for (const [input, output] of s.utxos) {
      emulator.addUtxo(
        new TransactionUnspentOutput(
          TransactionInput.fromCbor(HexBlob(bytesToHex(input))),
          TransactionOutput.fromCbor(HexBlob(bytesToHex(output)))
        )
      )
    }
    for (const [hash, datum] of s.datums) emulator.datumHashes[hash] = PlutusData.fromCbor(HexBlob(bytesToHex(datum)))
    if (s.slot > 0n) emulator.stepForwardToSlot(s.slot)
    return new RawEmulator(emulator)
  }

  /** Into the emulator's mempool; it reaches the ledger with the next block. */
  submit(tx: Uint8Array): Promise<string> {
    return this.emulator.submitTransaction(Transaction.fromCbor(TxCBOR(bytesToHex(tx))))
  }

  /** Submit and confirm, as the emulator's own `expectValidTransaction` does. */
  async submitAndConfirm(tx: Uint8Array): Promise<string> {
    const id = await this.submit(tx)
    this.emulator.awaitTransactionConfirmation(id)
    return id
  }

  async evaluate(tx: Uint8Array): Promise<RedeemerBudget[]> {
    const t = Transaction.fromCbor(TxCBOR(bytesToHex(tx)))
    const body = t.body()
    const used = [...body.inputs().values(), ...(body.referenceInputs()?.values() ?? [])].map(
      (i) => new TransactionUnspentOutput(i, this.emulator.getOutput(i)!)
    )
    const redeemers = await new EmulatorProvider(this.emulator).evaluateTransaction(t, used)
    return redeemers.values().map((r) => ({
      tag: TAGS[r.tag()] ?? 'spend',
      index: Number(r.index()),
      exUnits: { mem: r.exUnits().mem(), steps: r.exUnits().steps() }
    }))
  }

  has(ref: TxOutRef): boolean {
    return this.emulator.getOutput(toBlazeInput(ref)) !== undefined
  }
}
