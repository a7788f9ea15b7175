/**
 * `app.progress`: a long call publishes its stage while it waits on the chain (here a sandbox whose reads and
 * submissions are held until the test lets them go), and the activity disappears once the call is done.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { DeskCall, ProgressReport, WalletSummary } from '../../../src/api/contract'
import { SandboxProvider } from '../../../src/chain/sandbox'
import { stringifyContract } from '../../../src/core/marlowe/json'
import { CLOSE } from '../../../src/core/marlowe/types'
import { T0 } from '../build/support'
import { deskHarness, restoreSandboxWallet, PASSWORD, type DeskHarness } from './support'

/** Holds `utxosAt` and `submit` while `hold` is set, until `release()`. */
class HeldSandbox {
  private gate: Promise<void> | undefined
  private open = (): void => undefined
  private reached = (): void => undefined

  constructor(readonly provider: SandboxProvider) {
    const utxosAt = provider.utxosAt.bind(provider)
    const submit = provider.submit.bind(provider)
    const held = async <T>(work: () => Promise<T>): Promise<T> => {
      if (this.gate !== undefined) this.reached()
      await this.gate
      return work()
    }
    provider.utxosAt = (addresses) => held(() => utxosAt(addresses))
    provider.submit = (tx) => held(() => submit(tx))
  }

  /** Holds the next reads and submissions; resolves once the first of them waits at the gate. */
  hold(): Promise<void> {
    this.gate = new Promise((resolve) => (this.open = resolve))
    return new Promise((resolve) => (this.reached = resolve))
  }

  release(): void {
    this.gate = undefined
    this.open()
  }
}

let h: DeskHarness
let held: HeldSandbox
let alice: WalletSummary

beforeAll(async () => {
  const provider = SandboxProvider.open({ zeroTime: T0, clockTickMs: false, now: () => Number(T0 + 10_000n) })
  held = new HeldSandbox(provider)
  h = await deskHarness({ provider })
  alice = await restoreSandboxWallet(h, 'alice')
  await h.ok('sandbox.fund', { walletId: alice.id, ada: 100n })
})
afterAll(() => h.close())

/** What `app.progress` reports of `call` now (the call waits at the gate, so its stage cannot move on). */
async function reportOf(call: DeskCall): Promise<ProgressReport | undefined> {
  return (await h.ok('app.progress', {})).find((r) => r.call === call)
}

describe('app.progress', () => {
  test('nothing is in flight at rest', async () => {
    expect(await h.ok('app.progress', {})).toEqual([])
  })

  test('a build shows its stage while the wallet outputs are read, and nothing once it is done', async () => {
    const readingOutputs = held.hold()
    const building = h.ok('contracts.create', {
      walletId: alice.id,
      contractJson: stringifyContract(CLOSE),
      roles: [],
      tags: []
    })
    await readingOutputs
    const report = await reportOf('contracts.create')
    expect(report).toEqual({
      id: expect.any(String),
      call: 'contracts.create',
      stage: 'Building the transaction',
      startedAt: expect.any(BigInt),
      step: 2,
      steps: 3
    })
    held.release()
    const built = await building
    expect(await h.ok('app.progress', {})).toEqual([])

    // Signing and submitting: held at the node, with its stage; the password never appears in a report.
    const atTheNode = held.hold()
    const submitting = h.ok('tx.signAndSubmit', { txId: built.txId, walletId: alice.id, password: PASSWORD })
    await atTheNode
    const during = await reportOf('tx.signAndSubmit')
    expect(during).toMatchObject({ stage: 'Submitting to the node', step: 5, steps: 5 })
    expect(JSON.stringify(during, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(PASSWORD)
    held.release()
    expect(await submitting).toMatchObject({ status: 'submitted' })
    expect(await h.ok('app.progress', {})).toEqual([])
  })

  test('a failed call leaves no activity behind', async () => {
    await h.fails('tx.signAndSubmit', { txId: '0'.repeat(64), walletId: alice.id }, 'TxNotFound')
    await h.fails('contracts.create', { walletId: alice.id, contractJson: '{', roles: [], tags: [] }, 'InvalidContract')
    expect(await h.ok('app.progress', {})).toEqual([])
  })

  test('app.progress takes no arguments', async () => {
    await h.fails('app.progress', { call: 'x' }, 'InvalidRequest')
  })
})
