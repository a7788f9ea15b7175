/**
 * Marlowe's Data (as CBOR) → the Marlowe model, the inverse of marlowe-to-data.ts, read in one pass with a
 * `DataCursor`. Errors are `PlutusDataError`s for malformed CBOR and `PlutusDecodeError`s naming the path of
 * the bad node, rooted at the name the caller gives (`datum`, `redeemer`, …).
 */
import type {
  AccountKey,
  Action,
  Bound,
  Case,
  ChoiceId,
  Contract,
  Input,
  InputContent,
  MarloweData,
  Observation,
  Party,
  Payee,
  PayoutDatum,
  State,
  Token,
  Value
} from '../types'
import { bytesEqual } from '../../bytes'
import { readAddressParty } from './address-data'
import { probeCbor, readCbor, type DataCursor } from './data-cursor'

/** Finds the continuation of a merkleized input by its hash (lowercase hex); the caller vouches for the match. */
export type ContinuationLookup = (hash: string) => Contract | undefined

const CONTRACT = ['Close', 'Pay', 'If', 'When', 'Let', 'Assert']
const VALUE = [
  'AvailableMoney',
  'Constant',
  'NegValue',
  'AddValue',
  'SubValue',
  'MulValue',
  'DivValue',
  'ChoiceValue',
  'TimeIntervalStart',
  'TimeIntervalEnd',
  'UseValue',
  'Cond'
]
const OBSERVATION = [
  'AndObs',
  'OrObs',
  'NotObs',
  'ChoseSomething',
  'ValueGE',
  'ValueGT',
  'ValueLT',
  'ValueLE',
  'ValueEQ',
  'TrueObs',
  'FalseObs'
]

const CASE = ['Case', 'MerkleizedCase']
const ACTION = ['Deposit', 'Choice', 'Notify']
const INPUT_CONTENT = ['IDeposit', 'IChoice', 'INotify']
const TX_INPUT = ['Input', 'MerkleizedTxInput']
const PARTY = ['Address', 'Role']
const PAYEE = ['Account', 'Party']

/**
 * `When` contracts decoded before, by their CBOR. A continuing datum's contract is part of the contract it
 * continues, and it is a `When` (the semantics stop at one; a closed contract continues nowhere): with the earlier
 * datum's contracts at hand, it is found by its bytes instead of read again, and it is the very model object the
 * semantics return, so comparing the two is immediate.
 */
export class DecodedContracts {
  private readonly byLength = new Map<number, Array<{ source: Uint8Array; start: number; contract: Contract }>>()

  /** Adds `contract`, read from `source[start, end)`. */
  add(source: Uint8Array, start: number, end: number, contract: Contract): void {
    const entry = { source, start, contract }
    const same = this.byLength.get(end - start)
    if (same === undefined) this.byLength.set(end - start, [entry])
    else same.push(entry)
  }

  find(bytes: Uint8Array): Contract | undefined {
    // Contracts of one length never nest, so the candidates compared add up to at most the bytes decoded.
    for (const { source, start, contract } of this.byLength.get(bytes.length) ?? []) {
      if (bytesEqual(source.subarray(start, start + bytes.length), bytes)) return contract
    }
    return undefined
  }
}

/** MarloweData from its CBOR; with `known`, its contract may come from there, and its parts are added to it. */
export function decodeMarloweData(bytes: Uint8Array, root = 'datum', known?: DecodedContracts): MarloweData {
  return readCbor(bytes, root, (c) => readMarloweData(c, '', known))
}

/** `decodeMarloweData` for bytes that may be another datum: undefined when they are not MarloweData. */
export function probeMarloweData(bytes: Uint8Array, known?: DecodedContracts): MarloweData | undefined {
  return probeCbor(bytes, 'datum', (c) => readMarloweData(c, '', known))
}

export function decodeContract(bytes: Uint8Array, root = 'contract'): Contract {
  return readCbor(bytes, root, (c) => readContract(c, ''))
}

/**
 * The semantics validator's redeemer. A merkleized input's continuation is not in the redeemer, so it is
 * taken from `continuations`; without it the input cannot be represented and decoding fails.
 */
export function decodeRedeemer(bytes: Uint8Array, continuations?: ContinuationLookup, root = 'redeemer'): Input[] {
  return readCbor(bytes, root, (c) => {
    const inputs: Input[] = []
    c.list('')
    while (c.more()) inputs.push(readTxInput(c, continuations))
    return inputs
  })
}

export function decodePayoutDatum(bytes: Uint8Array, root = 'payoutDatum'): PayoutDatum {
  return readCbor(bytes, root, readPayoutDatum)
}

/** `decodePayoutDatum` for bytes that may be another datum: undefined when they are not a payout datum. */
export function probePayoutDatum(bytes: Uint8Array): PayoutDatum | undefined {
  return probeCbor(bytes, 'payoutDatum', readPayoutDatum)
}

function readPayoutDatum(c: DataCursor): PayoutDatum {
  c.record('', 'PayoutDatum', 2)
  const datum = { rolesCurrency: c.hex('rolesCurrency'), role: c.text('role') }
  c.close()
  return datum
}

