/**
 * Contract sources (runtime-api.md §3.10): object bundles linked and merkleized into the contract store, read
 * back by id (expanded or not), with their adjacency and closure; and the store's contracts for merkleized
 * creates and for the continuations an apply reveals.
 */
import type { JsonValue } from '../../core/json/lossless'
import { expandContract } from '../../core/marlowe/merkle'
import { BUNDLE_LIMITS, BundleError, adjacencyOf, linkBundle, readBundle } from '../../core/marlowe/object-bundle'
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
  async import(main: string, documents: readonly JsonValue[]): Promise<ImportedSources> {
    const objects = documents.flatMap((doc, i) => readBundle(doc, documents.length === 1 ? '$' : `$[bundle ${i}]`))
    const linked = await this.link(objects)
    const contractSourceId = linked.ids.get(main)
    if (contractSourceId === undefined) throw new BundleError('MainNotDefined', 'Main contract not defined.')
    await this.store.addAll(linked.contracts)
    return { contractSourceId, intermediateIds: linked.ids }
  }

  /**
   * Links the objects, with the stored contracts they name by hash: each one the linker misses is looked up and,
   * when stored, the objects are linked again knowing it. A bundle names few stored contracts, so this costs few
   * links, and the store is asked only about the hashes the bundle names.
   */
  private async link(objects: Parameters<typeof linkBundle>[0]): Promise<ReturnType<typeof linkBundle>> {
    const stored = new Set<string>()
    for (;;) {
      try {
        return linkBundle(objects, (hash) => stored.has(hash))
      } catch (e) {
        const missing = e instanceof BundleError && e.kind === 'ContinuationNotInStore' ? e.details : undefined
        if (typeof missing !== 'string' || stored.has(missing) || !(await this.store.has(missing))) throw e
        stored.add(missing)
      }
    }
  }

  /** The contract `id` and every stored contract its closure reaches, by hash. */
  private async closureOf(id: string): Promise<Map<string, Contract>> {
    const contracts = new Map<string, Contract>()
    for (const hash of (await this.store.closure(id)) ?? []) {
      const contract = await this.store.get(hash)
      if (contract !== undefined) contracts.set(hash, contract)
    }
    return contracts
  }

  /** The stored contract (merkleized cases kept, or with `expand` inlined); undefined when unknown. */
  async get(id: string, expand: boolean): Promise<Contract | undefined> {
    const contract = await this.store.get(id)
    if (contract === undefined || !expand) return contract
    const reachable = await this.closureOf(id)
    try {
      return expandContract(contract, (hash) => reachable.get(hash), BUNDLE_LIMITS.maxExpandedNodes)
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

  adjacency(id: string): Promise<readonly string[] | undefined> {
    return this.store.adjacency(id)
  }

  closure(id: string): Promise<readonly string[] | undefined> {
    return this.store.closure(id)
  }

  /** A stored contract by id and every contract in its closure; 404 `ContractNotFound` when unknown (Runtime's). */
  async withContinuations(id: string): Promise<SourceWithContinuations> {
    const contract = await this.store.get(id)
    if (contract === undefined) {
      throw new EngineError(
        'NotFound',
        'ContractNotFound',
        `Contract source ${id} not found in the contract store: upload it first (POST /contracts/sources)`
      )
    }
    const continuations = await this.closureOf(id)
    continuations.delete(id)
    return { contract, continuations }
  }

  /**
   * Every stored continuation `contract`'s merkleized cases reach, by hash, for the continuations an apply
   * reveals: whichever cases its inputs take, the one each needs is among them. None is read for a contract
   * without merkleized cases.
   */
  async continuationsOf(contract: Contract): Promise<ReadonlyMap<string, Contract>> {
    const continuations = new Map<string, Contract>()
    for (const hash of adjacencyOf(contract)) {
      if (continuations.has(hash)) continue
      for (const [reached, continuation] of await this.closureOf(hash)) continuations.set(reached, continuation)
    }
    return continuations
  }
}
