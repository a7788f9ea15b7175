/**
 * The plain-language summary at the top of the review: what the transaction does, what it costs, what it
 * mints and until when it is valid — sentences computed from the review model alone, so they can be tested.
 */
import type { AddressView, MarloweStepView, MintView, TxReview } from '../../../core/cardano/review/types'
import { stringifyJson } from '../../../core/json/lossless'
import { decodeInput } from '../../../core/marlowe/json/decode'
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

function cost(review: TxReview): string {
  const deposit = review.marlowe.created.reduce(
    (sum, c) => sum + (review.outputs[Number(c.output)]?.value.lovelace ?? 0n),
    0n
  )
  const fee = `You pay a ${formatAda(review.fee.fee)} fee`
  return deposit > 0n
    ? `${fee} and deposit ${formatAda(deposit)} into the contract (returned when it closes).`
    : `${fee}.`
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
