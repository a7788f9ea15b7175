import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseTextEnvelope } from '../../../src/core/cardano/envelope'
import { CSL } from '../../../src/csl'
import { Keystore } from '../../../src/engine/keys'
import { writeTempFile } from '../../../src/engine/keys/atomic-file'
import { accountKeysFromEntropy } from '../../../src/engine/keys/derivation'
import { mnemonicEntropy } from '../../../src/engine/keys/mnemonic'
import { seal } from '../../../src/engine/keys/secret-box'
import { decodeWalletFile, encodeWalletFile, secretBinding } from '../../../src/engine/keys/wallet-file'
import { CSL_VECTORS, FAST_SCRYPT, freshDir, ManualTime, openKeystore, PASSWORD, rejection, snapshot } from './support'

const MNEMONIC = CSL_VECTORS[0].mnemonic
const NEW_PASSWORD = 'a brand new passphrase'

async function withWallet(dir: string = freshDir(), options: Parameters<typeof openKeystore>[1] = {}) {
  const keystore = await openKeystore(dir, options)
  const wallet = await keystore.restore({ name: 'Main', password: PASSWORD, mnemonic: MNEMONIC })
  const file = join(dir, `${wallet.id}.wallet.json`)
  return { dir, keystore, wallet, file }
}

describe('keystore: creating and listing wallets', () => {
  it('creates an HD wallet from a fresh 24-word phrase, which restores to the same wallet', async () => {
    const time = new ManualTime()
    const keystore = await openKeystore(freshDir(), { clock: time.clock })
    const { wallet, mnemonic } = await keystore.create({ name: 'Savings', password: PASSWORD })
    expect(mnemonic).toHaveLength(24)
    expect(wallet).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{40}$/),
      name: 'Savings',
      kind: 'hd',
      createdAt: '2026-11-22T12:00:00.000Z',
      account: { index: 0, publicKey: expect.stringMatching(/^acct_xvk1/) }
    })
    const elsewhere = await openKeystore()
    expect(await elsewhere.restore({ name: 'Copy', password: PASSWORD, mnemonic })).toMatchObject({ id: wallet.id })
  })

  it('creates 12- and 15-word wallets on request', async () => {
    const keystore = await openKeystore()
    expect((await keystore.create({ name: 'a', password: PASSWORD, words: 12 })).mnemonic).toHaveLength(12)
    expect((await keystore.create({ name: 'b', password: PASSWORD, words: 15 })).mnemonic).toHaveLength(15)
  })

  it('keeps one file per wallet, owner-only, in a directory it creates', async () => {
    const dir = join(freshDir(), 'nested', 'keys')
    const { wallet, file } = await withWallet(dir)
    expect(readdirSync(dir)).toEqual([`${wallet.id}.wallet.json`])
    if (process.platform !== 'win32') {
      expect(statSync(dir).mode & 0o777).toBe(0o700)
      expect(statSync(file).mode & 0o777).toBe(0o600)
    }
  })

  it('lists wallets in creation order and reads one by id', async () => {
    const time = new ManualTime()
    const dir = freshDir()
    const keystore = await openKeystore(dir, { clock: time.clock })
    const first = await keystore.restore({ name: 'First', password: PASSWORD, mnemonic: CSL_VECTORS[1].mnemonic })
    time.advance(1000)
    const second = await keystore.restore({ name: 'Second', password: PASSWORD, mnemonic: CSL_VECTORS[2].mnemonic })
    expect(await keystore.list()).toEqual({ wallets: [first, second], damaged: [] })
    expect(await (await openKeystore(dir)).get(second.id)).toEqual(second)
  })

  it('restores a chosen account', async () => {
    const keystore = await openKeystore()
    const account0 = await keystore.restore({ name: 'a0', password: PASSWORD, mnemonic: MNEMONIC })
    const account1 = await keystore.restore({ name: 'a1', password: PASSWORD, mnemonic: MNEMONIC, accountIndex: 1 })
    expect(account1.id).not.toBe(account0.id)
    const [address] = await keystore.addresses(account1.id, 'mainnet')
    expect(address?.path).toEqual({ kind: 'derived', account: 1, role: 'payment', index: 0 })
  })

  it('refuses a second wallet for the same account', async () => {
    const { keystore, dir } = await withWallet()
    const before = snapshot(dir)
    const error = await rejection(keystore.restore({ name: 'Again', password: PASSWORD, mnemonic: MNEMONIC }))
    expect([error.code, error.kind, error.message]).toEqual([
      'WalletExists',
      'Conflict',
      `this key's wallet already exists: "Main"`
    ])
    expect(snapshot(dir)).toEqual(before)
  })

  it.each([
    [{ name: '' }, 'InvalidRequest', 'a wallet name cannot be empty'],
    [{ name: ' Main' }, 'InvalidRequest', 'a wallet name cannot start or end with spaces'],
    [{ name: 'x'.repeat(101) }, 'InvalidRequest', 'a wallet name has at most 100 characters'],
    [{ name: 'tab\there' }, 'InvalidRequest', 'a wallet name cannot hold control characters'],
    [{ password: 'short' }, 'InvalidPassword', 'a password needs at least 8 characters'],
    [{ accountIndex: -1 }, 'InvalidRequest', 'accountIndex must be an integer from 0 to 2147483647, got -1'],
    [{ mnemonic: 'test walk nut' }, 'InvalidMnemonic', 'a recovery phrase has 12, 15 or 24 words, got 3']
  ])('rejects a restore with %o', async (change, code, message) => {
    const dir = freshDir()
    const keystore = await openKeystore(dir)
    const error = await rejection(keystore.restore({ name: 'Main', password: PASSWORD, mnemonic: MNEMONIC, ...change }))
    expect([error.code, error.message]).toEqual([code, message])
    expect(readdirSync(dir)).toEqual([])
  })

  it.each([
    ['a malformed id', 'nope', 'InvalidRequest', 'a wallet id is 40 lowercase hex characters, got "nope"'],
    ['an unknown id', '0'.repeat(40), 'WalletNotFound', `no wallet ${'0'.repeat(40)}`]
  ])('rejects %s', async (_what, id, code, message) => {
    const keystore = await openKeystore()
    const error = await rejection(keystore.get(id))
    expect([error.code, error.message]).toEqual([code, message])
  })
})

