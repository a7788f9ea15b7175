/** The API token of the local HTTP API, kept in the data directory and readable by its owner only. */
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** The token in `dir/api-token`, made on first use. */
export function apiToken(dir: string): string {
  const file = join(dir, 'api-token')
  if (existsSync(file)) {
    const token = readFileSync(file, 'utf8').trim()
    if (token !== '') return token
  }
  mkdirSync(dir, { recursive: true })
  const token = randomBytes(24).toString('base64url')
  writeFileSync(file, `${token}\n`, { mode: 0o600 })
  chmodSync(file, 0o600)
  return token
}
