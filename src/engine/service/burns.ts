/**
 * What a role-token burn takes (runtime-api.md §3.13, Runtime's `Burn.hs`): of the tokens the wallet holds, those
 * whose policy is the roles currency of a contract on chain, the filter evaluated per (contract, token). Tokens
 * of a policy some open contract has are refused; each policy is burned with the script its create tx carried.
 */
import type { ContractRow, ServiceStore } from '../../store/service-store'
import type { BurnPolicy } from '../build'
import { policyScriptIn } from '../build'
import { EngineError } from '../errors'
import { matchesFilter, type RoleTokenFilter } from './role-token-filter'

type HeldToken = { readonly policyId: string; readonly assetName: string }

function rolesActive(policies: readonly string[]): EngineError {
  return new EngineError('BadRequest', 'BurnRolesActive', 'Active roles detected, refusing to burn', {
    policyIds: policies
  })
}

function invalidPolicy(policyId: string): EngineError {
  return new EngineError(
    'BadRequest',
    'BurnInvalidPolicyId',
    `the roles policy ${policyId} was not minted by a contract creation this service knows: its script is unknown, so its tokens cannot be burned`,
    { policyId }
  )
}

/** `skipActive` leaves out, instead of refusing, the tokens of policies an open contract has. */
export async function chooseBurns(
  store: ServiceStore,
  held: readonly HeldToken[],
  filter: RoleTokenFilter,
  skipActive = false
): Promise<BurnPolicy[]> {
  const policies = [...new Set(held.map((t) => t.policyId))]
  const contracts = policies.length === 0 ? [] : await store.contractsWhere({ roleCurrencies: policies })
  const onChain = contracts.filter((c) => c.headTxId !== undefined)
  const chosen = new Map<string, Set<string>>()
  for (const token of held) {
    for (const c of onChain.filter((c) => c.rolesCurrency === token.policyId)) {
      if (!matchesFilter(filter, { contractId: c.contractId, ...token })) continue
      const names = chosen.get(token.policyId) ?? new Set<string>()
      chosen.set(token.policyId, names.add(token.assetName))
    }
  }
  // As Runtime: a chosen token's policy is active when any contract of it is open, whichever the filter picked
  // (a policy may serve several contracts), so no token an open contract still needs is burned.
  const active = [...chosen.keys()].filter((p) => onChain.some((c) => c.rolesCurrency === p && c.utxo !== undefined))
  if (skipActive) for (const p of active) chosen.delete(p)
  else if (active.length > 0) throw rolesActive(active.sort())
  const burns: BurnPolicy[] = []
  for (const [policyId, assetNames] of chosen) {
    const script = await policyScriptOf(store, onChain, policyId)
    if (script === undefined) throw invalidPolicy(policyId)
    burns.push({ policyId, script, assetNames })
  }
  return burns
}

/** The policy's script, from the first creation of `contracts` under it whose transaction carries it. */
async function policyScriptOf(
  store: ServiceStore,
  contracts: readonly ContractRow[],
  policyId: string
): Promise<ReturnType<typeof policyScriptIn>> {
  for (const c of contracts.filter((c) => c.rolesCurrency === policyId)) {
    const row = await store.tx(c.createTxId)
    const script = row === undefined ? undefined : policyScriptIn(row.signedTx ?? row.unsignedTx, policyId)
    if (script !== undefined) return script
  }
  return undefined
}
