/**
 * The heaviest create the desk accepts on the sandbox, for the tests and the benchmark of the serving thread:
 * HEAVY_ROLES role tokens minted by the one-shot policy (its script, run by the sandbox's evaluator, near the
 * budget: 60 roles go over it) and sent to as many holders, in a contract where each role deposits in turn and
 * the last deposit closes it, paying every role back (a large datum, and costly transactions to check).
 */
import { formatShelleyAddress } from '../../src/core/cardano/address'
import type { JsonObject } from '../../src/core/json/lossless'
import { ADA, CLOSE, type Contract, type Party } from '../../src/core/marlowe/types'

export const HEAVY_ROLES = 40
export const HEAVY_DEPOSIT = 10_000_000n

export const heavyRole = (i: number): string => `role${String(i).padStart(3, '0')}`

export function heavyContract(deadline: bigint, roles = HEAVY_ROLES): Contract {
  let contract: Contract = CLOSE
  for (let i = roles - 1; i >= 0; i -= 1) {
    const party: Party = { type: 'Role', role: heavyRole(i) }
    contract = {
      type: 'When',
      cases: [
        {
          type: 'Case',
          action: { type: 'Deposit', account: party, party, token: ADA, value: HEAVY_DEPOSIT },
          then: contract
        }
      ],
      timeout: deadline,
      timeoutContinuation: CLOSE
    }
  }
  return contract
}

/** The create's `roles`: the first to `holder`, the others each to an address of its own. */
export function heavyRoles(holder: string, roles = HEAVY_ROLES): JsonObject {
  const out: JsonObject = {}
  for (let i = 0; i < roles; i += 1) {
    const hash = (i + 1).toString(16).padStart(56, '0')
    out[heavyRole(i)] = i === 0 ? holder : formatShelleyAddress({ mainnet: false, payment: { type: 'key', hash } })
  }
  return out
}
