import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sandboxWallet } from '../../src/chain/sandbox'
import { runCli } from './run-cli'

/** CIP-19's base address test vector on mainnet. */
const CIP19_MAINNET_BASE =
  'addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3jcu5d8ps7zex2k2xt3uqxgjqnnj83ws8lhrn648jjxtwqfjkjv7'

describe('marlowe-desk sandbox', () => {
  it('creates the sandbox on first use, funds an address and moves its clock', () => {
    const data = mkdtempSync(join(tmpdir(), 'marlowe-desk-sandbox-cli-'))
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
    [['sandbox', 'fund', 'nope'], 2, '"nope" is not a sandbox address (addr_test1…)'],
    [['sandbox', 'fund', CIP19_MAINNET_BASE], 2, 'is a mainnet address; the sandbox is a test network'],
    [['sandbox', 'fund', 'addr_test1x', '--ada=-5'], 2, '--ada must be a whole number'],
    [['sandbox', 'advance'], 2, 'give exactly one of --to and --slots'],
    [['sandbox', 'advance', '--to', '5'], 2, 'it only moves forward'],
    [['sandbox', 'status', '--network', 'preview'], 2, "Unknown option '--network'"]
  ])('fails clearly: %j', (args, code, message) => {
    const data = mkdtempSync(join(tmpdir(), 'marlowe-desk-sandbox-cli-'))
    const r = runCli([...args, '--data', data])
    expect(r.stderr).toContain(message)
    // What the command checks itself is not the chain's answer.
    expect(r.stderr).not.toContain('the chain says')
    expect(r.code).toBe(code)
  })
})
