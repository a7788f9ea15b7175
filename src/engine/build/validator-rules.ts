/**
 * What the on-chain semantics validator demands beyond the semantics (marlowe-core.md §4), checked before
 * building so a tx that would fail on chain is refused with a reason: the spent state must match its UTxO,
 * payouts are merged per party, and the continuing value must balance exactly.
 */
import type { Value } from '../../core/cardano/value'
import { accountKeyEquals, choiceIdEquals, partyEquals } from '../../core/marlowe/equality'
import { merkleHash } from '../../core/marlowe/plutus/hash'
import type { Input, Party, Payment, State } from '../../core/marlowe/types'
import { addValues, sumValues, tokenValue, valuesEqual } from './values'

export function stateValue(state: State): Value {
  return sumValues(state.accounts.map(([key, amount]) => tokenValue(key.token, amount)))
}

function hasDuplicates<K>(keys: readonly K[], equals: (a: K, b: K) => boolean): boolean {
  return keys.some((k, i) => keys.findIndex((other) => equals(k, other)) !== i)
}

/** Why the validator would refuse this state for the UTxO holding it (trace codes v, b, ea, ec, eb), if it would. */
export function stateProblem(state: State, utxoValue: Value): string | undefined {
  if (!valuesEqual(stateValue(state), utxoValue)) return 'the accounts do not add up to the value of the UTxO'
  if (state.accounts.some(([, amount]) => amount <= 0n)) return 'an account balance is not positive'
  if (
    hasDuplicates(
      state.accounts.map(([k]) => k),
      accountKeyEquals
    )
  )
    return 'an account appears twice'
  if (
    hasDuplicates(
      state.choices.map(([k]) => k),
      choiceIdEquals
    )
  )
    return 'a choice appears twice'
  if (
    hasDuplicates(
      state.boundValues.map(([k]) => k),
      (a, b) => a === b
    )
  )
    return 'a bound value appears twice'
  return undefined
}

export interface PartyPayout {
  readonly party: Party
  readonly value: Value
}

/** Positive payments to parties, merged per party in order of first payment (the validator's AssocMap). */
export function payoutsByParty(payments: readonly Payment[]): PartyPayout[] {
  const out: { party: Party; value: Value }[] = []
  for (const p of payments) {
    if (p.to.type !== 'Party' || p.amount <= 0n) continue
    const party = p.to.party
    const value = tokenValue(p.token, p.amount)
    const existing = out.find((o) => partyEquals(o.party, party))
    if (existing === undefined) out.push({ party, value })
    else existing.value = addValues(existing.value, value)
  }
  return out
}

/** The value deposits bring in: positive IDeposit amounts. */
export function depositedValue(inputs: readonly Input[]): Value {
  return sumValues(
    inputs.flatMap((i) =>
      i.content.type === 'IDeposit' && i.content.amount > 0n ? [tokenValue(i.content.token, i.content.amount)] : []
    )
  )
}

/** The parties whose authorisation the inputs need, without repeats. */
export function actingParties(inputs: readonly Input[]): Party[] {
  const out: Party[] = []
  for (const { content } of inputs) {
    const party =
      content.type === 'IDeposit' ? content.party : content.type === 'IChoice' ? content.choice.owner : undefined
    if (party !== undefined && !out.some((p) => partyEquals(p, party))) out.push(party)
  }
  return out
}

/**
 * The first merkleized input whose revealed continuation does not hash to the hash it names. The validator
 * looks the named hash up among the transaction's datums (check h), and the builder puts the continuation
 * there: a continuation of another hash is never found, so the transaction would fail on chain.
 */
export function merkleizedMismatch(
  inputs: readonly Input[]
): { readonly index: number; readonly named: string; readonly actual: string } | undefined {
  for (const [index, input] of inputs.entries()) {
    if (input.merkleized === undefined) continue
    const actual = merkleHash(input.merkleized.continuation)
    if (actual !== input.merkleized.hash) return { index, named: input.merkleized.hash, actual }
  }
  return undefined
}