describe('keystore: locking', () => {
  it('unlocks with the password and locks again', async () => {
    const { keystore, wallet } = await withWallet()
    expect(keystore.isUnlocked(wallet.id)).toBe(false)
    await keystore.unlock(wallet.id, PASSWORD)
    expect(keystore.isUnlocked(wallet.id)).toBe(true)
    expect(keystore.lock(wallet.id)).toBe(true)
    expect(keystore.isUnlocked(wallet.id)).toBe(false)
    await keystore.unlock(wallet.id, PASSWORD)
    keystore.lockAll()
    expect(keystore.isUnlocked(wallet.id)).toBe(false)
  })

  it('refuses a wrong password, leaving the wallet locked and its file as it was', async () => {
    const { keystore, wallet, dir } = await withWallet()
    const before = snapshot(dir)
    const error = await rejection(keystore.unlock(wallet.id, 'not the password'))
    expect([error.code, error.kind, error.message]).toEqual([
      'WrongPassword',
      'Forbidden',
      'wrong password for wallet "Main"'
    ])
    expect(keystore.isUnlocked(wallet.id)).toBe(false)
    expect(snapshot(dir)).toEqual(before)
  })

  it('locks itself after the idle time and says so', async () => {
    const time = new ManualTime()
    const locked: string[] = []
    const { keystore, wallet } = await withWallet(freshDir(), {
      clock: time.clock,
      schedule: time.schedule,
      autoLockMs: 120_000,
      onAutoLock: (id) => locked.push(id)
    })
    await keystore.unlock(wallet.id, PASSWORD)
    time.advance(119_999)
    expect(keystore.isUnlocked(wallet.id)).toBe(true)
    time.advance(1)
    expect(keystore.isUnlocked(wallet.id)).toBe(false)
    expect(locked).toEqual([wallet.id])
  })

  it('defaults to locking after five minutes', async () => {
    const time = new ManualTime()
    const { keystore, wallet } = await withWallet(freshDir(), { clock: time.clock, schedule: time.schedule })
    await keystore.unlock(wallet.id, PASSWORD)
    time.advance(5 * 60_000 - 1)
    expect(keystore.isUnlocked(wallet.id)).toBe(true)
    time.advance(1)
    expect(keystore.isUnlocked(wallet.id)).toBe(false)
  })
})

