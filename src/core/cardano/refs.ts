/** `txid#ix` references: the text form Runtime uses for contract ids, payouts and UTxOs, and our keys of them. */
import type { TxIn } from './tx'

const REF = /^([0-9a-fA-F]{64})#(0|[1-9][0-9]{0,4})$/

export function formatRef(ref: { readonly txId: string; readonly index: number | bigint }): string {
  return `${ref.txId}#${ref.index}`
}

/** Parses `txid#ix`; undefined when the text is not of that form. */
export function parseRef(text: string): TxIn | undefined {
  const m = REF.exec(text)
  if (m === null) return undefined
  return { txId: m[1]!.toLowerCase(), index: Number(m[2]) }
}

/** Ledger order of inputs (tx id bytes, then index): redeemer indices follow it. */
export function compareRefs(a: TxIn, b: TxIn): number {
  if (a.txId !== b.txId) return a.txId < b.txId ? -1 : 1
  return a.index - b.index
}
