/**
 * Shelley addresses of key hashes: base (payment + stake key), enterprise (payment key only) and reward
 * (stake key). Mainnet has network id 1; every testnet, and the sandbox, has 0.
 */
import type { NetworkName } from '../../chain/provider'
import { CSL, withCsl, type CslScope } from '../../csl'

export function networkId(network: NetworkName): number {
  return network === 'mainnet' ? 1 : 0
}

export function baseAddress(network: NetworkName, paymentKeyHash: string, stakeKeyHash: string): string {
  return withCsl((scope) => {
    const payment = credential(scope, paymentKeyHash)
    const base = scope.own(CSL.BaseAddress.new(networkId(network), payment, credential(scope, stakeKeyHash)))
    return scope.own(base.to_address()).to_bech32(undefined)
  })
}

export function enterpriseAddress(network: NetworkName, paymentKeyHash: string): string {
  return withCsl((scope) => {
    const enterprise = scope.own(CSL.EnterpriseAddress.new(networkId(network), credential(scope, paymentKeyHash)))
    return scope.own(enterprise.to_address()).to_bech32(undefined)
  })
}

export function rewardAddress(network: NetworkName, stakeKeyHash: string): string {
  return withCsl((scope) => {
    const reward = scope.own(CSL.RewardAddress.new(networkId(network), credential(scope, stakeKeyHash)))
    return scope.own(reward.to_address()).to_bech32(undefined)
  })
}

function credential(scope: CslScope, keyHash: string): CSL.Credential {
  return scope.own(CSL.Credential.from_keyhash(scope.own(CSL.Ed25519KeyHash.from_hex(keyHash))))
}
