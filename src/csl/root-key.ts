/**
 * The CIP-3 (Icarus) root key of BIP-39 entropy, as CSL's `Bip32PrivateKey.from_bip39_entropy` derives it:
 * PBKDF2-HMAC-SHA512(passphrase, salt = entropy, 4096 rounds, 96 bytes), then the ed25519 bits cleared and set.
 * Node's native PBKDF2 does the 4096 rounds ~9× faster than CSL's wasm, which the sandbox pays for each of its
 * wallets at every start.
 */
import { pbkdf2Sync } from 'node:crypto'
import * as CSL from '@emurgo/cardano-serialization-lib-nodejs'

const ROUNDS = 4096
const XPRV_BYTES = 96

export function rootKeyFromEntropy(
  entropy: Uint8Array,
  passphrase: Uint8Array = new Uint8Array()
): CSL.Bip32PrivateKey {
  const xprv = pbkdf2Sync(passphrase, entropy, ROUNDS, XPRV_BYTES, 'sha512')
  try {
    xprv[0]! &= 0b1111_1000
    xprv[31]! &= 0b0001_1111
    xprv[31]! |= 0b0100_0000
    return CSL.Bip32PrivateKey.from_bytes(xprv)
  } finally {
    xprv.fill(0)
  }
}
