/**
 * The directories Marlowe Desk keeps its files in, on a real temp directory (POSIX only): made 0700 when missing;
 * narrowed to 0700 when only readable by others or writable by the user's own group; refused, untouched, when
 * anyone, another group or another user can write to them.
 */
import { chmodSync, chownSync, mkdirSync, mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { EngineError } from '../../src/engine/errors'
import { ensurePrivateDir } from '../../src/engine/private-dir'

const base = (): string => mkdtempSync(join(tmpdir(), 'marlowe-desk-private-'))
const modeOf = (dir: string): number => statSync(dir).mode & 0o7777
const isRoot = process.getuid?.() === 0

function refusal(dir: string): EngineError {
  try {
    ensurePrivateDir(dir)
  } catch (e) {
    expect(e).toBeInstanceOf(EngineError)
    return e as EngineError
  }
  throw new Error(`${dir} was accepted`)
}

describe.skipIf(process.platform === 'win32')('ensurePrivateDir', () => {
  test('a missing directory is made 0700, with its missing parents', () => {
    const top = join(base(), 'home')
    const dir = join(top, 'keys')
    ensurePrivateDir(dir)
    expect(modeOf(top)).toBe(0o700)
    expect(modeOf(dir)).toBe(0o700)
  })

  test.each(['755', '750', '705', '775', '770'])('an existing directory of mode %s is made 0700', (octal) => {
    const mode = parseInt(octal, 8)
    const dir = join(base(), 'home')
    mkdirSync(dir)
    chmodSync(dir, mode)
    ensurePrivateDir(dir)
    expect(modeOf(dir)).toBe(0o700)
  })

  test.each(['777', '707', '1777', '703'])('a directory of mode %s, which anyone can write to, is refused', (octal) => {
    const mode = parseInt(octal, 8)
    const dir = join(base(), 'home')
    mkdirSync(dir)
    chmodSync(dir, mode)
    const error = refusal(dir)
    expect([error.kind, error.code, error.details]).toEqual(['Forbidden', 'UnsafeDirectory', { dir }])
    expect(error.message).toBe(
      `Marlowe Desk does not use ${dir}: every user of this computer can write to it, so its files may not be yours. ` +
        'Check what is in it, then make it yours alone (chmod 700 and chown to you) or choose another directory'
    )
    expect(modeOf(dir)).toBe(mode)
  })

  // Giving a directory to another user or group takes root.
  test.skipIf(!isRoot)('a directory another group can write to, or another user owns, is refused', () => {
    const grouped = join(base(), 'grouped')
    mkdirSync(grouped)
    chownSync(grouped, 0, 4242)
    chmodSync(grouped, 0o770)
    expect(refusal(grouped).message).toContain('the users of group 4242 can write to it')
    expect(modeOf(grouped)).toBe(0o770)

    const theirs = join(base(), 'theirs')
    mkdirSync(theirs)
    chownSync(theirs, 4242, 0)
    expect(refusal(theirs).message).toContain('it belongs to another user (uid 4242)')
  })
})
