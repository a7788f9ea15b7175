/** The API token of the local HTTP API, kept in the data directory and readable by its owner only. */
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ensurePrivateDir } from '../engine/private-dir'

/** 24 random bytes as base64url: what this module writes; anything weaker is not kept. */
const STRONG_TOKEN = /^[A-Za-z0-9_-]{32,256}$/

/** Why the token in `file` must not be used, or undefined when it may. */
function problemWith(file: string, token: string): string | undefined {
  if (!STRONG_TOKEN.test(token)) return 'it was weaker than 32 random base64url characters'
  if (process.platform === 'win32') return undefined
  const stat = statSync(file)
  if ((stat.mode & 0o077) !== 0) return 'other users could read or change it'
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return 'another user owns it'
  return undefined
}

/**
 * The token in `dir/api-token`, made on first use. A token that is weak, or in a file others could read,
 * change or own, may be known to someone else: a fresh one replaces it, and `onReplaced` says why.
 */
export function apiToken(dir: string, onReplaced: (why: string) => void = () => undefined): string {
  ensurePrivateDir(dir)
  const file = join(dir, 'api-token')
  if (existsSync(file)) {
    const token = readFileSync(file, 'utf8').trim()
    const problem = problemWith(file, token)
    if (problem === undefined) return token
    onReplaced(`the API token in ${file} was replaced: ${problem}`)
  }
  const token = randomBytes(24).toString('base64url')
  writeFileSync(file, `${token}\n`, { mode: 0o600 })
  chmodSync(file, 0o600)
  return token
}
