import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmdirSync,
  statSync,
  writeFileSync
} from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { semanticsValidatorAddress } from '../../../src/chain/deployments'
import {
  GENESIS_ID,
  SANDBOX_REFERENCE_SCRIPTS,
  SandboxProvider,
  sandboxWallet,
  signWithSandboxWallets,
  STATE_FILE_NAME
} from '../../../src/chain/sandbox'
import { ChainError } from '../../../src/chain/provider'
import { isJsonObject, parseJson } from '../../../src/core/json/lossless'
import { adaUtxos, ManualClock, T0 } from '../support/sandbox'
import { sandboxes, scratchDirs } from '../support/lifecycle'
import { ADA, buildTx, evaluated, intDatum } from '../support/txkit'

const scratchDir = scratchDirs()
const alice = sandboxWallet('alice')
const bob = sandboxWallet('bob')
const scriptAddress = semanticsValidatorAddress('sandbox')

const fresh = sandboxes()
const start = (dataDir: string, clock = new ManualClock()): SandboxProvider => fresh(clock, { dataDir })

async function lock(sandbox: SandboxProvider, datum: Uint8Array): Promise<string> {
  const [funds] = await adaUtxos(sandbox, alice.address)
  const tx = buildTx({
    params: await sandbox.protocolParameters(),
    inputs: [funds!],
    changeAddress: alice.address,
    outputs: [{ address: scriptAddress, lovelace: 10n * ADA, datum }]
  })
  return sandbox.submit(signWithSandboxWallets(tx, [alice]))
}

function openError(dataDir: string): ChainError {
  try {
    start(dataDir)
  } catch (e) {
    if (e instanceof ChainError) return e
    throw e
  }
  throw new Error('the sandbox opened')
}

