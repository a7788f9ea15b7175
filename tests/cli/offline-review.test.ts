/**
 * `tx review` on the air-gapped machine (issue 16 §3), through the built CLI with every socket made to fail: a
 * deposit built on the sandbox is reviewed from its bundle with the Marlowe section whole, and from the bare
 * transaction file (no inputs) without any net effect claimed — it says what is unknown instead.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { sandboxWallet } from '../../src/chain/sandbox'
import { depositFiles, DEPOSIT_AMOUNT, type DepositFiles } from '../engine/desk/deposit-files'
import { deskHarness, restoreSandboxWallet, type DeskHarness } from '../engine/desk/support'
import { restoreWithCli, runCli } from './run-cli'

const dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-offline-review-'))
const path = (name: string): string => join(dir, name)
let online: DeskHarness
let files: DepositFiles

beforeAll(async () => {
  online = await deskHarness()
  files = await depositFiles(online, await restoreSandboxWallet(online, 'alice'))
  writeFileSync(path('deposit.bundle.json'), files.bundleText)
  writeFileSync(path('deposit.unsigned.tx.json'), files.unsignedText)
  writeFileSync(path('password'), 'correct horse battery\n')
  writeFileSync(path('phrase'), sandboxWallet('alice').mnemonic)
  const restored = restoreWithCli({
    name: 'alice',
    mnemonicFile: path('phrase'),
    passwordFile: path('password'),
    keystore: path('keys')
  })
  expect(restored.code, restored.stderr).toBe(0)
}, 180_000)
afterAll(() => online.close())

const review = (file: string) =>
  runCli(['tx', 'review', path(file), '--wallet', 'alice', '--keystore', path('keys')], { offline: true })

describe('tx review of a sandbox deposit, offline', () => {
  test('from its bundle: the Marlowe section is there — the deposit applied, the contract closing', () => {
    const r = review('deposit.bundle.json')
    expect(r.code, r.stderr).toBe(0)
    const marlowe = r.stdout.slice(r.stdout.indexOf('\nMarlowe:'))
    expect(marlowe).toMatch(/^\nMarlowe:\n {2}applies \{"input_from_party"/)
    expect(marlowe).toContain(`"that_deposits":${DEPOSIT_AMOUNT}`)
    expect(marlowe).toContain('the contract closes')
    expect(r.stdout).toMatch(/\[marlowe-semantics\]/)
    expect(r.stdout).toMatch(/\nNet effect:\n {2}alice: (pays|receives) \d+\.\d{6} ada\n/)
  })

  test('from the bare transaction file: no net effect is claimed, and it says what is unknown', () => {
    const r = review('deposit.unsigned.tx.json')
    expect(r.code, r.stderr).toBe(0)
    const net = /\nNet effect:\n(( {2}.*\n)+)/.exec(r.stdout)?.[1] ?? ''
    expect(net).toMatch(
      /^ {2}alice: unknown — \d+ spent inputs, 1 collateral input and 1 reference input could not be read \(review with a bundle\); the outputs pay it \d+\.\d{6} ada\n$/
    )
    expect(net).not.toMatch(/receives|pays \d/)
    expect(r.stdout).not.toMatch(/alice: (receives|pays)/)
  })
})
