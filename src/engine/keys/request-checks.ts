/**
 * Checks on what callers pass the keystore, each failing with a message that names the argument.
 */
import { MIN_PASSWORD_LENGTH } from '../../api/contract'
import type { EngineError } from '../errors'
import { MAX_SOFT_INDEX } from './derivation'
import { keystoreError } from './errors'
import { DEFAULT_GAP, MAX_GAP } from './key-scan'
import type { ScanOptions } from './keystore-api'
import { walletNameProblem } from './wallet-file'

// One rule for the keystore and the forms that set a password.
export { MIN_PASSWORD_LENGTH }
export const MAX_ADDRESS_COUNT = 1000
const WALLET_ID = /^[0-9a-f]{40}$/
const KEY_HASH = /^[0-9a-fA-F]{56}$/

/** Lowercase, each once; throws on anything but 28 bytes of hex. */
export function normalizeKeyHashes(keyHashes: readonly string[]): string[] {
  const bad = keyHashes.find((hash) => !KEY_HASH.test(hash))
  if (bad !== undefined) throw invalid(`a key hash is 56 hex characters, got "${bad}"`)
  return [...new Set(keyHashes.map((hash) => hash.toLowerCase()))]
}

export function gapOf(options: ScanOptions): number {
  const gap = options.gap ?? DEFAULT_GAP
  checkCount('gap', gap, MAX_GAP)
  return gap
}

export function checkName(name: string): void {
  const problem = walletNameProblem(name)
  if (problem !== undefined) throw invalid(problem)
}

export function checkPassword(password: string): void {
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    throw keystoreError('InvalidPassword', `a password needs at least ${MIN_PASSWORD_LENGTH} characters`)
  }
}

export function checkWalletId(walletId: string): void {
  if (!WALLET_ID.test(walletId)) throw invalid(`a wallet id is 40 lowercase hex characters, got "${walletId}"`)
}

export function checkIndex(what: string, index: number): void {
  if (!Number.isSafeInteger(index) || index < 0 || index > MAX_SOFT_INDEX) {
    throw invalid(`${what} must be an integer from 0 to ${MAX_SOFT_INDEX}, got ${index}`)
  }
}

export function checkCount(what: string, count: number, max: number): void {
  if (!Number.isSafeInteger(count) || count < 1 || count > max) {
    throw invalid(`${what} must be an integer from 1 to ${max}, got ${count}`)
  }
}

export function invalid(message: string): EngineError {
  return keystoreError('InvalidRequest', message)
}
