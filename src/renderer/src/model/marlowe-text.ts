/**
 * Marlowe terms as short English: parties, tokens, amounts, values, observations, inputs and payments. Used by
 * the contract tree, the action forms, the history and the review summary, so each says a thing the same way.
 */
import type { ChoiceId, Input, Observation, Party, Payee, Payment, Token, Value } from '../../../core/marlowe/types'
import { formatAda, formatQuantity } from '../format/amounts'
import { shorten } from '../format/text'

export const isAda = (t: Token): boolean => t.currencySymbol === '' && t.tokenName === ''

/** A role by its name, an address shortened. */
export function partyText(p: Party): string {
  return p.type === 'Role' ? p.role : shorten(p.address, 14, 6)
}

export function tokenText(t: Token): string {
  if (isAda(t)) return 'ada'
  return t.tokenName === '' ? `tokens of ${shorten(t.currencySymbol, 8, 4)}` : t.tokenName
}

export function amountText(n: bigint, t: Token): string {
  return isAda(t) ? formatAda(n) : `${formatQuantity(n)} ${tokenText(t)}`
}

export function choiceText(c: ChoiceId): string {
  return `“${c.name}” by ${partyText(c.owner)}`
}

export function accountText(p: Party): string {
  return `${partyText(p)}’s account`
}

export function payeeText(p: Payee): string {
  return p.type === 'Party' ? partyText(p.party) : accountText(p.account)
}

/** A value; constants are amounts of `token` when the value is an amount of it (deposits, payments). */
export function valueText(v: Value, token?: Token): string {
  if (typeof v === 'bigint') return token === undefined ? formatQuantity(v) : amountText(v, token)
  switch (v.type) {
    case 'AvailableMoney':
      return `${tokenText(v.token)} in ${accountText(v.account)}`
    case 'NegValue':
      return `−(${valueText(v.value, token)})`
    case 'AddValue':
      return `${valueText(v.left, token)} + ${valueText(v.right, token)}`
    case 'SubValue':
      return `${valueText(v.left, token)} − (${valueText(v.right, token)})`
    // A product or quotient has one scalar operand, and which one is not known: both stay plain numbers.
    case 'MulValue':
      return `(${valueText(v.left)}) × (${valueText(v.right)})${token === undefined ? '' : ` ${tokenText(token)}`}`
    case 'DivValue':
      return `(${valueText(v.left)}) ÷ (${valueText(v.right)})${token === undefined ? '' : ` ${tokenText(token)}`}`
    case 'ChoiceValue':
      return `the number chosen for ${choiceText(v.choice)}`
    case 'TimeIntervalStart':
      return 'the start of the transaction’s time interval'
    case 'TimeIntervalEnd':
      return 'the end of the transaction’s time interval'
    case 'UseValue':
      return `the value “${v.id}”`
    case 'Cond':
      return `(if ${observationText(v.observation)} then ${valueText(v.then, token)} else ${valueText(v.else, token)})`
  }
}

export function observationText(o: Observation): string {
  if (typeof o === 'boolean') return o ? 'true' : 'false'
  switch (o.type) {
    case 'AndObs':
      return `(${observationText(o.left)} and ${observationText(o.right)})`
    case 'OrObs':
      return `(${observationText(o.left)} or ${observationText(o.right)})`
    case 'NotObs':
      return `not ${observationText(o.observation)}`
    case 'ChoseSomething':
      return `a choice was made for ${choiceText(o.choice)}`
    case 'ValueGE':
      return `${valueText(o.left)} ≥ ${valueText(o.right)}`
    case 'ValueGT':
      return `${valueText(o.left)} > ${valueText(o.right)}`
    case 'ValueLT':
      return `${valueText(o.left)} < ${valueText(o.right)}`
    case 'ValueLE':
      return `${valueText(o.left)} ≤ ${valueText(o.right)}`
    case 'ValueEQ':
      return `${valueText(o.left)} = ${valueText(o.right)}`
  }
}

export function inputText(input: Input): string {
  const c = input.content
  switch (c.type) {
    case 'IDeposit':
      return `${partyText(c.party)} deposits ${amountText(c.amount, c.token)} into ${accountText(c.account)}`
    case 'IChoice':
      return `${partyText(c.choice.owner)} chooses ${formatQuantity(c.chosen)} for “${c.choice.name}”`
    case 'INotify':
      return 'the contract is notified'
  }
}

export function paymentText(p: Payment): string {
  return `${amountText(p.amount, p.token)} from ${accountText(p.from)} to ${payeeText(p.to)}`
}
