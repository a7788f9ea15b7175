/**
 * The plain-language summary at the top of the review: what the transaction does, what it costs, what it
 * mints and until when it is valid — sentences computed from the review model alone, so they can be tested.
 */
import {
  unreadInputs,
  unreadInputsText,
  type AddressView,
  type MarloweStepView,
  type MintView,
  type TxReview
} from '../../../core/cardano/review'
import { stringifyJson } from '../../../core/json/lossless'
import { decodeInput } from '../../../core/marlowe/json'
import { formatAda, formatQuantity } from '../format/amounts'
import { toJson } from '../format/json'
import { shorten } from '../format/text'
import { formatTime } from '../format/time'
import { inputText, ownWalletText, paymentText, type OwnAddresses } from '../model/marlowe-text'
import { readPayment } from '../model/runtime'

/** Wallet id (as the review names it) → the name to show. */
export type WalletNames = ReadonlyMap<string, string>

function addressLabel(address: AddressView, names: WalletNames): string {
  if (address.owner === 'own')
    return ownWalletText(address.wallet === undefined ? undefined : walletName(address.wallet, names))
  if (address.scriptName !== undefined) return `the ${scriptLabel(address.scriptName)}`
  return shorten(address.text, 16, 6)
}

export function walletName(id: string, names: WalletNames): string {
  return names.get(id) ?? id
}

export function scriptLabel(name: string): string {
  switch (name) {
    case 'marlowe-semantics':
      return 'Marlowe contract script'
    case 'marlowe-payout':
      return 'Marlowe payout script'
    default:
      return 'Marlowe open-role script'
  }
}

/** `own` names the Marlowe parties at the user's wallets' addresses, as the contract screens do. */
export function summarizeReview(review: TxReview, names: WalletNames, own?: OwnAddresses): string[] {
  const sentences = [...purpose(review, own), cost(review)]
  for (const mint of review.mint) sentences.push(...mintSentences(review, mint, names))
  const end = review.validity.end?.posixMs
  if (end !== undefined) sentences.push(`Valid until ${formatTime(end)}; after that it can no longer be submitted.`)
  return sentences
}

function purpose(review: TxReview, own: OwnAddresses | undefined): string[] {
  const out: string[] = []
  if (review.marlowe.created.length > 0) out.push('Opens a Marlowe contract.')
  for (const step of review.marlowe.steps) out.push(stepSentence(step, own))
  for (const w of review.marlowe.withdrawals) {
    out.push(w.role === undefined ? 'Withdraws a Marlowe payout.' : `Withdraws the payout of role “${w.role}”.`)
  }
  if (out.length === 0) out.push('A Cardano transaction that does not touch a Marlowe contract.')
  return out
}

function stepSentence(step: MarloweStepView, own: OwnAddresses | undefined): string {
  const inputs = step.inputs.map((json, i) => inputText(decodeInput(toJson(json), `inputs[${i}]`), own))
  const what = inputs.length === 0 ? 'Advances the contract past a deadline' : `In the contract, ${inputs.join('; ')}`
  const r = step.result
  if (r.type === 'error') return `${what} — but the contract rejects it: ${stringifyJson(toJson(r.error))}.`
  if (r.type === 'not-run') return `${what}. (What the contract then does could not be checked: ${r.reason}.)`
  const payments = r.payments.map((p, i) => paymentText(readPayment(p, `payments[${i}]`), own))
  const pays = payments.length === 0 ? '' : `; it pays ${payments.join('; ')}`
  return `${what}${pays}${r.closes ? '; then the contract closes' : ''}.`
}

/** Where the ada that leaves the paying wallets goes (positive) or comes from (negative), by kind. */
interface Flows {
  contract: bigint
  payouts: bigint
  roleTokens: bigint
  others: bigint
  rewards: bigint
}

/**
 * What the paying wallets (those whose inputs are spent) pay in all, part by part, so that the parts add up
 * exactly to their net effect: the fee, what goes into or comes out of the contract, the ada that travels with
 * role tokens to other holders, and what goes to or comes from anyone else.
 */
