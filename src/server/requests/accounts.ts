/**
 * A create request's `accounts` → the engine's initial accounts (Runtime's `FromDTO Accounts`): every
 * balance positive, no empty account; failures are "Invalid initial accounts".
 */
import type { z } from 'zod'
import { utf8Length } from '../../core/bytes'
import { MAX_ASSET_NAME_BYTES } from '../../core/marlowe/json'
import { ADA, type Party } from '../../core/marlowe/types'
import type { InitialAccount } from '../../engine/build'
import { parseAddress, type NetworkId } from './addresses'
import { invalid } from './errors'
import { childPath } from './problems'
import type { assets } from './schemas'

const ACCOUNTS = 'Invalid initial accounts'
/**
 * Runtime reads a key that does not parse as an address as a role name, so a mistyped address would open
 * a role account nobody holds; keys that look like addresses must be valid ones.
 */
const ADDRESS_LIKE = /^addr(?:_test)?1/i

function assetName(name: string, where: string, what: string): string {
  const bytes = utf8Length(name)
  if (bytes < 0) throw invalid(ACCOUNTS, where, `the ${what} is not valid Unicode text`)
  if (bytes > MAX_ASSET_NAME_BYTES) {
    throw invalid(ACCOUNTS, where, `the ${what} is ${bytes} bytes in UTF-8, over the limit of ${MAX_ASSET_NAME_BYTES}`)
  }
  return name
}

function party(key: string, where: string, networkId: NetworkId | undefined): Party {
  if (ADDRESS_LIKE.test(key)) {
    return { type: 'Address', address: parseAddress(key, networkId, (reason) => invalid(ACCOUNTS, where, reason)) }
  }
  return { type: 'Role', role: assetName(key, where, 'role name') }
}

function account(owner: Party, dto: z.output<typeof assets>, where: string): InitialAccount[] {
  if (dto.lovelace < 0n) throw invalid(ACCOUNTS, childPath(where, 'lovelace'), 'a balance must not be negative')
  const out: InitialAccount[] = dto.lovelace > 0n ? [{ party: owner, token: ADA, amount: dto.lovelace }] : []
  const tokensAt = childPath(where, 'tokens')
  for (const [policy, names] of Object.entries(dto.tokens ?? {})) {
    for (const [name, amount] of Object.entries(names)) {
      const at = childPath(childPath(tokensAt, policy), name)
      if (amount <= 0n) throw invalid(ACCOUNTS, at, 'a token balance must be positive')
      const token = { currencySymbol: policy.toLowerCase(), tokenName: assetName(name, at, 'token name') }
      out.push({ party: owner, token, amount })
    }
  }
  if (out.length === 0) throw invalid(ACCOUNTS, where, 'the account is empty: give it lovelace or tokens')
  return out
}

export function toInitialAccounts(
  dto: Readonly<Record<string, z.output<typeof assets>>>,
  where: string,
  networkId?: NetworkId
): InitialAccount[] {
  return Object.entries(dto).flatMap(([key, value]) => {
    const at = childPath(where, key)
    return account(party(key, at, networkId), value, at)
  })
}
