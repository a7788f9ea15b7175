/**
 * The keystore's failures, as the engine's one error type. Each code has one kind, so the edges map a code
 * the same way wherever it is thrown.
 */
import { EngineError, type EngineErrorKind } from '../errors'

const KINDS = {
  WalletNotFound: 'NotFound',
  WalletExists: 'Conflict',
  WrongPassword: 'Forbidden',
  UnlockThrottled: 'Unavailable',
  UnlockInProgress: 'Unavailable',
  WalletLocked: 'Forbidden',
  WatchOnlyWallet: 'Forbidden',
  HardwareWallet: 'Forbidden',
  InvalidPassword: 'BadRequest',
  InvalidMnemonic: 'BadRequest',
  InvalidKey: 'BadRequest',
  InvalidRequest: 'BadRequest',
  DeleteNotConfirmed: 'BadRequest',
  WalletFileCorrupt: 'Internal',
  WalletFileTruncated: 'Internal',
  WalletFileUnsupportedVersion: 'Internal'
} as const satisfies Record<string, EngineErrorKind>

export type KeystoreErrorCode = keyof typeof KINDS

export function keystoreError(
  code: KeystoreErrorCode,
  message: string,
  details: Readonly<Record<string, unknown>> = {}
): EngineError {
  return new EngineError(KINDS[code], code, message, details)
}
