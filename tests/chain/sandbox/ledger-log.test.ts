/**
 * A large sandbox ledger (past `logFromBytes`) is a snapshot plus a log of the changes since: each change reaches
 * the disk before it is reported, a crash loses nothing that was reported, a torn last record is cut off, and
 * the ledger comes back whole however many snapshots were written in between.
 */
import { appendFileSync, cpSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire, syncBuiltinESMExports } from 'node:module'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { semanticsValidatorAddress } from '../../../src/chain/deployments'
import {
  SANDBOX_REFERENCE_SCRIPTS,
  sandboxWallet,
  signWithSandboxWallets,
  STATE_FILE_NAME,
  type SandboxProvider
} from '../../../src/chain/sandbox'
import { LOG_FILE_NAME } from '../../../src/chain/sandbox/ledger-log'
import { ChainError } from '../../../src/chain/provider'
import { BINARY_VERSION_AT, isBinarySnapshot } from '../../../src/chain/sandbox/binary-snapshot'
import { isJsonObject, parseJson } from '../../../src/core/json/lossless'
import { withShortWrites } from '../../support/short-writes'
import { sandboxes, scratchDirs } from '../support/lifecycle'
import { adaUtxos, ManualClock } from '../support/sandbox'
import { ADA, buildTx, evaluated, intDatum } from '../support/txkit'

const scratchDir = scratchDirs()
const fresh = sandboxes()
const alice = sandboxWallet('alice')
const bob = sandboxWallet('bob')
const scriptAddress = semanticsValidatorAddress('sandbox')
const semantics = SANDBOX_REFERENCE_SCRIPTS.semantics.script.hash
/** A few transactions past genesis (6 KB): the log starts early in each history, and snapshots come every few. */
const LOG_FROM_BYTES = 8_000

const open = (dir: string, clock: ManualClock, logFromBytes = LOG_FROM_BYTES): SandboxProvider =>
  fresh(clock, { dataDir: dir, logFromBytes })

async function pay(sandbox: SandboxProvider, to: string, lovelace: bigint, datum?: Uint8Array): Promise<string> {
  const [funds] = await adaUtxos(sandbox, alice.address)
  const tx = buildTx({
    params: await sandbox.protocolParameters(),
    inputs: [funds!],
    changeAddress: alice.address,
    outputs: [{ address: to, lovelace, ...(datum === undefined ? {} : { datum }) }]
  })
  return sandbox.submit(signWithSandboxWallets(tx, [alice]))
}

/** Spends a locked output through the stand-in validator, keeping it locked: a chain-index transaction. */
async function moveOn(sandbox: SandboxProvider, lockId: string, from: bigint, to: bigint): Promise<string> {
  const [locked] = await sandbox.utxosByRef([{ txId: lockId, index: 0 }])
  const [reference] = await sandbox.utxosByRef([SANDBOX_REFERENCE_SCRIPTS.semantics.ref])
  const funds = await adaUtxos(sandbox, alice.address)
  const params = await sandbox.protocolParameters()
  const tx = await evaluated(sandbox, (budget) =>
    buildTx({
      params,
      inputs: [funds[0]!],
      changeAddress: alice.address,
      scriptSpend: {
        utxo: locked!,
        reference: reference!,
        datum: intDatum(from),
        redeemer: intDatum(0n),
        exUnits: budget('spend')
      },
      outputs: [{ address: scriptAddress, lovelace: 10n * ADA, datum: intDatum(to) }],
      collateral: funds.find((u) => u.value.lovelace === 5n * ADA)!
    })
  )
  return sandbox.submit(signWithSandboxWallets(tx, [alice]))
}

/** Everything a client can see of the ledger. */
async function view(sandbox: SandboxProvider, txIds: readonly string[]): Promise<unknown> {
  return {
    tip: await sandbox.tip(),
    utxos: await sandbox.utxosAt([alice.address, bob.address, scriptAddress]),
    statuses: await Promise.all(txIds.map((id) => sandbox.txStatus(id))),
    index: await sandbox.scriptTransactions({ scriptHashes: [semantics], limit: 100 })
  }
}

