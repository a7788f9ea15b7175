/**
 * The chain a CLI command talks to. Only the embedded sandbox exists so far; node adapters (Ogmios,
 * Blockfrost, cardano-submit-api) come with the service.
 */
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { ChainProvider, NetworkName } from '../chain/provider'
import { SandboxProvider } from '../chain/sandbox'
import type { ResolvedOutput, ReviewProtocolParameters, SlotEra } from '../core/cardano/review/types'
import { decodeTransaction } from '../core/cardano/tx'
import { usageError } from './errors'

export const chainOptions = { network: { type: 'string' }, data: { type: 'string' } } as const

/** The options of commands that can also talk to a real network through a node interface. */
export const serveChainOptions = {
  ...chainOptions,
  ogmios: { type: 'string' },
  blockfrost: { type: 'string' },
  'blockfrost-url': { type: 'string' },
  'submit-api': { type: 'string' }
} as const

export interface ChainChoice {
  readonly network?: string
  /** For the sandbox commands: the sandbox directory; for `serve`: the data directory holding it. */
  readonly data?: string
  readonly ogmios?: string
  readonly blockfrost?: string
  readonly 'blockfrost-url'?: string
  readonly 'submit-api'?: string
}

export interface OpenChain {
  readonly provider: ChainProvider
  readonly network: NetworkName
  close(): Promise<void>
}

/** Where Marlowe Desk keeps its files: $MARLOWE_DESK_HOME, else ~/.marlowe-desk. */
export function desktopHome(): string {
  return process.env['MARLOWE_DESK_HOME'] ?? join(homedir(), '.marlowe-desk')
}

/**
 * Opens the chain a command talks to. `follow`: the sandbox clock follows the wall clock (a long-running
 * server); otherwise it moves only when asked (one-shot commands), and `data` is the sandbox directory itself.
 */
export async function openChain(
  command: string,
  choice: ChainChoice,
  options: { readonly follow?: boolean } = {}
): Promise<OpenChain> {
  const name = choice.network ?? 'sandbox'
  if (name !== 'sandbox') {
    throw usageError(
      `${command}: --network ${name} is not available yet; only the embedded sandbox is (node adapters are in progress)`
    )
  }
  const follow = options.follow === true
  const dataDir = follow
    ? join(choice.data ?? desktopHome(), 'sandbox')
    : (choice.data ?? join(desktopHome(), 'sandbox'))
  const provider = SandboxProvider.open(follow ? { dataDir } : { dataDir, clockTickMs: false })
  return { provider, network: 'sandbox', close: () => provider.close() }
}

export interface BundleContext {
  readonly resolvedInputs: ResolvedOutput[]
  readonly eraSummaries: SlotEra[]
  readonly protocolParameters: ReviewProtocolParameters
  /** Out-refs the chain does not know (spent or never existed). */
  readonly missing: string[]
}

/** Everything an offline review of `tx` needs from the chain. */
export async function resolveForBundle(chain: OpenChain, tx: Uint8Array): Promise<BundleContext> {
  const { body } = decodeTransaction(tx)
  const refs = [...body.inputs, ...body.collateral, ...body.referenceInputs]
  const found = await chain.provider.utxosByRef(refs)
  const key = (r: { txId: string; index: number }): string => `${r.txId}#${r.index}`
  const known = new Set(found.map((u) => key(u.ref)))
  const params = await chain.provider.protocolParameters()
  return {
    resolvedInputs: found,
    eraSummaries: [...(await chain.provider.eraSummaries())],
    protocolParameters: {
      maxTxSize: params.maxTxSize,
      minFeeA: params.minFeeA,
      minFeeB: params.minFeeB,
      priceMem: params.priceMem,
      priceSteps: params.priceSteps,
      minFeeRefScriptCostPerByte: params.minFeeRefScriptCostPerByte,
      collateralPercentage: params.collateralPercentage,
      costModels: params.costModels
    },
    missing: refs.filter((r) => !known.has(key(r))).map(key)
  }
}
