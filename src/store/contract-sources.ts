/**
 * The contract store in SQLite (migration 7): merkleized contracts by merkle hash, each with the hashes of the
 * continuations its merkleized cases name. A hash names one contract forever, so rows are added, never changed;
 * an upload is stored in one transaction, so its contracts are all there or none is.
 */
import { parseJson } from '../core/json/lossless'
import { parseContract, stringifyContract } from '../core/marlowe/json'
import { adjacencyOf } from '../core/marlowe/object-bundle'
import type { Contract } from '../core/marlowe/types'
import type { Db } from './database'

export class ContractSourceStore {
  private readonly insert
  private readonly selectContract
  private readonly selectAdjacency

  constructor(private readonly db: Db) {
    this.insert = db.prepare('INSERT OR IGNORE INTO contract_sources (hash, contract, adjacency) VALUES (?, ?, ?)')
    this.selectContract = db.prepare<[string], { contract: string }>(
      'SELECT contract FROM contract_sources WHERE hash = ?'
    )
    this.selectAdjacency = db.prepare<[string], { adjacency: string }>(
      'SELECT adjacency FROM contract_sources WHERE hash = ?'
    )
  }

  /** Stores every contract under its hash (lowercase hex), all in one transaction. */
  addAll(contracts: ReadonlyMap<string, Contract>): void {
    this.db.transaction(() => {
      for (const [hash, contract] of contracts) {
        this.insert.run(hash, stringifyContract(contract), JSON.stringify([...adjacencyOf(contract)].sort()))
      }
    })()
  }

  has(hash: string): boolean {
    return this.selectAdjacency.get(hash) !== undefined
  }

  get(hash: string): Contract | undefined {
    const row = this.selectContract.get(hash)
    return row === undefined ? undefined : parseContract(row.contract)
  }

  /** The hashes the contract's merkleized cases name, in hex order; absent when the store does not hold it. */
  adjacency(hash: string): readonly string[] | undefined {
    const row = this.selectAdjacency.get(hash)
    if (row === undefined) return undefined
    const hashes = parseJson(row.adjacency)
    return Array.isArray(hashes) ? hashes.filter((h): h is string => typeof h === 'string') : []
  }

  /**
   * The contract and every contract reachable from it through merkleized cases, in hex order; absent when the
   * store does not hold it. An upload stores a contract with all its children, so none is missing.
   */
  closure(hash: string): readonly string[] | undefined {
    if (!this.has(hash)) return undefined
    const seen = new Set<string>([hash])
    const pending = [hash]
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      for (const child of this.adjacency(next) ?? []) {
        if (!seen.has(child) && this.has(child)) {
          seen.add(child)
          pending.push(child)
        }
      }
    }
    return [...seen].sort()
  }
}
