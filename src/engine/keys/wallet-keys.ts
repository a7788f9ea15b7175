/**
 * The keys a wallet holds, seen from its file record or from its unlocked session: what binds its secret,
 * whether a decrypted secret is really its own, and whose key hashes it owns.
 */
import { bytesEqual } from '../../core/bytes'
import { accountXvkOf } from './derivation'
import type { KeyOwner } from './key-scan'
import type { SessionSecret } from './sessions'
import { publicKeyOfSigningKey } from './signing'
import { secretBinding, type WalletRecord } from './wallet-file'

/** A wallet with an encrypted secret: HD or single-key (a watch-only one has none, a hardware one's is on the device). */
export type SecretRecord = Extract<WalletRecord, { kind: 'hd' | 'single-key' }>

export function bindingOf(record: SecretRecord): Uint8Array {
  return secretBinding(record.kind, record.id, record.kind === 'hd' ? record.account.xvk : record.verificationKey)
}

/** Whether a decrypted secret has the right size and belongs to the wallet's public key. */
export function secretMatches(record: SecretRecord, plaintext: Uint8Array): boolean {
  if (record.kind === 'hd') return plaintext.length === 96 && bytesEqual(accountXvkOf(plaintext), record.account.xvk)
  return (
    (plaintext.length === 32 || plaintext.length === 64) &&
    bytesEqual(publicKeyOfSigningKey(plaintext), record.verificationKey)
  )
}

/** An unlocked session's secret, taking ownership of `plaintext`. */
export function sessionSecretOf(record: SecretRecord, plaintext: Uint8Array): SessionSecret {
  if (record.kind === 'hd') {
    return { kind: 'hd', accountIndex: record.account.index, accountXvk: record.account.xvk, accountXprv: plaintext }
  }
  return { kind: 'single-key', verificationKey: record.verificationKey, signingKey: plaintext }
}

export function ownerOf(record: WalletRecord): KeyOwner {
  return record.kind === 'single-key' ? { verificationKey: record.verificationKey } : { account: record.account }
}

export function sessionOwner(secret: SessionSecret): KeyOwner {
  if (secret.kind === 'single-key') return { verificationKey: secret.verificationKey }
  return { account: { index: secret.accountIndex, xvk: secret.accountXvk } }
}
