import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseJson } from '../../src/core/json/lossless'
import { runCli, runInTerminal } from './run-cli'

const MNEMONIC = 'test walk nut penalty hip pave soap entry language right filter choice'
const BASE_TESTNET =
  'addr_test1qz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3jcu5d8ps7zex2k2xt3uqxgjqnnj83ws8lhrn648jjxtwq2ytjqp'

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-keys-'))
  const write = (name: string, text: string): string => {
    const path = join(dir, name)
    writeFileSync(path, text)
    return path
  }
  return { dir, keystore: join(dir, 'keys'), password: write('password', 'correct horse battery\n'), write }
}

/** `keys restore` of the test phrase as "alice" into the workspace's keystore. */
function restoreAlice(w: ReturnType<typeof workspace>, phrase: string) {
  return runCli([
    'keys',
    'restore',
    '--name',
    'alice',
    '--mnemonic-file',
    phrase,
    '--password-file',
    w.password,
    '--keystore',
    w.keystore
  ])
}

describe('marlowe-desk keys', () => {
  it('restores, lists and shows addresses; the phrase and keys never reach the output', () => {
    const w = workspace()
    const phrase = w.write('phrase', `${MNEMONIC}\n`)
    const restored = restoreAlice(w, phrase)
    expect(restored.stderr).toBe('')
    expect(restored.code).toBe(0)
    expect(restored.stdout).toContain(`first address (preprod): ${BASE_TESTNET}`)
    const id = /restored wallet ([0-9a-f]+)/.exec(restored.stdout)?.[1] ?? ''
    const list = runCli(['keys', 'list', '--json', '--keystore', w.keystore])
    expect(parseJson(list.stdout)).toMatchObject({ wallets: [{ id, name: 'alice', kind: 'hd' }], damaged: [] })
    const addrs = runCli(['keys', 'addresses', id, '--network', 'preprod', '--count', '2', '--keystore', w.keystore])
    expect(addrs.stdout.trim().split('\n')).toHaveLength(2)
    expect(addrs.stdout.split('\n')[0]).toBe(BASE_TESTNET)
    const files = readdirSync(w.keystore)
      .map((f) => readFileSync(join(w.keystore, f), 'utf8'))
      .join('')
    for (const word of ['penalty', 'pave', 'filter']) expect(files).not.toContain(word)
  })

  it('creates a wallet, showing a 24-word phrase once', () => {
    const w = workspace()
    const r = runCli(['keys', 'create', '--name', 'bob', '--password-file', w.password, '--keystore', w.keystore])
    expect(r.code).toBe(0)
    const phrase = /\n\n {2}(.+)\n/.exec(r.stdout)?.[1] ?? ''
    expect(phrase.split(' ')).toHaveLength(24)
    expect(runCli(['keys', 'list', '--keystore', w.keystore]).stdout).not.toContain(phrase.split(' ')[0]!)
  })

  it('exports the account key and watches it in another keystore', () => {
    const w = workspace()
    const phrase = w.write('phrase', MNEMONIC)
    const restored = restoreAlice(w, phrase)
    const id = /restored wallet ([0-9a-f]+)/.exec(restored.stdout)?.[1] ?? ''
    const out = join(w.dir, 'account.vkey')
    const exported = runCli(['keys', 'export-public', id, '--out', out, '--keystore', w.keystore])
    expect(exported.code).toBe(0)
    const acct = exported.stdout.split('\n')[0] ?? ''
    expect(acct).toMatch(/^acct_xvk1/)
    expect(readFileSync(out, 'utf8')).toContain('PaymentExtendedVerificationKeyShelley_ed25519_bip32')
    const other = join(w.dir, 'other')
    const watched = runCli(['keys', 'watch', out, '--name', 'alice (watch)', '--keystore', other])
    expect(watched.stdout).toContain(`first address (preprod): ${BASE_TESTNET}`)
    expect(runCli(['keys', 'watch', acct, '--name', 'again', '--keystore', other]).stderr).toContain('WalletExists')
  })

  it('imports a cardano-cli signing key', () => {
    const w = workspace()
    const skey = w.write(
      'payment.skey',
      JSON.stringify({
        type: 'PaymentSigningKeyShelley_ed25519',
        description: 'Payment Signing Key',
        cborHex: `5820${'11'.repeat(32)}`
      })
    )
    const r = runCli([
      'keys',
      'import-skey',
      skey,
      '--name',
      'cli key',
      '--password-file',
      w.password,
      '--keystore',
      w.keystore
    ])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/first address \(preprod\): addr_test1v/)
  })

  it.each([
    [['keys', 'create', '--password-file', 'x'], 2, '--name is required'],
    [['keys', 'create', '--name', 'a', '--words', '13'], 2, '--words must be 12, 15 or 24'],
    [
      ['keys', 'addresses', 'ab', '--network', 'testnet'],
      2,
      '--network must be one of mainnet, preprod, preview, sandbox'
    ],
    [['keys', 'addresses', 'ffff'], 1, 'a wallet id is 40 lowercase hex characters'],
    [['keys', 'addresses', 'ff'.repeat(20)], 1, 'WalletNotFound']
  ])('fails clearly: %j', (args, code, message) => {
    const w = workspace()
    const r = runCli([...args, '--keystore', w.keystore])
    expect(r.code).toBe(code)
    expect(r.stderr).toContain(message)
  })

  it('refuses a wrong phrase and a missing terminal for the password', () => {
    const w = workspace()
    const bad = w.write('bad', 'test walk nut penalty hip pave soap entry language right filter filter')
    const r = runCli([
      'keys',
      'restore',
      '--name',
      'x',
      '--mnemonic-file',
      bad,
      '--password-file',
      w.password,
      '--keystore',
      w.keystore
    ])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('InvalidMnemonic')
    const noTty = runCli(['keys', 'create', '--name', 'x', '--keystore', w.keystore])
    expect(noTty.code).toBe(1)
    expect(noTty.stderr).toContain('needs a terminal to type it; use --password-file')
    expect(existsSync(w.keystore) ? readdirSync(w.keystore).filter((f) => f.endsWith('.json')) : []).toEqual([])
  })
})

describe('password prompt on a terminal', () => {
  const hasScript = existsSync('/usr/bin/script')

  it.skipIf(!hasScript)('reads the password without echoing it', async () => {
    const w = workspace()
    const secret = 'typed-secret-9876'
    const transcript = await runInTerminal(
      ['keys', 'create', '--name', 'tty', '--keystore', w.keystore],
      [
        ['New password:', `${secret}\r`],
        ['Repeat the password:', `${secret}\r`]
      ]
    )
    expect(transcript).toContain('created wallet')
    expect(transcript).not.toContain(secret)
  })
})
