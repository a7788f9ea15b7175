/** What every builder receives: the chain, its parameters this build, the scripts and the reservations. */
import type { MarloweDeployment } from '../../chain/deployments'
import type { ChainProvider, ProtocolParameters } from '../../chain/provider'
import type { BalanceDeps } from './balance'
import type { ReferenceScripts } from './scripts'

export interface BuildContext {
  readonly provider: ChainProvider
  readonly mainnet: boolean
  readonly pp: ProtocolParameters
  /** Current set first. */
  readonly scripts: readonly [MarloweDeployment, ...MarloweDeployment[]]
  readonly refScripts: ReferenceScripts
  readonly balance: BalanceDeps
  readonly safeZoneSlots: bigint
}
