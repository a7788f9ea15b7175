/**
 * The sandbox's UTxOs, indexed by reference and by address: a lookup costs the same whatever the number of
 * UTxOs, and the outputs at an address cost what they are, not a scan of the whole ledger.
 */
import { formatRef } from '../../core/cardano/refs'
import type { DecodedOutput, TxIn } from '../../core/cardano/tx'
import { decodeOutput } from './outputs'

/**
 * One UTxO. Its output is checked to decode when added (unless its address is given: the caller has decoded it,
 * or knows it decodes), then decoded again each time it is asked for and not kept: a large ledger holds a few objects per UTxO, not a decoding of every output a query or a rule ever read
 * (each reads few, and decoding one output costs microseconds).
 */
export class StoredUtxo {
  constructor(
    readonly ref: TxIn,
    /** The output exactly as the transaction that made it wrote it. */
    readonly bytes: Uint8Array,
    /** The address's bytes, hex. */
    readonly address: string,
    /** Order of arrival: answers over several addresses come in it, as one list of the whole ledger would. */
    readonly seq: number
  ) {}

  get output(): DecodedOutput {
    return decodeOutput(this.bytes)
  }
}

export class UtxoSet {
  private readonly byRef = new Map<string, StoredUtxo>()
  /** Address bytes (hex) → reference key → UTxO, each inner map in order of arrival. */
  private readonly byAddress = new Map<string, Map<string, StoredUtxo>>()
  private nextSeq = 0

  get size(): number {
    return this.byRef.size
  }

  get(ref: TxIn): StoredUtxo | undefined {
    return this.byRef.get(formatRef(ref))
  }

  /**
   * Adds the output `bytes` at `ref`, at `address` (bytes, hex) when known; otherwise decoded for it, and throws
   * (leaving the set as it was) when they are not one output.
   */
  add(ref: TxIn, bytes: Uint8Array, address = decodeOutput(bytes).address.hex): void {
    const key = formatRef(ref)
    this.remove(ref)
    const utxo = new StoredUtxo({ txId: ref.txId, index: ref.index }, bytes, address, this.nextSeq++)
    this.byRef.set(key, utxo)
    let atAddress = this.byAddress.get(address)
    if (atAddress === undefined) {
      atAddress = new Map()
      this.byAddress.set(address, atAddress)
    }
    atAddress.set(key, utxo)
  }

  remove(ref: TxIn): void {
    const key = formatRef(ref)
    const utxo = this.byRef.get(key)
    if (utxo === undefined) return
    this.byRef.delete(key)
    const atAddress = this.byAddress.get(utxo.address)
    atAddress?.delete(key)
    if (atAddress?.size === 0) this.byAddress.delete(utxo.address)
  }

  /** The UTxOs at any of the addresses (bytes as hex), in order of arrival. */
  at(addresses: ReadonlySet<string>): StoredUtxo[] {
    const found: StoredUtxo[] = []
    for (const address of addresses) found.push(...(this.byAddress.get(address)?.values() ?? []))
    return addresses.size > 1 ? found.sort((a, b) => a.seq - b.seq) : found
  }

  /** Every UTxO, in order of arrival. */
  values(): IterableIterator<StoredUtxo> {
    return this.byRef.values()
  }
}
