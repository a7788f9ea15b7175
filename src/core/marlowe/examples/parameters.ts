/**
 * Parameter checks shared by the example contracts. A template form feeds these builders, so every rejection
 * names the offending parameter (as the caller spelled it, e.g. `second.depositDeadline`).
 */
import { AddressError, formatShelleyAddress, parseShelleyAddress } from '../../cardano/address'
import { partyEquals } from '../equality'
import type { Party, Token } from '../types'

export class ExampleParameterError extends Error {
  /** The parameter at fault, as a dotted path into the parameter object. */
  readonly parameter: string

  constructor(parameter: string, reason: string) {
    super(`${parameter}: ${reason}`)
    this.name = 'ExampleParameterError'
    this.parameter = parameter
  }
}

/** Ledger limit on asset names, which role names and token names both become. */
const MAX_NAME_BYTES = 32
const POLICY_ID = /^[0-9a-f]{56}$/
const utf8 = new TextEncoder()

export function requirePositive(name: string, value: bigint): void {
  if (value <= 0n) throw new ExampleParameterError(name, `must be positive, got ${value}`)
}

export function requireNonNegative(name: string, value: bigint): void {
  if (value < 0n) throw new ExampleParameterError(name, `must not be negative, got ${value}`)
}

export function requireCount(name: string, value: bigint, max: bigint): void {
  if (value < 1n || value > max) throw new ExampleParameterError(name, `must be between 1 and ${max}, got ${value}`)
}

export function requireTime(name: string, value: bigint): void {
  if (value < 0n) throw new ExampleParameterError(name, `must be a POSIX time in milliseconds, got ${value}`)
}

/** `later` must be strictly after `earlier`; the error names the later one, which is usually the one to fix. */
export function requireAfter(laterName: string, later: bigint, earlierName: string, earlier: bigint): void {
  if (later <= earlier) {
    throw new ExampleParameterError(laterName, `must be after ${earlierName} (${later} <= ${earlier})`)
  }
}

/** `later` may equal `earlier` but not precede it. */
export function requireNotBefore(laterName: string, later: bigint, earlierName: string, earlier: bigint): void {
  if (later < earlier) {
    throw new ExampleParameterError(laterName, `must not be before ${earlierName} (${later} < ${earlier})`)
  }
}

export function requireParty(name: string, party: Party): void {
  if (party.type === 'Role') {
    if (party.role === '') throw new ExampleParameterError(name, 'role name must not be empty')
    requireShortName(name, 'role name', party.role)
    return
  }
  let canonical: string
  try {
    canonical = formatShelleyAddress(parseShelleyAddress(party.address))
  } catch (e) {
    if (e instanceof AddressError) throw new ExampleParameterError(name, e.message)
    throw e
  }
  // Datum bytes and party equality are on the canonical text, so a differently cased address would not match.
  if (canonical !== party.address) throw new ExampleParameterError(name, `address must be written as ${canonical}`)
}

export function requireToken(name: string, token: Token): void {
  if (token.currencySymbol === '') {
    if (token.tokenName !== '') throw new ExampleParameterError(name, 'ada has an empty token name')
    return
  }
  if (!POLICY_ID.test(token.currencySymbol)) {
    throw new ExampleParameterError(name, 'currency symbol must be 56 lowercase hex digits, or empty for ada')
  }
  requireShortName(name, 'token name', token.tokenName)
}

/** Parties playing different roles in one contract must differ, or accounts and choices would merge. */
export function requireDistinctParties(parties: Readonly<Record<string, Party>>): void {
  const entries = Object.entries(parties)
  entries.forEach(([name, party], i) => {
    const earlier = entries.slice(0, i).find(([, other]) => partyEquals(other, party))
    if (earlier !== undefined) throw new ExampleParameterError(name, `must differ from ${earlier[0]}`)
  })
}

function requireShortName(name: string, what: string, text: string): void {
  const bytes = utf8.encode(text).length
  if (bytes > MAX_NAME_BYTES) {
    throw new ExampleParameterError(name, `${what} is ${bytes} bytes of UTF-8, at most ${MAX_NAME_BYTES} allowed`)
  }
}
