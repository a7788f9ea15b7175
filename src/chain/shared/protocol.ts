/** What a shared chain answers over HTTP: the ChainProvider calls a replica may make, and nothing else. */
export const SHARED_CHAIN_CALLS = [
  'era',
  'protocolParameters',
  'eraSummaries',
  'tip',
  'utxosAt',
  'utxosByRef',
  'evaluate',
  'submit',
  'txStatus',
  'scriptTransactions'
] as const

export type SharedChainCall = (typeof SHARED_CHAIN_CALLS)[number]

export function isSharedChainCall(name: string): name is SharedChainCall {
  return (SHARED_CHAIN_CALLS as readonly string[]).includes(name)
}

/** GET /describe: who the chain is. */
export const DESCRIBE_PATH = '/describe'
