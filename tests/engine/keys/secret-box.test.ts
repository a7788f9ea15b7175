import { describe, expect, it } from 'vitest'
import {
  DEFAULT_SCRYPT,
  scryptParamsProblem,
  seal,
  unseal,
  type SealedSecret
} from '../../../src/engine/keys/secret-box'
import { FAST_SCRYPT, PASSWORD } from './support'

const PLAINTEXT = new Uint8Array(96).map((_, i) => i)
const BINDING = new TextEncoder().encode('wallet A')

function flipped(bytes: Uint8Array): Uint8Array {
  const copy = Uint8Array.from(bytes)
  copy[0] = copy[0]! ^ 1
  return copy
}

describe('secret box (scrypt + AES-256-GCM)', () => {
  it('opens with the password it was sealed with', async () => {
    const sealed = await seal(PLAINTEXT, PASSWORD, FAST_SCRYPT, BINDING)
    expect(sealed.ciphertext).toHaveLength(96)
    expect(Buffer.from(sealed.ciphertext).equals(Buffer.from(PLAINTEXT))).toBe(false)
    expect(await unseal(sealed, PASSWORD, BINDING)).toEqual({ ok: true, plaintext: Buffer.from(PLAINTEXT) })
  })

  it('uses a fresh salt and nonce each time', async () => {
    const a = await seal(PLAINTEXT, PASSWORD, FAST_SCRYPT, BINDING)
    const b = await seal(PLAINTEXT, PASSWORD, FAST_SCRYPT, BINDING)
    expect(Buffer.from(a.salt).equals(Buffer.from(b.salt))).toBe(false)
    expect(Buffer.from(a.nonce).equals(Buffer.from(b.nonce))).toBe(false)
  })

  it('tells a wrong password apart from a modified secret', async () => {
    const sealed = await seal(PLAINTEXT, PASSWORD, FAST_SCRYPT, BINDING)
    expect(await unseal(sealed, 'not the password', BINDING)).toEqual({ ok: false, reason: 'wrong-password' })
    const forged: SealedSecret[] = [
      { ...sealed, ciphertext: flipped(sealed.ciphertext) },
      { ...sealed, tag: flipped(sealed.tag) },
      { ...sealed, nonce: flipped(sealed.nonce) }
    ]
    for (const secret of forged)
      expect(await unseal(secret, PASSWORD, BINDING)).toEqual({ ok: false, reason: 'not-authentic' })
    const elsewhere = new TextEncoder().encode('wallet B')
    expect(await unseal(sealed, PASSWORD, elsewhere)).toEqual({ ok: false, reason: 'not-authentic' })
  })

  it('treats composed and decomposed accents in a password alike', async () => {
    const sealed = await seal(PLAINTEXT, 'mot de passe \u00e9t\u00e9', FAST_SCRYPT, BINDING)
    expect((await unseal(sealed, 'mot de passe e\u0301te\u0301', BINDING)).ok).toBe(true)
  })

  it.each([
    [{ N: 1000, r: 8, p: 1 }, 'scrypt N must be a power of two from 2^10 to 2^20, got 1000'],
    [{ N: 512, r: 8, p: 1 }, 'scrypt N must be a power of two from 2^10 to 2^20, got 512'],
    [{ N: 2 ** 21, r: 8, p: 1 }, 'scrypt N must be a power of two from 2^10 to 2^20, got 2097152'],
    [{ N: 1024, r: 0, p: 1 }, 'scrypt r must be from 1 to 32, got 0'],
    [{ N: 1024, r: 8, p: 17 }, 'scrypt p must be from 1 to 16, got 17'],
    [{ N: 2 ** 20, r: 8, p: 1 }, 'scrypt N·r needs more than 256 MiB (N=1048576, r=8)']
  ])('refuses scrypt parameters %o', async (params, message) => {
    expect(scryptParamsProblem(params)).toBe(message)
    await expect(seal(PLAINTEXT, PASSWORD, params, BINDING)).rejects.toThrow(message)
  })

  it('accepts its default parameters', () => {
    expect(scryptParamsProblem(DEFAULT_SCRYPT)).toBeUndefined()
  })
})
