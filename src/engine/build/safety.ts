/**
 * Runtime's static safety checks (`Safety.hs: checkContract`, `Analysis/Safety/Ledger.hs`): minting versus
 * roles used, role names, tokens, merkleized continuations, networks and addresses, in Runtime's order and
 * JSON form (`{"error", "detail", "fatal", …}`).
 */
import { bytesToHex, utf8Encode } from '../../core/bytes'
import { AddressError, formatShelleyAddress, parseShelleyAddress } from '../../core/cardano/address'
import { stringifyJson, type JsonObject, type JsonValue } from '../../core/json/lossless'
import { encodeToken } from '../../core/marlowe/json'
import type { ValueTooLargeError } from '../../core/marlowe/limits'
import type { Contract, State, Token } from '../../core/marlowe/types'
import { contractFacts } from '../../core/marlowe/analysis'

export type SafetyError = JsonObject & { readonly error: string; readonly detail: string; readonly fatal: boolean }

/** What the create request says about role tokens; absent for an apply (Runtime passes `Nothing`). */
export type RolesCheck =
  | { readonly type: 'None' }
  | { readonly type: 'Mint'; readonly roles: readonly string[] }
  | { readonly type: 'UsePolicy'; readonly distributed: readonly string[] }

const MAX_NAME_BYTES = 32
const POLICY_HEX_LENGTH = 56

function safetyError(
  error: string,
  detail: string,
  fatal: boolean,
  extra: Record<string, JsonValue> = {}
): SafetyError {
  return { error, detail, ...extra, fatal } as SafetyError
}

const missingRolesCurrency = (): SafetyError =>
  safetyError('MissingRolesCurrency', 'Roles are present in the contract, but no roles currency was specified.', true)
const contractHasNoRoles = (): SafetyError =>
  safetyError('ContractHasNoRoles', 'No roles are present in the contract, but a roles currency was specified.', false)

const utf8Hex = (s: string): string => bytesToHex(utf8Encode(s) ?? new Uint8Array())
const utf8Bytes = (s: string): number => utf8Encode(s)?.length ?? Number.POSITIVE_INFINITY
const byBytes = (a: string, b: string): number => {
  const ha = utf8Hex(a)
  const hb = utf8Hex(b)
  return ha < hb ? -1 : ha > hb ? 1 : 0
}
const sortedSet = (names: Iterable<string>): string[] => [...new Set(names)].sort(byBytes)

function checkMinting(config: RolesCheck, roles: readonly string[]): SafetyError[] {
  if (config.type === 'None') return roles.length > 0 ? [missingRolesCurrency()] : []
  if (roles.length === 0) return [contractHasNoRoles()]
  const used = new Set(roles)
  if (config.type === 'Mint') {
    const minted = new Set(config.roles)
    const missing = sortedSet(roles.filter((r) => !minted.has(r))).map((r) =>
      safetyError(
        'MissingRoleToken',
        'This role name is present in the contract, but that role token was not specified for minting.',
        true,
        { 'role-name': r }
      )
    )
    const extra = sortedSet(config.roles.filter((r) => !used.has(r))).map(extraRoleToken)
    return [...missing, ...extra]
  }
  return sortedSet(config.distributed.filter((r) => !used.has(r))).map(extraRoleToken)
}

function extraRoleToken(role: string): SafetyError {
  return safetyError(
    'ExtraRoleToken',
    'This role token was specified for minting, but that role is not present in the contract.',
    false,
    { 'role-name': role }
  )
}

function checkRoleNames(hasRolesCurrency: boolean, roles: readonly string[]): SafetyError[] {
  if (!hasRolesCurrency && roles.length > 0) return [missingRolesCurrency()]
  return sortedSet(roles)
    .filter((r) => utf8Bytes(r) > MAX_NAME_BYTES)
    .map((r) =>
      safetyError('RoleNameTooLong', 'This role name is longer than the 32 bytes allowed by the ledger rules.', true, {
        'role-name': r
      })
    )
}

function compareTokens(a: Token, b: Token): number {
  if (a.currencySymbol !== b.currencySymbol) return a.currencySymbol < b.currencySymbol ? -1 : 1
  return byBytes(a.tokenName, b.tokenName)
}