describe('keystore: changing the password', () => {
  it('re-encrypts under the new password only', async () => {
    const { keystore, wallet, dir } = await withWallet()
    const before = readFileSync(join(dir, `${wallet.id}.wallet.json`), 'utf8')
    await keystore.changePassword(wallet.id, PASSWORD, NEW_PASSWORD)
    expect(readFileSync(join(dir, `${wallet.id}.wallet.json`), 'utf8')).not.toBe(before)
    expect(readdirSync(dir)).toEqual([`${wallet.id}.wallet.json`])
    expect((await rejection(keystore.unlock(wallet.id, PASSWORD))).code).toBe('WrongPassword')
    await keystore.unlock(wallet.id, NEW_PASSWORD)
    expect(await keystore.get(wallet.id)).toEqual(wallet)
  })

  it('keeps an unlocked wallet unlocked', async () => {
    const { keystore, wallet } = await withWallet()
    await keystore.unlock(wallet.id, PASSWORD)
    await keystore.changePassword(wallet.id, PASSWORD, NEW_PASSWORD)
    expect(keystore.isUnlocked(wallet.id)).toBe(true)
  })

  it('moves the secret to the current scrypt parameters', async () => {
    const dir = freshDir()
    await withWallet(dir)
    const stronger = await openKeystore(dir, { scrypt: { N: 2048, r: 8, p: 1 } })
    const [wallet] = (await stronger.list()).wallets
    await stronger.changePassword(wallet!.id, PASSWORD, NEW_PASSWORD)
    expect(readFileSync(join(dir, `${wallet!.id}.wallet.json`), 'utf8')).toContain('"N": 2048')
  })

  it.each([
    ['a wrong old password', 'not the password', NEW_PASSWORD, 'WrongPassword', 'wrong password for wallet "Main"'],
    ['a short new password', PASSWORD, 'short', 'InvalidPassword', 'a password needs at least 8 characters']
  ])('refuses %s and leaves the file alone', async (_what, oldPassword, newPassword, code, message) => {
    const { keystore, wallet, dir } = await withWallet()
    const before = snapshot(dir)
    const error = await rejection(keystore.changePassword(wallet.id, oldPassword, newPassword))
    expect([error.code, error.message]).toEqual([code, message])
    expect(snapshot(dir)).toEqual(before)
  })

  it('survives a crash between writing the new file and renaming it: the old file stands, the stray is removed', async () => {
    const { dir, wallet, file } = await withWallet()
    const before = readFileSync(file, 'utf8')
    // The file the interrupted change would have written: same wallet, new password.
    const other = await withWallet(freshDir())
    const otherKeystore = other.keystore
    await otherKeystore.changePassword(other.wallet.id, PASSWORD, NEW_PASSWORD)
    const temp = await writeTempFile(file, readFileSync(other.file, 'utf8'))
    expect(readdirSync(dir)).toHaveLength(2)

    const reopened = await Keystore.open({ dir })
    expect(readdirSync(dir)).toEqual([`${wallet.id}.wallet.json`])
    expect(readFileSync(file, 'utf8')).toBe(before)
    expect(temp.startsWith(dir)).toBe(true)
    expect((await reopened.list()).wallets).toEqual([wallet])
    await reopened.unlock(wallet.id, PASSWORD)
    expect((await rejection(reopened.unlock(wallet.id, NEW_PASSWORD))).code).toBe('WrongPassword')
  })

  it('lists wallets while a stray temporary file is present, ignoring it', async () => {
    const { keystore, wallet, file } = await withWallet()
    await writeTempFile(file, 'half a wallet')
    expect(await keystore.list()).toEqual({ wallets: [wallet], damaged: [] })
  })
})

describe('keystore: deleting', () => {
  it('deletes a wallet once its name is repeated, locking it first', async () => {
    const { keystore, wallet, dir } = await withWallet()
    await keystore.unlock(wallet.id, PASSWORD)
    await keystore.delete(wallet.id, 'Main')
    expect(readdirSync(dir)).toEqual([])
    expect(keystore.isUnlocked(wallet.id)).toBe(false)
    expect((await rejection(keystore.get(wallet.id))).code).toBe('WalletNotFound')
  })

  it('refuses without the exact name', async () => {
    const { keystore, wallet, dir } = await withWallet()
    const before = snapshot(dir)
    const error = await rejection(keystore.delete(wallet.id, 'main'))
    expect([error.code, error.message]).toEqual([
      'DeleteNotConfirmed',
      'to delete wallet "Main", confirm with its name exactly; got "main"'
    ])
    expect(snapshot(dir)).toEqual(before)
  })
})

