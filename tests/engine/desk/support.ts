/**
 * A desk over a sandbox on a hand-moved clock, a real SQLite file (or PostgreSQL database) and a real keystore
 * directory, called the way both edges call it: wire text through `handleDeskCall`. Every answer is kept, so a
 * test can scan all of them for secrets.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'vitest'
import type {
  DeskCall,
  DeskErrorBody,
  DeskRequest,
  DeskResponse,
  DeskResult,
  WalletSummary
} from '../../../src/api/contract'
import { decodeWire, encodeWire } from '../../../src/api/wire'
import { ChainError, type ChainProvider } from '../../../src/chain/provider'
import { SandboxProvider, sandboxWallet, type SandboxWalletName } from '../../../src/chain/sandbox'
import { CLOSE, type Contract } from '../../../src/core/marlowe/types'
import { createDesk, handleDeskCall, type DeskHandlers } from '../../../src/engine/desk'
import type { HardwareDevices } from '../../../src/engine/desk/device-calls'
import { Keystore } from '../../../src/engine/keys'
import { openService, type OpenService } from '../../../src/engine/service'
import { ManualClock, T0 } from '../build/support'
import { storeOption } from '../service/support'
import { FAST_SCRYPT, PASSWORD } from '../keys/support'
import { validatorsFromEnv } from '../../chain/support/sandbox'

export { PASSWORD } from '../keys/support'

/** Waits for a Notify until `n` days after T0, then closes (on the Notify, or at the deadline). */
export const notify = (n: bigint): Contract => ({
  type: 'When',
  cases: [{ type: 'Case', action: { type: 'Notify', observation: true }, then: CLOSE }],
  timeout: T0 + 86_400_000n * n,
  timeoutContinuation: CLOSE
})

export const VERSION = '9.8.7-test'

export interface DeskHarness extends WireCalls {
  readonly desk: DeskHandlers
  readonly opened: OpenService
  /** The service's SQLite file. */
  readonly databasePath: string
  /** The chain the desk runs on. */
  readonly provider: ChainProvider
  readonly keystore: Keystore
  readonly clock: ManualClock
  /** Every wire answer so far, in order. */
  readonly answers: string[]
  /** Unexpected errors the dispatcher logged. */
  readonly logged: unknown[]
  /** Any call, with any (even ill-typed) request, as decoded wire. */
  raw(name: string, request: unknown): Promise<DeskResult<unknown>>
  close(): Promise<void>
}

/** Calls, over a desk's wire, that must succeed or must fail. */
export interface WireCalls {
  /** A call that must succeed. */
  ok<C extends DeskCall>(name: C, request: DeskRequest<C>): Promise<DeskResponse<C>>
  /** A call that must fail with `code` and a sentence; returns the error body. */
  fails(name: DeskCall | string, request: unknown, code: string): Promise<DeskErrorBody>
}

export function wireCalls(raw: (name: string, request: unknown) => Promise<DeskResult<unknown>>): WireCalls {
  return {
    async ok(name, request) {
      const result = await raw(name, request)
      if (!result.ok) throw new Error(`${name} failed: ${result.error.code}: ${result.error.message}`)
      return result.value as DeskResponse<typeof name>
    },
    async fails(name, request, code) {
      const result = await raw(name, request)
      const shown = result.ok ? 'ok' : `${result.error.code}: ${result.error.message}`
      expect(result.ok, `${name} → ${shown}`).toBe(false)
      if (result.ok) throw new Error('unreachable')
      expect(result.error.code, `${name} → ${shown}`).toBe(code)
      expect(result.error.message, `${name} → ${shown}`).toMatch(/^[A-Z"][\s\S]*[.!?)\]}"]$/)
      return result.error
    }
  }
}

export async function deskHarness(
  options: {
    provider?: ChainProvider & { close(): Promise<void> }
    hardware?: HardwareDevices
    /** A PostgreSQL database to keep the service's records in, instead of the SQLite file. */
    storeUrl?: string
  } = {}
): Promise<DeskHarness> {
  const clock = new ManualClock()
  const dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-desk-'))
  const provider =
    options.provider ??
    SandboxProvider.open({ zeroTime: T0, clockTickMs: false, ...validatorsFromEnv(), now: clock.now })
  const databasePath = join(dir, 'service.sqlite')
  const opened = await openService({
    provider,
    ...(await storeOption(options.storeUrl, databasePath)),
    now: clock.now,
    followEveryMs: false
  })
  const keystore = await Keystore.open({ dir: join(dir, 'keys'), scrypt: FAST_SCRYPT })
  const desk = createDesk({
    service: opened.service,
    store: opened.store,
    keystore,
    version: VERSION,
    now: clock.now,
    ...(options.hardware === undefined ? {} : { hardware: options.hardware })
  })
  const answers: string[] = []
  const logged: unknown[] = []

  async function raw(name: string, request: unknown): Promise<DeskResult<unknown>> {
    const wire = typeof request === 'string' ? request : encodeWire(request)
    const answer = await handleDeskCall(desk, name, wire, { logError: (_call, e) => logged.push(e) })
    answers.push(answer)
    return decodeWire(answer) as DeskResult<unknown>
  }

  return {
    desk,
    opened,
    databasePath,
    provider,
    keystore,
    clock,
    answers,
    logged,
    raw,
    ...wireCalls(raw),
    async close() {
      keystore.lockAll()
      await opened.close()
      await provider.close()
    }
  }
}

/** Restores the sandbox's genesis wallet `name` into the harness's keystore, with PASSWORD. */
export function restoreSandboxWallet(h: DeskHarness, name: SandboxWalletName): Promise<WalletSummary> {
  return h.ok('wallets.restore', { name, password: PASSWORD, mnemonic: sandboxWallet(name).mnemonic })
}

/** A real network whose node cannot be reached. */
export function unreachableNode(): ChainProvider & { close(): Promise<void> } {
  const down = (): Promise<never> => Promise.reject(new ChainError('Unavailable', 'connection refused'))
  return {
    network: 'preprod',
    networkId: 0,
    era: down,
    protocolParameters: down,
    eraSummaries: down,
    tip: down,
    utxosAt: down,
    utxosByRef: down,
    evaluate: down,
    submit: down,
    txStatus: down,
    close: () => Promise.resolve()
  }
}
