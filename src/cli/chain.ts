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

export interface OpenChain {
  readonly provider: ChainProvider
  readonly network: NetworkName
  close(): Promise<void>
}

function defaultSandboxDir(): string {
  return join(process.env['MARLOWE_DESK_HOME'] ?? join(homedir(), '.marlowe-desk'), 'sandbox')
}

export async function openChain(
  command: string,
  network: string | undefined,
  data: string | undefined
): Promise<OpenChain> {
  const name = network ?? 'sandbox'
  if (name !== 'sandbox') {
    throw usageError(
      `${command}: --network ${name} is not available yet; only the embedded sandbox is (node adapters are in progress)`
    )
  }
  const provider = SandboxProvider.open({ dataDir: data ?? defaultSandboxDir(), clockTickMs: false })
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
