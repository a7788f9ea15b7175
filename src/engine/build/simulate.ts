/**
 * Runtime's transaction simulation (`Safety.hs: checkTransactions`), approximated: walk the contract's execution
 * paths — every case of every `When` with a representative input, and every timeout — and report semantics
 * warnings (`TransactionWarning`) and continuing outputs the ledger would refuse for their min-UTxO
 * (`TransactionValidationError`). Runtime finds its paths with an SMT search; this walk instead takes the
 * deposit a case asks for, the lowest choice it allows, and notifies that hold. The walk stops after a fixed
 * number of transactions, of bytes of datums encoded or of bytes of errors reported, and then reports `SafetyAnalysisTimeout`, as Runtime does past its
 * time limit. A value beyond the core's limit on any path ends the walk with a `ValueTooLargeError` naming its
 * path in the contract. Along the way it keeps the transactions likeliest to be the costliest to run on chain (the most
 * parties paid, the largest datum spent) for the cost check (./cost-check.ts).
 */
import type { ProtocolParameters } from '../../chain/provider'
import { stringifyJson, type JsonObject } from '../../core/json/lossless'
import {
  encodeContract,
  encodeState,
  encodeTransactionInput,
  encodeTransactionOutput,
  encodeWarning
} from '../../core/marlowe/json'
import { datumHash } from '../../core/marlowe/plutus/hash'
import { ValueTooLargeError } from '../../core/marlowe/limits'
import { encodeMarloweData } from '../../core/marlowe/plutus/marlowe-data'
import {
  computeTransaction,
  evalObservation,
  evalValue,
  reduceContractUntilQuiescent
} from '../../core/marlowe/semantics'
import type {
  Action,
  Contract,
  Input,
  MarloweData,
  State,
  TransactionInput,
  TransactionSuccess
} from '../../core/marlowe/types'
import { requiredLovelace } from './min-utxo'
import type { SafetyError } from './safety'
import { payoutsByParty, stateValue } from './validator-rules'

export const DEFAULT_MAX_TRANSACTIONS = 2000

/**
 * Bytes of continuing datums the walk may encode and hash for the min-UTxO check: a chain of 1,000 `When`s asks
 * for 22 MB of them. 8 MB is about half a second; the example contracts use a few kilobytes.
 */
export const DEFAULT_MAX_DATUM_BYTES = 8 * 1024 * 1024

/**
 * Bytes of JSON the reported errors may take. Each error carries its whole transaction, whose output lists every
 * warning, so the K warnings of one transaction write it K times: a 17 KB contract of 400 `Let`s asked for a
 * 15 MB answer and 11 s. Writing 1 MB of it out takes about a quarter of a second.
 */
export const DEFAULT_MAX_REPORT_BYTES = 1024 * 1024

/** At least what one warning adds to a transaction's JSON (`{"shadowing":"x","had_value":0,…}` is 51 bytes). */
const MIN_WARNING_BYTES = 40

/** How many transactions the walk keeps by each measure of cost (parties paid, datum bytes spent). */
export const COSTLIEST_PER_MEASURE = 3

/** A transaction of the walk, kept as a candidate for the cost check. */
export interface SimulatedTx {
  readonly state: State
  readonly contract: Contract
  readonly input: TransactionInput
  readonly output: TransactionSuccess
  /** Bytes of the datum it spends. */
  readonly datumBytes: number
  /** Parties it pays, each an output of its own. */
  readonly payouts: number
}

/** The validator's work grows with the outputs it checks payouts against, and with the datum it decodes. */
const byPayouts = (a: SimulatedTx, b: SimulatedTx): number => b.payouts - a.payouts || b.datumBytes - a.datumBytes
const byDatumBytes = (a: SimulatedTx, b: SimulatedTx): number => b.datumBytes - a.datumBytes || b.payouts - a.payouts

