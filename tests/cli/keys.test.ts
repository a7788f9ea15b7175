import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseJson } from '../../src/core/json/lossless'
import { restoreWithCli, runCli, runInTerminal } from './run-cli'

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
  return restoreWithCli({ name: 'alice', mnemonicFile: phrase, passwordFile: w.password, keystore: w.keystore })
}

describe('marlowe-desk keys', () => {
  it('restores, lists and shows addresses; the phrase and keys never reach the output', () => {
    const w = workspace()
    const phrase = w.write('phrase', `${MNEMONIC}\n`)
    const restored = restoreAlice(w, phrase)
    expect(restored.stderr).toBe('')
    expect(restored.code).toBe(0)
    expect(restored.stdout).toContain(`first address (sandbox): ${BASE_TESTNET}`)
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

  it('creates a wallet, showing a 24-word phrase once, and its first address on the sandbox', () => {
    const w = workspace()
    const r = runCli(['keys', 'create', '--name', 'bob', '--password-file', w.password, '--keystore', w.keystore])
    expect(r.code).toBe(0)
    const phrase = /\n\n {2}(.+)\n/.exec(r.stdout)?.[1] ?? ''
    expect(phrase.split(' ')).toHaveLength(24)
    expect(r.stdout).toMatch(/first address \(sandbox\): addr_test1/)
    expect(r.stdout).not.toContain('preprod')
    expect(runCli(['keys', 'list', '--keystore', w.keystore]).stdout).not.toContain(phrase.split(' ')[0]!)
  })

  it('names the network it was asked for', () => {
    const w = workspace()
    const restored = runCli([
      'keys',
      'restore',
      '--name',
      'alice',
      '--mnemonic-file',
      w.write('phrase', MNEMONIC),
      '--password-file',
      w.password,
      '--network',
      'mainnet',
      '--keystore',
      w.keystore
    ])
    expect(restored.stdout).toMatch(/first address \(mainnet\): addr1q/)
  })

  it('finds a wallet by its name in any case, and refuses a name two wallets share', () => {
    const w = workspace()
    const restored = restoreAlice(w, w.write('phrase', MNEMONIC))
    const id = /restored wallet ([0-9a-f]+)/.exec(restored.stdout)?.[1] ?? ''
    const byName = runCli(['keys', 'addresses', 'ALICE', '--count', '1', '--keystore', w.keystore])
    expect(byName.stderr).toBe('')
    expect(byName.stdout).toBe(`${BASE_TESTNET}\n`)
    const skey = w.write(
      'payment.skey',
      JSON.stringify({ type: 'PaymentSigningKeyShelley_ed25519', description: '', cborHex: `5820${'22'.repeat(32)}` })
    )
    const imported = runCli([
      'keys',
      'import-skey',
      skey,
      '--name',
      'Alice',
      '--password-file',
      w.password,
      '--keystore',
      w.keystore
    ])
    const other = /imported ([0-9a-f]+)/.exec(imported.stdout)?.[1] ?? ''
    const ambiguous = runCli(['keys', 'export-public', 'alice', '--keystore', w.keystore])
    expect(ambiguous.code).toBe(1)
    expect(ambiguous.stderr).toContain('2 wallets are named "alice": ')
    expect(ambiguous.stderr).toContain(id)
    expect(ambiguous.stderr).toContain(other)
    const byId = runCli(['keys', 'export-public', id, '--keystore', w.keystore])
    expect(byId.stdout).toMatch(/^acct_xvk1/)
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
    // cardano-cli has no account key type; under its payment type the file would pass for a payment key.
    const file = parseJson(readFileSync(out, 'utf8'))
    expect(file).toMatchObject({
      type: 'AccountExtendedVerificationKeyShelley_ed25519_bip32',
      description: "Account Extended Verification Key m/1852'/1815'/0'"
    })
    const other = join(w.dir, 'other')
    const watched = runCli(['keys', 'watch', out, '--name', 'alice (watch)', '--keystore', other])
    expect(watched.stdout).toContain(`first address (sandbox): ${BASE_TESTNET}`)
    expect(runCli(['keys', 'watch', acct, '--name', 'again', '--keystore', other]).stderr).toContain('WalletExists')
    // What earlier versions wrote is still taken.
    const earlier = w.write(
      'earlier.vkey',
      readFileSync(out, 'utf8').replace(
        'AccountExtendedVerificationKeyShelley_ed25519_bip32',
        'PaymentExtendedVerificationKeyShelley_ed25519_bip32'
      )
    )
    const third = join(w.dir, 'third')
    const fromEarlier = runCli(['keys', 'watch', earlier, '--name', 'alice (earlier)', '--keystore', third])
    expect(fromEarlier.stderr).toBe('')
    expect(fromEarlier.stdout).toContain(`first address (sandbox): ${BASE_TESTNET}`)
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
    expect(r.stdout).toMatch(/first address \(sandbox\): addr_test1v/)
  })

  it.each([
    [['keys', 'create', '--password-file', 'x'], 2, '--name is required'],
    [['keys', 'create', '--name', 'a', '--words', '13'], 2, '--words must be 12, 15 or 24'],
    [
      ['keys', 'addresses', 'ab', '--network', 'testnet'],
      2,
      '--network must be one of mainnet, preprod, preview, sandbox'
    ],
    [['keys', 'addresses', 'ffff'], 1, 'no wallet has the id or name "ffff"'],
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
    const r = restoreWithCli({ name: 'x', mnemonicFile: bad, passwordFile: w.password, keystore: w.keystore })
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
    const { text: transcript } = await runInTerminal(
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
