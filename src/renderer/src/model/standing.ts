/**
 * Where a wallet stands in a contract, in words: the parties it is there (its role tokens, its addresses), and
 * whose turn it is — who must do what, and before when. `parties` are the engine's: `role:<name>` or an address.
 */
import type { ApplicableInputs } from '../../../core/marlowe/next'
import type { Party } from '../../../core/marlowe/types'
import { formatTime } from '../format/time'
import { amountText, partyText, type OwnAddresses } from './marlowe-text'
import { mergeChoices } from './contracts'

export const partyOf = (party: string): Party =>
  party.startsWith('role:') ? { type: 'Role', role: party.slice('role:'.length) } : { type: 'Address', address: party }

const roleNames = (parties: readonly string[]): string[] =>
  parties.flatMap((p) => (p.startsWith('role:') ? [p.slice('role:'.length)] : []))

/** "You hold: Seller, Buyer", "You take part by your address", or that the wallet takes no part. */
export function holdingText(parties: readonly string[]): string {
  const roles = roleNames(parties)
  const byAddress = roles.length < parties.length
  if (roles.length === 0) {
    return byAddress
      ? 'You take part by your address (no role token).'
      : 'You hold none of its role tokens, and none of your addresses takes part.'
  }
  return `You hold: ${roles.join(', ')}${byAddress ? '; and you take part by your address too' : ''}.`
}

/** The list's short form: "Seller, Buyer", "your address", or a dash. */
export function roleColumnText(parties: readonly string[]): string {
  const roles = roleNames(parties)
  const named = [...roles, ...(roles.length < parties.length ? ['your address'] : [])]
  return named.length === 0 ? '—' : named.join(', ')
}

/** "you (Buyer)" for the wallet's own parties, else the party as the contract names it. */
function whoText(party: Party, mine: readonly string[], own: OwnAddresses | undefined): string {
  if (party.type === 'Role') return mine.includes(`role:${party.role}`) ? `you (${party.role})` : party.role
  return mine.includes(party.address) ? 'you' : partyText(party, own)
}

function orList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`
}

/**
 * Whose turn it is in an open contract on chain, from the steps every party can take now (`next`, asked for no
 * wallet) and the deadline it waits on: "Waiting for Buyer to deposit 25 ada before 12 Jun 2030, 14:00 CEST.".
 */
export function turnSentences(
  next: ApplicableInputs | undefined,
  deadline: bigint | undefined,
  now: bigint,
  mine: readonly string[],
  own?: OwnAddresses
): string[] {
  const who = (p: Party): string => whoText(p, mine, own)
  const actions = [
    ...new Set([
      ...(next?.deposits ?? []).map((d) => `${who(d.party)} to deposit ${amountText(d.canDeposit, d.token)}`),
      ...mergeChoices(next?.choices ?? []).map((c) => `${who(c.choice.owner)} to choose “${c.choice.name}”`),
      ...(next?.notify === undefined ? [] : ['a notification'])
    ])
  ]
  if (deadline !== undefined && deadline <= now) {
    const passed = `Its deadline, ${formatTime(deadline)}, has passed: anyone, you too, can apply the timeout.`
    return actions.length === 0 ? [passed] : [passed, `After the timeout it waits for ${orList(actions)}.`]
  }
  const by = deadline === undefined ? '' : ` before ${formatTime(deadline)}`
  if (actions.length > 0) return [`Waiting for ${orList(actions)}${by}.`]
  return deadline === undefined
    ? ['Nothing can be done in it now.']
    : [`Nothing can be done in it before ${formatTime(deadline)}; then anyone can apply the timeout.`]
}