/** Inserts `tx` in `list` (sorted by `order`) and keeps the first `COSTLIEST_PER_MEASURE`. */
function keep(list: SimulatedTx[], tx: SimulatedTx, order: (a: SimulatedTx, b: SimulatedTx) => number): void {
  const at = list.findIndex((other) => order(tx, other) < 0)
  if (at === -1) list.push(tx)
  else list.splice(at, 0, tx)
  if (list.length > COSTLIEST_PER_MEASURE) list.pop()
}

interface Walk {
  readonly pp: ProtocolParameters
  readonly rolesCurrency: string
  readonly marloweAddress: string
  readonly errors: SafetyError[]
  readonly mostPayouts: SimulatedTx[]
  readonly largestDatums: SimulatedTx[]
  transactions: number
  datumBytes: number
  reportBytes: number
  truncated: boolean
}

export function transactionJson(
  state: State,
  contract: Contract,
  input: TransactionInput,
  output: TransactionSuccess
): JsonObject {
  return {
    state: encodeState(state),
    contract: encodeContract(contract),
    input: encodeTransactionInput(input),
    output: encodeTransactionOutput(output)
  }
}

/** The input a case takes in this walk, or undefined when it cannot be taken now. */
function representativeInput(action: Action, state: State, time: bigint): Input | undefined {
  const env = { timeInterval: { from: time, to: time } }
  switch (action.type) {
    case 'Deposit':
      return {
        content: {
          type: 'IDeposit',
          account: action.account,
          party: action.party,
          token: action.token,
          amount: evalValue(env, state, action.value)
        }
      }
    case 'Choice': {
      const bound = action.bounds[0]
      return bound === undefined
        ? undefined
        : { content: { type: 'IChoice', choice: action.choice, chosen: bound.from } }
    }
    case 'Notify':
      return evalObservation(env, state, action.observation) ? { content: { type: 'INotify' } } : undefined
  }
}

interface Continuing {
  /** The min-UTxO its output needs, if it holds less. */
  readonly needed?: bigint
  /** Bytes of its datum (0 for a closed contract). */
  readonly datumBytes: number
}

/** The continuing output of `output`; `false` when encoding its datum used up the walk's datum budget. */
function continuing(walk: Walk, output: TransactionSuccess): Continuing | false {
  if (output.contract.type === 'Close') return { datumBytes: 0 }
  const datum: MarloweData = {
    params: { rolesCurrency: walk.rolesCurrency },
    state: output.state,
    contract: output.contract
  }
  const bytes = encodeMarloweData(datum)
  if (bytes.length > walk.datumBytes) {
    walk.truncated = true
    return false
  }
  walk.datumBytes -= bytes.length
  const value = stateValue(output.state)
  const shape = { address: walk.marloweAddress, value, datumHash: datumHash(bytes) }
  const needed = requiredLovelace(walk.pp, shape)
  return needed > value.lovelace ? { needed, datumBytes: bytes.length } : { datumBytes: bytes.length }
}

/**
 * The errors of one transaction, each carrying it, as many as the walk's report has room for; false when that
 * was not all of them.
 */
function report(
  walk: Walk,
  output: TransactionSuccess,
  needed: bigint | undefined,
  transaction: () => JsonObject
): boolean {
  if (output.warnings.length === 0 && needed === undefined) return true
  // A lower bound on one error's size first, so that a transaction with thousands of warnings is never written out.
  if (output.warnings.length * MIN_WARNING_BYTES > walk.reportBytes) {
    walk.truncated = true
    return false
  }
  const json = transaction()
  const errors: SafetyError[] = output.warnings.map(
    (warning) =>
      ({
        error: 'TransactionWarning',
        detail: 'A Marlowe semantics warning is reported for this transaction.',
        transaction: json,
        warning: encodeWarning(warning),
        fatal: false
      }) as SafetyError
  )
  if (needed !== undefined) {
    errors.push({
      error: 'TransactionValidationError',
      detail: 'This transaction fails to validate on the ledger.',
      transaction: json,
      message: `The Marlowe output would hold ${stateValue(output.state).lovelace} lovelace, below its min-UTxO of ${needed}.`,
      fatal: true
    } as SafetyError)
  }
  const size = stringifyJson(json).length
  const fits = Math.min(errors.length, Math.floor(walk.reportBytes / size))
  walk.reportBytes -= fits * size
  walk.errors.push(...errors.slice(0, fits))
  if (fits < errors.length) walk.truncated = true
  return !walk.truncated
}

