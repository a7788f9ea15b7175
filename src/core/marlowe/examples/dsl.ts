/** What every example builder returns, and small constructors that keep the example contracts readable. */
import { CLOSE, type AccountId, type Case, type Contract, type Party, type Token, type Value } from '../types'

export interface ExampleContract {
  readonly contract: Contract
  /**
   * Names of the role parties, in parameter order without repeats: the role tokens to mint when the contract is
   * created. Empty when every party is an address. None of the examples needs pre-funded initial accounts.
   */
  readonly roles: readonly string[]
}

export function withRoles(contract: Contract, parties: readonly Party[]): ExampleContract {
  const roles: string[] = []
  for (const p of parties) if (p.type === 'Role' && !roles.includes(p.role)) roles.push(p.role)
  return { contract, roles }
}

export function when(cases: readonly Case[], timeout: bigint, timeoutContinuation: Contract = CLOSE): Contract {
  return { type: 'When', cases, timeout, timeoutContinuation }
}

export function onDeposit(account: AccountId, party: Party, token: Token, value: Value, then: Contract): Case {
  return { type: 'Case', action: { type: 'Deposit', account, party, token, value }, then }
}

/** A choice accepting the single number `chosen` (buttons such as "Confirm problem"). */
export function onChoice(name: string, owner: Party, chosen: bigint, then: Contract): Case {
  return onChoiceBetween(name, owner, chosen, chosen, then)
}

export function onChoiceBetween(name: string, owner: Party, from: bigint, to: bigint, then: Contract): Case {
  return { type: 'Case', action: { type: 'Choice', choice: { name, owner }, bounds: [{ from, to }] }, then }
}

export function payToParty(from: AccountId, to: Party, token: Token, value: Value, then: Contract): Contract {
  return { type: 'Pay', from, to: { type: 'Party', party: to }, token, value, then }
}

export function payToAccount(from: AccountId, to: AccountId, token: Token, value: Value, then: Contract): Contract {
  return { type: 'Pay', from, to: { type: 'Account', account: to }, token, value, then }
}

/** Deposit `value` into the depositor's own account, then pay it out of that account to `payee`. */
export function transfer(
  from: Party,
  payee: Party,
  token: Token,
  value: Value,
  deadline: bigint,
  then: Contract
): Contract {
  return when([onDeposit(from, from, token, value, payToParty(from, payee, token, value, then))], deadline)
}
