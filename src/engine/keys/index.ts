/**
 * The keystore: HD (CIP-1852), watch-only and single-key wallets, encrypted at rest, signing behind
 * `witness` so no key leaves it.
 */
export { Keystore } from './keystore'
export type {
  AccountKeyExport,
  AddressQuery,
  CreatedWallet,
  CreateWalletInput,
  DamagedWalletFile,
  KeystoreOptions,
  RestoreWalletInput,
  ScanOptions,
  SigningKeyInput,
  VerificationKeyQuery,
  WalletAddress,
  WalletListing,
  WatchOnlyInput,
  WitnessProvider,
  WitnessResult
} from './keystore-api'
export type { WalletInfo } from './wallet-info'
export type { WalletKind } from './wallet-file'
export { formatKeyPath, type KeyPath, type KeyRole, ROLE_INDEX, childPublicKey } from './derivation'
export { DEFAULT_GAP, ownedKeyHashes } from './key-scan'
export { DEFAULT_MNEMONIC_LENGTH, generateMnemonic, type MnemonicLength } from './mnemonic'
export { MIN_PASSWORD_LENGTH } from './request-checks'
export { DEFAULT_SCRYPT, type ScryptParams } from './secret-box'
export type { Clock, Schedule } from './sessions'
export { UnlockThrottle } from './unlock-throttle'
export type { KeystoreErrorCode } from './errors'
export { writeFileAtomic } from './atomic-file'
export { type AccountKey, type HardwareVendor } from './wallet-file'
