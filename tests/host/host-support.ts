/**
 * A desk host in a temp data directory, on a hand-moved sandbox clock and keystore time, called as both edges
 * call it (wire text through `handleDeskCall`); and a local Ogmios peer that serves preview.
 */
import { mkdtempSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import type { DeskResult } from '../../src/api/contract'
import { decodeWire, encodeWire } from '../../src/api/wire'
import type { ChainTuning } from '../../src/chain/open'
import { handleDeskCall } from '../../src/engine/desk'
import { DeskHost, type DeskHostOptions } from '../../src/host/host'
import { OgmiosPeer } from '../chain/ogmios/peer'
import { genesis } from '../chain/ogmios/fixtures'
import { ManualClock, T0 } from '../engine/build/support'
import { FAST_SCRYPT, ManualTime } from '../engine/keys/support'
import { wireCalls, type WireCalls } from '../engine/desk/support'

export const FAST_OGMIOS: ChainTuning = {
  ogmios: {
    requestTimeoutMs: 2000,
    connectTimeoutMs: 2000,
    reconnectDelayMs: 10,
    maxReconnectDelayMs: 100,
    heartbeatMs: false
  }
}

const open: { close(): Promise<void> }[] = []

afterEach(async () => {
  for (const x of open.splice(0)) await x.close()
})

export function dataDir(): string {
  return mkdtempSync(join(tmpdir(), 'marlowe-desk-host-'))
}

export interface HostHarness extends WireCalls {
  readonly host: DeskHost
  readonly time: ManualTime
}

/** Opens a host on `dir` (closed after the test). */
export async function openHost(dir: string, options: Partial<DeskHostOptions> = {}): Promise<HostHarness> {
  const clock = new ManualClock()
  const time = new ManualTime()
  const host = await DeskHost.open({
    dataDir: dir,
    version: '1.0.0-test',
    keystore: { scrypt: FAST_SCRYPT, clock: time.clock, schedule: time.schedule },
    service: { followEveryMs: false, now: clock.now },
    sandbox: { zeroTime: T0, clockTickMs: false, now: clock.now },
    chainTuning: FAST_OGMIOS,
    testTuning: FAST_OGMIOS,
    now: clock.now,
    ...options
  })
  open.unshift(host)
  async function raw(name: string, request: unknown): Promise<DeskResult<unknown>> {
    return decodeWire(await handleDeskCall(host.desk, name, encodeWire(request))) as DeskResult<unknown>
  }
  return { host, time, ...wireCalls(raw) }
}

/** An Ogmios peer serving preview (network magic 2), stopped after the test. */
export async function previewPeer(): Promise<OgmiosPeer> {
  const peer = await OgmiosPeer.start()
  peer.genesis = genesis(2n, 'testnet')
  open.push(peer)
  return peer
}

/** A port nothing listens on (taken and released at once). */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (typeof address !== 'object' || address === null) throw new Error('no port')
  return address.port
}