function checkTokens(tokens: readonly Token[]): SafetyError[] {
  const out: SafetyError[] = []
  for (const token of [...tokens].sort(compareTokens)) {
    if (token.currencySymbol === '') {
      if (token.tokenName !== '') {
        out.push(
          safetyError('InvalidToken', 'This token associates a name with the ada currency symbol.', true, {
            token: encodeToken(token)
          })
        )
      }
    } else if (token.currencySymbol.length !== POLICY_HEX_LENGTH) {
      out.push(
        safetyError(
          'InvalidCurrencySymbol',
          'This currency symbol is not the 28-bytes required by the ledger rules.',
          true,
          { 'currency-symbol': token.currencySymbol }
        )
      )
    } else if (utf8Bytes(token.tokenName) > MAX_NAME_BYTES) {
      out.push(
        safetyError(
          'TokenNameTooLong',
          'This token name is longer than the 32 bytes allowed by the ledger rules.',
          true,
          { 'token-name': token.tokenName }
        )
      )
    }
  }
  return out
}

function checkNetworks(mainnet: boolean, addresses: readonly string[]): SafetyError[] {
  const networks = new Set<boolean>()
  for (const a of addresses) {
    try {
      networks.add(parseShelleyAddress(a).mainnet)
    } catch (e) {
      if (!(e instanceof AddressError)) throw e
    }
  }
  const out: SafetyError[] = []
  if ([...networks].some((n) => n !== mainnet)) {
    out.push(
      safetyError(
        'WrongNetwork',
        'The contract contains addresses that are do not match the network on which it will be executed.',
        true
      )
    )
  }
  if (networks.size > 1) {
    out.push(safetyError('InconsistentNetworks', 'The contract contains both mainnet and testnet addresses.', true))
  }
  return out
}

function checkAddresses(addresses: readonly string[]): SafetyError[] {
  return addresses
    .filter((a) => {
      try {
        return formatShelleyAddress(parseShelleyAddress(a)) !== a
      } catch (e) {
        if (e instanceof AddressError) return true
        throw e
      }
    })
    .map((a) =>
      safetyError(
        'IllegalAddress',
        'The contract contains this address that is invalid for the network on which it will be executed.',
        true,
        { address: a }
      )
    )
}

/** Where the safety analysis met a value beyond the core's limit: no transaction on that path can be evaluated. */
export function valueTooLargeError(e: ValueTooLargeError): SafetyError {
  return safetyError(
    'ValueTooLarge',
    `A transaction of this contract computes a value of ${e.bits} bits, over the limit of ${e.limitBits} bits.`,
    true,
    { ...(e.path === undefined ? {} : { path: e.path }), bits: BigInt(e.bits), 'limit-bits': BigInt(e.limitBits) }
  )
}

export interface ContractCheckInput {
  readonly mainnet: boolean
  readonly rolesCurrency: string
  readonly state: State
  readonly contract: Contract
  readonly roles?: RolesCheck
  /** Merkleized continuations known by hash; Runtime reads them from its contract store. */
  readonly continuations?: ReadonlySet<string>
}

export function checkContract(input: ContractCheckInput): SafetyError[] {
  const facts = contractFacts(input.contract, input.state)
  const continuations = input.continuations ?? new Set<string>()
  const all = [
    ...(input.roles === undefined ? [] : checkMinting(input.roles, facts.roles)),
    ...checkRoleNames(input.rolesCurrency !== '', facts.roles),
    ...checkTokens(facts.tokens),
    ...facts.merkleHashes
      .filter((h) => !continuations.has(h))
      .map((hash) =>
        safetyError(
          'MissingContinuation',
          'The contract is missing a continuation that is not present in its map of continuations.',
          false,
          { hash }
        )
      ),
    ...checkNetworks(input.mainnet, facts.addresses),
    ...checkAddresses(facts.addresses)
  ]
  // Haskell `nub`: drop repeats, keep the first of each.
  const seen = new Set<string>()
  return all.filter((e) => {
    const key = stringifyJson(e)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
