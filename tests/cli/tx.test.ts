/**
 * The offline signing story end to end, through the built CLI: a wallet restored from its phrase, a
 * transaction bundled online (sandbox), reviewed and signed as on an air-gapped machine, assembled, and
 * submitted to the sandbox ledger, which checks every signature.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sandboxWallet, SandboxProvider, signWithSandboxWallets } from '../../src/chain/sandbox'
import { stringifyTextEnvelope } from '../../src/core/cardano/envelope'
import { parseJson } from '../../src/core/json/lossless'
import { adaUtxos } from '../chain/support/sandbox'
import { ADA, buildTx, txId } from '../chain/support/txkit'
import { mnemonicToEntropy } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { encodeAccountXvk } from '../../src/core/cardano/keys-bech32'
import { Keystore } from '../../src/engine/keys'
import { accountKeysFromEntropy } from '../../src/engine/keys/derivation'
import { CAROL_ACCOUNT } from '../engine/hardware/support'
import { FAST_SCRYPT } from '../engine/keys/support'
import { restoreWithCli, runCli } from './run-cli'
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'

/** Runs a one-line socket attempt under the same preload the offline CLI runs use. */
function spawnProbe(): string {
  const r = spawnSync(
    process.execPath,
    ['--require', resolve(__dirname, 'no-network.cjs'), '-e', "require('node:net').connect(9, '127.0.0.1')"],
    { encoding: 'utf8' }
  )
  return r.stderr
}

async function paymentTx(dataDir: string): Promise<{ tx: Uint8Array; id: string }> {
  const sandbox = SandboxProvider.open({ dataDir, clockTickMs: false })
  try {
    const alice = sandboxWallet('alice')
    const bob = sandboxWallet('bob')
    const [funds] = await adaUtxos(sandbox, alice.address)
    const tx = buildTx({
      params: await sandbox.protocolParameters(),
      inputs: [funds!],
      changeAddress: alice.address,
      outputs: [{ address: bob.address, lovelace: 25n * ADA }]
    })
    return { tx, id: txId(tx) }
  } finally {
    await sandbox.close()
  }
}

