/**
 * RSS of a `serve` process on a sandbox of many contracts, read from outside (/proc, Linux): its follower indexes
 * every contract of the saved ledger into its store, then every page of GET /contracts is walked and the newest
 * SERVE_READS contracts are read one by one, as a client going through its year of contracts would. Both the RSS then
 * and the peak (VmHWM) since the process started are reported.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { httpGet } from './http'
import { CLI, startListening, stop } from './serve-process'

export const SERVE_READS = 100
const PAGE = 100
const POLL_MS = 200
const INDEX_TIMEOUT_MS = 20 * 60_000

export interface ServeMemory {
  /** Resident set and its peak, in bytes. */
  readonly rss: number
  readonly peak: number
}

/** A `/proc/<pid>/status` line's size, in bytes. */
function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  if (match?.[1] === undefined) throw new Error(`/proc/${pid}/status has no ${field}`)
  return Number(match[1]) * 1024
}

async function contractsPage(base: string, range: string): Promise<{ ids: string[]; total: number; next?: string }> {
  const answer = await httpGet(`${base}/contracts`, { Range: range })
  if (answer.status !== 200 && answer.status !== 206) throw new Error(`GET /contracts: ${answer.status}`)
  const ids = [...answer.body.toString().matchAll(/"contractId":"([0-9a-f]{64}#\d+)"/g)].map((m) => m[1]!)
  const next = answer.headers['next-range']
  return { ids, total: Number(answer.headers['total-count']), ...(typeof next === 'string' ? { next } : {}) }
}

/** Serves a copy of the sandbox ledger saved in `ledgerDir`, of `contracts` contracts, and measures it. */
export async function serveMemory(ledgerDir: string, contracts: number): Promise<ServeMemory> {
  const home = mkdtempSync(join(tmpdir(), 'marlowe-desk-bench-serve-rss-'))
  cpSync(ledgerDir, join(home, 'sandbox'), { recursive: true })
  const { child, port } = await startListening([CLI, 'serve', '--port', '0', '--data', home, '--no-token'])
  try {
    const base = `http://127.0.0.1:${port}`
    const first = `contractId;limit ${PAGE}`
    const began = Date.now()
    while ((await contractsPage(base, first)).total < contracts) {
      if (Date.now() - began > INDEX_TIMEOUT_MS) throw new Error(`serve did not index ${contracts} contracts`)
      await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    }
    const newest = (await contractsPage(base, first)).ids
    for (let range: string | undefined = first; range !== undefined;) range = (await contractsPage(base, range)).next
    for (const id of newest.slice(0, SERVE_READS)) {
      const answer = await httpGet(`${base}/contracts/${encodeURIComponent(id)}`)
      if (answer.status !== 200) throw new Error(`GET /contracts/${id}: ${answer.status}`)
    }
    return { rss: statusBytes(child.pid!, 'VmRSS'), peak: statusBytes(child.pid!, 'VmHWM') }
  } finally {
    await stop(child)
    rmSync(home, { recursive: true, force: true })
  }
}
