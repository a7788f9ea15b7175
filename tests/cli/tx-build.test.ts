/**
 * `marlowe-desk tx build` with no serve running: the command opens the sandbox and the data directory's store
 * itself, builds, and leaves the build in that store, where the next `serve` finds it and follows it once
 * `tx submit` (also without serve) sent it. And what it refuses, each with a message and an exit code.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { sandboxWallet, signWithSandboxWallets } from '../../src/chain/sandbox/wallets'
import { hexToBytes } from '../../src/core/bytes'
import { stringifyTextEnvelope } from '../../src/core/cardano/envelope'
import { isJsonObject, parseJson } from '../../src/core/json/lossless'
import { runCli } from './run-cli'
import { startServe, type ServeProcess } from './serve-process'

const NOTIFY =
  '{"when": [{"case": {"notify_if": true}, "then": "close"}], "timeout": 1893456000000, "timeout_continuation": "close"}'
const alice = sandboxWallet('alice')
const bob = sandboxWallet('bob')

const scratch: string[] = []
const servers: ServeProcess[] = []
afterAll(async () => {
  for (const s of servers) {
    s.child.kill('SIGTERM')
    await s.exited()
  }
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true })
})

function workspace(): { home: string; path: (name: string) => string } {
  const home = mkdtempSync(join(tmpdir(), 'marlowe-desk-tx-build-'))
  scratch.push(home)
  writeFileSync(join(home, 'notify.json'), NOTIFY)
  return { home, path: (name) => join(home, name) }
}

describe('marlowe-desk tx build', () => {
  test('without serve: built on the sandbox, submitted, and followed to confirmation by the next serve', async () => {
    const { home, path } = workspace()
    const built = runCli([
      'tx',
      'build',
      'create',
      path('notify.json'),
      '--change-address',
      alice.address,
      '--role',
      `Watcher=${bob.address}`,
      '--tag',
      'cli=yes',
      '--out',
      path('tx.json'),
      '--data',
      home
    ])
    // Runtime's safety analysis, printed: the role minted is not one the contract names.
    expect(built.stderr).toContain('safety: No roles are present in the contract, but a roles currency was specified.')
    expect(built.code).toBe(0)
    expect(built.stdout).toMatch(
      /^wrote .*tx\.json: the unsigned contract [0-9a-f]{64}#\d+ \(built by this command\)$/m
    )
    expect(built.stdout).toContain('next: marlowe-desk tx bundle')
    const contractId = /contract ([0-9a-f]{64}#\d+)/.exec(built.stdout)![1]!
    const envelope = parseJson(readFileSync(path('tx.json'), 'utf8'))
    if (!isJsonObject(envelope) || typeof envelope.cborHex !== 'string') throw new Error('tx.json is no TextEnvelope')
    expect(envelope.type).toBe('Tx ConwayEra')

    const signed = signWithSandboxWallets(hexToBytes(envelope.cborHex), [alice])
    writeFileSync(path('signed.json'), stringifyTextEnvelope({ type: 'Tx ConwayEra', description: '', cbor: signed }))
    const submitted = runCli(['tx', 'submit', path('signed.json'), '--data', home])
    expect(submitted.stderr).toBe('')
    expect(submitted.stdout).toBe(`submitted ${contractId.slice(0, 64)}\n`)

    const s = await startServe(home)
    servers.push(s)
    let status: unknown
    for (let tries = 0; tries < 300 && status !== 'confirmed'; tries += 1) {
      const answer = await fetch(`${s.base}/contracts/${encodeURIComponent(contractId)}`, {
        headers: { authorization: `Bearer ${s.token}` }
      })
      const body = parseJson(await answer.text())
      status = isJsonObject(body) && isJsonObject(body.resource) ? body.resource.status : undefined
      if (status !== 'confirmed') await new Promise((wake) => setTimeout(wake, 100))
    }
    expect(status).toBe('confirmed')
    // While serve runs, the sandbox is its: the CLI goes through it, and says so.
    const again = runCli(['tx', 'submit', path('signed.json'), '--data', home])
    expect(again.stdout).toMatch(
      /^already on chain: [0-9a-f]{64} was confirmed in block \d+ \(slot \d+\); nothing was sent again\n$/
    )
    expect(again.code).toBe(0)
  }, 120_000)

  test('tx discard: without serve and through it, the build is given up and its submit refused', async () => {
    const { home, path } = workspace()
    const build = ['create', path('notify.json'), '--change-address', alice.address, '--out', path('tx.json')]
    const built = runCli(['tx', 'build', ...build, '--data', home])
    expect(built.code, built.stderr).toBe(0)
    const txId = /contract ([0-9a-f]{64})#\d+/.exec(built.stdout)![1]!
    const discarded = runCli(['tx', 'discard', txId, '--data', home])
    expect(discarded.stderr).toBe('')
    const said = new RegExp(
      `^discarded ${txId} \\(at (\\S+)\\): the funds it held are free, and it can no longer be submitted\n$`
    )
    const at = said.exec(discarded.stdout)?.[1]
    expect(at, discarded.stdout).toBeDefined()

    const s = await startServe(home)
    servers.push(s)
    // Through serve: again harmless, the first discard's time kept.
    const again = runCli(['tx', 'discard', txId.toUpperCase(), '--data', home])
    expect(again.stdout).toBe(discarded.stdout)
    const envelope = parseJson(readFileSync(path('tx.json'), 'utf8'))
    if (!isJsonObject(envelope) || typeof envelope.cborHex !== 'string') throw new Error('tx.json is no TextEnvelope')
    const signed = signWithSandboxWallets(hexToBytes(envelope.cborHex), [alice])
    writeFileSync(path('signed.json'), stringifyTextEnvelope({ type: 'Tx ConwayEra', description: '', cbor: signed }))
    const submitted = runCli(['tx', 'submit', path('signed.json'), '--data', home])
    expect(submitted.stderr).toContain('was discarded, so it can no longer be submitted')
    expect(submitted.stderr).toContain('(BuildDiscarded)')
    expect(submitted.code).toBe(1)

    const unknown = runCli(['tx', 'discard', 'ab'.repeat(32), '--data', home])
    expect(unknown.stderr).toContain('(TxNotFound)')
    expect(unknown.code).toBe(1)
    const bad = runCli(['tx', 'discard', 'nope', '--data', home])
    expect(bad.stderr).toContain('nope is not a transaction id (64 hex digits)')
    expect(bad.code).toBe(2)
  }, 120_000)

  test.each<[string, (p: (name: string) => string) => string[], number, string]>([
    ['no kind', (p) => ['--out', p('o')], 2, 'say what to build: create, apply or withdraw'],
    ['no --out', (p) => ['create', p('notify.json'), '--change-address', alice.address], 2, '--out is required'],
    [
      'two wallets',
      (p) => ['create', p('notify.json'), '--wallet', 'alice', '--change-address', alice.address, '--out', p('o')],
      2,
      'give exactly one of --wallet NAME|ID or --change-address ADDRESS'
    ],
    [
      'a role without its address',
      (p) => ['create', p('notify.json'), '--change-address', alice.address, '--role', 'Buyer', '--out', p('o')],
      2,
      '--role Buyer: write it as NAME=ADDRESS'
    ],
    [
      'no contract file',
      (p) => ['create', p('none.json'), '--change-address', alice.address, '--out', p('o')],
      1,
      'no such file'
    ],
    [
      'not JSON',
      (p) => {
        writeFileSync(p('bad.json'), '{"when": [')
        return ['create', p('bad.json'), '--change-address', alice.address, '--out', p('o')]
      },
      1,
      'not a Marlowe contract in JSON'
    ],
    [
      'an address of another network',
      (p) => [
        'create',
        p('notify.json'),
        '--change-address',
        'addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3jcu5d8ps7zex2k2xt3uqxgjqnnj83ws8lhrn648jjxtwqfjkjv7',
        '--out',
        p('o')
      ],
      1,
      'a mainnet address, but this service runs on a testnet'
    ],
    [
      'an unknown contract',
      (p) => ['apply', `${'ab'.repeat(32)}#1`, '--change-address', alice.address, '--out', p('o')],
      1,
      'Contract not found'
    ],
    [
      'no payouts',
      (p) => ['withdraw', '--change-address', alice.address, '--out', p('o')],
      2,
      'name the payouts to withdraw'
    ],
    [
      'an unknown wallet',
      (p) => ['create', p('notify.json'), '--wallet', 'nobody', '--out', p('o'), '--keystore', p('keys')],
      1,
      'no wallet has the id or name "nobody"'
    ]
  ])('refuses %s', (_what, args, code, message) => {
    const { home, path } = workspace()
    const r = runCli(['tx', 'build', ...args(path), '--data', home])
    expect(r.stderr).toContain(message)
    expect(r.code).toBe(code)
  })
})
