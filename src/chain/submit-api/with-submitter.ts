/**
 * A `ChainProvider` that queries one service and submits through another, e.g. Blockfrost for reads with a
 * node's own cardano-submit-api for submissions.
 */
import { DelegatingProvider } from '../delegating-provider'
import type { ChainProvider } from '../provider'

/** Anything that can put a transaction in a node's mempool: resolves with the tx id, rejects with a `ChainError`. */
export interface TxSubmitter {
  submit(tx: Uint8Array): Promise<string>
}

class SubmittingProvider extends DelegatingProvider {
  constructor(
    query: ChainProvider,
    private readonly submitter: TxSubmitter
  ) {
    super(query)
  }

  override submit(tx: Uint8Array): Promise<string> {
    return this.submitter.submit(tx)
  }
}

/** `query` for everything but `submit`, which goes to `submitter`. */
export function withSubmitter(query: ChainProvider, submitter: TxSubmitter): ChainProvider {
  return new SubmittingProvider(query, submitter)
}
