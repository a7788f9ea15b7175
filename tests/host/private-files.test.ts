/**
 * The desk host's files on a real data directory (POSIX only): the data directory, keys/ and sandbox/ are 0700;
 * the settings, the API token, the wallet files and the network's SQLite file with its -wal and -shm are 0600. A
 * data directory left readable by others is narrowed to 0700; one anyone can write to, or such a keys/, is
 * refused before anything is read from it or written to it. And the backoff on wrong passwords outlives the
 * keystore that new settings reopen.
 */
import { chmodSync, mkdirSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { DEFAULT_SETTINGS } from '../../src/engine/desk/settings-file'
import { PASSWORD } from '../engine/desk/support'
import { dataDir, openHost } from './host-support'

const modeOf = (path: string): number => statSync(path).mode & 0o777

describe.skipIf(process.platform === 'win32')('the data directory', () => {
  test('directories are 0700 and files 0600, the SQLite file’s -wal and -shm included', async () => {
    const home = join(dataDir(), 'home')
    const { ok } = await openHost(home)
    const { wallet } = await ok('wallets.create', { name: 'Ada', password: PASSWORD })
    await ok('settings.update', { ...DEFAULT_SETTINGS, autoLockMinutes: 7 })
    for (const dir of [home, join(home, 'keys'), join(home, 'sandbox')]) expect(modeOf(dir), dir).toBe(0o700)
    const files = [
      'settings.json',
      'api-token',
      join('keys', `${wallet.id}.wallet.json`),
      'service-sandbox.sqlite',
      'service-sandbox.sqlite-wal',
      'service-sandbox.sqlite-shm'
    ]
    for (const file of files) expect(modeOf(join(home, file)), file).toBe(0o600)
  })

  test('a data directory others can read is narrowed to 0700', async () => {
    const home = join(dataDir(), 'home')
    mkdirSync(home)
    chmodSync(home, 0o755)
    await openHost(home)
    expect(modeOf(home)).toBe(0o700)
  })

  test('a data directory anyone can write to is refused, and nothing is written to it', async () => {
    const home = join(dataDir(), 'home')
    mkdirSync(home)
    chmodSync(home, 0o777)
    await expect(openHost(home)).rejects.toMatchObject({ code: 'UnsafeDirectory', details: { dir: home } })
    expect(readdirSync(home)).toEqual([])
    expect(modeOf(home)).toBe(0o777)
  })

  test('a keys directory anyone can write to is refused', async () => {
    const home = join(dataDir(), 'home')
    const keys = join(home, 'keys')
    mkdirSync(keys, { recursive: true })
    chmodSync(keys, 0o777)
    await expect(openHost(home)).rejects.toMatchObject({ code: 'UnsafeDirectory', details: { dir: keys } })
    expect(readdirSync(keys)).toEqual([])
  })
})

describe('wrong passwords', () => {
  test('the backoff outlives the keystore that new settings reopen', async () => {
    const { ok, fails } = await openHost(dataDir())
    const { wallet } = await ok('wallets.create', { name: 'Ada', password: PASSWORD })
    for (let i = 0; i < 3; i += 1) {
      await fails('wallets.unlock', { walletId: wallet.id, password: 'not the password' }, 'WrongPassword')
    }
    await ok('settings.update', { ...DEFAULT_SETTINGS, autoLockMinutes: 10 })
    const refused = await fails('wallets.unlock', { walletId: wallet.id, password: PASSWORD }, 'UnlockThrottled')
    expect(refused.message).toMatch(/^Too many wrong passwords for this wallet: try again in 1 second \(at .*\)$/)
  })
})
