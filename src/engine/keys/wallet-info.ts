/**
 * What the keystore tells about a wallet: plain, JSON-safe data, all of it public.
 */
import { bytesToHex } from '../../core/bytes'
import { encodeAccountXvk } from '../../core/cardano/keys-bech32'
import { keyHashOf } from './derivation'
import type { HardwareVendor, WalletRecord } from './wallet-file'

interface WalletInfoBase {
  /** blake2b-160 of the public key, hex; also the wallet file's name. */
  readonly id: string
  readonly name: string
  /** ISO 8601, UTC. */
  readonly createdAt: string
}

export type WalletInfo =
  | (WalletInfoBase & {
      readonly kind: 'hd' | 'watch-only'
      /** The CIP-1852 account: its index and public key (`acct_xvk…`). */
      readonly account: { readonly index: number; readonly publicKey: string }
    })
  | (WalletInfoBase & {
      readonly kind: 'hardware'
      readonly vendor: HardwareVendor
      /** The CIP-1852 account read from the device: its index and public key (`acct_xvk…`). */
      readonly account: { readonly index: number; readonly publicKey: string }
    })
  | (WalletInfoBase & {
      readonly kind: 'single-key'
      /** The 32-byte Ed25519 verification key, hex. */
      readonly verificationKey: string
      readonly keyHash: string
    })

export function walletInfoOf(record: WalletRecord): WalletInfo {
  const { id, name, createdAt } = record
  if (record.kind === 'single-key') {
    const { verificationKey } = record
    return {
      id,
      name,
      createdAt,
      kind: 'single-key',
      verificationKey: bytesToHex(verificationKey),
      keyHash: keyHashOf(verificationKey)
    }
  }
  const account = { index: record.account.index, publicKey: encodeAccountXvk(record.account.xvk) }
  if (record.kind === 'hardware') return { id, name, createdAt, kind: 'hardware', vendor: record.vendor, account }
  return { id, name, createdAt, kind: record.kind, account }
}
