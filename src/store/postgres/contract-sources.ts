/**
 * The contract store (Runtime's contract sources) in PostgreSQL: the same rows as SQLite's (see
 * ../contract-sources.ts), added and never changed; an upload is one transaction, so its contracts are all there
 * or none is. A closure is read in one recursive query instead of one lookup per contract.
 */
import type pg from 'pg'
import { parseContract } from '../../core/marlowe/json'
import type { Contract } from '../../core/marlowe/types'
import { adjacencyFromText, sourceColumns, type ContractSourceStore } from '../contract-sources'
import { PoolSession } from './session'

export class PgContractSources implements ContractSourceStore {
  private readonly session: PoolSession

  constructor(pool: pg.Pool) {
    this.session = new PoolSession(pool)
  }

  async addAll(contracts: ReadonlyMap<string, Contract>): Promise<void> {
    const hashes: string[] = []
    const texts: string[] = []
    const adjacencies: string[] = []
    for (const [hash, contract] of contracts) {
      const columns = sourceColumns(contract)
      hashes.push(hash)
      texts.push(columns.contract)
      adjacencies.push(columns.adjacency)
    }
    await this.session.run(
      `INSERT INTO contract_sources (hash, contract, adjacency)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) ON CONFLICT DO NOTHING`,
      [hashes, texts, adjacencies]
    )
  }

  async has(hash: string): Promise<boolean> {
    return (await this.session.rows('SELECT 1 FROM contract_sources WHERE hash = $1', [hash])).length > 0
  }

  async get(hash: string): Promise<Contract | undefined> {
    const [row] = await this.session.rows<{ contract: string }>(
      'SELECT contract FROM contract_sources WHERE hash = $1',
      [hash]
    )
    return row === undefined ? undefined : parseContract(row.contract)
  }

  async adjacency(hash: string): Promise<readonly string[] | undefined> {
    const [row] = await this.session.rows<{ adjacency: string }>(
      'SELECT adjacency FROM contract_sources WHERE hash = $1',
      [hash]
    )
    return row === undefined ? undefined : adjacencyFromText(row.adjacency)
  }

  async closure(hash: string): Promise<readonly string[] | undefined> {
    const rows = await this.session.rows<{ hash: string }>(
      `WITH RECURSIVE reached(hash) AS (
         SELECT hash FROM contract_sources WHERE hash = $1
         UNION
         SELECT s.hash FROM reached r
           JOIN contract_sources p ON p.hash = r.hash
           CROSS JOIN LATERAL jsonb_array_elements_text(p.adjacency::jsonb) AS child(hash)
           JOIN contract_sources s ON s.hash = child.hash
       )
       SELECT hash FROM reached ORDER BY hash`,
      [hash]
    )
    return rows.length === 0 ? undefined : rows.map((r) => r.hash)
  }
}