describe('keystore: damaged files', () => {
  async function damagedWallet(edit: (text: string) => string) {
    const setup = await withWallet()
    writeFileSync(setup.file, edit(readFileSync(setup.file, 'utf8')))
    return { ...setup, before: snapshot(setup.dir) }
  }

  const name = (id: string) => `${id}.wallet.json`

  it.each([
    [
      'a flipped byte',
      (text: string) => text.replace('"Main"', '"Mbin"'),
      'WalletFileCorrupt',
      (id: string) => `wallet file ${name(id)} is damaged or was modified: its checksum does not match`
    ],
    [
      'a truncated file',
      (text: string) => text.slice(0, 300),
      'WalletFileTruncated',
      (id: string) => `wallet file ${name(id)} is truncated: it ends after 300 characters, inside its JSON document`
    ],
    [
      'an unknown version',
      (text: string) => text.replace('"version": 1', '"version": 7'),
      'WalletFileUnsupportedVersion',
      (id: string) =>
        `wallet file ${name(id)} has format version 7, but this Marlowe Desk reads version 1; it may come from a newer release`
    ]
  ])('reports %s on every use, and never changes the file', async (_what, edit, code, message) => {
    const { keystore, wallet, dir, before } = await damagedWallet(edit)
    const expected = [code, message(wallet.id)]
    for (const attempt of [
      () => keystore.get(wallet.id),
      () => keystore.unlock(wallet.id, PASSWORD),
      () => keystore.changePassword(wallet.id, PASSWORD, NEW_PASSWORD),
      () => keystore.delete(wallet.id, 'Main'),
      () => keystore.addresses(wallet.id, 'mainnet'),
      () => keystore.witness(wallet.id, new Uint8Array(32), [])
    ]) {
      const error = await rejection(attempt())
      expect([error.code, error.message]).toEqual(expected)
    }
    expect(await keystore.list()).toEqual({
      wallets: [],
      damaged: [{ file: name(wallet.id), code, message: message(wallet.id) }]
    })
    expect((await rejection(keystore.restore({ name: 'Again', password: PASSWORD, mnemonic: MNEMONIC }))).message).toBe(
      `a (damaged) wallet file for this key already exists: ${name(wallet.id)}`
    )
    await Keystore.open({ dir })
    expect(snapshot(dir)).toEqual(before)
  })

  it('lists the readable wallets beside a damaged one', async () => {
    const { keystore, wallet, file } = await withWallet()
    const other = await keystore.restore({ name: 'Other', password: PASSWORD, mnemonic: CSL_VECTORS[1].mnemonic })
    writeFileSync(file, '')
    const listing = await keystore.list()
    expect(listing.wallets).toEqual([other])
    expect(listing.damaged.map((d) => [d.file, d.code])).toEqual([[name(wallet.id), 'WalletFileTruncated']])
  })

  it('reports a forged secret, though its checksum was recomputed', async () => {
    const { keystore, wallet, file } = await withWallet()
    const record = decodeWalletFile(readFileSync(file, 'utf8'), 'x')
    if (record.kind !== 'hd') throw new Error('expected an HD wallet')
    const ciphertext = Uint8Array.from(record.secret.ciphertext)
    ciphertext[5] = ciphertext[5]! ^ 0x40
    writeFileSync(file, encodeWalletFile({ ...record, secret: { ...record.secret, ciphertext } }))
    const error = await rejection(keystore.unlock(wallet.id, PASSWORD))
    expect([error.code, error.message]).toEqual([
      'WalletFileCorrupt',
      `wallet file ${name(wallet.id)} is damaged or was modified: its encrypted key failed authentication`
    ])
  })

  it("reports a secret that decrypts to another account's key", async () => {
    const { keystore, wallet, file } = await withWallet()
    const record = decodeWalletFile(readFileSync(file, 'utf8'), 'x')
    if (record.kind !== 'hd') throw new Error('expected an HD wallet')
    const other = accountKeysFromEntropy(mnemonicEntropy(CSL_VECTORS[1].mnemonic), 0)
    const secret = await seal(other.xprv, PASSWORD, FAST_SCRYPT, secretBinding('hd', record.id, record.account.xvk))
    writeFileSync(file, encodeWalletFile({ ...record, secret }))
    const error = await rejection(keystore.unlock(wallet.id, PASSWORD))
    expect([error.code, error.message]).toEqual([
      'WalletFileCorrupt',
      `wallet file ${name(wallet.id)} is damaged or was modified: its decrypted key does not belong to its public key`
    ])
    expect(keystore.isUnlocked(wallet.id)).toBe(false)
  })

  it("reports a wallet file renamed to another wallet's id as damaged", async () => {
    const { keystore, wallet, file, dir } = await withWallet()
    const otherId = 'f'.repeat(40)
    writeFileSync(join(dir, name(otherId)), readFileSync(file))
    const error = await rejection(keystore.get(otherId))
    expect([error.code, error.message]).toEqual([
      'WalletFileCorrupt',
      `wallet file ${name(otherId)} is damaged or was modified: it holds wallet ${wallet.id}`
    ])
  })
})

