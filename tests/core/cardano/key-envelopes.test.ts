import { describe, expect, it } from 'vitest'
import { bytesToHex } from '../../../src/core/bytes'
import { parseTextEnvelope, stringifyTextEnvelope } from '../../../src/core/cardano/envelope'
import {
  KEY_FILE_TYPES,
  KeyFileError,
  keyBytes,
  keyEnvelope,
  signingKeyFromEnvelope
} from '../../../src/core/cardano/key-envelopes'

const SEED = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60'

function envelope(type: string, cborHex: string) {
  return parseTextEnvelope(JSON.stringify({ type, description: '', cborHex }))
}

describe('cardano-cli key files', () => {
  it('reads a normal signing key: the 32-byte seed', () => {
    const key = signingKeyFromEnvelope(envelope(KEY_FILE_TYPES.paymentSigning, `5820${SEED}`))
    expect(key.form).toBe('normal')
    expect(bytesToHex(key.secret)).toBe(SEED)
    expect(key.statedPublicKey).toBeUndefined()
  })

  it('reads an extended signing key: secret (64) ‖ public key (32) ‖ chain code (32)', () => {
    const hex = `${'11'.repeat(64)}${'22'.repeat(32)}${'33'.repeat(32)}`
    const key = signingKeyFromEnvelope(envelope(KEY_FILE_TYPES.paymentExtendedSigning, `5880${hex}`))
    expect(key.form).toBe('extended')
    expect(bytesToHex(key.secret)).toBe('11'.repeat(64))
    expect(bytesToHex(key.statedPublicKey!)).toBe('22'.repeat(32))
  })

  it('copies the secret out, so the caller can zero the envelope and the key separately', () => {
    const file = envelope(KEY_FILE_TYPES.paymentSigning, `5820${SEED}`)
    const key = signingKeyFromEnvelope(file)
    file.cbor.fill(0)
    expect(bytesToHex(key.secret)).toBe(SEED)
  })

  it('writes verification key files as cardano-cli does', () => {
    const text = stringifyTextEnvelope(keyEnvelope(KEY_FILE_TYPES.paymentVerification, new Uint8Array(32).fill(0xab)))
    expect(text).toBe(
      `{\n    "type": "PaymentVerificationKeyShelley_ed25519",\n    "description": "Payment Verification Key",\n    "cborHex": "5820${'ab'.repeat(32)}"\n}\n`
    )
    const extended = keyEnvelope(KEY_FILE_TYPES.stakeExtendedVerification, new Uint8Array(64), 'mine')
    expect(extended.description).toBe('mine')
    expect(bytesToHex(keyBytes(extended, KEY_FILE_TYPES.stakeExtendedVerification))).toBe('00'.repeat(64))
  })

  it.each([
    [
      'a transaction',
      envelope('Tx ConwayEra', '84a0a0f5f6'),
      'unsupported key file type "Tx ConwayEra": expected PaymentSigningKeyShelley_ed25519 or PaymentExtendedSigningKeyShelley_ed25519_bip32'
    ],
    [
      'a key one byte short',
      envelope(KEY_FILE_TYPES.paymentSigning, `581f${SEED.slice(2)}`),
      'PaymentSigningKeyShelley_ed25519 key file: the key must be 32 bytes, got 31'
    ],
    [
      'a length header that disagrees with the bytes',
      envelope(KEY_FILE_TYPES.paymentSigning, `5821${SEED}`),
      'PaymentSigningKeyShelley_ed25519 key file: cborHex must be one CBOR byte string of 32 bytes'
    ],
    [
      'a bare key without CBOR',
      envelope(KEY_FILE_TYPES.paymentSigning, SEED),
      'PaymentSigningKeyShelley_ed25519 key file: cborHex must be one CBOR byte string of 32 bytes'
    ],
    ['empty CBOR', envelope(KEY_FILE_TYPES.paymentSigning, ''), 'cborHex must be one CBOR byte string of 32 bytes']
  ])('rejects %s', (_what, file, message) => {
    expect(() => signingKeyFromEnvelope(file)).toThrow(KeyFileError)
    expect(() => signingKeyFromEnvelope(file)).toThrow(message)
  })

  it('checks the type and length of keys it reads and writes', () => {
    const file = envelope(KEY_FILE_TYPES.paymentVerification, `5820${SEED}`)
    expect(() => keyBytes(file, KEY_FILE_TYPES.stakeVerification)).toThrow(
      'expected a StakeVerificationKeyShelley_ed25519 key file, got "PaymentVerificationKeyShelley_ed25519"'
    )
    expect(() => keyEnvelope(KEY_FILE_TYPES.paymentVerification, new Uint8Array(31))).toThrow(
      'a PaymentVerificationKeyShelley_ed25519 key is 32 bytes, got 31'
    )
  })
})
