import { createHash } from 'node:crypto'
import { bech32 } from '@scure/base'
import { describe, expect, it } from 'vitest'
import { bytesToHex } from '../../../src/core/bytes'
import { CSL } from '../../../src/csl'
import type { Keystore, ScanOptions, WalletInfo } from '../../../src/engine/keys'
import { CIP19, CSL_VECTORS, ManualTime, openKeystore, PASSWORD, rejection } from './support'

const BODY_HASH = createHash('sha256').update('a transaction body').digest()
const UNKNOWN = 'ab'.repeat(28)

/** The signer's side of a witness: whose key it carries, and whether the signature holds. */
function inspect(witness: Uint8Array): { keyHash: string; valid: boolean } {
  const parsed = CSL.Vkeywitness.from_bytes(witness)
  const vkey = parsed.vkey()
  const key = vkey.public_key()
  const hash = key.hash()
  const signature = parsed.signature()
  const result = { keyHash: bytesToHex(hash.to_bytes()), valid: key.verify(BODY_HASH, signature) }
  for (const object of [signature, hash, key, vkey, parsed]) object.free()
  return result
}

async function unlockedWallet(options: Parameters<typeof openKeystore>[1] = {}): Promise<{
  keystore: Keystore
  wallet: WalletInfo
  hashes: Map<string, string>
}> {
  const keystore = await openKeystore(undefined, options)
  const wallet = await keystore.restore({ name: 'Main', password: PASSWORD, mnemonic: CSL_VECTORS[0].mnemonic })
  await keystore.unlock(wallet.id, PASSWORD)
  const owned = await keystore.ownedKeyHashes(wallet.id, { gap: 30 })
  const hashes = new Map(
    [...owned].map(([hash, path]) => [path.kind === 'derived' ? `${path.role}/${path.index}` : 'imported', hash])
  )
  return { keystore, wallet, hashes }
}

describe('witnesses', () => {
  it('signs with each requested key the wallet owns, in order, and names the others', async () => {
    const { keystore, wallet, hashes } = await unlockedWallet()
    const requested = [hashes.get('change/3')!, UNKNOWN, hashes.get('payment/0')!, hashes.get('stake/0')!]
    const { witnesses, missing } = await keystore.witness(wallet.id, BODY_HASH, requested)
    expect(witnesses.map(inspect)).toEqual([
      { keyHash: hashes.get('change/3'), valid: true },
      { keyHash: hashes.get('payment/0'), valid: true },
      { keyHash: hashes.get('stake/0'), valid: true }
    ])
    expect(missing).toEqual([UNKNOWN])
  })

  it('signs as cardano-cli would: CBOR [vkey, signature] of the CIP-19 payment key', async () => {
    const { keystore, wallet, hashes } = await unlockedWallet()
    const { witnesses } = await keystore.witness(wallet.id, BODY_HASH, [hashes.get('payment/0')!])
    const vkey = bytesToHex(bech32.fromWords(bech32.decode(CIP19.paymentKey as `addr_vk1${string}`).words))
    // array(2) [bytes(32) vkey, bytes(64) signature]
    expect(bytesToHex(witnesses[0]!)).toMatch(new RegExp(`^825820${vkey}5840[0-9a-f]{128}$`))
  })

  it('searches payment and change keys up to the gap', async () => {
    const { keystore, wallet, hashes } = await unlockedWallet()
    const far = hashes.get('payment/25')!
    expect((await keystore.witness(wallet.id, BODY_HASH, [far])).missing).toEqual([far])
    const wide = await keystore.witness(wallet.id, BODY_HASH, [far], { gap: 26 })
    expect(wide.missing).toEqual([])
    expect(wide.witnesses.map(inspect)).toEqual([{ keyHash: far, valid: true }])
  })

  it('takes key hashes in either case, once each', async () => {
    const { keystore, wallet, hashes } = await unlockedWallet()
    const hash = hashes.get('payment/1')!
    const { witnesses, missing } = await keystore.witness(wallet.id, BODY_HASH, [hash.toUpperCase(), hash])
    expect(witnesses.map(inspect)).toEqual([{ keyHash: hash, valid: true }])
    expect(missing).toEqual([])
  })

  it('signs with a single-key wallet', async () => {
    const keystore = await openKeystore()
    const keyFile = `{"type":"PaymentSigningKeyShelley_ed25519","description":"","cborHex":"5820${'42'.repeat(32)}"}`
    const wallet = await keystore.importSigningKey({ name: 'Key', password: PASSWORD, keyFile })
    await keystore.unlock(wallet.id, PASSWORD)
    const keyHash = wallet.kind === 'single-key' ? wallet.keyHash : ''
    const { witnesses, missing } = await keystore.witness(wallet.id, BODY_HASH, [UNKNOWN, keyHash])
    expect(witnesses.map(inspect)).toEqual([{ keyHash, valid: true }])
    expect(missing).toEqual([UNKNOWN])
  })

  it('refuses while the wallet is locked, including after auto-lock', async () => {
    const time = new ManualTime()
    const { keystore, wallet, hashes } = await unlockedWallet({
      clock: time.clock,
      schedule: time.schedule,
      autoLockMs: 1000
    })
    await keystore.witness(wallet.id, BODY_HASH, [hashes.get('payment/0')!])
    time.advance(999)
    await keystore.witness(wallet.id, BODY_HASH, [hashes.get('payment/0')!])
    time.advance(999)
    expect(keystore.isUnlocked(wallet.id)).toBe(true)
    time.advance(1)
    const error = await rejection(keystore.witness(wallet.id, BODY_HASH, [hashes.get('payment/0')!]))
    expect([error.code, error.kind, error.message]).toEqual([
      'WalletLocked',
      'Forbidden',
      'wallet "Main" is locked: unlock it to sign'
    ])
  })

  it.each<[string, Uint8Array, string[], string, ScanOptions]>([
    ['a short body hash', new Uint8Array(31), [], 'a transaction body hash is 32 bytes, got 31', {}],
    ['a malformed key hash', BODY_HASH, ['abc'], 'a key hash is 56 hex characters, got "abc"', {}],
    ['a zero gap', BODY_HASH, [], 'gap must be an integer from 1 to 1000, got 0', { gap: 0 }]
  ])('rejects %s', async (_what, bodyHash, keyHashes, message, options) => {
    const { keystore, wallet } = await unlockedWallet()
    const error = await rejection(keystore.witness(wallet.id, bodyHash, keyHashes, options))
    expect([error.code, error.message]).toEqual(['InvalidRequest', message])
  })
})
