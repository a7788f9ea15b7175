/** The outputs paying a transaction's payouts, as the apply builder writes them and the validator checks them. */
import type { MarloweDeployment } from '../../chain/deployments'
import { datumHash } from '../../core/marlowe/plutus/hash'
import { encodePayoutDatum } from '../../core/marlowe/plutus/marlowe-data'
import type { TransactionSuccess } from '../../core/marlowe/types'
import type { BuildContext } from './context'
import { withMinLovelace } from './min-utxo'
import type { PlannedOutput } from './plan'
import { scriptAddress } from './scripts'
import { payoutsByParty } from './validator-rules'

/** One output per paid party: to its address, or to the payout validator with datum (rolesCurrency, role). */
export function payoutOutputs(
  ctx: Pick<BuildContext, 'mainnet' | 'pp'>,
  scripts: MarloweDeployment,
  rolesCurrency: string,
  out: TransactionSuccess
): { readonly output: PlannedOutput; readonly role?: string }[] {
  const payoutAddress = scriptAddress(ctx.mainnet, scripts.payout.hash)
  return payoutsByParty(out.payments).map((p): { output: PlannedOutput; role?: string } => {
    if (p.party.type === 'Address') {
      const address = p.party.address
      return { output: { address, value: withMinLovelace(ctx.pp, { address, value: p.value }) } }
    }
    const datum = encodePayoutDatum({ rolesCurrency, role: p.party.role })
    const value = withMinLovelace(ctx.pp, {
      address: payoutAddress,
      value: p.value,
      datumHash: datumHash(datum)
    })
    return { output: { address: payoutAddress, value, datum }, role: p.party.role }
  })
}
