/**
 * Every call refuses what it cannot do with a `DeskResult` error — a sentence and a sensible code — and never
 * crashes: ill-typed and unknown fields, unknown ids, locked and watch-only wallets, wrong passwords, files
 * that are not transactions, witnesses of another transaction, sandbox calls on a real network.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DESK_CALLS, type PreparedTx, type WalletSummary } from '../../../src/api/contract'
import { sandboxWallet } from '../../../src/chain/sandbox'
import { stringifyContract } from '../../../src/core/marlowe/json'
import { rolesEscrow } from '../build/flows'
import { deskHarness, restoreSandboxWallet, PASSWORD, unreachableNode, type DeskHarness } from './support'

const UNKNOWN_WALLET = '0'.repeat(40)
const UNKNOWN_TX = 'ab'.repeat(32)

let h: DeskHarness
let alice: WalletSummary
let bob: WalletSummary
let empty: WalletSummary
let watcher: WalletSummary
let built: PreparedTx

beforeAll(async () => {
  h = await deskHarness()
  alice = await restoreSandboxWallet(h, 'alice')
  bob = await restoreSandboxWallet(h, 'bob')
  empty = (await h.ok('wallets.create', { name: 'empty', password: PASSWORD })).wallet
  // A watched account must not be in the keystore already (same key, same id): carol's, after deleting her.
  const carol = await restoreSandboxWallet(h, 'carol')
  const carolKey = (await h.keystore.exportAccountKey(carol.id)).bech32
  await h.keystore.delete(carol.id, 'carol')
  watcher = await h.ok('wallets.watch', { name: 'watcher', accountKey: carolKey })
  built = await h.ok('contracts.create', {
    walletId: alice.id,
    contractJson: stringifyContract(rolesEscrow()),
    roles: [
      { role: 'Buyer', address: alice.address },
      { role: 'Seller', address: bob.address },
      { role: 'Mediator', address: alice.address }
    ],
    tags: []
  })
})
afterAll(() => h.close())

describe('the dispatcher', () => {
  test('unknown call names', async () => {
    await h.fails('wallets.delete', {}, 'UnknownCall')
    await h.fails('__proto__', {}, 'UnknownCall')
    await h.fails('toString', {}, 'UnknownCall')
  })

  test('wire text that is not JSON, or numbers that would lose precision', async () => {
    await h.fails('app.status', '{', 'InvalidRequest')
    await h.fails('app.status', '', 'InvalidRequest')
    await h.fails('sandbox.fund', `{"walletId":"${alice.id}","ada":12345678901234567890}`, 'InvalidRequest')
    await h.fails('sandbox.advance', '{"toTime":{"$bigint":"12x"}}', 'InvalidRequest')
  })

  test('every call refuses a request that is not an object, and unknown keys', async () => {
    for (const name of DESK_CALLS) {
      await h.fails(name, 'null', 'InvalidRequest')
      await h.fails(name, '[]', 'InvalidRequest')
      const error = await h.fails(name, { surprise: true }, 'InvalidRequest')
      expect(error.details?.['issues']).toBeInstanceOf(Array)
    }
  })

  test('a validation error names the field', async () => {
    const error = await h.fails('wallets.balance', { walletId: 42 }, 'InvalidRequest')
    expect(error.message).toContain('walletId')
    expect(error.details).toEqual({ issues: [{ path: 'walletId', message: expect.any(String) }] })
  })
})

describe('each call with bad input', () => {
  test('app.status, wallets.list, contracts.list take nothing', async () => {
    await h.fails('app.status', { verbose: true }, 'InvalidRequest')
    await h.fails('wallets.list', { all: 1 }, 'InvalidRequest')
    await h.fails('contracts.list', { status: 'confirmed' }, 'InvalidRequest')
  })

  test('wallets.create / restore / watch', async () => {
    await h.fails('wallets.create', { name: 'short', password: 'short' }, 'InvalidPassword')
    await h.fails('wallets.create', { name: 'words', password: PASSWORD, words: 13 }, 'InvalidRequest')
    await h.fails('wallets.create', { name: '', password: PASSWORD }, 'InvalidRequest')
    await h.fails('wallets.create', { name: 'no password' }, 'InvalidRequest')
    await h.fails('wallets.restore', { name: 'x', password: PASSWORD, mnemonic: 'not a phrase' }, 'InvalidMnemonic')
    await h.fails(
      'wallets.restore',
      { name: 'again', password: PASSWORD, mnemonic: sandboxWallet('alice').mnemonic },
      'WalletExists'
    )
    await h.fails('wallets.watch', { name: 'w', accountKey: 'acct_xvk1nope' }, 'InvalidKey')
    await h.fails('wallets.watch', { name: 'w', accountKey: 7 }, 'InvalidRequest')
  })

  test('wallets.unlock / lock / balance', async () => {
    await h.fails('wallets.unlock', { walletId: UNKNOWN_WALLET, password: PASSWORD }, 'WalletNotFound')
    await h.fails('wallets.unlock', { walletId: alice.id, password: 'wrong password' }, 'WrongPassword')
    await h.fails('wallets.unlock', { walletId: watcher.id, password: PASSWORD }, 'WatchOnlyWallet')
    await h.fails('wallets.unlock', { walletId: 'ALICE', password: PASSWORD }, 'InvalidRequest')
    // The password only under "__proto__": an unknown field, never the request's own password.
    await h.fails(
      'wallets.unlock',
      `{"walletId":"${alice.id}","__proto__":{"password":"${PASSWORD}"}}`,
      'InvalidRequest'
    )
    expect((await h.ok('wallets.list', {})).find((w) => w.id === alice.id)?.locked).toBe(true)
    await h.fails('wallets.lock', { walletId: UNKNOWN_WALLET }, 'WalletNotFound')
    await h.fails('wallets.balance', { walletId: UNKNOWN_WALLET }, 'WalletNotFound')
  })

  test('sandbox.fund / advance', async () => {
    await h.fails('sandbox.fund', { walletId: alice.id, ada: 5 }, 'InvalidRequest')
    await h.fails('sandbox.fund', { walletId: alice.id, ada: 0n }, 'InvalidRequest')
    await h.fails('sandbox.fund', { walletId: alice.id, ada: 10n ** 9n }, 'InvalidRequest')
    await h.fails('sandbox.fund', { walletId: UNKNOWN_WALLET, ada: 1n }, 'WalletNotFound')
    await h.fails('sandbox.advance', { toTime: -1n }, 'InvalidRequest')
    await h.fails('sandbox.advance', { toTime: '1735689600000' }, 'InvalidRequest')
  })

  test('contracts.get / next', async () => {
    await h.fails('contracts.get', { contractId: `${UNKNOWN_TX}#0` }, 'NotFound')
    await h.fails('contracts.get', { contractId: UNKNOWN_TX }, 'InvalidRequest')
    await h.fails('contracts.next', { contractId: `${UNKNOWN_TX}#1` }, 'NotFound')
    // Built but not on chain yet: nothing to apply inputs to.
    await h.fails('contracts.next', { contractId: built.contractId }, 'contractNotFound')
    await h.fails('contracts.next', { contractId: built.contractId, walletId: UNKNOWN_WALLET }, 'WalletNotFound')
  })

  test('contracts.create / apply', async () => {
    const create = { walletId: alice.id, contractJson: '"close"', roles: [], tags: [] }
    await h.fails('contracts.create', { ...create, contractJson: '{"when": []' }, 'InvalidContract')
    await h.fails('contracts.create', { ...create, contractJson: '{"pay": 1}' }, 'InvalidContract')
    await h.fails('contracts.create', { ...create, walletId: UNKNOWN_WALLET }, 'WalletNotFound')
    await h.fails('contracts.create', { ...create, walletId: empty.id }, 'CoinSelectionFailed')
    await h.fails('contracts.create', { ...create, roles: [{ role: 'Buyer' }] }, 'InvalidRequest')
    await h.fails('contracts.create', { ...create, minUTxODeposit: -1n }, 'InvalidRequest')
    await h.fails('contracts.create', { ...create, metadataJson: 7 }, 'InvalidRequest')
    const apply = { walletId: alice.id, contractId: built.contractId!, inputsJson: '[]' }
    await h.fails('contracts.apply', { ...apply, inputsJson: '[{"deposits": 1}]' }, 'InvalidInputs')
    await h.fails('contracts.apply', { ...apply, inputsJson: 'nope' }, 'InvalidInputs')
    await h.fails('contracts.apply', apply, 'LoadMarloweContextErrorNotFound')
    await h.fails('contracts.apply', { ...apply, contractId: `${UNKNOWN_TX}#0` }, 'LoadMarloweContextErrorNotFound')
  })

  test('payouts.list / withdraw', async () => {
    await h.fails('payouts.list', { walletId: UNKNOWN_WALLET }, 'WalletNotFound')
    await h.fails('payouts.withdraw', { walletId: alice.id, payoutIds: [] }, 'InvalidRequest')
    await h.fails('payouts.withdraw', { walletId: alice.id, payoutIds: ['x#1'] }, 'InvalidRequest')
    const unknown = await h.raw('payouts.withdraw', { walletId: alice.id, payoutIds: [`${UNKNOWN_TX}#1`] })
    expect(unknown.ok).toBe(false)
  })

  test('tx.review / status / exports of a transaction that was never built here', async () => {
    for (const name of ['tx.review', 'tx.status', 'tx.exportUnsigned', 'tx.exportBundle'] as const) {
      await h.fails(name, { txId: UNKNOWN_TX }, 'TxNotFound')
      await h.fails(name, { txId: 'abc' }, 'InvalidRequest')
    }
  })

  test('tx.signAndSubmit: unknown tx or wallet, locked, wrong password, watch-only, none of the keys', async () => {
    const sign = { txId: built.txId, walletId: alice.id }
    await h.fails('tx.signAndSubmit', { ...sign, txId: UNKNOWN_TX }, 'TxNotFound')
    await h.fails('tx.signAndSubmit', { ...sign, walletId: UNKNOWN_WALLET }, 'WalletNotFound')
    await h.fails('tx.signAndSubmit', sign, 'WalletLocked')
    await h.fails('tx.signAndSubmit', { ...sign, password: 'wrong password' }, 'WrongPassword')
    await h.fails('tx.signAndSubmit', { ...sign, walletId: watcher.id }, 'WatchOnlyWallet')
    await h.fails('tx.signAndSubmit', { ...sign, walletId: watcher.id, password: PASSWORD }, 'WatchOnlyWallet')
    await h.fails('tx.signAndSubmit', { ...sign, walletId: bob.id, password: PASSWORD }, 'NothingToSign')
    expect((await h.ok('tx.status', { txId: built.txId })).status).toBe('unsigned')
    expect((await h.ok('wallets.list', {})).every((w) => w.locked)).toBe(true)
  })

  test('tx.import / signOffline / submitWitness with files that are not what they should be', async () => {
    await h.fails('tx.import', { text: 'hello' }, 'InvalidTransaction')
    await h.fails('tx.import', { text: '{"type": "Tx ConwayEra", "cborHex": "00"}' }, 'InvalidTransaction')
    await h.fails('tx.import', { text: '{"format": "marlowe-desk/review-bundle", "version": 9}' }, 'InvalidBundle')
    await h.fails('tx.signOffline', { text: 'hello', walletId: alice.id }, 'InvalidTransaction')
    const unsigned = (await h.ok('tx.exportUnsigned', { txId: built.txId })).text
    await h.fails('tx.signOffline', { text: unsigned, walletId: watcher.id }, 'WatchOnlyWallet')
    await h.fails('tx.signOffline', { text: unsigned, walletId: alice.id, password: 'wrong password' }, 'WrongPassword')
    await h.fails('tx.submitWitness', { txId: built.txId, text: 'not a witness' }, 'InvalidWitness')
    await h.fails('tx.submitWitness', { txId: UNKNOWN_TX, text: 'x' }, 'TxNotFound')
    // A witness of another transaction is refused before anything reaches the node.
    const other = await h.ok('contracts.create', {
      walletId: bob.id,
      contractJson: '"close"',
      roles: [],
      tags: []
    })
    const witness = await h.ok('tx.signOffline', {
      text: (await h.ok('tx.exportBundle', { txId: other.txId })).text,
      walletId: bob.id,
      password: PASSWORD
    })
    await h.fails('tx.submitWitness', { txId: built.txId, text: witness.text }, 'InvalidWitness')
    expect((await h.ok('tx.status', { txId: built.txId })).status).toBe('unsigned')
  })

  test('nothing above was an unexpected error', () => {
    expect(h.logged).toEqual([])
  })
})

describe('on a real network', () => {
  let node: DeskHarness
  beforeAll(async () => {
    node = await deskHarness({ provider: unreachableNode() })
  })
  afterAll(() => node.close())

  test('sandbox calls are refused', async () => {
    const w = await node.ok('wallets.create', { name: 'w', password: PASSWORD })
    await node.fails('sandbox.fund', { walletId: w.wallet.id, ada: 5n }, 'SandboxOnly')
    await node.fails('sandbox.advance', { toTime: 1n }, 'SandboxOnly')
  })

  test('offline: a bundle is reviewed and signed with no node, and its witness submitted where the node is', async () => {
    const bundle = (await h.ok('tx.exportBundle', { txId: built.txId })).text
    const signer = await node.ok('wallets.restore', {
      name: 'alice',
      password: PASSWORD,
      mnemonic: sandboxWallet('alice').mnemonic
    })
    const imported = await node.ok('tx.import', { text: bundle })
    expect(imported).toMatchObject({ txId: built.txId, known: false })
    expect(imported.review.inputs.every((i) => i.resolved && i.wallet === signer.id)).toBe(true)
    // A plain transaction file has no resolved inputs offline: still reviewed, with the gap said.
    const plain = await node.ok('tx.import', { text: (await h.ok('tx.exportUnsigned', { txId: built.txId })).text })
    expect(plain.review.warnings.map((w) => w.code)).toContain('unresolved-inputs')
    const witness = await node.ok('tx.signOffline', { text: bundle, walletId: signer.id, password: PASSWORD })
    expect(await h.ok('tx.submitWitness', { txId: built.txId, text: witness.text })).toEqual({
      txId: built.txId,
      status: 'submitted'
    })
  })

  test('an unreachable node is a readable error, not a crash; the status answers that the Desk is offline', async () => {
    const status = await node.ok('app.status', {})
    expect(status.offline).toContain('connection refused')
    const [w] = await node.ok('wallets.list', {})
    expect(w?.address).toMatch(/^addr_test1/)
    await node.fails('wallets.balance', { walletId: w!.id }, 'NodeUnavailable')
    const build = await node.fails(
      'contracts.create',
      { walletId: w!.id, contractJson: '"close"', roles: [], tags: [] },
      'NodeUnavailable'
    )
    expect(build.message).toContain('The node cannot be reached')
    expect(node.logged).toEqual([])
  })
})

describe('contracts.create with metadata', () => {
  const create = () => ({ walletId: alice.id, contractJson: '"close"', roles: [], tags: [] })

  test('bad metadata is a clear BadRequest, before any build', async () => {
    const cases: [string, string][] = [
      ['{"674": ', 'not valid JSON'],
      ['[1, 2]', 'must be a JSON object'],
      ['{"x": 1}', 'label "x" is not a 64-bit unsigned integer'],
      ['{"18446744073709551616": 1}', 'is not a 64-bit unsigned integer'],
      ['{"674": {"ok": null}}', 'metadata.674.ok: null is not allowed'],
      ['{"674": [true]}', 'metadata.674[0]: booleans are not allowed'],
      ['{"674": 1.5}', 'metadata numbers must be integers']
    ]
    for (const [metadataJson, message] of cases) {
      const error = await h.fails('contracts.create', { ...create(), metadataJson }, 'InvalidMetadata')
      expect(error.message).toContain(message)
    }
  })

  test('good metadata goes into the transaction, exact; empty text means none', async () => {
    const big = '18446744073709551615'
    const prepared = await h.ok('contracts.create', {
      ...create(),
      metadataJson: `{"674": {"msg": ["rent for May"]}, "${big}": ${big}}`
    })
    const entries = prepared.review.metadata?.entries ?? []
    expect(entries.map((e) => e.label)).toEqual(expect.arrayContaining([674n, BigInt(big)]))
    expect(entries.find((e) => e.label === BigInt(big))?.value).toEqual({ int: BigInt(big) })
    expect(prepared.cborHex).toMatch(/^[0-9a-f]+$/)
    const plain = await h.ok('contracts.create', { ...create(), metadataJson: '  ' })
    expect(plain.review.metadata?.entries.some((e) => e.label === 674n) ?? false).toBe(false)
  })
})
