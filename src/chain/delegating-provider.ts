/**
 * A `ChainProvider` that hands every call to another one: the base of the wrappers that replace one
 * capability of a provider (submission through cardano-submit-api, a chain index through Kupo) and keep the rest,
 * optional capabilities included.
 */
import type { MarloweDeployment } from './deployments'
import type {
  ChainProvider,
  ChainTip,
  EraSummary,
  NetworkName,
  ProtocolParameters,
  RedeemerBudget,
  ScriptTxPage,
  ScriptTxQuery,
  TxOutRef,
  TxStatus,
  Utxo
} from './provider'

/** The chain index alone: what `withScriptIndex` adds to a provider. */
export interface ScriptIndex {
  scriptTransactions(query: ScriptTxQuery): Promise<ScriptTxPage>
}

export class DelegatingProvider implements ChainProvider {
  readonly network: NetworkName
  readonly networkId: 0 | 1
  readonly deployment?: MarloweDeployment
  readonly scriptTransactions?: (query: ScriptTxQuery) => Promise<ScriptTxPage>

  constructor(protected readonly inner: ChainProvider) {
    this.network = inner.network
    this.networkId = inner.networkId
    if (inner.deployment !== undefined) this.deployment = inner.deployment
    const index = inner.scriptTransactions
    if (index !== undefined) this.scriptTransactions = (query) => index.call(inner, query)
  }

  era(): Promise<string> {
    return this.inner.era()
  }

  protocolParameters(): Promise<ProtocolParameters> {
    return this.inner.protocolParameters()
  }

  eraSummaries(): Promise<readonly EraSummary[]> {
    return this.inner.eraSummaries()
  }

  tip(): Promise<ChainTip> {
    return this.inner.tip()
  }

  utxosAt(addresses: readonly string[]): Promise<Utxo[]> {
    return this.inner.utxosAt(addresses)
  }

  utxosByRef(refs: readonly TxOutRef[]): Promise<Utxo[]> {
    return this.inner.utxosByRef(refs)
  }

  evaluate(tx: Uint8Array, additionalUtxos?: readonly Utxo[]): Promise<RedeemerBudget[]> {
    return this.inner.evaluate(tx, additionalUtxos)
  }

  submit(tx: Uint8Array): Promise<string> {
    return this.inner.submit(tx)
  }

  txStatus(txId: string): Promise<TxStatus> {
    return this.inner.txStatus(txId)
  }
}

class IndexedProvider extends DelegatingProvider {
  override readonly scriptTransactions: (query: ScriptTxQuery) => Promise<ScriptTxPage>

  constructor(inner: ChainProvider, index: ScriptIndex) {
    super(inner)
    this.scriptTransactions = (query) => index.scriptTransactions(query)
  }
}

/** `inner` for everything but the chain index, which is `index`'s. */
export function withScriptIndex(inner: ChainProvider, index: ScriptIndex): ChainProvider {
  return new IndexedProvider(inner, index)
}
