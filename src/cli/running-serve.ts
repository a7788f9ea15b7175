/**
 * Where a `serve` on a data directory listens, so that the online `tx` commands go through it while it runs: the
 * sandbox admits one process, and a `serve` on a node has the store that follows the builds. `serve` writes
 * `serve.json` in its data directory once it listens and removes it when it stops; a record left behind by a
 * process that died is ignored.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { NetworkName } from '../chain/provider'
import { isJsonObject, JsonSyntaxError, parseJson, stringifyJson, type JsonValue } from '../core/json/lossless'
import { isAlive } from '../chain/sandbox'

export interface ServeRecord {
  readonly pid: number
  readonly port: number
  readonly network: NetworkName
}

const NETWORKS: readonly string[] = ['sandbox', 'preview', 'preprod', 'mainnet']

const recordPath = (home: string): string => join(home, 'serve.json')

/** Writes the record of this process's `serve`; the function returned removes it (if it is still this one's). */
export function recordServe(home: string, record: Omit<ServeRecord, 'pid'>): () => void {
  const file = recordPath(home)
  const temporary = `${file}.${process.pid}.tmp`
  writeFileSync(
    temporary,
    `${stringifyJson({ pid: BigInt(process.pid), port: BigInt(record.port), network: record.network })}\n`,
    { mode: 0o600 }
  )
  renameSync(temporary, file)
  return () => {
    if (readRecord(home)?.pid === process.pid) rmSync(file, { force: true })
  }
}

function readRecord(home: string): ServeRecord | undefined {
  let text: string
  try {
    text = readFileSync(recordPath(home), 'utf8')
  } catch {
    return undefined
  }
  let value: JsonValue
  try {
    value = parseJson(text)
  } catch (e) {
    if (e instanceof JsonSyntaxError) return undefined
    throw e
  }
  if (!isJsonObject(value)) return undefined
  const { pid, port, network } = value
  if (typeof pid !== 'bigint' || typeof port !== 'bigint' || typeof network !== 'string') return undefined
  if (!NETWORKS.includes(network) || pid <= 0n || port <= 0n || port > 65535n) return undefined
  return { pid: Number(pid), port: Number(port), network: network as NetworkName }
}

/** The `serve` running on `home`, if its process is alive. */
export function runningServe(home: string): ServeRecord | undefined {
  const record = readRecord(home)
  return record !== undefined && record.pid !== process.pid && isAlive(record.pid) ? record : undefined
}
