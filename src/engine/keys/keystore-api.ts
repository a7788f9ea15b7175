/**
 * The keystore's public shapes: its options, the inputs of its operations and their results, all plain data
 * (bytes as Uint8Array). Inputs carry secrets (passwords, phrases, key files); results never do, except the
 * new recovery phrase in `CreatedWallet`.
 */
import type { KeyPath, KeyRole } from './derivation'
import type { KeystoreErrorCode } from './errors'
import type { MnemonicLength } from './mnemonic'
import type { ScryptParams } from './secret-box'
import type { Clock, Schedule } from './sessions'
import type { UnlockThrottle } from './unlock-throttle'
import type { WalletInfo } from './wallet-info'
import type { HardwareVendor } from './wallet-file'

export interface KeystoreOptions {
  /** Directory of the wallet files; created (mode 0700) when missing. */
  readonly dir: string
  /** Inactivity after which an unlocked wallet locks itself; default 5 minutes. */
  readonly autoLockMs?: number
  readonly onAutoLock?: (walletId: string) => void
  /** scrypt parameters for secrets encrypted from now on; default `DEFAULT_SCRYPT`. */
  readonly scrypt?: ScryptParams
  readonly clock?: Clock
  readonly schedule?: Schedule
  /**
   * The backoff on wrong passwords. Pass the same one to every keystore opened in turn on one directory, so
   * that reopening it does not forget the misses; default a fresh one.
   */
  readonly throttle?: UnlockThrottle
}

export interface CreateWalletInput {
  readonly name: string
  readonly password: string
  /** Default 24. */
  readonly words?: MnemonicLength
  /** Default 0. */
  readonly accountIndex?: number
}

export interface RestoreWalletInput {
  readonly name: string
  readonly password: string
  /** 12, 15 or 24 words, as text or as a list. */
  readonly mnemonic: string | readonly string[]
  /** Default 0. */
  readonly accountIndex?: number
}

export interface WatchOnlyInput {
  readonly name: string
  /** `acct_xvk1…`, or the text of an account key file (`AccountKeyExport.envelope`, or its earlier payment type). */
  readonly accountKey: string
  /** Only labels derivation paths; default 0. */
  readonly accountIndex?: number
}

export interface HardwareWalletInput {
  readonly name: string
  readonly vendor: HardwareVendor
  readonly accountIndex: number
  /** Public key ‖ chain code (64 bytes) of m/1852'/1815'/account', as the device returned it. */
  readonly accountXvk: Uint8Array
}

export interface SigningKeyInput {
  readonly name: string
  readonly password: string
  /** The text of a PaymentSigningKeyShelley_ed25519 or PaymentExtendedSigningKeyShelley_ed25519_bip32 file. */
  readonly keyFile: string
}

export interface DamagedWalletFile {
  readonly file: string
  readonly code: KeystoreErrorCode
  readonly message: string
}

export interface WalletListing {
  readonly wallets: readonly WalletInfo[]
  /** Wallet files that could not be read; they are left untouched. */
  readonly damaged: readonly DamagedWalletFile[]
}

export interface CreatedWallet {
  readonly wallet: WalletInfo
  /** Shown once for the user to write down; the keystore does not keep it. */
  readonly mnemonic: readonly string[]
}

export interface WalletAddress {
  readonly path: KeyPath
  /** The payment key hash, hex. */
  readonly keyHash: string
  /** With the account's stake key (role 2, index 0); absent for a single-key wallet. */
  readonly base?: string
  readonly enterprise: string
}

export interface AddressQuery {
  /** Default `payment`. */
  readonly role?: 'payment' | 'change'
  /** First index, default 0. */
  readonly from?: number
  /** Default 1. */
  readonly count?: number
}

export interface ScanOptions {
  /** Payment and change indices 0..gap-1 are searched; default 20. */
  readonly gap?: number
}

export interface WitnessResult {
  /** CBOR `[vkey, signature]`, one per owned requested key, in the order requested. */
  readonly witnesses: Uint8Array[]
  /** Requested key hashes this wallet does not own (within the gap). */
  readonly missing: string[]
}

/** What a transaction signer needs from the keystore; no key material crosses it. */
export interface WitnessProvider {
  witness(
    walletId: string,
    txBodyHash: Uint8Array,
    keyHashes: readonly string[],
    options?: ScanOptions
  ): Promise<WitnessResult>
}

export interface VerificationKeyQuery {
  /** Default `payment`. */
  readonly role?: KeyRole
  /** Default 0. */
  readonly index?: number
  /** With the chain code (a `…Extended…` key file); default false. */
  readonly extended?: boolean
}

export interface AccountKeyExport {
  /** `acct_xvk1…` (CIP-5). */
  readonly bech32: string
  /** An AccountExtendedVerificationKeyShelley_ed25519_bip32 TextEnvelope (cardano-cli has no account key type). */
  readonly envelope: string
}