function readMarloweData(c: DataCursor, name: string, known: DecodedContracts | undefined): MarloweData {
  c.record(name, 'MarloweData', 3)
  c.record('params', 'MarloweParams', 1)
  const params = { rolesCurrency: c.hex('rolesCurrency') }
  c.close()
  const state = readState(c, 'state')
  const md = { params, state, contract: known === undefined ? readContract(c, 'contract') : readKnown(c, known) }
  c.close()
  return md
}

/**
 * The datum's contract, from `known` when its bytes are there. It is the root's last field, so it must fill the
 * rest of the input; equal to the bytes of a contract decoded before, it is that contract (CBOR items are
 * prefix-free), and nothing needs reading.
 */
function readKnown(c: DataCursor, known: DecodedContracts): Contract {
  const tail = c.rootTail()
  const found = known.find(tail)
  if (found === undefined) return readContract(c, 'contract', known)
  c.pass(tail.length)
  return found
}

function readContract(c: DataCursor, name: string, known?: DecodedContracts): Contract {
  const start = c.offset
  const index = c.constr(name, 'Contract', CONTRACT)
  let contract: Contract
  switch (index) {
    case 0:
      c.fields(0)
      contract = { type: 'Close' }
      break
    case 1:
      c.fields(5)
      contract = {
        type: 'Pay',
        from: readParty(c, 'from'),
        to: readPayee(c, 'to'),
        token: readToken(c, 'token'),
        value: readValue(c, 'value'),
        then: readContract(c, 'then', known)
      }
      break
    case 2:
      c.fields(3)
      contract = {
        type: 'If',
        observation: readObservation(c, 'observation'),
        then: readContract(c, 'then', known),
        else: readContract(c, 'else', known)
      }
      break
    case 3: {
      c.fields(3)
      const cases: Case[] = []
      c.list('cases')
      while (c.more()) cases.push(readCase(c, known))
      contract = {
        type: 'When',
        cases,
        timeout: c.integer('timeout'),
        timeoutContinuation: readContract(c, 'timeoutContinuation', known)
      }
      break
    }
    case 4:
      c.fields(3)
      contract = {
        type: 'Let',
        id: readValueId(c, 'id'),
        value: readValue(c, 'value'),
        then: readContract(c, 'then', known)
      }
      break
    default:
      c.fields(2)
      contract = {
        type: 'Assert',
        observation: readObservation(c, 'observation'),
        then: readContract(c, 'then', known)
      }
  }
  c.close()
  if (known !== undefined && contract.type === 'When') known.add(c.input, start, c.offset, contract)
  return contract
}

function readTxInput(c: DataCursor, continuations: ContinuationLookup | undefined): Input {
  const index = c.constr('', 'MarloweTxInput', TX_INPUT)
  if (index === 0) {
    c.fields(1)
    const input = { content: readInputContent(c, 'content') }
    c.close()
    return input
  }
  c.fields(2)
  const content = readInputContent(c, 'content')
  const hash = c.hex('hash')
  const continuation = continuations?.(hash)
  if (continuation === undefined) c.fail('hash', `no continuation was supplied for merkleized input ${hash}`)
  c.close()
  return { content, merkleized: { hash, continuation } }
}

function readState(c: DataCursor, name: string): State {
  c.record(name, 'State', 4)
  const accounts: Array<readonly [AccountKey, bigint]> = []
  c.map('accounts')
  while (c.more()) accounts.push([readAccountKey(c, 'key'), c.integer('value')])
  const choices: Array<readonly [ChoiceId, bigint]> = []
  c.map('choices')
  while (c.more()) choices.push([readChoiceId(c, 'key'), c.integer('value')])
  const boundValues: Array<readonly [string, bigint]> = []
  c.map('boundValues')
  while (c.more()) boundValues.push([readValueId(c, 'key'), c.integer('value')])
  const state = { accounts, choices, boundValues, minTime: c.integer('minTime') }
  c.close()
  return state
}

function readAccountKey(c: DataCursor, name: string): AccountKey {
  c.record(name, 'AccountKey', 2)
  const key = { account: readParty(c, 'account'), token: readToken(c, 'token') }
  c.close()
  return key
}

function readCase(c: DataCursor, known: DecodedContracts | undefined): Case {
  const index = c.constr('', 'Case', CASE)
  c.fields(2)
  const action = readAction(c, 'action')
  const result: Case =
    index === 0
      ? { type: 'Case', action, then: readContract(c, 'then', known) }
      : { type: 'MerkleizedCase', action, hash: c.hex('hash') }
  c.close()
  return result
}

function readAction(c: DataCursor, name: string): Action {
  const index = c.constr(name, 'Action', ACTION)
  let action: Action
  if (index === 0) {
    c.fields(4)
    action = {
      type: 'Deposit',
      account: readParty(c, 'account'),
      party: readParty(c, 'party'),
      token: readToken(c, 'token'),
      value: readValue(c, 'value')
    }
  } else if (index === 1) {
    c.fields(2)
    const choice = readChoiceId(c, 'choice')
    const bounds: Bound[] = []
    c.list('bounds')
    while (c.more()) bounds.push(readBound(c))
    action = { type: 'Choice', choice, bounds }
  } else {
    c.fields(1)
    action = { type: 'Notify', observation: readObservation(c, 'observation') }
  }
  c.close()
  return action
}

