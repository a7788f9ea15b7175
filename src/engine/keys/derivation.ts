/**
 * CIP-1852 key derivation, m/1852'/1815'/account'/role/index, with CSL's BIP32-Ed25519 (Icarus master key).
 * Below the account everything is soft-derived, so the account public key alone yields every address and
 * key hash; only signing needs the account private key.
 */
import { CSL, rootKeyFromEntropy, withCsl, withSecretCsl } from '../../csl'
import { bytesToHex } from '../../core/bytes'

export type KeyRole = 'payment' | 'change' | 'stake'

export const ROLE_INDEX: Readonly<Record<KeyRole, number>> = { payment: 0, change: 1, stake: 2 }

/** Where a key of a wallet comes from: a CIP-1852 path, or the one key of an imported key file. */
export type KeyPath =
  | { readonly kind: 'derived'; readonly account: number; readonly role: KeyRole; readonly index: number }
  | { readonly kind: 'imported' }

const PURPOSE = 1852
const COIN_TYPE = 1815
const HARDENED = 0x80000000
/** Soft indices are below 2^31. */
export const MAX_SOFT_INDEX = HARDENED - 1

export function formatKeyPath(path: KeyPath): string {
  if (path.kind === 'imported') return 'imported key'
  return `m/${PURPOSE}'/${COIN_TYPE}'/${path.account}'/${ROLE_INDEX[path.role]}/${path.index}`
}

export interface AccountKeys {
  /** Extended private key ‖ chain code, 96 bytes. Secret: the caller zeroes it after use. */
  readonly xprv: Uint8Array
  /** Public key ‖ chain code, 64 bytes (the bytes of an acct_xvk). */
  readonly xvk: Uint8Array
}

/** Every key on the way to the account's is wiped from CSL's memory; the caller zeroes the `xprv` it gets. */
export function accountKeysFromEntropy(entropy: Uint8Array, account: number): AccountKeys {
  return withSecretCsl((scope) => {
    scope.secret(new Uint8Array(entropy))
    const root = scope.own(rootKeyFromEntropy(entropy))
    scope.secret(root.as_bytes())
    const purpose = scope.own(root.derive(HARDENED + PURPOSE))
    scope.secret(purpose.as_bytes())
    const coin = scope.own(purpose.derive(HARDENED + COIN_TYPE))
    scope.secret(coin.as_bytes())
    const key = scope.own(coin.derive(HARDENED + account))
    // The scope zeroes what it is given: the caller's copy is another.
    const xprv = scope.secret(key.as_bytes())
    return { xprv: new Uint8Array(xprv), xvk: scope.own(key.to_public()).as_bytes() }
  })
}

/** The account public key of an account private key, to check a decrypted key against its wallet. */
export function accountXvkOf(xprv: Uint8Array): Uint8Array {
  return withSecretCsl((scope) =>
    scope.own(scope.own(CSL.Bip32PrivateKey.from_bytes(scope.secret(new Uint8Array(xprv)))).to_public()).as_bytes()
  )
}

/** Key hashes (hex) of indices from..from+count-1 of one role, derived from the account public key. */
export function childKeyHashes(xvk: Uint8Array, role: KeyRole, from: number, count: number): string[] {
  return withCsl((scope) => {
    const chain = scope.own(scope.own(CSL.Bip32PublicKey.from_bytes(xvk)).derive(ROLE_INDEX[role]))
    const hashes: string[] = []
    for (let index = from; index < from + count; index += 1) {
      const raw = scope.own(scope.own(chain.derive(index)).to_raw_key())
      hashes.push(bytesToHex(scope.own(raw.hash()).to_bytes()))
    }
    return hashes
  })
}

/** A child public key: 32 bytes, or 64 with its chain code when `extended`. */
export function childPublicKey(xvk: Uint8Array, role: KeyRole, index: number, extended: boolean): Uint8Array {
  return withCsl((scope) => {
    const child = scope.own(
      scope.own(scope.own(CSL.Bip32PublicKey.from_bytes(xvk)).derive(ROLE_INDEX[role])).derive(index)
    )
    return extended ? child.as_bytes() : scope.own(child.to_raw_key()).as_bytes()
  })
}

/** Blake2b-224 hash (hex) of a 32-byte Ed25519 public key. */
export function keyHashOf(publicKey: Uint8Array): string {
  return withCsl((scope) => bytesToHex(scope.own(scope.own(CSL.PublicKey.from_bytes(publicKey)).hash()).to_bytes()))
}
