/**
 * The log of a large sandbox ledger is compacted: once it is mostly history, a new snapshot goes with a new log
 * holding only what that snapshot refers to. Loading then reads a log whose size does not follow the number of
 * transactions ever made, a crash at any point of a compaction loses no confirmed transaction, and the backup
 * stays a snapshot of the log that is kept.
 */
import { copyFileSync, cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire, syncBuiltinESMExports } from 'node:module'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  sandboxWallet,
  signWithSandboxWallets,
  STATE_FILE_NAME,
  type SandboxProvider
} from '../../../src/chain/sandbox'
import { LOG_FILE_NAME, LOG_FILE_PATTERN } from '../../../src/chain/sandbox/ledger-log'
import { LedgerStore, type LoadedLedger } from '../../../src/chain/sandbox/ledger-store'
import { withShortWrites } from '../../support/short-writes'
import { sandboxes, scratchDirs } from '../support/lifecycle'
import { adaUtxos, ManualClock } from '../support/sandbox'
import { ADA, buildTx } from '../support/txkit'

const scratchDir = scratchDirs()
const fresh = sandboxes()
const alice = sandboxWallet('alice')
const bob = sandboxWallet('bob')
/** Past genesis (6 KB): the log starts with the first transaction, and is compacted every few kilobytes. */
const LOG_FROM_BYTES = 8_000

const open = (dir: string, clock: ManualClock): SandboxProvider =>
  fresh(clock, { dataDir: dir, logFromBytes: LOG_FROM_BYTES })

/** A payment between wallets: nothing of it stays in the chain index, so its record becomes history at once. */
async function pay(sandbox: SandboxProvider, lovelace: bigint): Promise<string> {
  const [funds] = await adaUtxos(sandbox, alice.address)
  const tx = buildTx({
    params: await sandbox.protocolParameters(),
    inputs: [funds!],
    changeAddress: alice.address,
    outputs: [{ address: bob.address, lovelace }]
  })
  return sandbox.submit(signWithSandboxWallets(tx, [alice]))
}

function logs(dir: string): string[] {
  return readdirSync(dir).filter((name) => LOG_FILE_PATTERN.test(name))
}

/** The saved ledger of `dir`, as a sandbox opening it reads it. */
function load(dir: string): LoadedLedger {
  const store = new LedgerStore(dir, LOG_FROM_BYTES)
  try {
    const loaded = store.load({})
    if (loaded === undefined) throw new Error(`no ledger in ${dir}`)
    return loaded
  } finally {
    store.close()
  }
}

function confirmed(loaded: LoadedLedger, txIds: readonly string[]): string[] {
  return txIds.filter((id) => loaded.ledger.confirmation(id) !== undefined)
}

type Fs = Record<string, (...args: unknown[]) => unknown>
/** What writes, creates, renames or deletes files: a kill -9 can come before any of them. */
const MUTATIONS = [
  'openSync',
  'writeSync',
  'fsyncSync',
  'ftruncateSync',
  'fchmodSync',
  'renameSync',
  'linkSync',
  'copyFileSync',
  'rmSync'
]

/**
 * Runs `run` with `before` called ahead of every call of node:fs that changes files (not those `before` makes
 * itself).
 */
async function beforeEachMutation<T>(before: () => void, run: () => Promise<T>): Promise<T> {
  const fs = createRequire(__filename)('node:fs') as Fs
  const originals = new Map(MUTATIONS.map((name) => [name, fs[name]!]))
  let inside = false
  for (const [name, original] of originals) {
    fs[name] = (...args: unknown[]) => {
      if (!inside) {
        inside = true
        try {
          before()
        } finally {
          inside = false
        }
      }
      return original(...args)
    }
  }
  syncBuiltinESMExports()
  try {
    return await run()
  } finally {
    for (const [name, original] of originals) fs[name] = original
    syncBuiltinESMExports()
  }
}

