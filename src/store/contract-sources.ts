/**
 * The contract store (migration 7): merkleized contracts by merkle hash, each with the hashes of the
 * continuations its merkleized cases name. A hash names one contract forever, so rows are added, never changed;
 * an upload is stored in one transaction, so its contracts are all there or none is.
 */
import { parseJson } from '../core/json/lossless'
import { parseContract, stringifyContract } from '../core/marlowe/json'
import { adjacencyOf } from '../core/marlowe/object-bundle'
import type { Contract } from '../core/marlowe/types'
import type { Db } from './database'
import type { SqliteGate } from './sqlite-gate'

export interface ContractSourceStore {
  /** Stores every contract under its hash (lowercase hex), all in one transaction. */
  addAll(contracts: ReadonlyMap<string, Contract>): Promise<void>
  has(hash: string): Promise<boolean>
  get(hash: string): Promise<Contract | undefined>
  /** The hashes the contract's merkleized cases name, in hex order; absent when the store does not hold it. */
  adjacency(hash: string): Promise<readonly string[] | undefined>
  /**
   * The contract and every contract reachable from it through merkleized cases, in hex order; absent when the
   * store does not hold it. An upload stores a contract with all its children, so none is missing.
   */
  closure(hash: string): Promise<readonly string[] | undefined>
}

/** The stored adjacency list (JSON text) as hashes. */
export function adjacencyFromText(text: string): readonly string[] {
  const hashes = parseJson(text)
  return Array.isArray(hashes) ? hashes.filter((h): h is string => typeof h === 'string') : []
}

/** The text stored for a contract and for its adjacency. */
export function sourceColumns(contract: Contract): { contract: string; adjacency: string } {
  return { contract: stringifyContract(contract), adjacency: JSON.stringify([...adjacencyOf(contract)].sort()) }
}

export class SqliteContractSources implements ContractSourceStore {
  private readonly insert
  private readonly selectContract
  private readonly selectAdjacency

  private readonly db: Db

  constructor(private readonly gate: SqliteGate) {
    const db = gate.db
    this.db = db
    this.insert = db.prepare('INSERT OR IGNORE INTO contract_sources (hash, contract, adjacency) VALUES (?, ?, ?)')
    this.selectContract = db.prepare<[string], { contract: string }>(
      'SELECT contract FROM contract_sources WHERE hash = ?'
    )
    this.selectAdjacency = db.prepare<[string], { adjacency: string }>(
      'SELECT adjacency FROM contract_sources WHERE hash = ?'
    )
  }

  addAll(contracts: ReadonlyMap<string, Contract>): Promise<void> {
    return this.gate.run(() =>
      this.db.transaction(() => {
        for (const [hash, contract] of contracts) {
          const columns = sourceColumns(contract)
          this.insert.run(hash, columns.contract, columns.adjacency)
        }
      })()
    )
  }

  has(hash: string): Promise<boolean> {
    return this.gate.run(() => this.hasNow(hash))
  }

  get(hash: string): Promise<Contract | undefined> {
    return this.gate.run(() => {
      const row = this.selectContract.get(hash)
      return row === undefined ? undefined : parseContract(row.contract)
    })
  }

  adjacency(hash: string): Promise<readonly string[] | undefined> {
    return this.gate.run(() => this.adjacencyNow(hash))
  }

  closure(hash: string): Promise<readonly string[] | undefined> {
    return this.gate.run(() => this.closureNow(hash))
  }

  private hasNow(hash: string): boolean {
    return this.selectAdjacency.get(hash) !== undefined
  }

  private adjacencyNow(hash: string): readonly string[] | undefined {
    const row = this.selectAdjacency.get(hash)
    return row === undefined ? undefined : adjacencyFromText(row.adjacency)
  }

  private closureNow(hash: string): readonly string[] | undefined {
    if (!this.hasNow(hash)) return undefined
    const seen = new Set<string>([hash])
    const pending = [hash]
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      for (const child of this.adjacencyNow(next) ?? []) {
        if (!seen.has(child) && this.hasNow(child)) {
          seen.add(child)
          pending.push(child)
        }
      }
    }
    return [...seen].sort()
  }
}