describe('sandbox persistence', () => {
  test.skipIf(process.platform === 'win32')(
    'the ledger, its backup and a new sandbox directory are their owner’s alone',
    async () => {
      const dir = join(scratchDir(), 'new-sandbox')
      const sandbox = start(dir)
      await lock(sandbox, intDatum(1n))
      chmodSync(join(dir, STATE_FILE_NAME), 0o644)
      await lock(sandbox, intDatum(2n))
      await sandbox.close()
      expect(statSync(dir).mode & 0o777).toBe(0o700)
      expect(statSync(join(dir, STATE_FILE_NAME)).mode & 0o777).toBe(0o600)
      expect(statSync(join(dir, `${STATE_FILE_NAME}.bak`)).mode & 0o777).toBe(0o600)
    }
  )

  test('a restarted sandbox has the same ledger, tip and transactions, and spending goes on', async () => {
    const dir = scratchDir()
    const clock = new ManualClock()
    const first = start(dir, clock)
    const d0 = intDatum(0n)
    const lockId = await lock(first, d0)
    const tip = await first.tip()
    const utxos = await first.utxosAt([alice.address, scriptAddress])
    await first.close()

    const second = start(dir, clock)

    expect(await second.tip()).toEqual(tip)
    expect(await second.utxosAt([alice.address, scriptAddress])).toEqual(utxos)
    expect(await second.txStatus(lockId)).toEqual({
      status: 'confirmed',
      block: { slot: tip.slot, blockNo: 1n, blockHash: tip.blockHash }
    })
    const [locked] = await second.utxosByRef([{ txId: lockId, index: 0 }])
    expect(locked!.datum).toEqual(d0)

    const [reference] = await second.utxosByRef([SANDBOX_REFERENCE_SCRIPTS.semantics.ref])
    const funds = await adaUtxos(second, alice.address)
    const params = await second.protocolParameters()
    const tx = await evaluated(second, (budget) =>
      buildTx({
        params,
        inputs: [funds[0]!],
        changeAddress: alice.address,
        scriptSpend: {
          utxo: locked!,
          reference: reference!,
          datum: d0,
          redeemer: intDatum(1n),
          exUnits: budget('spend')
        },
        outputs: [{ address: bob.address, lovelace: 10n * ADA }],
        collateral: funds.find((u) => u.value.lovelace === 5n * ADA)!
      })
    )
    const spendId = await second.submit(signWithSandboxWallets(tx, [alice]))
    expect(await second.txStatus(spendId)).toMatchObject({ status: 'confirmed', block: { blockNo: 2n } })

    // The chain index came back with the ledger: both script transactions, as submitted, in chain order.
    const semantics = SANDBOX_REFERENCE_SCRIPTS.semantics.script.hash
    const page = await second.scriptTransactions({ scriptHashes: [semantics], limit: 10 })
    if (page.kind !== 'forward') throw new Error(`expected the first page, got a ${page.kind}`)
    expect(page.txs.map((t) => [t.txId, t.block.blockNo])).toEqual([
      [lockId, 1n],
      [spendId, 2n]
    ])
    expect(page.txs[1]!.cbor).toEqual(signWithSandboxWallets(tx, [alice]))
    const later = await second.scriptTransactions({ scriptHashes: [semantics], after: page.txs[0]!.block, limit: 10 })
    expect(later.kind === 'forward' && later.txs.map((t) => t.txId)).toEqual([spendId])
    const tipNow = await second.tip()
    expect(await second.scriptTransactions({ scriptHashes: ['00'.repeat(28)], limit: 10 })).toEqual({
      kind: 'forward',
      txs: [],
      until: { slot: expect.any(BigInt), blockNo: 2n, blockHash: tipNow.blockHash }
    })
    // A cursor from another ledger is not on this chain: read again from the start.
    const elsewhere = { slot: 5n, blockNo: 1n, blockHash: 'ab'.repeat(32) }
    expect(await second.scriptTransactions({ scriptHashes: [semantics], after: elsewhere, limit: 10 })).toEqual({
      kind: 'rollback'
    })
  })

  test('a jump of the clock survives a restart', async () => {
    const dir = scratchDir()
    const clock = new ManualClock()
    const first = start(dir, clock)
    await first.advanceTo(T0 + 86_400_000n)
    await first.close()

    clock.tick(10n)
    const second = start(dir, clock)

    expect((await second.tip()).slot).toBe(86_410n)
  })

  test('the file holds the documented format, written atomically with a backup of the previous state', async () => {
    const dir = scratchDir()
    const sandbox = start(dir)
    await lock(sandbox, intDatum(3n))

    const doc = parseJson(readFileSync(join(dir, STATE_FILE_NAME), 'utf8'))
    if (!isJsonObject(doc)) throw new Error('not an object')
    expect(doc['format']).toBe('marlowe-desk sandbox ledger')
    expect(doc['version']).toBe(1n)
    expect(doc['genesis']).toBe(GENESIS_ID)
    expect(doc['slotConfig']).toEqual({ zeroTime: T0, zeroSlot: 0n, slotLength: 1000n })
    expect(doc['tip']).toMatchObject({ blockNo: 1n })
    // 20 at genesis (4 × 4 wallet outputs, the faucet's, 3 reference scripts); the lock spent 1 and made 2.
    expect(Array.isArray(doc['utxos']) && doc['utxos'].length).toBe(21)
    expect(Array.isArray(doc['datums']) && doc['datums'].length).toBe(1)
    // No temporary file is left behind; the lock is there while the sandbox is open.
    expect(readdirSync(dir).sort()).toEqual([STATE_FILE_NAME, `${STATE_FILE_NAME}.bak`, 'sandbox.lock'])
  })

  test('a corrupt file is refused with a clear error and left untouched', async () => {
    const dir = scratchDir()
    const sandbox = start(dir)
    await lock(sandbox, intDatum(4n))
    await sandbox.close()
    const path = join(dir, STATE_FILE_NAME)
    const truncated = readFileSync(path, 'utf8').slice(0, 500)
    writeFileSync(path, truncated)

    const error = openError(dir)

    expect(error.kind).toBe('Unavailable')
    expect(error.reason).toContain(`The sandbox ledger in ${path} cannot be used: it is corrupt: invalid JSON at line`)
    expect(error.reason).toContain(`${path}.bak holds the state before the last transaction`)
    expect(readFileSync(path, 'utf8')).toBe(truncated)
    expect(existsSync(`${path}.bak`)).toBe(true)
  })

  test('a file from another genesis, or with a broken UTxO, is refused', () => {
    const dir = scratchDir()
    start(dir)
    const path = join(dir, STATE_FILE_NAME)
    const good = readFileSync(path, 'utf8')

    writeFileSync(path, good.replace(GENESIS_ID, 'ab'.repeat(32)))
    expect(openError(dir).reason).toContain(
      `it was made by another sandbox genesis (${'ab'.repeat(32)}; this sandbox's, with the stand-in Marlowe scripts, is ${GENESIS_ID})`
    )

    const utxos = /"utxos": \[\s*\[\s*"([0-9a-f]+)"/.exec(good)
    writeFileSync(path, good.replace(utxos![1]!, 'ff'))
    expect(openError(dir).reason).toMatch(/cannot be used: utxos\[0\] does not decode: /)

    writeFileSync(path, good.replace('"version": 1', '"version": 7'))
    expect(openError(dir).reason).toContain('"version" is 7, this app reads 1')
  })

  test('when saving fails the submit says so, the transaction stands, and the next save catches up', async () => {
    const dir = scratchDir()
    const clock = new ManualClock()
    const sandbox = start(dir, clock)
    const blocker = join(dir, `${STATE_FILE_NAME}.tmp`)
    mkdirSync(blocker)

    const error: unknown = await lock(sandbox, intDatum(5n)).catch((e: unknown) => e)

    expect(error).toMatchObject({
      kind: 'Unavailable',
      reason: expect.stringContaining(`could not be saved to ${join(dir, STATE_FILE_NAME)}`)
    })
    expect((await sandbox.tip()).blockNo).toBe(1n)
    rmdirSync(blocker)
    await lock(sandbox, intDatum(6n))
    await sandbox.close()
    expect((await start(dir, clock).tip()).blockNo).toBe(2n)
  })
})