function cost(review: TxReview): string {
  const fee = formatAda(review.fee.fee)
  const payers = new Set(review.inputs.flatMap((i) => (i.owner === 'own' && i.wallet !== undefined ? [i.wallet] : [])))
  const unread = unreadInputs(review)
  if (unread.spent > 0)
    return `The fee is ${fee}. ${unreadInputsText(unread)} could not be read, so what your wallets pay in all is unknown.`
  if (payers.size === 0) return `The fee is ${fee}; none of your wallets pays for this transaction.`
  const total = review.netEffect.reduce((sum, e) => (payers.has(e.wallet) && e.complete ? sum + e.lovelace : sum), 0n)
  const flows = paidFlows(review, payers)
  const rest = total - review.fee.fee - flows.contract - flows.payouts - flows.roleTokens - flows.others - flows.rewards
  const opens = review.marlowe.created.length > 0
  const parts: string[] = [`pay a ${fee} fee`]
  if (flows.contract > 0n) {
    const returned = opens ? ' (returned when it closes)' : ''
    parts.push(`deposit ${formatAda(flows.contract)} into the contract${returned}`)
  }
  if (flows.contract < 0n) parts.push(`receive ${formatAda(-flows.contract)} from the contract`)
  if (flows.payouts < 0n) parts.push(`withdraw ${formatAda(-flows.payouts)} of payouts`)
  if (flows.roleTokens > 0n) parts.push(`send ${formatAda(flows.roleTokens)} with the role tokens to their holders`)
  if (flows.others > 0n) parts.push(`send ${formatAda(flows.others)} to other addresses`)
  if (flows.others < 0n) parts.push(`receive ${formatAda(-flows.others)} from other addresses`)
  if (flows.rewards < 0n) parts.push(`withdraw ${formatAda(-flows.rewards)} of staking rewards`)
  if (rest > 0n) parts.push(`pay ${formatAda(rest)} more for ledger deposits or inputs this review could not read`)
  if (rest < 0n) parts.push(`get back ${formatAda(-rest)} from ledger deposits or inputs this review could not read`)
  const [first, second, ...more] = parts
  const listed = [second === undefined ? first : `${first} and ${second}`, ...more].join(', and ')
  if (parts.length === 1) return `You ${listed}.`
  const wallet = payers.size === 1 ? 'your wallet' : 'your wallets'
  const inAll =
    total > 0n
      ? `${formatAda(total)} leaves ${wallet} in all`
      : total < 0n
        ? `${wallet} receive${payers.size === 1 ? 's' : ''} ${formatAda(-total)} in all`
        : `${wallet} end${payers.size === 1 ? 's' : ''} up where ${payers.size === 1 ? 'it' : 'they'} started`
  return `You ${listed}: ${inAll}.`
}

/** Every output and input that is not the payers', by where it goes or comes from; rewards withdrawn to them. */
function paidFlows(review: TxReview, payers: ReadonlySet<string>): Flows {
  const flows: Flows = { contract: 0n, payouts: 0n, roleTokens: 0n, others: 0n, rewards: 0n }
  const rolesCurrencies = new Set([
    ...review.marlowe.created.map((c) => c.rolesCurrency),
    ...review.marlowe.steps.flatMap((s) => (s.rolesCurrency === undefined ? [] : [s.rolesCurrency]))
  ])
  // Addresses the contract pays in this transaction: those outputs come out of the contract, not the wallet.
  const paidByContract = new Set<string>()
  for (const step of review.marlowe.steps) {
    if (step.result.type !== 'success') continue
    step.result.payments.forEach((p, i) => {
      const payment = readPayment(p, `payments[${i}]`)
      if (payment.to.type === 'Party' && payment.to.party.type === 'Address')
        paidByContract.add(payment.to.party.address)
    })
  }
  const isPayers = (wallet: string | undefined): boolean => wallet !== undefined && payers.has(wallet)
  for (const o of review.outputs) {
    if (isPayers(o.address.wallet)) continue
    const lovelace = o.value.lovelace
    if (o.address.scriptName === 'marlowe-semantics' || o.address.scriptName === 'marlowe-payout') {
      flows.contract += lovelace
    } else if (paidByContract.has(o.address.text)) flows.contract += lovelace
    else if (o.value.assets.some((a) => rolesCurrencies.has(a.policyId))) flows.roleTokens += lovelace
    else flows.others += lovelace
  }
  for (const i of review.inputs) {
    if (isPayers(i.wallet) || i.value === undefined) continue
    const scriptName = i.address?.scriptName
    if (scriptName === 'marlowe-semantics') flows.contract -= i.value.lovelace
    else if (scriptName === 'marlowe-payout') flows.payouts -= i.value.lovelace
    else flows.others -= i.value.lovelace
  }
  for (const w of review.withdrawals) if (isPayers(w.address.wallet)) flows.rewards -= w.amount
  return flows
}

function mintSentences(review: TxReview, mint: MintView, names: WalletNames): string[] {
  const isRoles = review.marlowe.created.some((c) => c.rolesCurrency === mint.policyId)
  const kind = isRoles ? 'role token' : 'token'
  const minted = mint.assets.filter((a) => a.quantity > 0n)
  const burned = mint.assets.filter((a) => a.quantity < 0n)
  const out: string[] = []
  if (minted.length > 0) {
    const total = minted.reduce((sum, a) => sum + a.quantity, 0n)
    const each = minted.map((a) => {
      const name = a.assetNameText ?? a.assetName
      const holders = review.outputs
        .filter((o) => o.value.assets.some((x) => x.policyId === mint.policyId && x.assetName === a.assetName))
        .map((o) => addressLabel(o.address, names))
      return holders.length === 0 ? `“${name}”` : `“${name}” to ${holders.join(' and ')}`
    })
    out.push(`Mints ${formatQuantity(total)} ${total === 1n ? kind : `${kind}s`}: ${each.join(', ')}.`)
  }
  if (burned.length > 0) {
    const each = burned.map((a) => `${formatQuantity(-a.quantity)} “${a.assetNameText ?? a.assetName}”`)
    out.push(`Burns ${each.join(', ')}.`)
  }
  return out
}