/** A copy of the directory as a kill -9 now would leave it (every write so far is in the files). */
function crashImage(dir: string): string {
  const image = scratchDir()
  cpSync(dir, image, { recursive: true, filter: (path) => !path.endsWith('sandbox.lock') })
  return image
}

/** The state file's version: a JSON file's "version", or a binary snapshot's version byte. */
function version(dir: string): unknown {
  const file = readFileSync(join(dir, STATE_FILE_NAME))
  if (isBinarySnapshot(file)) return BigInt(file[BINARY_VERSION_AT]!)
  const doc = parseJson(file.toString('utf8'))
  return isJsonObject(doc) ? doc['version'] : undefined
}

/**
 * Builds a history: a contract-like output moved on `steps` times, a payment after each move, clock jumps. The
 * ids come in order, the last move second to last.
 */
async function history(sandbox: SandboxProvider, steps: number): Promise<string[]> {
  let locked = await pay(sandbox, scriptAddress, 10n * ADA, intDatum(0n))
  const txIds = [locked]
  for (let step = 0; step < steps; step += 1) {
    locked = await moveOn(sandbox, locked, BigInt(step), BigInt(step + 1))
    txIds.push(locked, await pay(sandbox, bob.address, BigInt(step + 2) * ADA))
    if (step % 3 === 0) await sandbox.advanceSlots(100n)
  }
  return txIds
}

