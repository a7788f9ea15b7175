/** One process per sandbox directory: a live owner keeps others out; a dead owner's lock is taken over. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { ChainError } from '../../../src/chain/provider'
import { SandboxProvider, STATE_FILE_NAME } from '../../../src/chain/sandbox'
import { tempDir } from '../support/sandbox'

const opened: SandboxProvider[] = []
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close()
})

describe('sandbox directory lock', () => {
  test('is held while open and released on close', async () => {
    const dir = tempDir()
    const sandbox = SandboxProvider.open({ dataDir: dir, clockTickMs: false })
    expect(readFileSync(join(dir, 'sandbox.lock'), 'utf8').trim()).toBe(String(process.pid))
    await sandbox.close()
    expect(existsSync(join(dir, 'sandbox.lock'))).toBe(false)
  })

  test('refuses a directory another live process holds, naming it, and leaves its files alone', () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'sandbox.lock'), `${process.ppid}\n`)
    // A state file under its former name is the other process's to move, not this one's.
    writeFileSync(join(dir, 'sandbox-ledger.json'), '{}')
    let error: unknown
    try {
      opened.push(SandboxProvider.open({ dataDir: dir, clockTickMs: false }))
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ChainError)
    expect((error as ChainError).reason).toMatch(new RegExp(`in use by process ${process.ppid}`))
    expect(readFileSync(join(dir, 'sandbox.lock'), 'utf8').trim()).toBe(String(process.ppid))
    expect(existsSync(join(dir, STATE_FILE_NAME))).toBe(false)
    expect(readFileSync(join(dir, 'sandbox-ledger.json'), 'utf8')).toBe('{}')
  })

  test('takes over a lock whose process is gone', () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'sandbox.lock'), '2147483646\n')
    opened.push(SandboxProvider.open({ dataDir: dir, clockTickMs: false }))
    expect(readFileSync(join(dir, 'sandbox.lock'), 'utf8').trim()).toBe(String(process.pid))
  })
})
