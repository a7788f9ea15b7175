/**
 * Unlocking against a guesser: new secrets take scrypt at N=2^17 or more; a file sealed with weaker parameters
 * still opens with them and is moved onto the keystore's once its password is known; wrong passwords back off per
 * wallet, with an error that says when to come back; one try per wallet runs at a time; and a burst of key
 * derivations leaves libuv's threadpool free for other work (file reads here).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { UnlockThrottle } from '../../../src/engine/keys'
import { DEFAULT_SCRYPT, seal, unseal } from '../../../src/engine/keys/secret-box'
import { decodeWalletFile } from '../../../src/engine/keys/wallet-file'
import { CSL_VECTORS, freshDir, ManualTime, openKeystore, PASSWORD, rejection, snapshot } from './support'

const MNEMONIC = CSL_VECTORS[0].mnemonic
const OTHER_MNEMONIC = CSL_VECTORS[1].mnemonic
const WRONG = 'not the password'
const STRONGER = { N: 2048, r: 8, p: 1 }

async function withWallet(dir: string = freshDir(), options: Parameters<typeof openKeystore>[1] = {}) {
  const keystore = await openKeystore(dir, options)
  const wallet = await keystore.restore({ name: 'Main', password: PASSWORD, mnemonic: MNEMONIC })
  const file = join(dir, `${wallet.id}.wallet.json`)
  return { dir, keystore, wallet, file }
}

const scryptOf = (file: string) => {
  const record = decodeWalletFile(readFileSync(file, 'utf8'), file)
  if (record.kind !== 'hd' && record.kind !== 'single-key') throw new Error(`a ${record.kind} wallet has no secret`)
  return record.secret.scrypt
}

describe('scrypt parameters', () => {
  it('new secrets are sealed at N=2^17 or more unless told otherwise, and open again', async () => {
    expect(DEFAULT_SCRYPT.N).toBeGreaterThanOrEqual(2 ** 17)
    const dir = freshDir()
    const { keystore, wallet, file } = await withWallet(dir, { scrypt: DEFAULT_SCRYPT })
    expect(scryptOf(file)).toEqual(DEFAULT_SCRYPT)
    await keystore.unlock(wallet.id, PASSWORD)
    expect(keystore.isUnlocked(wallet.id)).toBe(true)
  })

  it('a file sealed with weaker parameters opens with them and is then sealed again with the keystore’s', async () => {
    const { dir, wallet, file } = await withWallet()
    const stronger = await openKeystore(dir, { scrypt: STRONGER })
    const before = snapshot(dir)
    expect((await rejection(stronger.unlock(wallet.id, WRONG))).code).toBe('WrongPassword')
    expect(snapshot(dir)).toEqual(before)

    await stronger.unlock(wallet.id, PASSWORD)
    expect(stronger.isUnlocked(wallet.id)).toBe(true)
    expect(scryptOf(file)).toEqual(STRONGER)
    expect(await stronger.get(wallet.id)).toEqual(wallet)
    // The new file opens with the same password, also for a keystore set weaker, which does not move it back.
    const upgraded = readFileSync(file, 'utf8')
    const weaker = await openKeystore(dir)
    await weaker.unlock(wallet.id, PASSWORD)
    expect(readFileSync(file, 'utf8')).toBe(upgraded)
  })
})

describe('backoff on wrong passwords', () => {
  it('three slips are free; then each wait doubles, and a try within it is refused saying when to come back', async () => {
    const time = new ManualTime()
    const { keystore, wallet, dir } = await withWallet(freshDir(), { clock: time.clock, schedule: time.schedule })
    for (let i = 0; i < 3; i += 1) {
      expect((await rejection(keystore.unlock(wallet.id, WRONG))).code).toBe('WrongPassword')
    }
    const before = snapshot(dir)
    const refused = await rejection(keystore.unlock(wallet.id, PASSWORD))
    expect([refused.kind, refused.code, refused.message]).toEqual([
      'Unavailable',
      'UnlockThrottled',
      'too many wrong passwords for this wallet: try again in 1 second (at 2026-11-22T12:00:01.000Z)'
    ])
    expect(refused.details).toEqual({ walletId: wallet.id, retryAfterMs: 1000, retryAt: '2026-11-22T12:00:01.000Z' })
    expect(keystore.isUnlocked(wallet.id)).toBe(false)
    expect(snapshot(dir)).toEqual(before)

    time.advance(1000)
    expect((await rejection(keystore.unlock(wallet.id, WRONG))).code).toBe('WrongPassword')
    expect((await rejection(keystore.unlock(wallet.id, PASSWORD))).details['retryAfterMs']).toBe(2000)
    time.advance(2000)
    expect((await rejection(keystore.unlock(wallet.id, WRONG))).code).toBe('WrongPassword')
    expect((await rejection(keystore.unlock(wallet.id, PASSWORD))).details['retryAfterMs']).toBe(4000)

    // The right password, once the wait is over, unlocks and forgets the misses.
    time.advance(4000)
    await keystore.unlock(wallet.id, PASSWORD)
    expect(keystore.isUnlocked(wallet.id)).toBe(true)
    keystore.lock(wallet.id)
    for (let i = 0; i < 3; i += 1) {
      expect((await rejection(keystore.unlock(wallet.id, WRONG))).code).toBe('WrongPassword')
    }
    expect((await rejection(keystore.unlock(wallet.id, PASSWORD))).details['retryAfterMs']).toBe(1000)
  })

  it('the wait stops growing at 15 minutes', async () => {
    const time = new ManualTime()
    const { keystore, wallet } = await withWallet(freshDir(), { clock: time.clock, schedule: time.schedule })
    const waitAfterMiss = async (): Promise<number> => {
      expect((await rejection(keystore.unlock(wallet.id, WRONG))).code).toBe('WrongPassword')
      const refused = await rejection(keystore.unlock(wallet.id, PASSWORD))
      time.advance(Number(refused.details['retryAfterMs']))
      return Number(refused.details['retryAfterMs']) / 1000
    }
    await rejection(keystore.unlock(wallet.id, WRONG))
    await rejection(keystore.unlock(wallet.id, WRONG))
    const waits: number[] = []
    for (let i = 0; i < 13; i += 1) waits.push(await waitAfterMiss())
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900, 900])
    await rejection(keystore.unlock(wallet.id, WRONG))
    const refused = await rejection(keystore.unlock(wallet.id, PASSWORD))
    expect(refused.message).toMatch(/^too many wrong passwords for this wallet: try again in 15 minutes \(at /)
  })

  it('counts per wallet, and counts a wrong old password when changing it', async () => {
    const time = new ManualTime()
    const { keystore, wallet } = await withWallet(freshDir(), { clock: time.clock, schedule: time.schedule })
    const other = await keystore.restore({ name: 'Other', password: PASSWORD, mnemonic: OTHER_MNEMONIC })
    for (let i = 0; i < 3; i += 1) {
      const error = await rejection(keystore.changePassword(wallet.id, WRONG, 'a brand new passphrase'))
      expect(error.code).toBe('WrongPassword')
    }
    expect((await rejection(keystore.unlock(wallet.id, PASSWORD))).code).toBe('UnlockThrottled')
    const refused = await rejection(keystore.changePassword(wallet.id, PASSWORD, 'a brand new passphrase'))
    expect(refused.code).toBe('UnlockThrottled')
    await keystore.unlock(other.id, PASSWORD)
    expect(keystore.isUnlocked(other.id)).toBe(true)
  })

  it('a keystore opened again with the same throttle remembers the misses', async () => {
    const time = new ManualTime()
    const throttle = new UnlockThrottle()
    const options = { clock: time.clock, schedule: time.schedule, throttle }
    const { keystore, wallet, dir } = await withWallet(freshDir(), options)
    for (let i = 0; i < 3; i += 1) await rejection(keystore.unlock(wallet.id, WRONG))
    const reopened = await openKeystore(dir, options)
    expect((await rejection(reopened.unlock(wallet.id, PASSWORD))).code).toBe('UnlockThrottled')
  })

  it('one try per wallet at a time: a second one started meanwhile is refused at once', async () => {
    const { keystore, wallet } = await withWallet()
    const first = keystore.unlock(wallet.id, PASSWORD)
    const second = await rejection(keystore.unlock(wallet.id, WRONG))
    expect([second.code, second.message]).toEqual([
      'UnlockInProgress',
      'a password for this wallet is being checked already: try again once that is done'
    ])
    await first
    expect(keystore.isUnlocked(wallet.id)).toBe(true)
  })
})

describe('key derivation and the threadpool', () => {
  it('a burst of key derivations leaves the threadpool to other work: a file read started after it finishes first', async () => {
    const params = { N: 2 ** 15, r: 8, p: 1 }
    const binding = new TextEncoder().encode('wallet A')
    const sealed = await seal(new Uint8Array(96), PASSWORD, params, binding)
    const file = join(freshDir(), 'other-work.txt')
    writeFileSync(file, 'other work')
    const finished: string[] = []
    // More derivations than libuv has threads (4 by default).
    const burst = Array.from({ length: 5 }, () => unseal(sealed, PASSWORD, binding).then(() => finished.push('unseal')))
    expect(await readFile(file, 'utf8')).toBe('other work')
    finished.push('read')
    await Promise.all(burst)
    expect(finished[0]).toBe('read')
  })
})
