import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sandboxWallet } from '../../src/chain/sandbox'
import { runCli } from './run-cli'

describe('marlowe-desk sandbox', () => {
  it('creates the sandbox on first use, funds an address and moves its clock', () => {
    const data = join(mkdtempSync(join(tmpdir(), 'marlowe-desk-sandbox-cli-')), 'sandbox')
    const status = runCli(['sandbox', 'status', '--data', data])
    expect(status.code).toBe(0)
    for (const name of ['alice', 'bob', 'carol', 'dave'] as const) {
      expect(status.stdout).toMatch(new RegExp(`${name} +10000\\.000000 ada  ${sandboxWallet(name).address}`))
    }
    const fund = runCli(['sandbox', 'fund', sandboxWallet('bob').address, '--ada', '25', '--data', data])
    expect(fund.stdout).toMatch(/^sent 25 ada to addr_test1/)
    expect(runCli(['sandbox', 'status', '--data', data]).stdout).toMatch(/bob +10025\.000000 ada/)
    const slot = (text: string): bigint => BigInt(/slot (\d+)/.exec(text)?.[1] ?? '-1')
    const before = slot(runCli(['sandbox', 'status', '--data', data]).stdout)
    const moved = runCli(['sandbox', 'advance', '--slots', '3600', '--data', data])
    expect(slot(moved.stdout)).toBeGreaterThanOrEqual(before + 3600n)
  })

  it('lists the public test wallets', () => {
    const r = runCli(['sandbox', 'wallets'])
    expect(r.stdout).toContain(
      `alice\n  address: ${sandboxWallet('alice').address}\n  phrase:  ${sandboxWallet('alice').mnemonic}`
    )
  })

  it.each([
    [['sandbox', 'fund', 'nope'], 1, 'not an address'],
    [['sandbox', 'fund', 'addr_test1x', '--ada=-5'], 2, '--ada must be a whole number'],
    [['sandbox', 'advance'], 2, 'give exactly one of --to and --slots'],
    [['sandbox', 'advance', '--to', '5'], 2, 'it only moves forward'],
    [['sandbox', 'status', '--network', 'preview'], 2, "Unknown option '--network'"]
  ])('fails clearly: %j', (args, code, message) => {
    const data = join(mkdtempSync(join(tmpdir(), 'marlowe-desk-sandbox-cli-')), 'sandbox')
    const r = runCli([...args, '--data', data])
    expect(r.stderr).toContain(message)
    expect(r.code).toBe(code)
  })
})