describe('a large sandbox ledger: a snapshot and a log', () => {
  test('comes back whole after a restart, through snapshots and the changes after the last one', async () => {
    const dir = scratchDir()
    const clock = new ManualClock()
    const first = open(dir, clock)
    const txIds = await history(first, 8)
    const before = await view(first, txIds)
    await first.close()

    expect(version(dir)).toBe(3n)
    expect(existsSync(join(dir, LOG_FILE_NAME))).toBe(true)
    if (process.platform !== 'win32') expect(statSync(join(dir, LOG_FILE_NAME)).mode & 0o777).toBe(0o600)
    const second = open(dir, clock)
    expect(await view(second, txIds)).toEqual(before)
    // And it goes on from there.
    const next = await moveOn(second, txIds[txIds.length - 2]!, 8n, 9n)
    expect(await second.txStatus(next)).toMatchObject({ status: 'confirmed' })
  })

  test('a transaction is appended, not the state file rewritten', async () => {
    const dir = scratchDir()
    const clock = new ManualClock()
    const sandbox = open(dir, clock, 1_000_000_000)
    await history(sandbox, 1)
    await sandbox.close()
    // Reopened with a threshold below its size, the next save starts the log.
    const large = open(dir, clock, 1)
    await pay(large, bob.address, 3n * ADA)
    const state = statSync(join(dir, STATE_FILE_NAME))
    const logged = statSync(join(dir, LOG_FILE_NAME)).size

    await pay(large, bob.address, 4n * ADA)

    expect(statSync(join(dir, LOG_FILE_NAME)).size).toBeGreaterThan(logged)
    const after = statSync(join(dir, STATE_FILE_NAME))
    expect([after.ino, after.mtimeMs]).toEqual([state.ino, state.mtimeMs])
  })

  test('a kill -9 loses no transaction that was reported confirmed', async () => {
    const dir = scratchDir()
    const clock = new ManualClock()
    const sandbox = open(dir, clock)
    const txIds = [await pay(sandbox, scriptAddress, 10n * ADA, intDatum(0n))]
    const images: [string, string[]][] = []
    for (let step = 0; step < 6; step += 1) {
      txIds.push(await moveOn(sandbox, txIds[txIds.length - 1]!, BigInt(step), BigInt(step + 1)))
      images.push([crashImage(dir), [...txIds]])
    }
    await sandbox.advanceSlots(500n)
    const jumped = await sandbox.tip()
    images.push([crashImage(dir), [...txIds]])

    for (const [image, confirmed] of images) {
      const restarted = open(image, clock)
      const statuses = await Promise.all(confirmed.map((id) => restarted.txStatus(id)))
      expect(statuses.map((s) => s.status)).toEqual(confirmed.map(() => 'confirmed'))
      await restarted.close()
    }
    expect((await open(images[images.length - 1]![0], clock).tip()).slot).toBe(jumped.slot)
  })

  test('a torn last record is cut off, and the log goes on after it', async () => {
    const dir = scratchDir()
    const clock = new ManualClock()
    const first = open(dir, clock)
    const txIds = await history(first, 2)
    const before = await view(first, txIds)
    await first.close()
    const log = join(dir, LOG_FILE_NAME)
    const whole = readFileSync(log)
    // A record whose write never finished: the first part of one (here the log's first record: its 9-byte head
    // and a little of its payload).
    const firstRecord = 9 + whole.readUInt32BE(1) + 4
    appendFileSync(log, whole.subarray(0, Math.min(firstRecord - 1, 20)))

    const second = open(dir, clock)
    expect(await view(second, txIds)).toEqual(before)
    expect(statSync(log).size).toBe(whole.length)
    const more = await pay(second, bob.address, 6n * ADA)
    await second.close()
    expect(await open(dir, clock).txStatus(more)).toMatchObject({ status: 'confirmed' })
  })

  test('a damaged log, or one shorter than its snapshot says, is refused and left untouched', async () => {
    const dir = scratchDir()
    const clock = new ManualClock()
    const first = open(dir, clock)
    await history(first, 2)
    await first.close()
    const log = join(dir, LOG_FILE_NAME)
    const whole = readFileSync(log)

    const damaged = Uint8Array.from(whole)
    damaged[20] = damaged[20]! ^ 0xff
    writeFileSync(log, damaged)
    const refusal = (): unknown => {
      try {
        open(dir, clock)
      } catch (e) {
        return e
      }
      return undefined
    }
    expect(refusal()).toMatchObject({ kind: 'Unavailable', reason: expect.stringContaining('is damaged at byte') })
    expect(readFileSync(log)).toEqual(Buffer.from(damaged))

    writeFileSync(log, whole.subarray(0, 10))
    expect(refusal()).toBeInstanceOf(ChainError)
    rmSync(log)
    expect(refusal()).toMatchObject({ reason: expect.stringContaining(`the log ${LOG_FILE_NAME}`) })
  })

  test('when the log cannot be written the submit says so, the transaction stands, and the next save catches up', async () => {
    const dir = scratchDir()
    const clock = new ManualClock()
    const sandbox = open(dir, clock)
    await history(sandbox, 1)
    const fs = createRequire(__filename)('node:fs') as { writeSync: (...args: unknown[]) => number }
    const original = fs.writeSync
    let failures = 1
    fs.writeSync = (...args: unknown[]) => {
      if (failures > 0) {
        failures -= 1
        original(args[0], args[1], args[2], 3)
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
      }
      return original(...args)
    }
    syncBuiltinESMExports()
    const before = await sandbox.tip()
    try {
      const failed: unknown = await pay(sandbox, bob.address, 7n * ADA).catch((e: unknown) => e)
      expect(failed).toMatchObject({
        kind: 'Unavailable',
        reason: expect.stringContaining(`could not be saved to ${join(dir, LOG_FILE_NAME)}`)
      })
      expect((await sandbox.tip()).blockNo).toBe(before.blockNo + 1n)
    } finally {
      fs.writeSync = original
      syncBuiltinESMExports()
    }
    const next = await pay(sandbox, bob.address, 8n * ADA)
    await sandbox.close()
    const restarted = open(dir, clock)
    expect(await restarted.txStatus(next)).toMatchObject({ status: 'confirmed' })
    expect((await restarted.utxosAt([bob.address])).map((u) => u.value.lovelace)).toEqual(
      expect.arrayContaining([7n * ADA, 8n * ADA])
    )
  })

  test('saved whole through 7-byte writes, and read back', async () => {
    const dir = scratchDir()
    const clock = new ManualClock()
    const txIds = await withShortWrites(7, async () => {
      const sandbox = open(dir, clock)
      const made = await history(sandbox, 2)
      await sandbox.close()
      return made
    })
    const again = open(dir, clock)
    expect((await Promise.all(txIds.map((id) => again.txStatus(id)))).every((s) => s.status === 'confirmed')).toBe(true)
  })
})
