/** Shared helpers for the example-contract tests: inputs, traces, round trips and reference files. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'vitest'
import {
  isJsonObject,
  newJsonObject,
  parseJson,
  stringifyJson,
  type JsonValue
} from '../../../../src/core/json/lossless'
import { ExampleParameterError } from '../../../../src/core/marlowe/examples'
import { parseContract, stringifyContract } from '../../../../src/core/marlowe/json'
import { next, type ApplicableInputs } from '../../../../src/core/marlowe/next'
import { decodeMarloweData, encodeMarloweData } from '../../../../src/core/marlowe/plutus/marlowe-data'
import { playTrace } from '../../../../src/core/marlowe/semantics'
import {
  ADA,
  emptyState,
  type Contract,
  type Input,
  type MarloweData,
  type Party,
  type Payment,
  type Token,
  type TransactionInput,
  type TransactionSuccess
} from '../../../../src/core/marlowe/types'
import { vectorsDir } from '../../../support/vectors'

export { ADA }
export const role = (name: string): Party => ({ type: 'Role', role: name })
export const DOLLAR: Token = {
  currencySymbol: '14696a4676909f4e3cb1f2e60e2e08e5abed70caf5c02699be971130',
  tokenName: 'dollar'
}
export const ADDRESS_TEXT = 'addr_test1vrssw4edcts00kk6lp7p5n64666m23tpprqaarmdwkaq69gfvqnpz'
export const ADDRESS: Party = { type: 'Address', address: ADDRESS_TEXT }
/** 2^64 + 1: far beyond what a JavaScript number holds exactly. */
export const HUGE = 18446744073709551617n

export function deposit(account: Party, party: Party, token: Token, amount: bigint): Input {
  return { content: { type: 'IDeposit', account, party, token, amount } }
}

export function choose(name: string, owner: Party, chosen: bigint): Input {
  return { content: { type: 'IChoice', choice: { name, owner }, chosen } }
}

/** A transaction valid at the single instant `at`. */
export function tx(at: bigint, ...inputs: Input[]): TransactionInput {
  return { interval: { from: at, to: at }, inputs }
}

export function toParty(from: Party, to: Party, token: Token, amount: bigint): Payment {
  return { from, to: { type: 'Party', party: to }, token, amount }
}

export function toAccount(from: Party, to: Party, token: Token, amount: bigint): Payment {
  return { from, to: { type: 'Account', account: to }, token, amount }
}

/** Plays the whole trace from an empty state, expecting success, no warnings and a closed contract. */
export function playToClose(contract: Contract, txs: readonly TransactionInput[], minTime = 0n): TransactionSuccess {
  const out = playTrace(minTime, contract, txs)
  if (out.type === 'Error') throw new Error(`trace failed: ${out.error.type}`)
  expect(out.warnings).toEqual([])
  expect(out.contract).toEqual({ type: 'Close' })
  expect(out.state.accounts).toEqual([])
  return out
}

/** What the contract accepts at `at`, from the empty state. */
export function firstInputs(contract: Contract, at: bigint): ApplicableInputs {
  const result = next({ timeInterval: { from: at, to: at } }, emptyState(0n), contract)
  if (result.type !== 'Next') throw new Error(`next failed: ${result.error.type}`)
  expect(result.canReduce).toBe(false)
  return result.applicableInputs
}

const ROLES_CURRENCY = 'ab'.repeat(28)

export function expectRoundTrips(contract: Contract): void {
  expect(parseContract(stringifyContract(contract))).toEqual(contract)
  const datum: MarloweData = { params: { rolesCurrency: ROLES_CURRENCY }, state: emptyState(0n), contract }
  expect(decodeMarloweData(encodeMarloweData(datum))).toEqual(datum)
}

export function expectParameterError(build: () => unknown, parameter: string, reason: string): void {
  let thrown: unknown
  try {
    build()
  } catch (e) {
    thrown = e
  }
  expect(thrown).toBeInstanceOf(ExampleParameterError)
  const error = thrown as ExampleParameterError
  expect(error.parameter).toBe(parameter)
  expect(error.message).toContain(`${parameter}: `)
  expect(error.message).toContain(reason)
}

export function readReference(file: string): string {
  return readFileSync(join(vectorsDir, 'reference', file), 'utf8')
}

/**
 * The reference `.contract` files keep their authors' key order; stringifyContract writes keys alphabetically, as
 * Aeson does. Re-serialise the file losslessly with sorted keys, optionally folding constant arithmetic.
 */
export function canonicalJson(text: string, foldConstants = false): string {
  return stringifyJson(canonical(parseJson(text), foldConstants))
}

function canonical(v: JsonValue, fold: boolean): JsonValue {
  if (Array.isArray(v)) return v.map((item) => canonical(item, fold))
  if (!isJsonObject(v)) return v
  const out = newJsonObject()
  for (const key of Object.keys(v).sort()) out[key] = canonical(v[key] as JsonValue, fold)
  if (!fold) return out
  const keys = Object.keys(out).join(',')
  const [a, b] = keys === 'multiply,times' ? [out.multiply, out.times] : keys === 'add,and' ? [out.add, out.and] : []
  if (typeof a !== 'bigint' || typeof b !== 'bigint') return out
  return keys === 'multiply,times' ? a * b : a + b
}

/** The contract of the first path in a reference `.paths` file, exactly as Aeson wrote it. */
export function referencePathContract(file: string): string {
  const paths = parseJson(readReference(file))
  const first = Array.isArray(paths) ? paths[0] : undefined
  if (first === undefined || !isJsonObject(first) || first.contract === undefined) throw new Error(`${file}: no path`)
  return stringifyJson(first.contract)
}
