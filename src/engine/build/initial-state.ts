/**
 * The initial Marlowe state of a create (Runtime's `initialMarloweStateV1`): the creator's address account
 * holds the min-UTxO deposit (and the thread token, with open roles), merged with the user's initial accounts,
 * ordered by account then token as Runtime's maps order them.
 */
import { bech32 } from '@scure/base'
import type { ProtocolParameters } from '../../chain/provider'
import { bytesToHex, utf8Encode } from '../../core/bytes'
import { ADA, type AccountKey, type Party, type State, type Token } from '../../core/marlowe/types'
import { minAdaBound } from './min-utxo'
import type { InitialAccount } from './types'
import { sumValues, tokenValue, withLovelace } from './values'

/** Runtime never puts less than this in the creator's account. */
export const SAFE_LOVELACE = 750_000n
/** Runtime's deposit when the bound cannot be computed. */
const FALLBACK_LOVELACE = 30_000_000n

function addressBytesHex(address: string): string {
  const decoded = bech32.decode(address as `${string}1${string}`, 1023)
  return bytesToHex(bech32.fromWords(decoded.words))
}

function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

const nameHex = (s: string): string => bytesToHex(utf8Encode(s) ?? new Uint8Array())

function compareParties(a: Party, b: Party): number {
  if (a.type !== b.type) return a.type === 'Address' ? -1 : 1
  if (a.type === 'Address' && b.type === 'Address')
    return compareBytes(addressBytesHex(a.address), addressBytesHex(b.address))
  return compareBytes(nameHex((a as { role: string }).role), nameHex((b as { role: string }).role))
}

function compareTokens(a: Token, b: Token): number {
  return compareBytes(a.currencySymbol, b.currencySymbol) || compareBytes(nameHex(a.tokenName), nameHex(b.tokenName))
}

function sameKey(a: AccountKey, b: AccountKey): boolean {
  return compareParties(a.account, b.account) === 0 && compareTokens(a.token, b.token) === 0
}

/** The creator's deposit: at least `minAda` and 0.75 ada, raised to the min-UTxO of the initial tokens. */
export function creatorDeposit(
  pp: ProtocolParameters,
  accounts: readonly InitialAccount[],
  threadToken: Token | undefined,
  minAda: bigint
): bigint {
  const tokens = sumValues([
    ...accounts.filter((a) => a.token.currencySymbol !== '').map((a) => tokenValue(a.token, a.amount)),
    ...(threadToken === undefined ? [] : [tokenValue(threadToken, 1n)])
  ])
  const lovelace = minAda > SAFE_LOVELACE ? minAda : SAFE_LOVELACE
  const bound = minAdaBound(pp, withLovelace(tokens, lovelace)) ?? FALLBACK_LOVELACE
  return bound > lovelace ? bound : lovelace
}

/** The creator's account (`deposit` lovelace, and the thread token) merged with the initial accounts. */
export function initialState(
  creator: string,
  accounts: readonly InitialAccount[],
  threadToken: Token | undefined,
  deposit: bigint
): State {
  const creatorParty: Party = { type: 'Address', address: creator }
  const entries: [AccountKey, bigint][] = [[{ account: creatorParty, token: ADA }, deposit]]
  if (threadToken !== undefined) entries.push([{ account: creatorParty, token: threadToken }, 1n])
  for (const a of accounts) {
    const key = { account: a.party, token: a.token }
    const existing = entries.find(([k]) => sameKey(k, key))
    if (existing === undefined) entries.push([key, a.amount])
    else existing[1] += a.amount
  }
  entries.sort(([a], [b]) => compareParties(a.account, b.account) || compareTokens(a.token, b.token))
  return { accounts: entries, choices: [], boundValues: [], minTime: 0n }
}
