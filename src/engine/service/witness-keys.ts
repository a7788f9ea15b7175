/**
 * Signatures a transaction does not need: a key witness whose key is none of those the transaction's inputs,
 * collateral, required signers, withdrawals, certificates and native scripts call for. The node would refuse
 * the transaction (extraneous witnesses) after the submit was accepted; finding it first makes it a clear 400.
 * It needs the spent outputs: when the node cannot name them all, nothing is said and the node decides.
 */
import { formatRef } from '../../core/cardano/refs'
import { ChainError, type ChainProvider } from '../../chain/provider'
import { decodeTransaction } from '../../core/cardano/tx'
import { reviewOffThread } from '../worker'

export async function unneededWitnessKeys(provider: ChainProvider, signed: Uint8Array): Promise<string[]> {
  const body = decodeTransaction(signed).body
  const refs = [...body.inputs, ...body.collateral]
  let resolved
  try {
    resolved = await provider.utxosByRef(refs)
  } catch (e) {
    if (e instanceof ChainError) return []
    throw e
  }
  if (resolved.length < new Set(refs.map((r) => formatRef(r))).size) return []
  const { witnesses } = await reviewOffThread(signed, { resolvedInputs: resolved })
  const needed = new Set(witnesses.needed.map((n) => n.keyHash))
  return witnesses.vkeys.filter((w) => !needed.has(w.keyHash)).map((w) => w.keyHash)
}
