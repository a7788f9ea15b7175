/**
 * The desk: every call of the API contract (src/api/contract.ts) implemented on the engine — the service's
 * operations, the keystore, the chain, reviews and signing — for the desktop window and the browser UI alike.
 */
import { SandboxProvider } from '../../chain/sandbox'
import { contractCalls } from './contract-calls'
import { DeskContext, type DeskOptions } from './context'
import type { DeskHandlers } from './handlers'
import { txCalls } from './tx-calls'
import { walletCalls } from './wallet-calls'

export type CreateDeskOptions = Omit<DeskOptions, 'sandbox'>

export function createDesk(options: CreateDeskOptions): DeskHandlers {
  const provider = options.service.provider
  // The faucet and the clock are the sandbox's own; on a real network `sandbox.*` is refused.
  const ctx = new DeskContext({ ...options, ...(provider instanceof SandboxProvider ? { sandbox: provider } : {}) })
  return Object.freeze({ ...walletCalls(ctx), ...contractCalls(ctx), ...txCalls(ctx) })
}
