/**
 * The desk: every call of the API contract (src/api/contract.ts) implemented on the engine — the service's
 * operations, the keystore, the chain, reviews and signing — for the desktop window and the browser UI alike.
 */
import { SandboxProvider } from '../../chain/sandbox'
import { contractCalls } from './contract-calls'
import { DeskContext, type DeskOptions } from './context'
import { deviceCalls, USB_DEVICES } from './device-calls'
import { deskFailure } from './errors'
import { keystoneCalls } from './keystone-calls'
import type { DeskHandlers, HandlersOf, SettingsCall } from './handlers'
import { qrCalls } from './qr-calls'
import { txCalls } from './tx-calls'
import { walletCalls } from './wallet-calls'

export interface CreateDeskOptions extends Omit<DeskOptions, 'sandbox'> {
  /** The host's `settings.*` (src/host/host.ts); without a host they are refused. */
  readonly settings?: HandlersOf<SettingsCall>
}

const unavailable = async (): Promise<never> => {
  throw deskFailure('BadRequest', 'SettingsUnavailable', 'the settings cannot be changed from here')
}

const NO_SETTINGS: HandlersOf<SettingsCall> = {
  'settings.get': unavailable,
  'settings.update': unavailable,
  'settings.testConnection': unavailable
}

export function createDesk(options: CreateDeskOptions): DeskHandlers {
  const { settings = NO_SETTINGS, ...rest } = options
  const provider = rest.service.provider
  // The faucet and the clock are the sandbox's own; on a real network `sandbox.*` is refused.
  const ctx = new DeskContext({ ...rest, ...(provider instanceof SandboxProvider ? { sandbox: provider } : {}) })
  return Object.freeze({
    ...walletCalls(ctx),
    ...contractCalls(ctx),
    ...txCalls(ctx),
    ...deviceCalls(ctx, rest.hardware ?? USB_DEVICES),
    ...keystoneCalls(ctx),
    ...qrCalls(),
    ...settings,
    'app.progress': async () => ctx.progress.list()
  })
}
