/**
 * The offline round trip by animated QR codes through the desk API (issue 16 §2): the online desk shows a
 * build's review bundle as frames, the offline desk scans them (missing some) into the same bundle and
 * reviews it, signs, and its witness comes back as one frame that the online desk scans and submits.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { QrScanState, QrSequence, WalletSummary } from '../../../src/api/contract'
import { stringifyContract } from '../../../src/core/marlowe/json'
import { CLOSE } from '../../../src/core/marlowe/types'
import { T0 } from '../build/support'
import { deskHarness, restoreSandboxWallet, PASSWORD, type DeskHarness } from './support'

let h: DeskHarness
let alice: WalletSummary

beforeAll(async () => {
  h = await deskHarness()
  alice = await restoreSandboxWallet(h, 'alice')
})
afterAll(() => h.close())

/** Feeds the looping frames to a scan until it is whole, as a camera would: missing every fourth one. */
async function scanAll(scanId: string, sequence: QrSequence): Promise<QrScanState> {
  const { parts } = sequence
  let state: QrScanState | undefined
  for (let i = 0; i < 3 * parts.length && state?.payload === undefined; i++) {
    if (parts.length > 1 && i % 4 === 1) continue
    state = await h.ok('qr.scan', { scanId, part: parts[i % parts.length]! })
  }
  if (state?.payload === undefined)
    throw new Error(`the scan did not complete: ${JSON.stringify(state)} of ${parts.length}`)
  return state
}

async function build(): Promise<string> {
  const contract = { type: 'When' as const, cases: [], timeout: T0 + 3_600_000n, timeoutContinuation: CLOSE }
  const built = await h.ok('contracts.create', {
    walletId: alice.id,
    contractJson: stringifyContract(contract),
    roles: [],
    tags: []
  })
  return built.txId
}

describe('qr.encode and qr.scan', () => {
  test('bundle out, witness back: scanned, reviewed, signed, submitted and confirmed', async () => {
    const txId = await build()
    const bundle = await h.ok('tx.exportBundle', { txId })
    const frames = await h.ok('qr.encode', { kind: 'bundle', txId, text: bundle.text })
    expect(frames.fragments).toBeGreaterThan(1)

    const scanned = await scanAll('offline-1', frames)
    expect(scanned).toMatchObject({ percent: 100, kind: 'bundle', payload: { kind: 'bundle', txId } })
    expect(scanned.payload?.text).toBe(bundle.text)
    const imported = await h.ok('tx.import', { text: scanned.payload!.text })
    expect(imported.review.inputs.every((i) => i.resolved)).toBe(true)

    const witness = await h.ok('tx.signOffline', {
      text: scanned.payload!.text,
      walletId: alice.id,
      password: PASSWORD
    })
    const back = await h.ok('qr.encode', { kind: 'witness', txId, text: witness.text })
    expect(back.parts).toHaveLength(1)
    const returned = await scanAll('online-1', back)
    expect(returned.payload).toEqual({ kind: 'witness', txId, text: witness.text })

    expect((await h.ok('tx.submitWitness', { txId, text: returned.payload!.text })).status).toBe('submitted')
    await h.opened.follower.sync()
    expect((await h.ok('tx.status', { txId })).status).toBe('confirmed')
  })

  test("another sequence's frame is refused mid-scan, and the scan then completes", async () => {
    const [first, second] = [await build(), await build()]
    const one = await h.ok('qr.encode', {
      kind: 'bundle',
      txId: first,
      text: (await h.ok('tx.exportBundle', { txId: first })).text
    })
    const other = await h.ok('qr.encode', {
      kind: 'bundle',
      txId: second,
      text: (await h.ok('tx.exportBundle', { txId: second })).text
    })
    const progress = await h.ok('qr.scan', { scanId: 'mixed', part: one.parts[0]! })
    expect(progress).toEqual({ received: 1, expected: one.fragments, percent: expect.any(Number), kind: 'bundle' })
    await h.fails('qr.scan', { scanId: 'mixed', part: other.parts[0]! }, 'QrOtherSequence')
    expect((await scanAll('mixed', one)).payload?.txId).toBe(first)
  })

  test('bad input: a file that is not what it says, a QR code that is not ours, a bad scan id', async () => {
    const txId = await build()
    const bundle = await h.ok('tx.exportBundle', { txId })
    const wrong = await h.fails(
      'qr.encode',
      { kind: 'bundle', txId: 'ab'.repeat(32), text: bundle.text },
      'QrPayloadInvalid'
    )
    expect(wrong.message).toBe(`The review bundle is for transaction ${txId}, not ${'ab'.repeat(32)}.`)
    await h.fails('qr.encode', { kind: 'witness', txId, text: bundle.text }, 'InvalidWitness')
    await h.fails('qr.scan', { scanId: 'junk', part: 'WIFI:S:home;;' }, 'QrNotOurs')
    await h.fails('qr.scan', { scanId: '../x', part: 'UR:X/Y' }, 'InvalidRequest')
    expect(h.logged).toEqual([])
  })
})
