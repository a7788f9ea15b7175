/**
 * What the chain knows about a transaction that its bytes do not say: the outputs it spends and references,
 * the slot ↔ time mapping and the protocol parameters. A review reads them; a review bundle carries them to a
 * machine without a network.
 */
import { deploymentOf } from '../../chain/deployments'
import { ChainError, type ChainProvider, type ProtocolParameters } from '../../chain/provider'
import type { MarloweScriptName, ReviewProtocolParameters } from '../../core/cardano/review'
import type { ReviewBundle } from '../../core/cardano/bundle'
import { formatRef } from '../../core/cardano/refs'
import { decodeTransaction, TxDecodeError } from '../../core/cardano/tx'
import type { Era } from '../../core/cardano/tx-envelope'
import { EngineError } from '../errors'
import { bundleFacts, type LoadedTx, type ReviewFacts } from '../offline-tx'

export interface ChainFacts extends ReviewFacts {
  /** `txid#ix` of spent or referenced outputs the chain does not know (spent, or never existed). */
  readonly missing: readonly string[]
}

export function reviewParameters(p: ProtocolParameters): ReviewProtocolParameters {
  return {
    maxTxSize: p.maxTxSize,
    minFeeA: p.minFeeA,
    minFeeB: p.minFeeB,
    priceMem: p.priceMem,
    priceSteps: p.priceSteps,
    minFeeRefScriptCostPerByte: p.minFeeRefScriptCostPerByte,
    collateralPercentage: p.collateralPercentage,
    costModels: p.costModels
  }
}

export async function chainFacts(provider: ChainProvider, tx: Uint8Array): Promise<ChainFacts> {
  let body
  try {
    body = decodeTransaction(tx).body
  } catch (e) {
    if (e instanceof TxDecodeError) throw new EngineError('BadRequest', 'InvalidTransaction', e.message)
    throw e
  }
  const refs = [...body.inputs, ...body.collateral, ...body.referenceInputs]
  const [found, eraSummaries, params] = await Promise.all([
    provider.utxosByRef(refs),
    provider.eraSummaries(),
    provider.protocolParameters()
  ])
  const known = new Set(found.map((u) => formatRef(u.ref)))
  return {
    resolvedInputs: found,
    eraSummaries: [...eraSummaries],
    protocolParameters: reviewParameters(params),
    missing: refs.filter((r) => !known.has(formatRef(r))).map(formatRef)
  }
}

/** The chain's facts about an imported file: its bundle's, else the chain's if it answers (offline: none). */
export async function importedFacts(provider: ChainProvider, loaded: LoadedTx): Promise<ReviewFacts | undefined> {
  if (loaded.bundle !== undefined) return bundleFacts(loaded.bundle)
  try {
    return await chainFacts(provider, loaded.tx)
  } catch (e) {
    if (e instanceof ChainError) return undefined
    throw e
  }
}

/**
 * Where the chain has seen a transaction (its mempool: submitted; a block: confirmed); undefined when it has not,
 * or when the node cannot be asked — offline, nothing can be known.
 */
export async function seenOnChain(
  provider: ChainProvider,
  txId: string
): Promise<'submitted' | 'confirmed' | undefined> {
  try {
    const { status } = await provider.txStatus(txId)
    return status === 'confirmed' ? 'confirmed' : status === 'pending' ? 'submitted' : undefined
  } catch (e) {
    if (e instanceof ChainError) return undefined
    throw e
  }
}

/** The network's Marlowe validators by script hash, so a review names the sandbox's stand-ins too. */
export function marloweScripts(provider: ChainProvider): Record<string, MarloweScriptName> {
  const d = deploymentOf(provider)
  return {
    [d.semantics.hash]: 'marlowe-semantics',
    [d.payout.hash]: 'marlowe-payout',
    [d.openRole.hash]: 'marlowe-open-role'
  }
}

/**
 * A review bundle of `tx`: the transaction with what the chain knows about it, for a review on a machine without
 * a network; `missing` names what the chain could not find (the review then says what it cannot check).
 */
export async function reviewBundleOf(
  provider: ChainProvider,
  file: { readonly tx: Uint8Array; readonly era: Era },
  createdAtMs: number
): Promise<{ readonly bundle: ReviewBundle; readonly missing: readonly string[] }> {
  const { missing, ...facts } = await chainFacts(provider, file.tx)
  return {
    bundle: {
      tx: file.tx,
      era: file.era,
      network: provider.network,
      createdAt: new Date(createdAtMs).toISOString(),
      ...facts
    },
    missing
  }
}
