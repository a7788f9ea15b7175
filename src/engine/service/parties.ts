/**
 * Contracts by party: the keys under which the store finds a contract for its addresses and roles (Runtime's
 * `partyAddress` and `partyRole` filters, and a wallet's own contracts). A contract's parties are those of the
 * contract and state it was created with, as Runtime reads them.
 */
import { contractFacts } from '../../core/marlowe/analysis'
import { decodeMarloweData } from '../../core/marlowe/plutus/marlowe-data'
import type { MarloweData } from '../../core/marlowe/types'
import {
  addressPartyKey,
  rolePartyKey,
  type ContractQuery,
  type ContractRow,
  type ServiceStore
} from '../../store/service-store'
import type { ContractFilter } from './types'
import { isDecodeFailure } from './unreadable'
import { recordOf } from './views'

export function contractPartyKeys(created: MarloweData): string[] {
  const facts = contractFacts(created.contract, created.state)
  return [
    ...facts.addresses.map(addressPartyKey),
    ...facts.roles.map((role) => rolePartyKey(created.params.rolesCurrency, role))
  ]
}

/** The store's query for a list filter; both party filters together match a contract with either. */
export function contractQuery(filter: ContractFilter): ContractQuery {
  return {
    ...(filter.roleCurrencies === undefined ? {} : { roleCurrencies: filter.roleCurrencies }),
    ...(filter.tags === undefined ? {} : { tags: filter.tags }),
    parties: [
      ...(filter.partyAddresses ?? []).map(addressPartyKey),
      ...(filter.partyRoles ?? []).map((r) => rolePartyKey(r.policyId, r.role))
    ]
  }
}

/** Records the parties of contracts stored before they were kept (a store from an older version), in batches. */
export async function recordMissingParties(store: ServiceStore): Promise<void> {
  for (;;) {
    const batch = await store.contractsWithoutParties(500)
    if (batch.length === 0) return
    for (const contract of batch) {
      await store.setContractParties(contract.contractId, await storedParties(store, contract))
    }
  }
}

/** A stored contract's parties; one whose creation does not read back has none (its view reports the damage). */
async function storedParties(store: ServiceStore, contract: ContractRow): Promise<string[]> {
  const created = await store.tx(contract.createTxId)
  if (created === undefined) return []
  try {
    return contractPartyKeys(decodeMarloweData(recordOf(created, 'create').datum))
  } catch (e) {
    if (isDecodeFailure(e)) return []
    throw e
  }
}
