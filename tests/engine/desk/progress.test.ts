/**
 * `app.progress`: a long call publishes its stage while it waits on the chain (here a sandbox whose reads and
 * submissions are held until the test lets them go), and the activity disappears once the call is done.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { DeskCall, ProgressReport, WalletSummary } from '../../../src/api/contract'
import { sandboxWallet, SandboxProvider } from '../../../src/chain/sandbox'
import { stringifyContract } from '../../../src/core/marlowe/json'
import { CLOSE } from '../../../src/core/marlowe/types'
import { T0 } from '../build/support'
import { deskHarness, PASSWORD, type DeskHarness } from './support'

/** Holds `utxosAt` and `submit` while `hold` is set, until `release()`. */
class HeldSandbox {
  private gate: Promise<void> | undefined
  private open = (): void => undefined

  constructor(readonly provider: SandboxProvider) {
    const utxosAt = provider.utxosAt.bind(provider)
    const submit = provider.submit.bind(provider)
    provider.utxosAt = async (addresses) => (await this.gate, utxosAt(addresses))
    provider.submit = async (tx) => (await this.gate, submit(tx))
  }

  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve))
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
  alice = await h.ok('wallets.restore', {
    name: 'alice',
    password: PASSWORD,
    mnemonic: sandboxWallet('alice').mnemonic
  })
  await h.ok('sandbox.fund', { walletId: alice.id, ada: 100n })
})
afterAll(() => h.close())

/** Polls `app.progress` (as the renderer does) until `call` shows up at `stage`. */
async function reportAt(call: DeskCall, stage: string): Promise<ProgressReport> {
  for (let i = 0; i < 400; i += 1) {
    const found = (await h.ok('app.progress', {})).find((r) => r.call === call && r.stage === stage)
    if (found !== undefined) return found
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  throw new Error(`${call} never showed "${stage}" in app.progress`)
}

describe('app.progress', () => {
  test('nothing is in flight at rest', async () => {
    expect(await h.ok('app.progress', {})).toEqual([])
  })

  test('a build shows its stage while the wallet outputs are read, and nothing once it is done', async () => {
    held.hold()
    const building = h.ok('contracts.create', {
      walletId: alice.id,
      contractJson: stringifyContract(CLOSE),
      roles: [],
      tags: []
    })
    const report = await reportAt('contracts.create', 'Building the transaction')
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
    held.hold()
    const submitting = h.ok('tx.signAndSubmit', { txId: built.txId, walletId: alice.id, password: PASSWORD })
    const during = await reportAt('tx.signAndSubmit', 'Submitting to the node')
    expect(during).toMatchObject({ step: 5, steps: 5 })
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