function visit(walk: Walk, state: State, contract: Contract, datumBytes: number, input: TransactionInput): void {
  if (walk.truncated) return
  const output = computeTransaction(input, state, contract)
  if (output.type === 'Error') return
  if (walk.transactions === 0) {
    walk.truncated = true
    return
  }
  walk.transactions -= 1
  const tx: SimulatedTx = {
    state,
    contract,
    input,
    output,
    datumBytes,
    payouts: payoutsByParty(output.payments).length
  }
  if (tx.payouts > 0) keep(walk.mostPayouts, tx, byPayouts)
  keep(walk.largestDatums, tx, byDatumBytes)
  const next = continuing(walk, output)
  if (next === false || !report(walk, output, next.needed, () => transactionJson(state, contract, input, output))) {
    return
  }
  explore(walk, output.state, output.contract, next.datumBytes, input.interval.from)
}

/** Every transaction that can follow from (state, contract) at `time`: each case now, then the timeout. */
function explore(walk: Walk, state: State, contract: Contract, datumBytes: number, time: bigint): void {
  if (contract.type === 'Close') return
  const now = time > state.minTime ? time : state.minTime
  const reduced = reduceContractUntilQuiescent({ timeInterval: { from: now, to: now } }, state, contract)
  if (reduced.type !== 'ContractQuiescent') return
  const quiescent = reduced.contract
  if (quiescent.type !== 'When') {
    // Nothing to wait for: one transaction (no inputs) pays out and closes.
    visit(walk, state, contract, datumBytes, { interval: { from: now, to: now }, inputs: [] })
    return
  }
  for (const aCase of quiescent.cases) {
    if (aCase.type !== 'Case') continue
    const input = representativeInput(aCase.action, reduced.state, now)
    if (input !== undefined) {
      visit(walk, state, contract, datumBytes, { interval: { from: now, to: now }, inputs: [input] })
    }
  }
  visit(walk, state, contract, datumBytes, {
    interval: { from: quiescent.timeout, to: quiescent.timeout },
    inputs: []
  })
}

export interface SimulationInput {
  readonly pp: ProtocolParameters
  readonly datum: MarloweData
  readonly marloweAddress: string
  readonly maxTransactions?: number
  readonly maxDatumBytes?: number
  readonly maxReportBytes?: number
}

export interface Simulation {
  readonly errors: SafetyError[]
  /** The transactions paying the most parties and those spending the largest datums, without repeats. */
  readonly costliest: SimulatedTx[]
}

export function simulateTransactions(input: SimulationInput): Simulation {
  const walk: Walk = {
    pp: input.pp,
    rolesCurrency: input.datum.params.rolesCurrency,
    marloweAddress: input.marloweAddress,
    errors: [],
    mostPayouts: [],
    largestDatums: [],
    transactions: input.maxTransactions ?? DEFAULT_MAX_TRANSACTIONS,
    datumBytes: input.maxDatumBytes ?? DEFAULT_MAX_DATUM_BYTES,
    reportBytes: input.maxReportBytes ?? DEFAULT_MAX_REPORT_BYTES,
    truncated: false
  }
  const { state, contract } = input.datum
  try {
    explore(walk, state, contract, encodeMarloweData(input.datum).length, state.minTime)
  } catch (e) {
    // Found below by the step's own contract; the path that helps is the one in the whole contract.
    throw e instanceof ValueTooLargeError ? e.in(contract) : e
  }
  if (walk.truncated) {
    walk.errors.push({
      error: 'SafetyAnalysisTimeout',
      detail: 'The safety analysis exceeded the allotted time.',
      fatal: false
    } as SafetyError)
  }
  return { errors: walk.errors, costliest: [...new Set([...walk.mostPayouts, ...walk.largestDatums])] }
}
