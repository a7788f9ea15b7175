/**
 * What each redeemer points at. A redeemer names its target by purpose and index, and the index counts in the
 * ledger's order of each collection: inputs sorted by (tx id, index), policies by id, reward accounts by
 * (network, credential) and voters by kind then credential — Haskell's derived `Ord`, where a script
 * credential (`ScriptHashObj`) sorts before a key credential (`KeyHashObj`). Certificates and proposals keep
 * their order in the transaction.
 */
import type { Credential } from '../address'
import type { DecodedBody, DecodedRedeemer, TxIn, Voter, VoterKind, Withdrawal } from '../tx'
import type { RedeemerTarget } from './types'

/** Voter constructors in declaration order, each credential's script form before its key form. */
const VOTER_RANK: Readonly<Record<VoterKind, number>> = {
  'committee-script': 0,
  'committee-key': 1,
  'drep-script': 2,
  'drep-key': 3,
  pool: 4
}

/** Lowercase hex of equal-length byte strings compares like the bytes. */
function compareHex(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

function compareCredential(a: Credential | undefined, b: Credential | undefined): number {
  const rank = (c: Credential | undefined): number => (c?.type === 'script' ? 0 : 1)
  return rank(a) - rank(b) || compareHex(a?.hash ?? '', b?.hash ?? '')
}

function sortInputs(inputs: readonly TxIn[]): TxIn[] {
  return [...inputs].sort((a, b) => compareHex(a.txId, b.txId) || a.index - b.index)
}

function sortPolicies(policyIds: readonly string[]): string[] {
  return [...policyIds].sort(compareHex)
}

function sortWithdrawals(withdrawals: readonly Withdrawal[]): Withdrawal[] {
  return [...withdrawals].sort(
    (a, b) =>
      a.rewardAccount.networkId - b.rewardAccount.networkId ||
      compareCredential(a.rewardAccount.stake, b.rewardAccount.stake)
  )
}

function sortVoters<T extends { readonly voter: Voter }>(voters: readonly T[]): T[] {
  return [...voters].sort(
    (a, b) => VOTER_RANK[a.voter.kind] - VOTER_RANK[b.voter.kind] || compareHex(a.voter.hash, b.voter.hash)
  )
}

/** The collections in ledger order, computed once per review. */
export interface LedgerOrder {
  readonly inputs: readonly TxIn[]
  readonly policies: readonly string[]
  readonly withdrawals: readonly Withdrawal[]
  readonly voters: readonly Voter[]
}

export function ledgerOrder(body: DecodedBody): LedgerOrder {
  return {
    inputs: sortInputs(body.inputs),
    policies: sortPolicies(body.mint.map((p) => p.policyId)),
    withdrawals: sortWithdrawals(body.withdrawals),
    voters: sortVoters(body.votingProcedures).map((v) => v.voter)
  }
}

export function redeemerTarget(body: DecodedBody, order: LedgerOrder, redeemer: DecodedRedeemer): RedeemerTarget {
  const i = redeemer.index
  switch (redeemer.tag) {
    case 'spend': {
      const ref = order.inputs[i]
      return ref === undefined
        ? { kind: 'missing' }
        : { kind: 'input', ref: { txId: ref.txId, index: BigInt(ref.index) } }
    }
    case 'mint': {
      const policyId = order.policies[i]
      return policyId === undefined ? { kind: 'missing' } : { kind: 'mint', policyId }
    }
    case 'cert':
      return i < body.certificates.length ? { kind: 'certificate', index: BigInt(i) } : { kind: 'missing' }
    case 'reward': {
      const withdrawal = order.withdrawals[i]
      return withdrawal === undefined
        ? { kind: 'missing' }
        : { kind: 'withdrawal', address: withdrawal.rewardAccount.text }
    }
    case 'vote': {
      const voter = order.voters[i]
      return voter === undefined ? { kind: 'missing' } : { kind: 'voter', voter }
    }
    case 'propose':
      return i < body.proposals.length ? { kind: 'proposal', index: BigInt(i) } : { kind: 'missing' }
  }
}
