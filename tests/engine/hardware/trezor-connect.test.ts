/**
 * Trezor Connect as the engine sets it up, through its own BridgeTransport to a Trezor Bridge double on
 * 127.0.0.1 and, behind it, a Model T double speaking Trezor's protobuf messages: the account key read, and the
 * states a device can be in before it signs. Every request leaving the machine is refused, so Connect is shown
 * to work offline (its firmware release data comes from the copy it bundles).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex } from '../../../src/core/bytes'
import { TrezorConnection } from '../../../src/engine/hardware/trezor-connect'
import { readTrezorAccount } from '../../../src/engine/hardware/trezor-device'
import { failure } from '../build/support'
import { CAROL_ACCOUNT } from './support'
import { BridgeDouble } from './trezor-double/bridge'
import { TrezorModelT } from './trezor-double/firmware'

let bridge: BridgeDouble
let connection: TrezorConnection
const outside: string[] = []
const realFetch = globalThis.fetch

beforeAll(async () => {
  globalThis.fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    if (new URL(url).hostname === '127.0.0.1') return realFetch(input, init)
    outside.push(url)
    throw new TypeError('fetch failed: this test refuses requests leaving the machine')
  }
  bridge = await BridgeDouble.start()
  connection = new TrezorConnection([bridge.transport()])
})
afterAll(async () => {
  await connection.dispose()
  await bridge.close()
  globalThis.fetch = realFetch
})

const session = async () => ({ connect: await connection.open(), timeoutMs: 60_000 })

describe('Trezor Connect through Bridge', () => {
  it('reads the account key: Initialize (Cardano derivation), the session address, CardanoGetPublicKey', async () => {
    bridge.plug(new TrezorModelT())
    const key = await readTrezorAccount(await session(), 0)
    expect(bytesToHex(key)).toBe(bytesToHex(CAROL_ACCOUNT.xvk))
    expect(bridge.received).toEqual(expect.arrayContaining(['GetFeatures', 'Initialize', 'CardanoGetPublicKey']))
    expect(bridge.received.at(-1)).toBe('CardanoGetPublicKey')
  })

  it('needs no network: the release data it tried to fetch was refused, and it checked firmware 2.9.1 offline', () => {
    expect(outside).toEqual(['https://data.trezor.io/firmware/config/releases.v1.json'])
  })

  it('no device behind Bridge: HardwareWalletNotFound, without waiting for one', async () => {
    await bridge.plugSeen(undefined)
    const e = await failure(readTrezorAccount(await session(), 0))
    expect(e.code).toBe('HardwareWalletNotFound')
    expect(e.message).toContain('No Trezor was found')
  })

  it('locked: the PIN, asked on the device at the first call needing the seed and cancelled there, is HardwareWalletLocked', async () => {
    await bridge.plugSeen(new TrezorModelT({ locked: true }))
    const e = await failure(readTrezorAccount(await session(), 0))
    expect(e.code).toBe('HardwareWalletLocked')
    expect(bridge.received.slice(-2)).toEqual(['GetAddress', 'ButtonAck'])
  })

  it('passphrase protection: Desk has the passphrase typed on the device, and reads the key of that wallet', async () => {
    await bridge.plugSeen(new TrezorModelT({ passphrase: true }))
    const from = bridge.received.length
    const key = await readTrezorAccount(await session(), 0)
    expect(bytesToHex(key)).toBe(bytesToHex(CAROL_ACCOUNT.xvk))
    expect(bridge.received.slice(from)).toEqual(expect.arrayContaining(['GetAddress', 'PassphraseAck']))
  })

  it('a request nobody confirms: HardwareWalletTimeout, cancelled on the device; Connect serves the next call', async () => {
    await bridge.plugSeen(new TrezorModelT({ neverConfirms: true }))
    const e = await failure(readTrezorAccount({ connect: await connection.open(), timeoutMs: 2_000 }, 0))
    expect(e.code).toBe('HardwareWalletTimeout')
    await expect.poll(() => bridge.received.at(-1)).toBe('Cancel')
    expect(bridge.received.slice(-3)).toEqual(['CardanoGetPublicKey', 'ButtonAck', 'Cancel'])
    await bridge.plugSeen(new TrezorModelT())
    expect(bytesToHex(await readTrezorAccount(await session(), 0))).toBe(bytesToHex(CAROL_ACCOUNT.xvk))
  })

  it('two Trezors connected: the call stops asking to keep only one, instead of waiting for a choice', async () => {
    await bridge.plugSeen(new TrezorModelT())
    await bridge.plugSeen(new TrezorModelT(), true)
    const e = await failure(readTrezorAccount(await session(), 0))
    expect(e).toMatchObject({
      code: 'HardwareWalletFailed',
      message: 'Trezor answered: more than one Trezor is connected: keep only the one to use'
    })
    await bridge.plugSeen(new TrezorModelT())
    expect(bytesToHex(await readTrezorAccount(await session(), 0))).toBe(bytesToHex(CAROL_ACCOUNT.xvk))
  })

  it('another account than the device double holds: the device’s refusal, as Trezor said it', async () => {
    await bridge.plugSeen(new TrezorModelT())
    const e = await failure(readTrezorAccount(await session(), 1))
    expect(e).toMatchObject({
      code: 'HardwareWalletFailed',
      message: 'Trezor answered: this double holds account 0 only'
    })
  })
})

describe("Connect's own transports on this machine", () => {
  it('no Trezor Bridge and no Trezor on USB (the real node-usb): HardwareWalletNotFound', async () => {
    await connection.dispose()
    const usb = new TrezorConnection()
    try {
      const e = await failure(readTrezorAccount({ connect: await usb.open(), timeoutMs: 60_000 }, 0))
      expect(e.code).toBe('HardwareWalletNotFound')
    } finally {
      await usb.dispose()
    }
  })
})
