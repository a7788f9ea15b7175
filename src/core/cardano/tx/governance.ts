/** Conway governance in the body: voting procedures (key 19) and proposal procedures (key 20). */
import { HASH28, type TxReader } from './reader'
import type { GovActionKind, Proposal, Vote, Voter, VoterKind, VoterVotes, Withdrawal } from './types'

const VOTER_KINDS: readonly VoterKind[] = ['committee-key', 'committee-script', 'drep-key', 'drep-script', 'pool']
const VOTES: ReadonlyArray<Vote['vote']> = ['no', 'yes', 'abstain']
/** By CDDL number: the action kind and the array length it is written with. */
const ACTIONS: ReadonlyArray<readonly [GovActionKind, number]> = [
  ['parameter-change', 4],
  ['hard-fork-initiation', 3],
  ['treasury-withdrawals', 3],
  ['no-confidence', 2],
  ['update-committee', 5],
  ['new-constitution', 3],
  ['info', 1]
]

export function readVotingProcedures(r: TxReader): VoterVotes[] {
  const voters: VoterVotes[] = []
  r.mapEntries('voting procedures', (key) => {
    const voter = r.reread(key, 'voter', voterOf)
    const votes: Vote[] = []
    r.mapEntries('votes of one voter', (actionKey) => {
      const actionId = r.reread(actionKey, 'governance action id', (k) => k.txIn('governance action id'))
      const count = r.fixedArray('voting procedure', 2)
      const vote = VOTES[r.smallUint('vote', VOTES.length - 1)]!
      const anchor = r.nullable(() => r.anchor('vote anchor'))
      r.closeArray(count, 'voting procedure')
      votes.push(anchor === undefined ? { actionId, vote } : { actionId, vote, anchor })
    })
    voters.push({ voter, votes })
  })
  return voters
}

function voterOf(k: TxReader): Voter {
  const count = k.fixedArray('voter', 2)
  const kind = VOTER_KINDS[k.smallUint('voter kind', VOTER_KINDS.length - 1)]!
  const hash = k.hash('voter', HASH28)
  k.closeArray(count, 'voter')
  return { kind, hash }
}

export function readProposal(r: TxReader, what: string): Proposal {
  const count = r.fixedArray(what, 4)
  const deposit = r.uint(`${what} deposit`)
  const returnAccount = r.rewardAccount(`${what} return account`)
  const action = readAction(r, `${what} action`)
  const anchor = r.anchor(`${what} anchor`)
  r.closeArray(count, what)
  return { deposit, returnAccount, anchor, ...action }
}

function readAction(
  r: TxReader,
  what: string
): { action: GovActionKind; policyHash?: string; withdrawals?: readonly Withdrawal[] } {
  const start = r.pos
  const count = r.arrayHeader(what)
  const code = r.smallUint(`${what} kind`, ACTIONS.length - 1)
  const [action, length] = ACTIONS[code]!
  if (count !== undefined && count !== length)
    r.fail(`${what}: a ${action} action has ${length} items, got ${count}`, start)
  let result: { action: GovActionKind; policyHash?: string; withdrawals?: readonly Withdrawal[] } = { action }
  if (action === 'parameter-change') {
    r.skip()
    r.skip()
    const policyHash = r.nullable(() => r.hash(`${what} policy hash`, HASH28))
    if (policyHash !== undefined) result = { action, policyHash }
  } else if (action === 'treasury-withdrawals') {
    const withdrawals = readWithdrawals(r, `${what} withdrawals`)
    const policyHash = r.nullable(() => r.hash(`${what} policy hash`, HASH28))
    result = policyHash === undefined ? { action, withdrawals } : { action, withdrawals, policyHash }
  } else {
    for (let i = 1; i < length; i++) r.skip()
  }
  r.closeArray(count, what)
  return result
}

/** `{ reward_account => coin }`, in the order written. */
export function readWithdrawals(r: TxReader, what: string): Withdrawal[] {
  const withdrawals: Withdrawal[] = []
  r.mapEntries(what, (key) => {
    const rewardAccount = r.reread(key, `${what} account`, (k) => k.rewardAccount(`${what} account`))
    withdrawals.push({ rewardAccount, amount: r.uint(`${what} amount`) })
  })
  return withdrawals
}
