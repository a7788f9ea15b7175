/**
 * Runtime's transaction simulation (`Safety.hs: checkTransactions`), approximated: walk the contract's execution
 * paths — every case of every `When` with a representative input, and every timeout — and report semantics
 * warnings (`TransactionWarning`) and continuing outputs the ledger would refuse for their min-UTxO
 * (`TransactionValidationError`). Runtime finds its paths with an SMT search; this walk instead takes the
 * deposit a case asks for, the lowest choice it allows, and notifies that hold. The walk stops after a fixed
 * number of transactions and then reports `SafetyAnalysisTimeout`, as Runtime does past its time limit.
 */
import type { ProtocolParameters } from '../../chain/provider'
import type { JsonObject } from '../../core/json/lossless'
import {
  encodeContract,
  encodeState,
  encodeTransactionInput,
  encodeTransactionOutput,
  encodeWarning
} from '../../core/marlowe/json/encode'
import { datumHash } from '../../core/marlowe/plutus/hash'
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
import { withCsl } from '../../csl'
import { requiredLovelace } from './min-utxo'
import type { SafetyError } from './safety'
import { stateValue } from './validator-rules'

export const DEFAULT_MAX_TRANSACTIONS = 2000

interface Walk {
  readonly pp: ProtocolParameters
  readonly rolesCurrency: string
  readonly marloweAddress: string
  readonly errors: SafetyError[]
  budget: number
  truncated: boolean
}

function transactionJson(
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

/** The min-UTxO the continuing output of `output` needs, if it holds less. */
function outputShortfall(walk: Walk, output: TransactionSuccess): bigint | undefined {
  if (output.contract.type === 'Close') return undefined
  const datum: MarloweData = {
    params: { rolesCurrency: walk.rolesCurrency },
    state: output.state,
    contract: output.contract
  }
  const value = stateValue(output.state)
  const shape = { address: walk.marloweAddress, value, datumHash: datumHash(encodeMarloweData(datum)) }
  const needed = withCsl((scope) => requiredLovelace(scope, walk.pp, shape))
  return needed > value.lovelace ? needed : undefined
}

function visit(walk: Walk, state: State, contract: Contract, input: TransactionInput): void {
  const output = computeTransaction(input, state, contract)
  if (output.type === 'Error') return
  if (walk.budget === 0) {
    walk.truncated = true
    return
  }
  walk.budget -= 1
  const transaction = () => transactionJson(state, contract, input, output)
  for (const warning of output.warnings) {
    walk.errors.push({
      error: 'TransactionWarning',
      detail: 'A Marlowe semantics warning is reported for this transaction.',
      transaction: transaction(),
      warning: encodeWarning(warning),
      fatal: false
    } as SafetyError)
  }
  const needed = outputShortfall(walk, output)
  if (needed !== undefined) {
    walk.errors.push({
      error: 'TransactionValidationError',
      detail: 'This transaction fails to validate on the ledger.',
      transaction: transaction(),
      message: `The Marlowe output would hold ${stateValue(output.state).lovelace} lovelace, below its min-UTxO of ${needed}.`,
      fatal: true
    } as SafetyError)
  }
  explore(walk, output.state, output.contract, input.interval.from)
}

/** Every transaction that can follow from (state, contract) at `time`: each case now, then the timeout. */
function explore(walk: Walk, state: State, contract: Contract, time: bigint): void {
  if (contract.type === 'Close') return
  const now = time > state.minTime ? time : state.minTime
  const reduced = reduceContractUntilQuiescent({ timeInterval: { from: now, to: now } }, state, contract)
  if (reduced.type !== 'ContractQuiescent') return
  const quiescent = reduced.contract
  if (quiescent.type !== 'When') {
    // Nothing to wait for: one transaction (no inputs) pays out and closes.
    visit(walk, state, contract, { interval: { from: now, to: now }, inputs: [] })
    return
  }
  for (const aCase of quiescent.cases) {
    if (aCase.type !== 'Case') continue
    const input = representativeInput(aCase.action, reduced.state, now)
    if (input !== undefined) visit(walk, state, contract, { interval: { from: now, to: now }, inputs: [input] })
  }
  visit(walk, state, contract, { interval: { from: quiescent.timeout, to: quiescent.timeout }, inputs: [] })
}

export interface SimulationInput {
  readonly pp: ProtocolParameters
  readonly datum: MarloweData
  readonly marloweAddress: string
  readonly maxTransactions?: number
}

export function simulateTransactions(input: SimulationInput): SafetyError[] {
  const walk: Walk = {
    pp: input.pp,
    rolesCurrency: input.datum.params.rolesCurrency,
    marloweAddress: input.marloweAddress,
    errors: [],
    budget: input.maxTransactions ?? DEFAULT_MAX_TRANSACTIONS,
    truncated: false
  }
  explore(walk, input.datum.state, input.datum.contract, input.datum.state.minTime)
  if (walk.truncated) {
    walk.errors.push({
      error: 'SafetyAnalysisTimeout',
      detail: 'The safety analysis exceeded the allotted time.',
      fatal: false
    } as SafetyError)
  }
  return walk.errors
}
