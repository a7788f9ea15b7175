/**
 * Marlowe terms as short English: parties, tokens, amounts, values, observations, inputs and payments. Used by
 * the contract tree, the action forms, the history and the review summary, so each says a thing the same way.
 * Given the user's wallets by address (`OwnAddresses`), a party at one of them is named as the review names it.
 */
import type { AwaitedAction } from '../../../api/contract'
import type { ChoiceId, Input, Observation, Party, Payee, Payment, Token, Value } from '../../../core/marlowe/types'
import { formatAda, formatQuantity } from '../format/amounts'
import { formatTime } from '../format/time'
import { shorten } from '../format/text'

/** Payment address → the name of the user's wallet there. */
export type OwnAddresses = ReadonlyMap<string, string>

export const isAda = (t: Token): boolean => t.currencySymbol === '' && t.tokenName === ''

/** One of the user's wallets, by name when known: "your wallet “Sam”". */
export function ownWalletText(name: string | undefined): string {
  return name === undefined ? 'your wallet' : `your wallet “${name}”`
}

/** A role by its name, an address of one of the user's wallets by the wallet, another address shortened. */
export function partyText(p: Party, own?: OwnAddresses): string {
  if (p.type === 'Role') return p.role
  const wallet = own?.get(p.address)
  return wallet === undefined ? shorten(p.address, 14, 6) : ownWalletText(wallet)
}

export function tokenText(t: Token): string {
  if (isAda(t)) return 'ada'
  return t.tokenName === '' ? `tokens of ${shorten(t.currencySymbol, 8, 4)}` : t.tokenName
}

export function amountText(n: bigint, t: Token): string {
  return isAda(t) ? formatAda(n) : `${formatQuantity(n)} ${tokenText(t)}`
}

export function choiceText(c: ChoiceId, own?: OwnAddresses): string {
  return `“${c.name}” by ${partyText(c.owner, own)}`
}

export function accountText(p: Party, own?: OwnAddresses): string {
  const owner = partyText(p, own)
  // "your wallet “Sam”’s account" reads badly, so a wallet's account is said the other way round.
  return p.type === 'Address' && own?.has(p.address) === true ? `the account of ${owner}` : `${owner}’s account`
}

export function payeeText(p: Payee, own?: OwnAddresses): string {
  return p.type === 'Party' ? partyText(p.party, own) : accountText(p.account, own)
}

/** A value; constants are amounts of `token` when the value is an amount of it (deposits, payments). */
export function valueText(v: Value, token?: Token, own?: OwnAddresses): string {
  if (typeof v === 'bigint') return token === undefined ? formatQuantity(v) : amountText(v, token)
  switch (v.type) {
    case 'AvailableMoney':
      return `${tokenText(v.token)} in ${accountText(v.account, own)}`
    case 'NegValue':
      return `−(${valueText(v.value, token, own)})`
    case 'AddValue':
      return `${valueText(v.left, token, own)} + ${valueText(v.right, token, own)}`
    case 'SubValue':
      return `${valueText(v.left, token, own)} − (${valueText(v.right, token, own)})`
    // A product or quotient has one scalar operand, and which one is not known: both stay plain numbers.
    case 'MulValue':
      return `(${valueText(v.left, undefined, own)}) × (${valueText(v.right, undefined, own)})${token === undefined ? '' : ` ${tokenText(token)}`}`
    case 'DivValue':
      return `(${valueText(v.left, undefined, own)}) ÷ (${valueText(v.right, undefined, own)})${token === undefined ? '' : ` ${tokenText(token)}`}`
    case 'ChoiceValue':
      return `the number chosen for ${choiceText(v.choice, own)}`
    case 'TimeIntervalStart':
      return 'the start of the transaction’s time interval'
    case 'TimeIntervalEnd':
      return 'the end of the transaction’s time interval'
    case 'UseValue':
      return `the value “${v.id}”`
    case 'Cond':
      return `(if ${observationText(v.observation, own)} then ${valueText(v.then, token, own)} else ${valueText(v.else, token, own)})`
  }
}

export function observationText(o: Observation, own?: OwnAddresses): string {
  if (typeof o === 'boolean') return o ? 'true' : 'false'
  switch (o.type) {
    case 'AndObs':
      return `(${observationText(o.left, own)} and ${observationText(o.right, own)})`
    case 'OrObs':
      return `(${observationText(o.left, own)} or ${observationText(o.right, own)})`
    case 'NotObs':
      return `not ${observationText(o.observation, own)}`
    case 'ChoseSomething':
      return `a choice was made for ${choiceText(o.choice, own)}`
    case 'ValueGE':
      return `${valueText(o.left, undefined, own)} ≥ ${valueText(o.right, undefined, own)}`
    case 'ValueGT':
      return `${valueText(o.left, undefined, own)} > ${valueText(o.right, undefined, own)}`
    case 'ValueLT':
      return `${valueText(o.left, undefined, own)} < ${valueText(o.right, undefined, own)}`
    case 'ValueLE':
      return `${valueText(o.left, undefined, own)} ≤ ${valueText(o.right, undefined, own)}`
    case 'ValueEQ':
      return `${valueText(o.left, undefined, own)} = ${valueText(o.right, undefined, own)}`
  }
}

export function inputText(input: Input, own?: OwnAddresses): string {
  const c = input.content
  switch (c.type) {
    case 'IDeposit':
      return `${partyText(c.party, own)} deposits ${amountText(c.amount, c.token)} into ${accountText(c.account, own)}`
    case 'IChoice':
      return `${partyText(c.choice.owner, own)} chooses ${formatQuantity(c.chosen)} for “${c.choice.name}”`
    case 'INotify':
      // Read after "In the contract, " in the review and alone in the history, so it names no subject twice.
      return 'a notification is sent'
  }
}

export function paymentText(p: Payment, own?: OwnAddresses): string {
  return `${amountText(p.amount, p.token)} from ${accountText(p.from, own)} to ${payeeText(p.to, own)}`
}

/** What a contract waits for from the user: "Deposit 100 ada as Buyer before 28 Nov 2026, 22:12". */
export function awaitedText(a: AwaitedAction, own?: OwnAddresses): string {
  const party: Party = a.party.startsWith('role:')
    ? { type: 'Role', role: a.party.slice('role:'.length) }
    : { type: 'Address', address: a.party }
  const as =
    party.type === 'Role' ? ` as ${party.role}` : own?.has(a.party) === true ? '' : ` as ${partyText(party, own)}`
  const what = a.kind === 'deposit' ? `Deposit ${amountText(a.amount, a.token)}` : `Choose “${a.choiceName}”`
  return `${what}${as}${a.before === undefined ? '' : ` before ${formatTime(a.before)}`}`
}
