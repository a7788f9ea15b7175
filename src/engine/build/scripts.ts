/**
 * The published validators a build spends through: their reference-script UTxOs (read once, hash checked)
 * and their addresses.
 */
import type { ChainProvider, TxOutRef } from '../../chain/provider'
import { formatShelleyAddress, type Credential } from '../../core/cardano/address'
import { CSL, withCsl } from '../../csl'
import { engineFailure } from './build-errors'
import { formatRef } from '../../core/cardano/refs'
import type { DeployedScript } from '../../chain/deployments'

/** A Plutus V2 script spent through a reference input. */
export interface RefScript {
  readonly hash: string
  readonly ref: TxOutRef
  /** Script size as the reference-script fee counts it. */
  readonly size: number
}

export class ReferenceScripts {
  private readonly resolved = new Map<string, Promise<RefScript>>()

  constructor(private readonly provider: ChainProvider) {}

  /** Resolves a deployment, failing with `code` (Runtime's `MarloweScriptNotPublished`, …) when it is absent. */
  get(deployment: DeployedScript, code: string): Promise<RefScript> {
    const key = `${deployment.hash}@${formatRef(deployment.reference)}`
    let found = this.resolved.get(key)
    if (found === undefined) {
      found = this.load(deployment, code)
      this.resolved.set(key, found)
      found.catch(() => this.resolved.delete(key))
    }
    return found
  }

  private async load(deployment: DeployedScript, code: string): Promise<RefScript> {
    const [utxo] = await this.provider.utxosByRef([deployment.reference])
    const script = utxo?.scriptRef
    if (script === undefined || script.language !== 'PlutusV2') {
      throw engineFailure('Internal', code, `No Plutus V2 reference script at ${formatRef(deployment.reference)}`, {
        scriptHash: deployment.hash
      })
    }
    const { hash, size } = withCsl((scope) => {
      const s = scope.own(CSL.PlutusScript.new_v2(script.bytes))
      return { hash: scope.own(s.hash()).to_hex(), size: s.bytes().length }
    })
    if (hash !== deployment.hash) {
      throw engineFailure('Internal', code, `The script at ${formatRef(deployment.reference)} has hash ${hash}`, {
        scriptHash: deployment.hash
      })
    }
    return { hash, ref: deployment.reference, size }
  }
}

export function scriptAddress(mainnet: boolean, hash: string, stake?: Credential): string {
  const payment: Credential = { type: 'script', hash }
  return formatShelleyAddress(stake === undefined ? { mainnet, payment } : { mainnet, payment, stake })
}
