/** The local API's token: made strong and owner-only; a weak or exposed one is replaced, saying why. */
import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { apiToken } from '../../src/host/api-token'

const home = (): string => mkdtempSync(join(tmpdir(), 'marlowe-desk-token-'))

describe('apiToken', () => {
  test('made on first use: 32 base64url characters, owner-only, and kept', () => {
    const dir = home()
    const token = apiToken(dir)
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(statSync(join(dir, 'api-token')).mode & 0o777).toBe(0o600)
    const said: string[] = []
    expect(apiToken(dir, (why) => said.push(why))).toBe(token)
    expect(said).toEqual([])
  })

  test('a weak token is replaced, and the caller told why', () => {
    const dir = home()
    writeFileSync(join(dir, 'api-token'), 'aaaa\n', { mode: 0o600 })
    const said: string[] = []
    const token = apiToken(dir, (why) => said.push(why))
    expect(token).not.toBe('aaaa')
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(readFileSync(join(dir, 'api-token'), 'utf8').trim()).toBe(token)
    expect(said).toEqual([expect.stringContaining('weaker than 32 random base64url characters')])
  })

  test.skipIf(process.platform === 'win32')(
    'a token others could read is replaced, and the file is owner-only again',
    () => {
      const dir = home()
      const strong = 'A'.repeat(16) + 'b_-9'.repeat(4)
      writeFileSync(join(dir, 'api-token'), `${strong}\n`)
      chmodSync(join(dir, 'api-token'), 0o644)
      const said: string[] = []
      const token = apiToken(dir, (why) => said.push(why))
      expect(token).not.toBe(strong)
      expect(statSync(join(dir, 'api-token')).mode & 0o777).toBe(0o600)
      expect(said).toEqual([expect.stringContaining('other users could read or change it')])
    }
  )
})
