/**
 * Contract sources (runtime-api.md §3.10): object bundles linked and merkleized into the contract store, read
 * back by id (expanded or not), with their adjacency and closure; and the store's contracts for merkleized
 * creates and for the continuations an apply reveals.
 */
import type { JsonValue } from '../../core/json/lossless'
import { expandContract } from '../../core/marlowe/merkle'
import { BUNDLE_LIMITS, BundleError, linkBundle, readBundle } from '../../core/marlowe/object-bundle'
import type { Contract } from '../../core/marlowe/types'
import type { ContractSourceStore } from '../../store/contract-sources'
import { EngineError } from '../errors'

export interface ImportedSources {
  /** The main contract's id: the merkle hash of its merkleized form. */
  readonly contractSourceId: string
  /** Every contract object's label → its id. */
  readonly intermediateIds: ReadonlyMap<string, string>
}

/** A stored contract with the continuations it reaches, for a merkleized create. */
export interface SourceWithContinuations {
  readonly contract: Contract
  readonly continuations: ReadonlyMap<string, Contract>
}

export class ContractSources {
  constructor(private readonly store: ContractSourceStore) {}

  /**
   * Links the bundles (one JSON document each, objects defined before use across all of them) and stores every
   * contract they make, in one transaction. Throws `BundleError`, Runtime's reasons; nothing is stored then.
   */
  import(main: string, documents: readonly JsonValue[]): ImportedSources {
    const objects = documents.flatMap((doc, i) => readBundle(doc, documents.length === 1 ? '$' : `$[bundle ${i}]`))
    const linked = linkBundle(objects, (hash) => this.store.has(hash))
    const contractSourceId = linked.ids.get(main)
    if (contractSourceId === undefined) throw new BundleError('MainNotDefined', 'Main contract not defined.')
    this.store.addAll(linked.contracts)
    return { contractSourceId, intermediateIds: linked.ids }
  }

  /** The stored contract (merkleized cases kept, or with `expand` inlined); undefined when unknown. */
  get(id: string, expand: boolean): Contract | undefined {
    const contract = this.store.get(id)
    if (contract === undefined || !expand) return contract
    try {
      return expandContract(contract, (hash) => this.store.get(hash), BUNDLE_LIMITS.maxExpandedNodes)
    } catch (e) {
      if (e instanceof RangeError) {
        throw new EngineError(
          'BadRequest',
          'BadRequest',
          `Contract source ${id} cannot be expanded: ${e.message}; read it without expand and its continuations by id`
        )
      }
      throw e
    }
  }

  adjacency(id: string): readonly string[] | undefined {
    return this.store.adjacency(id)
  }

  closure(id: string): readonly string[] | undefined {
    return this.store.closure(id)
  }

  /** A stored contract by id and every contract in its closure; 404 `ContractNotFound` when unknown (Runtime's). */
  withContinuations(id: string): SourceWithContinuations {
    const contract = this.store.get(id)
    if (contract === undefined) {
      throw new EngineError(
        'NotFound',
        'ContractNotFound',
        `Contract source ${id} not found in the contract store: upload it first (POST /contracts/sources)`
      )
    }
    const continuations = new Map<string, Contract>()
    for (const hash of this.store.closure(id) ?? []) {
      const continuation = hash === id ? undefined : this.store.get(hash)
      if (continuation !== undefined) continuations.set(hash, continuation)
    }
    return { contract, continuations }
  }

  /** The contract the store holds under `hash`, for the continuations an apply reveals. */
  continuation(hash: string): Contract | undefined {
    return this.store.get(hash)
  }
}
