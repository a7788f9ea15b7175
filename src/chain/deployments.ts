/**
 * Where the Marlowe scripts live on each network: the script hashes and reference-script UTxOs of the script
 * set Marlowe Runtime uses for new contracts, and the sandbox's stand-ins. A sandbox given other validators
 * carries its own deployment (`ChainProvider.deployment`): read it with `deploymentOf(provider)`.
 *
 * mainnet, preprod, preview: Runtime's `caseAsDataV1Scripts` (runtime 1.0.0 on, Plutus V2; hashes in the core table
 * src/core/cardano/review/marlowe-scripts.ts, which the review reads too), from
 * marlowe-runtime `marlowe-runtime/src/Language/Marlowe/Runtime/Core/ScriptRegistry.hs` as summarised in
 * shared/spec/runtime-api.md §11. The payout script sits at output #2 of the transaction whose output #1 holds
 * the semantics script. Older script sets (contracts created before runtime 1.0.0) are not listed.
 *
 * The role-token minting policy has no entry: it is parameterised by each contract's seed UTxO and tokens, so
 * every contract has its own, made by the engine on every network (src/engine/build/role-token-policy/).
 */
import { formatShelleyAddress, type Credential } from '../core/cardano/address'
import { MARLOWE_VALIDATOR_HASHES } from '../core/cardano/review'
import type { ChainProvider, NetworkName, TxOutRef } from './provider'
import { SANDBOX_REFERENCE_SCRIPTS, sandboxDeployment } from './sandbox'

export interface DeployedScript {
  /** Script hash, 28 bytes as lowercase hex. */
  readonly hash: string
  /** The UTxO holding the script as a reference script. */
  readonly reference: TxOutRef
}

export interface MarloweDeployment {
  readonly network: NetworkName
  /** The semantics (Marlowe) validator. */
  readonly semantics: DeployedScript
  readonly payout: DeployedScript
  readonly openRole: DeployedScript
  /** True on a sandbox running always-succeeding stand-ins, not given validators. */
  readonly standIn: boolean
}

function runtimeDeployment(
  network: Exclude<NetworkName, 'sandbox'>,
  scriptsTx: string,
  openRoleTx: string
): MarloweDeployment {
  const hashes = MARLOWE_VALIDATOR_HASHES[network]
  return Object.freeze({
    network,
    semantics: { hash: hashes.semantics, reference: { txId: scriptsTx, index: 1 } },
    payout: { hash: hashes.payout, reference: { txId: scriptsTx, index: 2 } },
    openRole: { hash: hashes.openRole, reference: { txId: openRoleTx, index: 1 } },
    standIn: false
  })
}

export const MARLOWE_DEPLOYMENTS: Readonly<Record<NetworkName, MarloweDeployment>> = Object.freeze({
  // runtime-api.md §11, row "mainnet"
  mainnet: runtimeDeployment(
    'mainnet',
    '9e2f6031d9bd6ff1d08f38ff469657b8dac63ab78854a1fccca6b922292d0fce',
    '71ac89e01f9b48ec9c388555f7b1d3ed8195d3013e47de6e0d64084311d9129e'
  ),
  // runtime-api.md §11, row "preprod (1)"
  preprod: runtimeDeployment(
    'preprod',
    '9679fc6b0bb0d3d5e1fb09a4be589707553caefe6028bd726c8421066ec6bff7',
    'e3f2fc0da8eed52092eb909848365ab534177aea8321432f50e553848a7911c4'
  ),
  // runtime-api.md §11, row "preview (2)"
  preview: runtimeDeployment(
    'preview',
    '63e44f2ab9304e6d16aeceda07493d5ceb88e7f2d5e147dd208ef5edf3fbb436',
    '4d1143205fd42dbc1d0c52a128bd6bad30d72ba49e15f80eb6b5bee803ca2cdc'
  ),
  // Computed: the stand-ins of ./sandbox/stand-ins.ts at the genesis outputs of ./sandbox/reference-scripts.ts.
  sandbox: sandboxDeployment(SANDBOX_REFERENCE_SCRIPTS, true)
})

/** The network's published deployment (for the sandbox: the stand-ins'; see `deploymentOf`). */
export function marloweDeployment(network: NetworkName): MarloweDeployment {
  return MARLOWE_DEPLOYMENTS[network]
}

/** The Marlowe scripts the provider's chain runs: its own deployment if it carries one, else its network's. */
export function deploymentOf(provider: Pick<ChainProvider, 'network' | 'deployment'>): MarloweDeployment {
  return provider.deployment ?? MARLOWE_DEPLOYMENTS[provider.network]
}

type DeploymentChoice = NetworkName | MarloweDeployment

const chosen = (choice: DeploymentChoice): MarloweDeployment =>
  typeof choice === 'string' ? MARLOWE_DEPLOYMENTS[choice] : choice

const isMainnet = (network: NetworkName): boolean => network === 'mainnet'

/** The payout validator's address: its script hash as payment credential, no stake credential. */
export function payoutValidatorAddress(choice: DeploymentChoice): string {
  const { network, payout } = chosen(choice)
  return formatShelleyAddress({ mainnet: isMainnet(network), payment: { type: 'script', hash: payout.hash } })
}

/** The semantics validator's address, with the stake credential contracts delegate to, if any. */
export function semanticsValidatorAddress(choice: DeploymentChoice, stake?: Credential): string {
  const { network, semantics } = chosen(choice)
  const payment: Credential = { type: 'script', hash: semantics.hash }
  return formatShelleyAddress(
    stake === undefined ? { mainnet: isMainnet(network), payment } : { mainnet: isMainnet(network), payment, stake }
  )
}