describe('keystore: addresses', () => {
  it('derives a range of payment or change addresses', async () => {
    const { keystore, wallet } = await withWallet()
    const change = await keystore.addresses(wallet.id, 'preview', { role: 'change', from: 10, count: 3 })
    expect(change.map((a) => a.path)).toEqual(
      [10, 11, 12].map((index) => ({ kind: 'derived', account: 0, role: 'change', index }))
    )
    expect(new Set(change.map((a) => a.base)).size).toBe(3)
    expect(change.every((a) => a.base?.startsWith('addr_test1q') && a.enterprise.startsWith('addr_test1v'))).toBe(true)
  })

  it.each([
    [{ count: 0 }, 'count must be an integer from 1 to 1000, got 0'],
    [{ count: 1001 }, 'count must be an integer from 1 to 1000, got 1001'],
    [{ from: -1 }, 'from must be an integer from 0 to 2147483647, got -1'],
    [{ from: 1.5 }, 'from must be an integer from 0 to 2147483647, got 1.5'],
    [{ from: 2147483647, count: 2 }, 'indices run past 2147483647']
  ])('rejects the query %o', async (query, message) => {
    const { keystore, wallet } = await withWallet()
    const error = await rejection(keystore.addresses(wallet.id, 'mainnet', query))
    expect([error.code, error.message]).toEqual(['InvalidRequest', message])
  })
})

describe('keystore: exporting keys', () => {
  it('exports the verification key of any index, and refuses an index out of range', async () => {
    const { keystore, wallet } = await withWallet()
    const [, second] = await keystore.addresses(wallet.id, 'mainnet', { count: 2 })
    const file = parseTextEnvelope(await keystore.exportVerificationKey(wallet.id, { index: 1 }))
    expect(file.type).toBe('PaymentVerificationKeyShelley_ed25519')
    const key = CSL.PublicKey.from_bytes(file.cbor.subarray(2))
    const hash = key.hash()
    expect(hash.to_hex()).toBe(second?.keyHash)
    hash.free()
    key.free()
    const error = await rejection(keystore.exportVerificationKey(wallet.id, { index: 2 ** 31 }))
    expect([error.code, error.message]).toEqual([
      'InvalidRequest',
      'index must be an integer from 0 to 2147483647, got 2147483648'
    ])
  })
})

describe('keystore: secrets stay inside', () => {
  it('returns no private key material from any call, nor writes any to disk', async () => {
    const { keystore, wallet, file } = await withWallet()
    await keystore.unlock(wallet.id, PASSWORD)
    const owned = await keystore.ownedKeyHashes(wallet.id)
    const outputs: unknown[] = [
      await keystore.list(),
      await keystore.get(wallet.id),
      await keystore.addresses(wallet.id, 'mainnet', { count: 20 }),
      [...owned],
      await keystore.rewardAddress(wallet.id, 'mainnet'),
      await keystore.exportAccountKey(wallet.id),
      await keystore.exportVerificationKey(wallet.id, { extended: true }),
      await keystore.witness(wallet.id, new Uint8Array(32), [...owned.keys()])
    ]
    const text = JSON.stringify(outputs, (_key, value: unknown) =>
      value instanceof Uint8Array ? Buffer.from(value).toString('hex') : value
    )
    const account = accountKeysFromEntropy(mnemonicEntropy(MNEMONIC), 0)
    // Key halves, so a secret split or re-encoded in part would still be caught.
    const secrets = [account.xprv.subarray(0, 32), account.xprv.subarray(32, 64)].map((half) =>
      Buffer.from(half).toString('hex')
    )
    for (const secret of secrets) {
      expect(text).not.toContain(secret)
      expect(readFileSync(file, 'utf8')).not.toContain(secret)
    }
  })

  it('serializes concurrent changes: the same wallet restored twice at once is written once', async () => {
    const dir = freshDir()
    const keystore = await openKeystore(dir)
    const results = await Promise.allSettled([
      keystore.restore({ name: 'One', password: PASSWORD, mnemonic: MNEMONIC }),
      keystore.restore({ name: 'Two', password: PASSWORD, mnemonic: MNEMONIC })
    ])
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
    expect(readdirSync(dir)).toHaveLength(1)
  })
})
