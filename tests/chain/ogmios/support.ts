/** Providers on the local peer with test-sized timings, closed after each test. */
import { afterEach } from 'vitest'
import { OgmiosProvider, type OgmiosProviderOptions } from '../../../src/chain/ogmios'
import { OgmiosPeer } from './peer'

type Options = Partial<Omit<OgmiosProviderOptions, 'url'>>

const open: { close(): Promise<void> }[] = []

afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()))
})

export async function startPeer(): Promise<OgmiosPeer> {
  const peer = await OgmiosPeer.start()
  open.push(peer)
  return peer
}

/** A provider on `peer` (preprod, like the peer's genesis) that reconnects within milliseconds. */
export async function connect(peer: OgmiosPeer, options: Options = {}): Promise<OgmiosProvider> {
  const provider = await OgmiosProvider.connect({
    url: peer.url,
    network: 'preprod',
    requestTimeoutMs: 2000,
    reconnectDelayMs: 10,
    maxReconnectDelayMs: 100,
    heartbeatMs: false,
    ...options
  })
  open.unshift(provider)
  return provider
}

/** The rejection of `promise`, which must reject. */
export async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a failure, got ${String(value)}`)
    },
    (e: unknown) => e
  )
}
