/**
 * The key hashes a wallet owns, found from public keys alone: payment and change indices below the gap,
 * and the stake key (role 2, index 0); or the one key of a single-key wallet.
 */
import { childKeyHashes, keyHashOf, type KeyPath } from './derivation'
import type { AccountKey } from './wallet-file'

export const DEFAULT_GAP = 20
export const MAX_GAP = 1000

export type KeyOwner = { readonly account: AccountKey } | { readonly verificationKey: Uint8Array }

/** Key hash (hex) → where the key comes from. */
export function ownedKeyHashes(owner: KeyOwner, gap: number): Map<string, KeyPath> {
  if ('verificationKey' in owner) return new Map([[keyHashOf(owner.verificationKey), { kind: 'imported' }]])
  const { index: account, xvk } = owner.account
  const owned = new Map<string, KeyPath>()
  for (const role of ['payment', 'change'] as const) {
    childKeyHashes(xvk, role, 0, gap).forEach((hash, index) =>
      owned.set(hash, { kind: 'derived', account, role, index })
    )
  }
  owned.set(stakeKeyHash(xvk), { kind: 'derived', account, role: 'stake', index: 0 })
  return owned
}

export function stakeKeyHash(accountXvk: Uint8Array): string {
  return childKeyHashes(accountXvk, 'stake', 0, 1)[0]!
}
