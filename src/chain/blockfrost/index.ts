/** The Blockfrost adapter: a `ChainProvider` over Blockfrost's REST API, hosted or self-hosted. */
export { BLOCKFROST_URLS, BlockfrostProvider, type BlockfrostOptions } from './blockfrost-provider'
export { exchange, parseBody } from './http'
