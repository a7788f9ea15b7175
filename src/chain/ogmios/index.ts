/**
 * # The Ogmios adapter
 *
 * `OgmiosProvider` implements `ChainProvider` on a cardano-node through Ogmios v6 (JSON-RPC 2.0 over a
 * WebSocket), with every number read losslessly (quantities above 2^53 stay exact).
 *
 * | `ChainProvider` | Ogmios v6 |
 * |---|---|
 * | `protocolParameters` | `queryLedgerState/protocolParameters` |
 * | `eraSummaries` | `queryLedgerState/eraSummaries` + `queryNetwork/startTime` (times made POSIX ms) |
 * | `era` | the number of era summaries (Ogmios has no era query) |
 * | `tip` | `queryNetwork/tip` + `queryNetwork/blockHeight` (re-read until consistent) |
 * | `utxosAt`, `utxosByRef` | `queryLedgerState/utxo` by `addresses` / `outputReferences` |
 * | `evaluate` | `evaluateTransaction` with `additionalUtxo` |
 * | `submit` | `submitTransaction` |
 * | `txStatus` | a chain-sync follower (`findIntersection`, `nextBlock`) + the mempool monitor |
 *
 * Errors: the ledger's rejections are `Rejected` with the node's words (`details.code` is Ogmios' code, e.g.
 * 3005 era mismatch, 31xx ledger rules); failing or unrunnable scripts are `EvaluationFailed`; no connection,
 * a dropped connection or a missed deadline is `Unavailable`; an answer we cannot read is `BadResponse`.
 * Connections come back by themselves (exponential back-off); a call made while disconnected tries at once.
 *
 * Limits: `txStatus` knows confirmations only from blocks seen since connecting (the last `followBlocks` of
 * them); an older transaction is `unknown` (query its outputs with `utxosByRef` instead). UTxO queries by
 * address scan the node's whole UTxO set: slow on mainnet, where an indexer (Kupo) is the usual companion.
 * Without Kupo there is no chain index (`scriptTransactions`); with it, see ../kupo.
 *
 * `OgmiosBlockReader` reads chosen blocks whole through chain sync, for the Kupo index.
 */
export { OgmiosBlockReader, type BlockRef, type ReadBlock, type ReadTx } from './block-reader'
export { NETWORK_MAGIC, OgmiosProvider, rpcClientOptions, type OgmiosProviderOptions } from './ogmios-provider'
