/**
 * Transactions reviewed and signed away from the chain, as the CLI's `tx review`/`tx sign` and the desk's
 * import read them: a transaction file or a review bundle, the keystore's wallets as a review's "own", and the
 * review context a bundle supplies in place of the chain.
 */
import { BUNDLE_FORMAT, BundleError, parseBundle, type ReviewBundle } from '../core/cardano/bundle'
import type {
  OwnWallet,
  ResolvedOutput,
  ReviewContext,
  ReviewProtocolParameters,
  SlotEra
} from '../core/cardano/review'
import { isNetworkName, type NetworkName } from '../chain/provider'
import type { Era } from '../core/cardano/tx-envelope'
import { EngineError } from './errors'
import type { Keystore } from './keys'
import { readTransaction } from './sign'

/** A transaction file or a review bundle, read. */
export interface LoadedTx {
  readonly tx: Uint8Array
  readonly era: Era
  readonly txId: string
  readonly bundle?: ReviewBundle
}

/** What the chain knows of a transaction that its bytes do not say, as a review takes it. */
export interface ReviewFacts {
  readonly resolvedInputs: readonly ResolvedOutput[]
  readonly eraSummaries: readonly SlotEra[]
  readonly protocolParameters: ReviewProtocolParameters
}

/** Addresses of each role a review recognises as a wallet's own: its gap limit. */
const REVIEW_GAP = 20

/** Whether `text` is a review bundle rather than a transaction (or witness) file. */
export function isReviewBundle(text: string): boolean {
  return text.includes(`"${BUNDLE_FORMAT}"`)
}

export function readBundle(text: string): ReviewBundle {
  try {
    return parseBundle(text)
  } catch (e) {
    if (e instanceof BundleError) throw new EngineError('BadRequest', 'InvalidBundle', e.message)
    throw e
  }
}

/** A transaction file (TextEnvelope, hex or raw CBOR) or a review bundle. */
export function readLoaded(bytes: Uint8Array): LoadedTx {
  const text = new TextDecoder().decode(bytes)
  if (isReviewBundle(text)) {
    const bundle = readBundle(text)
    return { tx: bundle.tx, era: bundle.era, txId: readTransaction(bundle.tx).txId, bundle }
  }
  const file = readTransaction(bytes)
  return { tx: file.tx, era: file.era, txId: file.txId }
}

export function bundleFacts(bundle: ReviewBundle): ReviewFacts {
  return {
    resolvedInputs: bundle.resolvedInputs,
    eraSummaries: bundle.eraSummaries,
    protocolParameters: bundle.protocolParameters ?? {}
  }
}

/** The network a bundle's addresses are on, as the review reads address headers. */
export function bundleNetworkId(bundle: ReviewBundle): number {
  return bundle.network === 'mainnet' ? 1 : 0
}

/** The network a loaded file is for: its bundle's when it names one Desk knows, else the desk's own. */
export function loadedNetwork(loaded: LoadedTx, desk: NetworkName): NetworkName {
  const named = loaded.bundle?.network
  return named !== undefined && isNetworkName(named) ? named : desk
}

/** A review's context: who is "own", the time, and the chain's facts when there are any. */
export function reviewContext(
  base: Pick<ReviewContext, 'wallets' | 'now' | 'networkId' | 'marloweScripts'>,
  facts: ReviewFacts | undefined
): ReviewContext {
  if (facts === undefined) return base
  // Only the facts: a caller's richer object (the chain's, with its missing refs) stays out of the context.
  const { resolvedInputs, eraSummaries, protocolParameters } = facts
  return { ...base, resolvedInputs, eraSummaries, protocolParameters }
}

/** A keystore wallet as a review recognises it: its first addresses of each role and the keys it holds. */
export async function ownWallet(keys: Keystore, walletId: string, network: NetworkName): Promise<OwnWallet> {
  const [payment, change, keyHashes] = await Promise.all([
    keys.addresses(walletId, network, { role: 'payment', count: REVIEW_GAP }),
    keys.addresses(walletId, network, { role: 'change', count: REVIEW_GAP }),
    keys.ownedKeyHashes(walletId)
  ])
  const addresses = [...payment, ...change].flatMap((a) =>
    a.base === undefined ? [a.enterprise] : [a.base, a.enterprise]
  )
  return { id: walletId, addresses, keyHashes: [...keyHashes.keys()] }
}
