import { afterEach, describe, expect, test, vi } from 'vitest'
import { SandboxProvider, sandboxWallet, signWithSandboxWallets } from '../../../src/chain/sandbox'
import type { ChainTip } from '../../../src/chain/provider'
import { adaUtxos, ManualClock, openSandbox, T0 } from '../support/sandbox'
import { ADA, buildTx } from '../support/txkit'

const alice = sandboxWallet('alice')
const bob = sandboxWallet('bob')

let sandbox: SandboxProvider
afterEach(async () => {
  vi.useRealTimers()
  await sandbox.close()
})

async function paymentValidIn(validFrom: bigint | undefined, ttl: bigint | undefined): Promise<Uint8Array> {
  const [funds] = await adaUtxos(sandbox, alice.address)
  const tx = buildTx({
    params: await sandbox.protocolParameters(),
    inputs: [funds!],
    changeAddress: alice.address,
    outputs: [{ address: bob.address, lovelace: 5n * ADA }],
    ...(validFrom === undefined ? {} : { validFrom }),
    ...(ttl === undefined ? {} : { ttl })
  })
  return signWithSandboxWallets(tx, [alice])
}

describe('sandbox time', () => {
  test('slot 0 starts at zeroTime, one slot a second, as the era summary says', async () => {
    const clock = new ManualClock(T0 + 1_500n)
    ;({ sandbox } = openSandbox(clock))
    expect(await sandbox.eraSummaries()).toEqual([{ start: { slot: 0n, time: T0 }, slotLength: 1000n }])
    expect((await sandbox.tip()).slot).toBe(1n)
    expect(sandbox.slotToTime(42n)).toBe(T0 + 42_000n)
  })

  test('the clock follows the wall clock and never goes back', async () => {
    const clock = new ManualClock()
    ;({ sandbox } = openSandbox(clock))
    clock.tick(10n)
    expect((await sandbox.tip()).slot).toBe(11n)
    clock.ms -= 5_000n
    expect((await sandbox.tip()).slot).toBe(11n)
  })

  test('advanceTo and advanceSlots jump ahead, and the clock keeps running from there', async () => {
    const clock = new ManualClock()
    ;({ sandbox } = openSandbox(clock))
    const anHourLater = T0 + 3_600_000n + 1n

    expect((await sandbox.advanceTo(anHourLater)).slot).toBe(3601n)
    expect((await sandbox.advanceTo(T0)).slot).toBe(3601n)
    clock.tick(5n)
    expect((await sandbox.tip()).slot).toBe(3606n)
    expect((await sandbox.advanceSlots(100n)).slot).toBe(3706n)
  })

  test('validity intervals are checked against the sandbox clock', async () => {
    ;({ sandbox } = openSandbox())
    const now = (await sandbox.tip()).slot
    const expiring = await paymentValidIn(undefined, now + 10n)
    const notYet = await paymentValidIn(now + 100n, now + 200n)

    await sandbox.advanceSlots(20n)

    await expect(sandbox.submit(expiring)).rejects.toMatchObject({
      kind: 'Rejected',
      reason: `Validity interval (-Infinity to ${now + 10n}) is outside the slot range (${now + 20n}).`
    })
    await expect(sandbox.submit(notYet)).rejects.toMatchObject({
      kind: 'Rejected',
      reason: expect.stringMatching(/^Validity interval/)
    })
    await sandbox.advanceSlots(100n)
    await expect(sandbox.submit(notYet)).resolves.toMatch(/^[0-9a-f]{64}$/)
  })

  test('the timer moves the clock and tells listeners; once stopped it does not', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    const clock = new ManualClock()
    sandbox = SandboxProvider.open({ zeroTime: T0, now: clock.now, clockTickMs: 1000 })
    const seen: ChainTip[] = []
    sandbox.onTip((tip) => seen.push(tip))

    clock.tick(3n)
    await vi.advanceTimersByTimeAsync(1000)
    expect(seen.map((t) => t.slot)).toEqual([4n])

    sandbox.stopClock()
    clock.tick(3n)
    await vi.advanceTimersByTimeAsync(5000)
    expect(seen.map((t) => t.slot)).toEqual([4n])
  })
})