function readInputContent(c: DataCursor, name: string): InputContent {
  const index = c.constr(name, 'InputContent', INPUT_CONTENT)
  let content: InputContent
  if (index === 0) {
    c.fields(4)
    content = {
      type: 'IDeposit',
      account: readParty(c, 'account'),
      party: readParty(c, 'party'),
      token: readToken(c, 'token'),
      amount: c.integer('amount')
    }
  } else if (index === 1) {
    c.fields(2)
    content = { type: 'IChoice', choice: readChoiceId(c, 'choice'), chosen: c.integer('chosen') }
  } else {
    c.fields(0)
    content = { type: 'INotify' }
  }
  c.close()
  return content
}

function readValue(c: DataCursor, name: string): Value {
  const index = c.constr(name, 'Value', VALUE)
  let value: Value
  switch (index) {
    case 0:
      c.fields(2)
      value = { type: 'AvailableMoney', account: readParty(c, 'account'), token: readToken(c, 'token') }
      break
    case 1:
      c.fields(1)
      value = c.integer('constant')
      break
    case 2:
      c.fields(1)
      value = { type: 'NegValue', value: readValue(c, 'value') }
      break
    case 3:
    case 4:
    case 5:
    case 6: {
      c.fields(2)
      const type = VALUE_PAIRS[index - 3]!
      value = { type, left: readValue(c, 'left'), right: readValue(c, 'right') }
      break
    }
    case 7:
      c.fields(1)
      value = { type: 'ChoiceValue', choice: readChoiceId(c, 'choice') }
      break
    case 8:
      c.fields(0)
      value = { type: 'TimeIntervalStart' }
      break
    case 9:
      c.fields(0)
      value = { type: 'TimeIntervalEnd' }
      break
    case 10:
      c.fields(1)
      value = { type: 'UseValue', id: readValueId(c, 'id') }
      break
    default:
      c.fields(3)
      value = {
        type: 'Cond',
        observation: readObservation(c, 'observation'),
        then: readValue(c, 'then'),
        else: readValue(c, 'else')
      }
  }
  c.close()
  return value
}

const VALUE_PAIRS = ['AddValue', 'SubValue', 'MulValue', 'DivValue'] as const
const OBSERVATION_PAIRS = ['AndObs', 'OrObs'] as const
const COMPARISONS = ['ValueGE', 'ValueGT', 'ValueLT', 'ValueLE', 'ValueEQ'] as const

function readObservation(c: DataCursor, name: string): Observation {
  const index = c.constr(name, 'Observation', OBSERVATION)
  let observation: Observation
  if (index <= 1) {
    c.fields(2)
    observation = {
      type: OBSERVATION_PAIRS[index]!,
      left: readObservation(c, 'left'),
      right: readObservation(c, 'right')
    }
  } else if (index === 2) {
    c.fields(1)
    observation = { type: 'NotObs', observation: readObservation(c, 'observation') }
  } else if (index === 3) {
    c.fields(1)
    observation = { type: 'ChoseSomething', choice: readChoiceId(c, 'choice') }
  } else if (index <= 8) {
    c.fields(2)
    observation = { type: COMPARISONS[index - 4]!, left: readValue(c, 'left'), right: readValue(c, 'right') }
  } else {
    c.fields(0)
    observation = index === 9
  }
  c.close()
  return observation
}

function readParty(c: DataCursor, name: string): Party {
  const index = c.constr(name, 'Party', PARTY)
  let party: Party
  if (index === 1) {
    c.fields(1)
    party = { type: 'Role', role: c.text('role') }
  } else {
    c.fields(2)
    party = { type: 'Address', address: readAddressParty(c) }
  }
  c.close()
  return party
}

function readPayee(c: DataCursor, name: string): Payee {
  const index = c.constr(name, 'Payee', PAYEE)
  c.fields(1)
  const payee: Payee =
    index === 0
      ? { type: 'Account', account: readParty(c, 'account') }
      : { type: 'Party', party: readParty(c, 'party') }
  c.close()
  return payee
}

function readToken(c: DataCursor, name: string): Token {
  c.record(name, 'Token', 2)
  const token = { currencySymbol: c.hex('currencySymbol'), tokenName: c.text('tokenName') }
  c.close()
  return token
}

function readChoiceId(c: DataCursor, name: string): ChoiceId {
  c.record(name, 'ChoiceId', 2)
  const choice = { name: c.text('name'), owner: readParty(c, 'owner') }
  c.close()
  return choice
}

function readValueId(c: DataCursor, name: string): string {
  c.record(name, 'ValueId', 1)
  const id = c.text('name')
  c.close()
  return id
}

function readBound(c: DataCursor): Bound {
  c.record('', 'Bound', 2)
  const bound = { from: c.integer('from'), to: c.integer('to') }
  c.close()
  return bound
}
