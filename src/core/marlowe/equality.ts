/** Structural key equality, as the on-chain AssocMap uses (constructor plus bytes). */
import type { AccountKey, ChoiceId, Party, Payee, Token } from './types'

export function partyEquals(a: Party, b: Party): boolean {
  if (a.type === 'Role') return b.type === 'Role' && a.role === b.role
  return b.type === 'Address' && a.address === b.address
}

export function tokenEquals(a: Token, b: Token): boolean {
  return a.currencySymbol === b.currencySymbol && a.tokenName === b.tokenName
}

export function choiceIdEquals(a: ChoiceId, b: ChoiceId): boolean {
  return a.name === b.name && partyEquals(a.owner, b.owner)
}

export function accountKeyEquals(a: AccountKey, b: AccountKey): boolean {
  return tokenEquals(a.token, b.token) && partyEquals(a.account, b.account)
}

export function payeeEquals(a: Payee, b: Payee): boolean {
  if (a.type === 'Account') return b.type === 'Account' && partyEquals(a.account, b.account)
  return b.type === 'Party' && partyEquals(a.party, b.party)
}
