/**
 * A sandbox shared over HTTP (`sandbox share`) answers every ChainProvider call as the sandbox itself does, a
 * refusal as the same ChainError, and a chain that is not there as Unavailable.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ChainError } from '../../../src/chain/provider'
import { SANDBOX_WALLETS, type SandboxProvider } from '../../../src/chain/sandbox'
import { shareChain, SharedChainProvider, type SharedChain } from '../../../src/chain/shared'
import { openSandbox } from '../support/sandbox'

let sandbox: SandboxProvider
let shared: SharedChain
let remote: SharedChainProvider

beforeAll(async () => {
  sandbox = openSandbox().sandbox
  shared = await shareChain(sandbox, 0)
  remote = await SharedChainProvider.open(`http://127.0.0.1:${shared.port}/`)
})
afterAll(async () => {
  await shared.close()
  await sandbox.close()
})

describe('a shared sandbox chain', () => {
  test('says who it is: network, network id, the Marlowe deployment and that it has a chain index', () => {
    expect(remote.network).toBe('sandbox')
    expect(remote.networkId).toBe(0)
    expect(remote.deployment).toEqual(sandbox.deployment)
    expect(remote.scriptTransactions).toBeTypeOf('function')
  })

  test('answers reads exactly as the sandbox does: bigints, bytes and optional fields intact', async () => {
    const addresses = SANDBOX_WALLETS.map((w) => w.address)
    expect(await remote.era()).toBe(await sandbox.era())
    expect(await remote.protocolParameters()).toEqual(await sandbox.protocolParameters())
    expect(await remote.eraSummaries()).toEqual(await sandbox.eraSummaries())
    expect(await remote.tip()).toEqual(await sandbox.tip())
    const utxos = await sandbox.utxosAt(addresses)
    expect(utxos.length).toBeGreaterThan(3)
    expect(await remote.utxosAt(addresses)).toEqual(utxos)
    const d = sandbox.deployment
    if (d === undefined) throw new Error('the sandbox has no deployment')
    const refs = [d.semantics.reference, d.payout.reference]
    const scripts = await sandbox.utxosByRef(refs)
    expect(scripts.every((u) => u.scriptRef?.bytes instanceof Uint8Array)).toBe(true)
    expect(await remote.utxosByRef(refs)).toEqual(scripts)
    const query = { scriptHashes: [d.semantics.hash], limit: 10 }
    expect(await remote.scriptTransactions?.(query)).toEqual(await sandbox.scriptTransactions(query))
    expect(await remote.txStatus('00'.repeat(32))).toEqual({ status: 'unknown' })
  })

  test('refuses a transaction with the sandbox’s own ChainError', async () => {
    const garbage = new Uint8Array([0x84, 0xa0, 0xa0, 0xf5, 0xf6])
    const direct = await sandbox.submit(garbage).catch((e: unknown) => e)
    const through = await remote.submit(garbage).catch((e: unknown) => e)
    expect(direct).toBeInstanceOf(ChainError)
    expect(through).toBeInstanceOf(ChainError)
    expect({ ...(through as ChainError), message: (through as ChainError).message }).toEqual({
      ...(direct as ChainError),
      message: (direct as ChainError).message
    })
  })

  test('a chain that is not there is Unavailable, as an unreachable node is', async () => {
    const gone = await shareChain(sandbox, 0)
    await gone.close()
    const refused = await SharedChainProvider.open(`http://127.0.0.1:${gone.port}/`).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(ChainError)
    expect((refused as ChainError).kind).toBe('Unavailable')
    expect((refused as ChainError).message).toContain(`http://127.0.0.1:${gone.port}/describe cannot be reached`)
  })
})
