export { shareChain, type SharedChain } from './chain-server'
export { SharedChainProvider } from './shared-chain-provider'
