import { describe, expect, it } from 'vitest'
import { parseTextEnvelope } from '../../../src/core/cardano/envelope'
import { bytesToHex, hexToBytes } from '../../../src/core/bytes'
import { CSL } from '../../../src/csl'
import { CIP19, CSL_VECTORS, openKeystore, PASSWORD, rejection, snapshot, freshDir } from './support'

// RFC 8032 section 7.1, TEST 1: an Ed25519 seed and its public key.
const RFC8032_SEED = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60'
const RFC8032_PUBLIC = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a'

function keyFile(type: string, cborHex: string): string {
  return `{\n    "type": "${type}",\n    "description": "Payment Signing Key",\n    "cborHex": "${cborHex}"\n}\n`
}

const NORMAL_KEY_FILE = keyFile('PaymentSigningKeyShelley_ed25519', `5820${RFC8032_SEED}`)

/** cardano-cli's extended key layout (CSL's 128-byte xprv) of CIP-19's payment key, m/1852'/1815'/0'/0/0. */
function cip19ExtendedKeyHex(): string {
  const root = CSL.Bip32PrivateKey.from_bip39_entropy(hexToBytes('df9ed25ed146bf43336a5d7cf7395994'), new Uint8Array())
  const path = [0x80000000 + 1852, 0x80000000 + 1815, 0x80000000, 0, 0]
  const key = path.reduce((parent, index) => {
    const child = parent.derive(index)
    parent.free()
    return child
  }, root)
  const hex = bytesToHex(key.to_128_xprv())
  key.free()
  return hex
}

describe('single-key wallets from cardano-cli signing keys', () => {
  it('imports a normal signing key, with an enterprise address and no base or reward address', async () => {
    const keystore = await openKeystore()
    const wallet = await keystore.importSigningKey({ name: 'Cold', password: PASSWORD, keyFile: NORMAL_KEY_FILE })
    expect(wallet).toMatchObject({ kind: 'single-key', name: 'Cold', verificationKey: RFC8032_PUBLIC })
    const vkey = parseTextEnvelope(await keystore.exportVerificationKey(wallet.id))
    expect(vkey.type).toBe('PaymentVerificationKeyShelley_ed25519')
    expect(bytesToHex(vkey.cbor)).toBe(`5820${RFC8032_PUBLIC}`)
    const [address] = await keystore.addresses(wallet.id, 'mainnet')
    expect(address).toEqual({
      path: { kind: 'imported' },
      keyHash: wallet.kind === 'single-key' ? wallet.keyHash : '',
      enterprise: expect.stringMatching(/^addr1v/)
    })
    expect(await keystore.rewardAddress(wallet.id, 'mainnet')).toBeUndefined()
    expect(await keystore.addresses(wallet.id, 'mainnet', { role: 'change' })).toEqual([])
    expect(await keystore.addresses(wallet.id, 'mainnet', { from: 1 })).toEqual([])
    expect([...(await keystore.ownedKeyHashes(wallet.id))]).toEqual([[address?.keyHash, { kind: 'imported' }]])
  })

  it("imports an extended signing key: CIP-19's payment key gives CIP-19's enterprise addresses", async () => {
    const keystore = await openKeystore()
    const file = keyFile('PaymentExtendedSigningKeyShelley_ed25519_bip32', `5880${cip19ExtendedKeyHex()}`)
    const wallet = await keystore.importSigningKey({ name: 'Extended', password: PASSWORD, keyFile: file })
    expect(wallet.kind === 'single-key' && wallet.keyHash).toBe(CIP19.paymentKeyHash)
    expect((await keystore.addresses(wallet.id, 'mainnet'))[0]?.enterprise).toBe(CSL_VECTORS[0].enterprise.mainnet)
    expect((await keystore.addresses(wallet.id, 'preview'))[0]?.enterprise).toBe(CSL_VECTORS[0].enterprise.testnet)
  })

  it('unlocks and locks like any wallet', async () => {
    const keystore = await openKeystore()
    const wallet = await keystore.importSigningKey({ name: 'Cold', password: PASSWORD, keyFile: NORMAL_KEY_FILE })
    expect((await rejection(keystore.unlock(wallet.id, 'not the password'))).code).toBe('WrongPassword')
    await keystore.unlock(wallet.id, PASSWORD)
    expect(keystore.isUnlocked(wallet.id)).toBe(true)
  })

  it('refuses the same key twice', async () => {
    const keystore = await openKeystore()
    await keystore.importSigningKey({ name: 'Cold', password: PASSWORD, keyFile: NORMAL_KEY_FILE })
    const error = await rejection(
      keystore.importSigningKey({ name: 'Again', password: PASSWORD, keyFile: NORMAL_KEY_FILE })
    )
    expect([error.code, error.message]).toEqual(['WalletExists', `this key's wallet already exists: "Cold"`])
  })

  it.each([
    [
      'text that is not a key file',
      'nope',
      'signing key file: not a TextEnvelope: invalid JSON at line 1, column 1: unexpected character "n", expected a value'
    ],
    [
      'a verification key file',
      keyFile('PaymentVerificationKeyShelley_ed25519', `5820${RFC8032_PUBLIC}`),
      'signing key file: unsupported key file type "PaymentVerificationKeyShelley_ed25519": expected PaymentSigningKeyShelley_ed25519 or PaymentExtendedSigningKeyShelley_ed25519_bip32'
    ],
    [
      'a short key',
      keyFile('PaymentSigningKeyShelley_ed25519', `581f${RFC8032_SEED.slice(2)}`),
      'signing key file: PaymentSigningKeyShelley_ed25519 key file: the key must be 32 bytes, got 31'
    ],
    [
      'a key without its CBOR header',
      keyFile('PaymentSigningKeyShelley_ed25519', RFC8032_SEED),
      'signing key file: PaymentSigningKeyShelley_ed25519 key file: cborHex must be one CBOR byte string of 32 bytes'
    ],
    [
      'an extended key whose public key is not its own',
      keyFile(
        'PaymentExtendedSigningKeyShelley_ed25519_bip32',
        `5880${'11'.repeat(64)}${'22'.repeat(32)}${'33'.repeat(32)}`
      ),
      'signing key file: the public key it holds does not belong to its private key (the file is damaged)'
    ]
  ])('rejects %s', async (_what, keyFileText, message) => {
    const dir = freshDir()
    const keystore = await openKeystore(dir)
    const error = await rejection(keystore.importSigningKey({ name: 'Bad', password: PASSWORD, keyFile: keyFileText }))
    expect([error.code, error.kind, error.message]).toEqual(['InvalidKey', 'BadRequest', message])
    expect(snapshot(dir)).toEqual({})
  })

  it('has no account key, nor keys other than its own', async () => {
    const keystore = await openKeystore()
    const wallet = await keystore.importSigningKey({ name: 'Cold', password: PASSWORD, keyFile: NORMAL_KEY_FILE })
    const account = await rejection(keystore.exportAccountKey(wallet.id))
    expect([account.code, account.message]).toEqual(['InvalidRequest', 'a single-key wallet has no account key'])
    const extended = await rejection(keystore.exportVerificationKey(wallet.id, { extended: true }))
    expect([extended.code, extended.message]).toEqual([
      'InvalidRequest',
      'a single-key wallet has one key (payment, index 0), without a chain code'
    ])
  })
})
