/**
 * A `ChainProvider` that queries one service and submits through another, e.g. Blockfrost for reads with a
 * node's own cardano-submit-api for submissions.
 */
import type {
  ChainProvider,
  ChainTip,
  EraSummary,
  NetworkName,
  ProtocolParameters,
  RedeemerBudget,
  TxOutRef,
  TxStatus,
  Utxo
} from '../provider'

/** Anything that can put a transaction in a node's mempool: resolves with the tx id, rejects with a `ChainError`. */
export interface TxSubmitter {
  submit(tx: Uint8Array): Promise<string>
}

class SubmittingProvider implements ChainProvider {
  readonly network: NetworkName
  readonly networkId: 0 | 1

  constructor(
    private readonly query: ChainProvider,
    private readonly submitter: TxSubmitter
  ) {
    this.network = query.network
    this.networkId = query.networkId
  }

  era(): Promise<string> {
    return this.query.era()
  }

  protocolParameters(): Promise<ProtocolParameters> {
    return this.query.protocolParameters()
  }

  eraSummaries(): Promise<readonly EraSummary[]> {
    return this.query.eraSummaries()
  }

  tip(): Promise<ChainTip> {
    return this.query.tip()
  }

  utxosAt(addresses: readonly string[]): Promise<Utxo[]> {
    return this.query.utxosAt(addresses)
  }

  utxosByRef(refs: readonly TxOutRef[]): Promise<Utxo[]> {
    return this.query.utxosByRef(refs)
  }

  evaluate(tx: Uint8Array, additionalUtxos?: readonly Utxo[]): Promise<RedeemerBudget[]> {
    return this.query.evaluate(tx, additionalUtxos)
  }

  submit(tx: Uint8Array): Promise<string> {
    return this.submitter.submit(tx)
  }

  txStatus(txId: string): Promise<TxStatus> {
    return this.query.txStatus(txId)
  }
}

/** `query` for everything but `submit`, which goes to `submitter`. */
export function withSubmitter(query: ChainProvider, submitter: TxSubmitter): ChainProvider {
  return new SubmittingProvider(query, submitter)
}