describe('compaction of a large sandbox ledger’s log', () => {
  test('happens, and loading reads as much of the log after 120 payments as after 40', async () => {
    const dir = scratchDir()
    const clock = new ManualClock()
    const sandbox = open(dir, clock)
    const txIds: string[] = []
    const reads: LoadedLedger['logRead'][] = []
    for (const rounds of [40, 80]) {
      for (let i = 0; i < rounds; i += 1) txIds.push(await pay(sandbox, BigInt(2 + (i % 5)) * ADA))
      reads.push(load(crashImage(dir)).logRead)
    }
    const tip = await sandbox.tip()
    await sandbox.close()

    // The first log is gone, a later one holds what the snapshot refers to and the changes since.
    expect(existsSync(join(dir, LOG_FILE_NAME))).toBe(false)
    expect(logs(dir)).toEqual([expect.stringMatching(/^sandbox-ledger\.[0-9]+\.log$/)])
    const loaded = load(dir)
    expect(confirmed(loaded, txIds)).toEqual(txIds)
    expect(loaded.ledger.tip).toEqual({ slot: tip.slot, blockNo: tip.blockNo, blockHash: tip.blockHash })
    // A compaction comes once the history passes a quarter of LOG_FROM_BYTES (some five payments of 400 bytes),
    // checked when a snapshot is due: a log of a few dozen records at most, however many payments came before.
    for (const read of [...reads, loaded.logRead]) {
      expect(read.records).toBeLessThan(25)
      expect(read.replayed).toBeLessThanOrEqual(read.records)
      expect(read.bytes).toBeLessThan(LOG_FROM_BYTES)
    }
  })

  test('a kill -9 before, during or after a compaction loses no confirmed transaction', async () => {
    const dir = scratchDir()
    const clock = new ManualClock()
    const sandbox = open(dir, clock)
    const txIds: string[] = []
    const images: { dir: string; confirmed: string[]; logs: number }[] = []
    const crash = (): void => {
      images.push({ dir: crashImage(dir), confirmed: [...txIds], logs: logs(dir).length })
    }
    await beforeEachMutation(crash, async () => {
      for (let i = 0; i < 24; i += 1) txIds.push(await pay(sandbox, BigInt(2 + (i % 5)) * ADA))
    })
    crash()
    await sandbox.close()

    // Some images are from within a compaction: the new log begun beside the old one.
    expect(images.some((image) => image.logs > 1)).toBe(true)
    expect(logs(dir)).not.toContain(LOG_FILE_NAME)
    for (const image of images) {
      const loaded = load(image.dir)
      expect(confirmed(loaded, image.confirmed)).toEqual(image.confirmed)
      // Opening leaves at most one log: the one the state file continues in.
      expect(logs(image.dir).length).toBeLessThanOrEqual(1)
    }
  })

  test('written through 7-byte writes, and read back', async () => {
    const dir = scratchDir()
    const clock = new ManualClock()
    const txIds = await withShortWrites(7, async () => {
      const sandbox = open(dir, clock)
      const made: string[] = []
      for (let i = 0; i < 16; i += 1) made.push(await pay(sandbox, 3n * ADA))
      await sandbox.close()
      return made
    })
    expect(logs(dir)).not.toContain(LOG_FILE_NAME)
    expect(confirmed(load(dir), txIds)).toEqual(txIds)
  })

  test('the refusal says what the backup recovers: every change when the state file is at fault, none when the log is', async () => {
    const dir = scratchDir()
    const clock = new ManualClock()
    const sandbox = open(dir, clock)
    const txIds: string[] = []
    for (let i = 0; i < 16; i += 1) txIds.push(await pay(sandbox, 4n * ADA))
    await sandbox.close()
    const [log] = logs(dir)
    expect(log).not.toBe(LOG_FILE_NAME)
    const state = join(dir, STATE_FILE_NAME)
    const backup = `${state}.bak`
    const refusal = (): string => {
      try {
        load(dir)
      } catch (e) {
        return e instanceof Error ? e.message : String(e)
      }
      throw new Error('the ledger loaded')
    }

    const whole = readFileSync(state, 'utf8')
    writeFileSync(state, whole.slice(0, 300))
    expect(refusal()).toContain(
      `${backup} holds an earlier snapshot that continues in the same log ${join(dir, log!)}: copy it over the file to recover every change the log holds.`
    )
    copyFileSync(backup, state)
    expect(confirmed(load(dir), txIds)).toEqual(txIds)

    const logPath = join(dir, log!)
    const bytes = readFileSync(logPath)
    bytes[20] = bytes[20]! ^ 0xff
    writeFileSync(logPath, bytes)
    const why = refusal()
    expect(why).toContain(`the log ${log} is damaged at byte`)
    expect(why).toContain(`${backup} holds an earlier snapshot that continues in the same log: it cannot recover`)
    expect(why).toContain(`move the file and ${logPath} away`)
  })
})

/** A copy of the directory as a kill -9 now would leave it (every write so far is in the files). */
function crashImage(dir: string): string {
  const image = scratchDir()
  cpSync(dir, image, { recursive: true, filter: (path) => !path.endsWith('sandbox.lock') })
  return image
}
