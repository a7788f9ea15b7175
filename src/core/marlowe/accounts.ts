/** The account helpers of the on-chain semantics, over the insertion-ordered accounts list. */
import { append, removeAt, replaceValueAt } from './assoc-list'
import { partyEquals, tokenEquals } from './equality'
import type { AccountId, AccountKey, AssocList, Token } from './types'

export type Accounts = AssocList<AccountKey, bigint>

/** Scans without building a key object: this runs for every `AvailableMoney` and every payment. */
function accountIndex(accounts: Accounts, account: AccountId, token: Token): number {
  for (let i = 0; i < accounts.length; i++) {
    const key = (accounts[i] as readonly [AccountKey, bigint])[0]
    if (tokenEquals(key.token, token) && partyEquals(key.account, account)) return i
  }
  return -1
}

export function moneyInAccount(accounts: Accounts, account: AccountId, token: Token): bigint {
  const i = accountIndex(accounts, account, token)
  return i < 0 ? 0n : (accounts[i] as readonly [AccountKey, bigint])[1]
}

/** Sets a balance; a balance that is not positive removes the entry. */
export function updateMoneyInAccount(accounts: Accounts, account: AccountId, token: Token, amount: bigint): Accounts {
  return setBalanceAt(accounts, accountIndex(accounts, account, token), account, token, amount)
}

/** Adds a positive amount; a non-positive amount changes nothing. */
export function addMoneyToAccount(accounts: Accounts, account: AccountId, token: Token, amount: bigint): Accounts {
  if (amount <= 0n) return accounts
  const i = accountIndex(accounts, account, token)
  const balance = i < 0 ? 0n : (accounts[i] as readonly [AccountKey, bigint])[1]
  return setBalanceAt(accounts, i, account, token, balance + amount)
}

function setBalanceAt(accounts: Accounts, i: number, account: AccountId, token: Token, amount: bigint): Accounts {
  if (amount <= 0n) return i < 0 ? accounts : removeAt(accounts, i)
  return i < 0 ? append(accounts, { account, token }, amount) : replaceValueAt(accounts, i, amount)
}

export interface Refund {
  readonly account: AccountId
  readonly token: Token
  readonly amount: bigint
  /** The entries after the refunded one; the non-positive entries before it are dropped. */
  readonly rest: Accounts
}

/** The least recently added positive balance, or undefined when there is none. */
export function refundOne(accounts: Accounts): Refund | undefined {
  for (let i = 0; i < accounts.length; i++) {
    const [key, amount] = accounts[i] as readonly [AccountKey, bigint]
    if (amount > 0n) return { account: key.account, token: key.token, amount, rest: accounts.slice(i + 1) }
  }
  return undefined
}
