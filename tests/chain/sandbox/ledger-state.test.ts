/**
 * How the sandbox keeps its ledger: UTxOs indexed by address and by reference, outputs as the bytes their
 * transaction wrote, state files of earlier versions still read, a backup of the previous state, and no Blaze
 * decoding of transactions, outputs or datums on the way.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { HexBlob, PlutusData, Transaction, TransactionOutput } from '@blaze-cardano/core'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { semanticsValidatorAddress } from '../../../src/chain/deployments'
import {
  SANDBOX_REFERENCE_SCRIPTS,
  sandboxWallet,
  signWithSandboxWallets,
  STATE_FILE_NAME,
  type SandboxProvider
} from '../../../src/chain/sandbox'
import { decodeOutput, encodeOutput, toUtxo } from '../../../src/chain/sandbox/outputs'
import { UtxoSet } from '../../../src/chain/sandbox/utxo-set'
import type { Utxo } from '../../../src/chain/provider'
import { hexToBytes } from '../../../src/core/bytes'
import { parseAddressText } from '../../../src/core/cardano/tx'
import { isJsonObject, parseJson, stringifyJson } from '../../../src/core/json/lossless'
import { sandboxes, scratchDirs } from '../support/lifecycle'
import { ManualClock, adaUtxos } from '../support/sandbox'
import { ADA, buildTx, datumHash, evaluated, intDatum, txId } from '../support/txkit'

const scratchDir = scratchDirs()
const alice = sandboxWallet('alice')
const bob = sandboxWallet('bob')
const scriptAddress = semanticsValidatorAddress('sandbox')

const fresh = sandboxes()
afterEach(() => {
  vi.restoreAllMocks()
})

const open = (dataDir?: string, clock = new ManualClock()): SandboxProvider =>
  fresh(clock, dataDir === undefined ? {} : { dataDir })

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

describe('UTxOs by address and by reference', () => {
  test('answers over several addresses come in order of arrival, whatever the order asked in', async () => {
    const sandbox = open()
    const first = await pay(sandbox, bob.address, 7n * ADA)
    const second = await pay(sandbox, scriptAddress, 9n * ADA, intDatum(1n))

    const forward = await sandbox.utxosAt([alice.address, bob.address, scriptAddress])
    const backward = await sandbox.utxosAt([scriptAddress, bob.address, alice.address, bob.address])

    expect(backward).toEqual(forward)
    const refs = forward.map((u) => `${u.ref.txId}#${u.ref.index}`)
    expect(refs.indexOf(`${first}#0`)).toBeLessThan(refs.indexOf(`${second}#0`))
    expect(await sandbox.utxosAt([bob.address])).toHaveLength(5)
    // The semantics reference script lives at the validator's address too, since genesis.
    expect((await sandbox.utxosAt([scriptAddress])).map((u) => u.ref)).toEqual([
      SANDBOX_REFERENCE_SCRIPTS.semantics.ref,
      { txId: second, index: 0 }
    ])
  })

  test('a spent output leaves both indexes; the set stays consistent through adds and removes', () => {
    const set = new UtxoSet()
    const at = (address: string): string => parseAddressText(address).hex
    const output = (address: string, ada: bigint): Uint8Array =>
      encodeOutput({ address, value: { lovelace: ada * ADA, assets: {} } })
    const a = { txId: 'aa'.repeat(32), index: 0 }
    const b = { txId: 'bb'.repeat(32), index: 1 }
    set.add(a, output(alice.address, 2n))
    set.add(b, output(bob.address, 3n))
    set.add(a, output(bob.address, 4n))

    expect(set.size).toBe(2)
    expect(set.at(new Set([at(alice.address)]))).toEqual([])
    expect(set.at(new Set([at(bob.address)])).map((u) => [u.ref, u.output.value.coin])).toEqual([
      [b, 3n * ADA],
      [a, 4n * ADA]
    ])
    set.remove(b)
    set.remove(b)
    expect(set.get(b)).toBeUndefined()
    expect([...set.values()].map((u) => u.ref)).toEqual([a])
    expect(() => set.add(b, Uint8Array.of(0xff))).toThrow()
    expect(set.size).toBe(1)
  })

  test('outputs read back as they were written: values, datums and script references', () => {
    const policy = 'ab'.repeat(28)
    const utxos: Omit<Utxo, 'ref'>[] = [
      { address: alice.address, value: { lovelace: 3n * ADA, assets: { [policy]: { '': 1n, '4142': 7n } } } },
      { address: scriptAddress, value: { lovelace: 2n * ADA, assets: {} }, datumHash: datumHash(intDatum(3n)) },
      { address: bob.address, value: { lovelace: 2n * ADA, assets: {} }, datum: intDatum(4n) },
      {
        address: bob.address,
        value: { lovelace: 9n * ADA, assets: {} },
        scriptRef: { language: 'PlutusV2', bytes: SANDBOX_REFERENCE_SCRIPTS.semantics.script.bytes }
      },
      {
        address: bob.address,
        value: { lovelace: 9n * ADA, assets: {} },
        scriptRef: { language: 'Native', bytes: hexToBytes(`8200581c${alice.paymentKeyHash}`) }
      }
    ]
    const ref = { txId: 'cc'.repeat(32), index: 3 }
    for (const utxo of utxos) {
      const decoded = decodeOutput(encodeOutput(utxo))
      expect(toUtxo(ref, decoded, () => undefined)).toEqual({ ref, ...utxo })
    }
    expect(decodeOutput(encodeOutput(utxos[3]!)).scriptRef?.hash).toBe(SANDBOX_REFERENCE_SCRIPTS.semantics.script.hash)
    const resolved = toUtxo(ref, decodeOutput(encodeOutput(utxos[1]!)), () => intDatum(3n))
    expect(resolved.datum).toEqual(intDatum(3n))
  })
})

describe('the state file', () => {
  test("a file of the sandbox before issue 14 (outputs in Blaze's encoding) is read with the same UTxOs", async () => {
    const dir = scratchDir()
    const clock = new ManualClock()
    const first = open(dir, clock)
    await pay(first, scriptAddress, 10n * ADA, intDatum(8n))
    const before = await first.utxosAt([alice.address, bob.address, scriptAddress])
    const references = await first.utxosByRef(Object.values(SANDBOX_REFERENCE_SCRIPTS).map((r) => r.ref))
    await first.close()
    const path = join(dir, STATE_FILE_NAME)
    const doc = parseJson(readFileSync(path, 'utf8'))
    if (!isJsonObject(doc) || !Array.isArray(doc['utxos'])) throw new Error('not a state file')
    // What the Blaze emulator wrote: each output encoded by Blaze from its own decoding.
    doc['utxos'] = doc['utxos'].map((pair) => {
      if (!Array.isArray(pair) || typeof pair[1] !== 'string') throw new Error('not a UTxO')
      const blaze = TransactionOutput.fromCore(TransactionOutput.fromCbor(HexBlob(pair[1])).toCore())
      return [pair[0]!, blaze.toCbor()]
    })
    writeFileSync(path, stringifyJson(doc, { indent: 1 }))

    const second = open(dir, clock)

    expect(await second.utxosAt([alice.address, bob.address, scriptAddress])).toEqual(before)
    expect(await second.utxosByRef(Object.values(SANDBOX_REFERENCE_SCRIPTS).map((r) => r.ref))).toEqual(references)
    await expect(pay(second, bob.address, 3n * ADA)).resolves.toMatch(/^[0-9a-f]{64}$/)
  })

  test('the backup holds the state before the last save; opening a saved ledger does not rewrite it', async () => {
    const dir = scratchDir()
    const clock = new ManualClock()
    const first = open(dir, clock)
    await pay(first, bob.address, 3n * ADA)
    const path = join(dir, STATE_FILE_NAME)
    const afterFirst = readFileSync(path, 'utf8')
    // A backup staged by a save that was interrupted is replaced, not left behind.
    writeFileSync(`${path}.bak.tmp`, 'half a backup')
    await pay(first, bob.address, 4n * ADA)
    await first.close()

    expect(readFileSync(`${path}.bak`, 'utf8')).toBe(afterFirst)
    expect(existsSync(`${path}.bak.tmp`)).toBe(false)
    const saved = statSync(path)
    clock.tick(60n)
    const second = open(dir, clock)
    expect((await second.tip()).blockNo).toBe(2n)
    expect(statSync(path).mtimeMs).toBe(saved.mtimeMs)
    expect(statSync(path).ino).toBe(saved.ino)
  })
})

describe('no Blaze decoding', () => {
  test('evaluating, submitting and restoring decode nothing through Blaze', async () => {
    const fromCbor = [
      vi.spyOn(Transaction, 'fromCbor'),
      vi.spyOn(TransactionOutput, 'fromCbor'),
      vi.spyOn(PlutusData, 'fromCbor')
    ]
    const dir = scratchDir()
    const clock = new ManualClock()
    const sandbox = open(dir, clock)
    const d0 = intDatum(0n)
    const lockId = await pay(sandbox, scriptAddress, 10n * ADA, d0)
    const [locked] = await sandbox.utxosByRef([{ txId: lockId, index: 0 }])
    const [reference] = await sandbox.utxosByRef([SANDBOX_REFERENCE_SCRIPTS.semantics.ref])
    const funds = await adaUtxos(sandbox, alice.address)
    const params = await sandbox.protocolParameters()
    const spend = await evaluated(sandbox, (budget) =>
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
        collateral: funds.find((u) => u.value.lovelace === 5n * ADA)!
      })
    )
    await expect(sandbox.submit(signWithSandboxWallets(spend, [alice]))).resolves.toBe(txId(spend))
    await sandbox.close()
    const again = open(dir, clock)
    expect((await again.tip()).blockNo).toBe(2n)

    for (const spy of fromCbor) expect(spy).not.toHaveBeenCalled()
  })
})
