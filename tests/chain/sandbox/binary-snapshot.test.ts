/**
 * A large ledger's snapshot in version 3 (binary-snapshot.ts): a version 2 ledger saved by the release before
 * (under the state file's former name) loads as it was, moved to the current name, and becomes version 3 at its
 * next snapshot; the ledger under both names is refused; a truncated, damaged or hostile version 3 file is
 * refused with what is wrong, and left as it was.
 */
import { copyFileSync, cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { crc32 } from 'node:zlib'
import { decode, Encoder } from 'cbor-x'
import { describe, expect, test } from 'vitest'
import { sandboxWallet, STATE_FILE_NAME, type SandboxProvider } from '../../../src/chain/sandbox'
import { BINARY_VERSION_AT, isBinarySnapshot } from '../../../src/chain/sandbox/binary-snapshot'
import { ChainError } from '../../../src/chain/provider'
import { isJsonObject, parseJson, stringifyJson, type JsonValue } from '../../../src/core/json/lossless'
import { sandboxes, scratchDirs } from '../support/lifecycle'
import { ManualClock } from '../support/sandbox'

const scratchDir = scratchDirs()
const fresh = sandboxes()
const alice = sandboxWallet('alice')
const bob = sandboxWallet('bob')
/** As the fixture was saved with: past genesis (6 KB), a log from the first transactions. */
const LOG_FROM_BYTES = 8_000
/** Saved by the release before version 3 (12 faucet payments, compacted once), with what it answered then. */
const FIXTURE = join(__dirname, 'fixtures', 'v2-ledger')
const HEAD = BINARY_VERSION_AT + 1 + 4 + 4

const open = (dir: string, clock: ManualClock): SandboxProvider =>
  fresh(clock, { dataDir: dir, logFromBytes: LOG_FROM_BYTES })

/** The state file's name in the release before (`sandbox-ledger.json`, as in the fixture). */
const FORMER_NAME = 'sandbox-ledger.json'

function version(dir: string, name = STATE_FILE_NAME): bigint | undefined {
  const file = readFileSync(join(dir, name))
  if (isBinarySnapshot(file)) return BigInt(file[BINARY_VERSION_AT]!)
  const doc = parseJson(file.toString('utf8'))
  return isJsonObject(doc) && typeof doc['version'] === 'bigint' ? doc['version'] : undefined
}

async function view(sandbox: SandboxProvider, txIds: readonly string[]): Promise<string> {
  const seen = {
    tip: await sandbox.tip(),
    utxos: await sandbox.utxosAt([alice.address, bob.address]),
    statuses: await Promise.all(txIds.map((id) => sandbox.txStatus(id)))
  }
  return stringifyJson(seen as unknown as JsonValue)
}

function refusal(dir: string, clock: ManualClock): string {
  try {
    open(dir, clock)
  } catch (e) {
    if (e instanceof ChainError) return e.message
    throw e
  }
  throw new Error('the ledger loaded')
}

/** A ledger saved as version 3, with its clock. */
async function savedV3(): Promise<{ dir: string; clock: ManualClock; txIds: string[] }> {
  const dir = scratchDir()
  const clock = new ManualClock()
  const sandbox = open(dir, clock)
  const txIds: string[] = []
  while (version(dir) !== 3n) txIds.push((await sandbox.fund(bob.address, 1_000_000n)).txId)
  txIds.push((await sandbox.fund(bob.address, 2_000_000n)).txId)
  await sandbox.close()
  return { dir, clock, txIds }
}

describe('version 3 snapshots', () => {
  test('a version 2 ledger of the release before loads as it was, and is version 3 after its next snapshot', async () => {
    const expected = parseJson(readFileSync(`${FIXTURE}.expected.json`, 'utf8'))
    if (!isJsonObject(expected) || typeof expected['clockMs'] !== 'bigint') throw new Error('bad fixture')
    const txIds = (expected['txIds'] as string[]).slice()
    const dir = scratchDir()
    cpSync(FIXTURE, dir, { recursive: true })
    const clock = new ManualClock(expected['clockMs'])
    expect(version(dir, FORMER_NAME)).toBe(2n)
    const former = readFileSync(join(dir, FORMER_NAME))
    // A backup and an interrupted write of the release before, as a crash could leave them.
    copyFileSync(join(dir, FORMER_NAME), join(dir, `${FORMER_NAME}.bak`))
    writeFileSync(join(dir, `${FORMER_NAME}.tmp`), former.subarray(0, 100))

    const sandbox = open(dir, clock)
    // Moved to the current name, its backup too, the bytes as they were; nothing is left under the former name.
    expect(readFileSync(join(dir, STATE_FILE_NAME))).toEqual(former)
    expect(readFileSync(join(dir, `${STATE_FILE_NAME}.bak`))).toEqual(former)
    expect(readdirSync(dir).filter((name) => name.startsWith(FORMER_NAME))).toEqual([])
    expect(await view(sandbox, txIds)).toBe(stringifyJson(expected['view']!))
    for (let i = 0; i < 40 && version(dir) === 2n; i += 1)
      txIds.push((await sandbox.fund(bob.address, 1_000_000n)).txId)
    expect(version(dir)).toBe(3n)
    const before = await view(sandbox, txIds)
    await sandbox.close()

    const again = open(dir, clock)
    expect(await view(again, txIds)).toBe(before)
    expect((await again.txStatus(txIds[0]!)).status).toBe('confirmed')
  })

  test('a ledger under both the former and the current name is refused, both left untouched', () => {
    const dir = scratchDir()
    cpSync(FIXTURE, dir, { recursive: true })
    const former = readFileSync(join(dir, FORMER_NAME))
    copyFileSync(join(dir, FORMER_NAME), join(dir, STATE_FILE_NAME))
    const why = refusal(dir, new ManualClock())
    expect(why).toContain(`is under two names: ${join(dir, FORMER_NAME)} (its name before this version)`)
    expect(why).toContain('Keep the one that holds the ledger you mean to use and move the other away')
    expect(readFileSync(join(dir, FORMER_NAME))).toEqual(former)
    expect(readFileSync(join(dir, STATE_FILE_NAME))).toEqual(former)
  })

  test('a truncated or damaged one is refused and left untouched; its backup recovers every change', async () => {
    const { dir, clock, txIds } = await savedV3()
    const state = join(dir, STATE_FILE_NAME)
    const whole = readFileSync(state)

    writeFileSync(state, whole.subarray(0, whole.length - 100))
    expect(refusal(dir, clock)).toContain('it is truncated or damaged')
    expect(readFileSync(state)).toEqual(whole.subarray(0, whole.length - 100))
    writeFileSync(state, whole.subarray(0, 20))
    expect(refusal(dir, clock)).toContain('inside its')

    const damaged = Buffer.from(whole)
    damaged[HEAD + 50] = damaged[HEAD + 50]! ^ 0x01
    writeFileSync(state, damaged)
    const why = refusal(dir, clock)
    expect(why).toContain('its checksum does not match')
    expect(why).toContain('copy it over the file to recover every change the log holds')
    expect(readFileSync(state)).toEqual(damaged)

    copyFileSync(`${state}.bak`, state)
    const recovered = open(dir, clock)
    const statuses = await Promise.all(txIds.map((id) => recovered.txStatus(id)))
    expect(statuses.map((s) => s.status)).toEqual(txIds.map(() => 'confirmed'))
  })

  test('hostile sizes in a file whose checksum matches are refused, not allocated', async () => {
    const { dir, clock } = await savedV3()
    const state = join(dir, STATE_FILE_NAME)
    const whole = readFileSync(state)
    const withBody = (body: Uint8Array): Buffer => {
      const head = Buffer.from(whole.subarray(0, HEAD))
      head.writeUInt32BE(body.length, BINARY_VERSION_AT + 1)
      head.writeUInt32BE(crc32(body), BINARY_VERSION_AT + 5)
      return Buffer.concat([head, body])
    }
    // A list of 2^64 - 1 fields, a byte string of 2^63 bytes, a list claiming 2^32 - 1 fields in a few bytes.
    const hostile = [
      Uint8Array.of(0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
      Uint8Array.of(0x81, 0x5b, 0x80, 0, 0, 0, 0, 0, 0, 0, 0x00),
      Uint8Array.of(0x9a, 0xff, 0xff, 0xff, 0xff, 0x00)
    ]
    for (const body of hostile) {
      writeFileSync(state, withBody(body))
      expect(refusal(dir, clock)).toMatch(/does not decode|should be a list of 14 fields/)
    }
    // A header claiming 4 GiB after it.
    const long = Buffer.from(whole)
    long.writeUInt32BE(0xffffffff, BINARY_VERSION_AT + 1)
    writeFileSync(state, long)
    expect(refusal(dir, clock)).toContain('where it says 4294967295')
    // Lengths pointing past the UTxOs' bytes, and places past what the log holds.
    const body = whole.subarray(HEAD)
    const fields = decode(body) as unknown[]
    const utxoLengths = (fields[5] as number[]).slice()
    utxoLengths[1] = 2 ** 40
    writeFileSync(state, withBody(reencode(fields, 5, utxoLengths)))
    expect(refusal(dir, clock)).toContain('utxos[0] output length should be a whole number up to')
    writeFileSync(state, withBody(reencode(fields, 3, 2 ** 50)))
    expect(refusal(dir, clock)).toMatch(/holds \d+ bytes, fewer than the 1125899906842624 it refers to/)
  })
})

function reencode(fields: readonly unknown[], at: number, value: unknown): Uint8Array {
  const changed = fields.slice()
  changed[at] = value
  return new Encoder({ tagUint8Array: false, useRecords: false }).encode(changed) as Uint8Array
}
