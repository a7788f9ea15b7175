/**
 * Managing wallets through the desk: rename, change the password, export the account public key for a
 * watch-only copy, remove (confirmed by the wallet's name). No answer carries key material.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { WalletSummary } from '../../../src/api/contract'
import { parseTextEnvelope } from '../../../src/core/cardano/envelope'
import { Keystore } from '../../../src/engine/keys'
import { FAST_SCRYPT } from '../keys/support'
import { deskHarness, restoreSandboxWallet, PASSWORD, type DeskHarness } from './support'

const NEW_PASSWORD = 'a new and longer password'
const UNKNOWN_WALLET = '0'.repeat(40)
const SINGLE_KEY_FILE = JSON.stringify({
  type: 'PaymentSigningKeyShelley_ed25519',
  description: 'Payment Signing Key',
  cborHex: `5820${'11'.repeat(32)}`
})

let h: DeskHarness
let alice: WalletSummary

beforeAll(async () => {
  h = await deskHarness()
  alice = await restoreSandboxWallet(h, 'alice')
})
afterAll(() => h.close())

describe('wallets.rename', () => {
  test('gives the wallet a new name; its id, address and lock stay', async () => {
    const renamed = await h.ok('wallets.rename', { walletId: alice.id, name: 'Alice (savings)' })
    expect(renamed).toEqual({ ...alice, name: 'Alice (savings)' })
    expect(await h.ok('wallets.list', {})).toEqual([renamed])
    await h.ok('wallets.unlock', { walletId: alice.id, password: PASSWORD })
    await h.ok('wallets.lock', { walletId: alice.id })
  })

  test('refuses a name the keystore would not keep, and an unknown wallet', async () => {
    expect((await h.fails('wallets.rename', { walletId: alice.id, name: '' }, 'InvalidRequest')).message).toContain(
      'cannot be empty'
    )
    await h.fails('wallets.rename', { walletId: alice.id, name: ' padded ' }, 'InvalidRequest')
    await h.fails('wallets.rename', { walletId: alice.id, name: 'x'.repeat(300) }, 'InvalidRequest')
    await h.fails('wallets.rename', { walletId: UNKNOWN_WALLET, name: 'ghost' }, 'WalletNotFound')
    expect((await h.ok('wallets.list', {})).map((w) => w.name)).toEqual(['Alice (savings)'])
  })
})

describe('wallets.changePassword', () => {
  test('needs the old password and a new one of at least 8 characters', async () => {
    const base = { walletId: alice.id }
    await h.fails(
      'wallets.changePassword',
      { ...base, oldPassword: 'not it at all', newPassword: NEW_PASSWORD },
      'WrongPassword'
    )
    const short = await h.fails(
      'wallets.changePassword',
      { ...base, oldPassword: PASSWORD, newPassword: 'short' },
      'InvalidPassword'
    )
    expect(short.message).toBe('A password needs at least 8 characters.')
    await h.fails('wallets.changePassword', { ...base, oldPassword: PASSWORD }, 'InvalidRequest')
  })

  test('the new password unlocks the wallet and the old one no longer does', async () => {
    const changed = await h.ok('wallets.changePassword', {
      walletId: alice.id,
      oldPassword: PASSWORD,
      newPassword: NEW_PASSWORD
    })
    expect(changed).toMatchObject({ id: alice.id, locked: true })
    await h.fails('wallets.unlock', { walletId: alice.id, password: PASSWORD }, 'WrongPassword')
    expect(await h.ok('wallets.unlock', { walletId: alice.id, password: NEW_PASSWORD })).toMatchObject({
      locked: false
    })
    await h.ok('wallets.lock', { walletId: alice.id })
  })
})

describe('wallets.exportPublic', () => {
  test('the account public key as acct_xvk and as a cardano-cli file, from which a watch-only copy is made', async () => {
    const exported = await h.ok('wallets.exportPublic', { walletId: alice.id })
    expect(exported.accountKey).toMatch(/^acct_xvk1[02-9ac-hj-np-z]+$/)
    expect(exported.file.fileName).toBe('alice-savings.account.vkey')
    const envelope = parseTextEnvelope(exported.file.text)
    expect(envelope.type).toBe('AccountExtendedVerificationKeyShelley_ed25519_bip32')

    // The other machine: both forms make the same watch-only wallet, at the same address.
    for (const accountKey of [exported.accountKey, exported.file.text]) {
      const other = await Keystore.open({
        dir: mkdtempSync(join(tmpdir(), 'marlowe-desk-watch-')),
        scrypt: FAST_SCRYPT
      })
      const watched = await other.importWatchOnly({ name: 'alice, watched', accountKey })
      expect(watched.id).toBe(alice.id)
      expect(watched.kind).toBe('watch-only')
      const [first] = await other.addresses(watched.id, 'sandbox')
      expect(first?.base).toBe(alice.address)
    }
  })

  test('a single-key wallet has no account key; an unknown wallet is not found', async () => {
    const single = await h.keystore.importSigningKey({ name: 'single', password: PASSWORD, keyFile: SINGLE_KEY_FILE })
    const error = await h.fails('wallets.exportPublic', { walletId: single.id }, 'NoAccountKey')
    expect(error.message).toContain('has no account key')
    await h.fails('wallets.exportPublic', { walletId: UNKNOWN_WALLET }, 'WalletNotFound')
    await h.ok('wallets.remove', { walletId: single.id, confirmName: 'single' })
  })
})

describe('wallets.remove', () => {
  test('refuses without the exact name, then removes the wallet and locks it', async () => {
    await h.ok('wallets.unlock', { walletId: alice.id, password: NEW_PASSWORD })
    const refused = await h.fails('wallets.remove', { walletId: alice.id, confirmName: 'alice' }, 'DeleteNotConfirmed')
    expect(refused.message).toContain('Alice (savings)')
    expect(await h.ok('wallets.list', {})).toHaveLength(1)

    expect(await h.ok('wallets.remove', { walletId: alice.id, confirmName: 'Alice (savings)' })).toEqual({
      walletId: alice.id
    })
    expect(await h.ok('wallets.list', {})).toEqual([])
    expect(h.keystore.isUnlocked(alice.id)).toBe(false)
    await h.fails('wallets.remove', { walletId: alice.id, confirmName: 'Alice (savings)' }, 'WalletNotFound')
  })

  test('no answer carried key material', () => {
    const all = h.answers.join('\n')
    expect(all).not.toMatch(/xprv|acct_xsk|addr_xsk|SigningKey/)
    expect(all).not.toContain(PASSWORD)
    expect(all).not.toContain(NEW_PASSWORD)
  })
})
