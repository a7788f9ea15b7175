/**
 * No copy of a private key stays in CSL's wasm memory after the engine used it (issue 13: CSL frees its objects
 * without clearing them). Each test computes the keys involved on its own, in Node's crypto or in a scope that is
 * itself wiped, runs the engine's call, and then searches the whole of CSL's memory for every 32-byte piece of
 * those keys. The witnesses made meanwhile still verify.
 */
import { pbkdf2Sync, randomBytes } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { CSL, withCsl, withSecretCsl } from '../../../src/csl'
import { accountKeysFromEntropy, accountXvkOf } from '../../../src/engine/keys/derivation'
import { publicKeyOfSigningKey, vkeyWitnesses } from '../../../src/engine/keys/signing'

const HARDENED = 0x80000000

function cslMemory(): Buffer {
  const memory = (CSL as unknown as { __wasm: { memory: { buffer: ArrayBuffer } } }).__wasm.memory
  return Buffer.from(memory.buffer)
}

/** How many of the 32-byte pieces of `secrets` appear anywhere in CSL's memory. */
function copiesInCsl(secrets: readonly Uint8Array[]): number {
  const memory = cslMemory()
  let found = 0
  for (const secret of secrets) {
    for (let i = 0; i + 32 <= secret.length; i += 32) {
      const piece = secret.subarray(i, i + 32)
      for (let at = memory.indexOf(piece); at >= 0; at = memory.indexOf(piece, at + 32)) found += 1
    }
  }
  return found
}

/** The Icarus root key, computed without CSL. */
function rootKey(entropy: Uint8Array): Uint8Array {
  const xprv = pbkdf2Sync(new Uint8Array(), entropy, 4096, 96, 'sha512')
  xprv[0]! &= 0b1111_1000
  xprv[31]! &= 0b0001_1111
  xprv[31]! |= 0b0100_0000
  return new Uint8Array(xprv)
}

/** The keys below `account`'s on one path, computed in a wiped scope: JS copies only, for the search. */
function childKeys(accountXprv: Uint8Array, role: number, index: number): Uint8Array[] {
  return withSecretCsl((scope) => {
    const account = scope.own(CSL.Bip32PrivateKey.from_bytes(scope.secret(new Uint8Array(accountXprv))))
    const chain = scope.own(account.derive(role))
    const child = scope.own(chain.derive(index))
    const raw = scope.own(child.to_raw_key())
    return [chain.as_bytes(), child.as_bytes(), raw.as_bytes()].map((b) => new Uint8Array(scope.secret(b)))
  })
}

describe("keys are wiped from CSL's memory after use", () => {
  test('deriving an account from a recovery phrase leaves no copy of the entropy, the root or the account key', () => {
    const entropy = new Uint8Array(randomBytes(32))
    const { xprv, xvk } = accountKeysFromEntropy(entropy, 0)
    expect(xvk).toHaveLength(64)
    expect(copiesInCsl([entropy, rootKey(entropy), xprv])).toBe(0)
    expect(accountXvkOf(xprv)).toEqual(xvk)
    expect(copiesInCsl([xprv])).toBe(0)
  })

  test('signing with an HD wallet leaves no copy of any key on the path, and the witness verifies', () => {
    const { xprv, xvk } = accountKeysFromEntropy(new Uint8Array(randomBytes(24)), 0)
    const keys = childKeys(xprv, 0, 7)
    expect(copiesInCsl([xprv, ...keys])).toBe(0)
    const bodyHash = new Uint8Array(randomBytes(32))
    // A session holds the key as the decryption gave it: a Buffer, whose slice() would share its bytes.
    const held = Buffer.from(xprv)
    const [witness] = vkeyWitnesses({ kind: 'hd', accountIndex: 0, accountXvk: xvk, accountXprv: held }, bodyHash, [
      { kind: 'derived', account: 0, role: 'payment', index: 7 }
    ])
    expect(copiesInCsl([xprv, ...keys])).toBe(0)
    // The session's own copy is left for the next signature.
    expect(Buffer.compare(held, xprv)).toBe(0)
    expect(accountXvkOf(held)).toEqual(xvk)
    withCsl((s) => {
      const vkey = s.own(s.own(CSL.Vkeywitness.from_bytes(witness!)).vkey())
      const publicKey = s.own(vkey.public_key())
      const expected = s.own(s.own(s.own(s.own(CSL.Bip32PublicKey.from_bytes(xvk)).derive(0)).derive(7)).to_raw_key())
      expect(publicKey.to_hex()).toBe(expected.to_hex())
      expect(publicKey.verify(bodyHash, s.own(s.own(CSL.Vkeywitness.from_bytes(witness!)).signature()))).toBe(true)
    })
    for (const k of keys) k.fill(0)
  })

  test('signing with a single key (cardano-cli file) leaves no copy of it', () => {
    for (const length of [32, 64]) {
      const signingKey = new Uint8Array(randomBytes(length))
      if (length === 64) {
        signingKey[0]! &= 0b1111_1000
        signingKey[31]! &= 0b0111_1111
        signingKey[31]! |= 0b0100_0000
      }
      const publicKey = publicKeyOfSigningKey(signingKey)
      expect(publicKey).toHaveLength(32)
      vkeyWitnesses({ kind: 'single-key', signingKey, verificationKey: publicKey }, new Uint8Array(32), [
        { kind: 'imported' }
      ])
      expect(copiesInCsl([signingKey])).toBe(0)
    }
  })

  test('the search finds what a plain scope leaves behind (so a zero above means wiped, not missed)', () => {
    const xprv = rootKey(new Uint8Array(randomBytes(16)))
    withCsl((s) => s.own(s.own(CSL.Bip32PrivateKey.from_bytes(xprv)).derive(HARDENED + 1852)))
    expect(copiesInCsl([xprv])).toBeGreaterThan(0)
    withSecretCsl((scope) => scope.secret(new Uint8Array(xprv)))
    expect(copiesInCsl([xprv])).toBe(0)
  })
})