describe('marlowe-desk tx: bundle → review → sign → assemble → submit', () => {
  it('signs offline and the sandbox ledger accepts the result', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-tx-'))
    const data = join(dir, 'sandbox')
    const keystore = join(dir, 'keys')
    const path = (name: string): string => join(dir, name)
    writeFileSync(path('password'), 'correct horse battery\n')
    writeFileSync(path('phrase'), sandboxWallet('alice').mnemonic)
    const { tx, id } = await paymentTx(data)
    writeFileSync(
      path('tx.json'),
      stringifyTextEnvelope({ type: 'Unwitnessed Tx ConwayEra', description: '', cbor: tx })
    )

    const restored = restoreWithCli({
      name: 'alice',
      mnemonicFile: path('phrase'),
      passwordFile: path('password'),
      keystore
    })
    expect(restored.code).toBe(0)
    const wallet = /restored wallet ([0-9a-f]+)/.exec(restored.stdout)?.[1] ?? ''

    const bundled = runCli(['tx', 'bundle', path('tx.json'), '--data', dir, '--out', path('bundle.json')])
    expect(bundled.stderr).toBe('')
    expect(bundled.stdout).toContain(`${id} with 1 resolved output(s)`)

    const review = runCli(['tx', 'review', path('bundle.json'), '--wallet', wallet, '--keystore', keystore], {
      offline: true
    })
    const reviewByName = runCli(['tx', 'review', path('bundle.json'), '--wallet', 'Alice', '--keystore', keystore], {
      offline: true
    })
    expect(reviewByName.stdout).toBe(review.stdout)
    expect(review.code).toBe(0)
    expect(review.stdout).toContain(`Transaction ${id}`)
    expect(review.stdout).toMatch(/alice: pays 25\.\d{6} ada/)
    expect(review.stdout).toContain('to sign by alice')

    const asJson = runCli(['tx', 'review', path('bundle.json'), '--json'])
    expect(parseJson(asJson.stdout)).toMatchObject({ txId: id, isValid: true })

    const signed = runCli([
      'tx',
      'sign',
      path('bundle.json'),
      '--wallet',
      'alice',
      '--witness-only',
      '--out',
      path('alice.witness'),
      '--password-file',
      path('password'),
      '--keystore',
      keystore
    ])
    expect(signed.stderr).toBe('')
    expect(signed.stdout).toContain(`signed ${id} with 1 key(s)`)
    expect(readFileSync(path('alice.witness'), 'utf8')).toContain('"type": "ShelleyTxWitness ConwayEra"')

    const assembled = runCli(['tx', 'assemble', path('tx.json'), path('alice.witness'), '--out', path('signed.json')], {
      offline: true
    })
    expect(assembled.stdout).toContain(`${id} with 1 new witness(es)`)
    // The bundle it was signed from holds the same transaction.
    const fromBundle = runCli(
      ['tx', 'assemble', path('bundle.json'), path('alice.witness'), '--out', path('from-bundle.json')],
      { offline: true }
    )
    expect(fromBundle.stderr).toBe('')
    expect(readFileSync(path('from-bundle.json'), 'utf8')).toBe(readFileSync(path('signed.json'), 'utf8'))

    const submitted = runCli(['tx', 'submit', path('signed.json'), '--data', dir])
    expect(submitted.stderr).toBe('')
    expect(submitted.stdout).toBe(`submitted ${id}\n`)

    const again = runCli(['tx', 'submit', path('signed.json'), '--data', dir])
    expect(again.stderr).toBe('')
    expect(again.stdout).toMatch(
      new RegExp(`^already on chain: ${id} was confirmed in block \\d+ \\(slot \\d+\\); nothing was sent again\n$`)
    )
    expect(again.code).toBe(0)
  })

  it('words a ledger rejection with each input named, never as [object Object]', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-tx-'))
    const data = join(dir, 'sandbox')
    const missing = 'ab'.repeat(32)
    const sandbox = SandboxProvider.open({ dataDir: data, clockTickMs: false })
    let tx: Uint8Array
    try {
      const alice = sandboxWallet('alice')
      const [funds] = await adaUtxos(sandbox, alice.address)
      const collateral = { ...funds!, ref: { txId: missing, index: 0 } }
      tx = buildTx({
        params: await sandbox.protocolParameters(),
        inputs: [funds!],
        changeAddress: alice.address,
        outputs: [{ address: sandboxWallet('bob').address, lovelace: 5n * ADA }],
        collateral
      })
      tx = signWithSandboxWallets(tx, [alice])
    } finally {
      await sandbox.close()
    }
    writeFileSync(join(dir, 'tx.json'), stringifyTextEnvelope({ type: 'Tx ConwayEra', description: '', cbor: tx }))
    const r = runCli(['tx', 'submit', join(dir, 'tx.json'), '--data', dir])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(`the chain says: Collateral input ${missing}#0 not found in the ledger.`)
    expect(r.stderr).not.toContain('[object Object]')
  })

  it('the offline guard really stops network use', () => {
    const probe = spawnProbe()
    expect(probe).toContain('network access attempted (net.Socket.connect)')
  })

  it('refuses, before asking for a password, to sign with a wallet whose keys are on a device or nowhere', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-tx-'))
    const { tx } = await paymentTx(join(dir, 'sandbox'))
    writeFileSync(join(dir, 'tx.json'), stringifyTextEnvelope({ type: 'Tx ConwayEra', description: '', cbor: tx }))
    const keys = await Keystore.open({ dir: join(dir, 'keys'), scrypt: FAST_SCRYPT })
    await keys.addHardware({
      name: 'carol on ledger',
      vendor: 'ledger',
      accountIndex: 0,
      accountXvk: CAROL_ACCOUNT.xvk
    })
    const alice = accountKeysFromEntropy(mnemonicToEntropy(sandboxWallet('alice').mnemonic, wordlist), 0)
    await keys.importWatchOnly({ name: 'alice watching', accountKey: encodeAccountXvk(alice.xvk) })
    const sign = (wallet: string) =>
      runCli([
        'tx',
        'sign',
        join(dir, 'tx.json'),
        '--wallet',
        wallet,
        '--out',
        join(dir, 'o'),
        '--keystore',
        join(dir, 'keys')
      ])
    const device = sign('carol on ledger')
    expect(device.code).toBe(1)
    expect(device.stderr).toContain(
      'wallet "carol on ledger" keeps its keys on a Ledger, and the CLI does not reach devices: import the file in the Desk app and sign it there'
    )
    const watching = sign('alice watching')
    expect(watching.code).toBe(1)
    expect(watching.stderr).toContain('wallet "alice watching" is watch-only: it holds no keys')
    for (const r of [device, watching]) expect(r.stderr).not.toMatch(/password/i)
  })

  it('refuses what it must not do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-tx-'))
    const path = (name: string): string => join(dir, name)
    const { tx } = await paymentTx(join(dir, 'sandbox'))
    writeFileSync(path('tx.json'), stringifyTextEnvelope({ type: 'Tx ConwayEra', description: '', cbor: tx }))
    writeFileSync(path('taken'), 'x')
    expect(runCli(['tx', 'bundle', path('tx.json'), '--data', dir, '--out', path('bundle.json')]).code).toBe(0)
    const cases: Array<[string[], number, string]> = [
      [['tx', 'submit', path('tx.json'), '--data', dir], 1, 'the chain says:'],
      [
        ['tx', 'submit', path('bundle.json')],
        1,
        'is a review bundle, not a transaction: submit the signed transaction'
      ],
      [['tx', 'bundle', path('bundle.json'), '--out', path('b2')], 1, 'is a review bundle, not a transaction'],
      [
        ['tx', 'assemble', path('tx.json'), path('bundle.json'), '--out', path('o')],
        1,
        'is a review bundle, not a witness'
      ],
      [
        ['tx', 'sign', path('tx.json'), '--wallet', 'nobody', '--out', path('o'), '--keystore', path('keys')],
        1,
        'no wallet has the id or name "nobody"'
      ],
      [
        ['tx', 'bundle', path('tx.json'), '--out', path('taken'), '--data', dir],
        1,
        'already exists; choose another --out'
      ],
      [
        ['tx', 'bundle', path('tx.json'), '--out', path('b'), '--network', 'mainnet'],
        2,
        '--network mainnet needs exactly one of --ogmios URL or --blockfrost PROJECT_ID'
      ],
      [['tx', 'review', path('missing')], 1, 'no such file'],
      [['tx', 'review', path('taken')], 1, 'not a Cardano transaction'],
      [['tx', 'sign', path('tx.json'), '--out', path('o')], 2, '--wallet is required'],
      [['tx', 'assemble', path('tx.json')], 2, 'expected TX and at least one WITNESS file'],
      // Nothing answered: that is not the chain speaking.
      [['tx', 'submit', path('tx.json'), '--network', 'preprod', '--ogmios', 'ws://127.0.0.1:9'], 1, '(Unavailable']
    ]
    for (const [args, code, message] of cases) {
      const r = runCli(args)
      expect(r.stderr, args.join(' ')).toContain(message)
      expect(r.code, args.join(' ')).toBe(code)
      if (code === 2 || message === '(Unavailable') expect(r.stderr, args.join(' ')).not.toContain('the chain says')
    }
  })
})
