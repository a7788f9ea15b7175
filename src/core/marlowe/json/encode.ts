/**
 * Model → JSON in Marlowe Runtime's form. Keys are written in alphabetical order, as Aeson does, so the
 * text matches the Haskell output byte for byte once stringified compactly.
 */
import { newJsonObject, type JsonObject, type JsonValue } from '../../json/lossless'
import type {
  Action,
  Bound,
  Case,
  ChoiceId,
  Contract,
  Input,
  InputContent,
  IntervalError,
  MarloweData,
  Observation,
  Party,
  Payee,
  Payment,
  State,
  Token,
  TransactionError,
  TransactionInput,
  TransactionOutput,
  TransactionWarning,
  Value
} from '../types'
import type { NextSteps } from '../next'

/** Builds an object from entries chosen at run time; callers pass the keys in alphabetical order. */
function obj(...entries: Array<readonly [string, JsonValue]>): JsonObject {
  const o = newJsonObject()
  for (const [k, v] of entries) o[k] = v
  return o
}

export function encodeParty(p: Party): JsonObject {
  return p.type === 'Address' ? { address: p.address } : { role_token: p.role }
}

export function encodeToken(t: Token): JsonObject {
  return { currency_symbol: t.currencySymbol, token_name: t.tokenName }
}

export function encodeChoiceId(c: ChoiceId): JsonObject {
  return { choice_name: c.name, choice_owner: encodeParty(c.owner) }
}

export function encodePayee(p: Payee): JsonObject {
  return p.type === 'Account' ? { account: encodeParty(p.account) } : { party: encodeParty(p.party) }
}

export function encodeBound(b: Bound): JsonObject {
  return { from: b.from, to: b.to }
}

export function encodeValue(v: Value): JsonValue {
  if (typeof v === 'bigint') return v
  switch (v.type) {
    case 'AvailableMoney':
      return { amount_of_token: encodeToken(v.token), in_account: encodeParty(v.account) }
    case 'NegValue':
      return { negate: encodeValue(v.value) }
    case 'AddValue':
      return { add: encodeValue(v.left), and: encodeValue(v.right) }
    case 'SubValue':
      return { minus: encodeValue(v.right), value: encodeValue(v.left) }
    case 'MulValue':
      return { multiply: encodeValue(v.left), times: encodeValue(v.right) }
    case 'DivValue':
      return { by: encodeValue(v.right), divide: encodeValue(v.left) }
    case 'ChoiceValue':
      return { value_of_choice: encodeChoiceId(v.choice) }
    case 'TimeIntervalStart':
      return 'time_interval_start'
    case 'TimeIntervalEnd':
      return 'time_interval_end'
    case 'UseValue':
      return { use_value: v.id }
    case 'Cond':
      return { else: encodeValue(v.else), if: encodeObservation(v.observation), then: encodeValue(v.then) }
  }
}

const COMPARISON_KEYS = {
  ValueGE: 'ge_than',
  ValueGT: 'gt',
  ValueLT: 'lt',
  ValueLE: 'le_than',
  ValueEQ: 'equal_to'
} as const

export function encodeObservation(o: Observation): JsonValue {
  if (typeof o === 'boolean') return o
  switch (o.type) {
    case 'AndObs':
      return { and: encodeObservation(o.right), both: encodeObservation(o.left) }
    case 'OrObs':
      return { either: encodeObservation(o.left), or: encodeObservation(o.right) }
    case 'NotObs':
      return { not: encodeObservation(o.observation) }
    case 'ChoseSomething':
      return { chose_something_for: encodeChoiceId(o.choice) }
    case 'ValueGE':
    case 'ValueGT':
    case 'ValueLT':
    case 'ValueLE':
    case 'ValueEQ':
      return { [COMPARISON_KEYS[o.type]]: encodeValue(o.right), value: encodeValue(o.left) }
  }
}

export function encodeAction(a: Action): JsonObject {
  switch (a.type) {
    case 'Deposit':
      return {
        deposits: encodeValue(a.value),
        into_account: encodeParty(a.account),
        of_token: encodeToken(a.token),
        party: encodeParty(a.party)
      }
    case 'Choice':
      return { choose_between: a.bounds.map(encodeBound), for_choice: encodeChoiceId(a.choice) }
    case 'Notify':
      return { notify_if: encodeObservation(a.observation) }
  }
}

function encodeCase(c: Case, encoded?: EncodedWhens): JsonObject {
  return c.type === 'Case'
    ? { case: encodeAction(c.action), then: encodeContract(c.then, encoded) }
    : { case: encodeAction(c.action), merkleized_then: c.hash }
}

/**
 * JSON already made for `When` contracts, by model object: a continuing datum's contract is a `When` inside the
 * spent one (the very object, see DecodedContracts), and its JSON is then the same part of the spent one's.
 */
export type EncodedWhens = Map<Contract, JsonValue>

export function encodeContract(c: Contract, encoded?: EncodedWhens): JsonValue {
  switch (c.type) {
    case 'Close':
      return 'close'
    case 'Pay':
      return {
        from_account: encodeParty(c.from),
        pay: encodeValue(c.value),
        then: encodeContract(c.then, encoded),
        to: encodePayee(c.to),
        token: encodeToken(c.token)
      }
    case 'If':
      return {
        else: encodeContract(c.else, encoded),
        if: encodeObservation(c.observation),
        then: encodeContract(c.then, encoded)
      }
    case 'When': {
      const known = encoded?.get(c)
      if (known !== undefined) return known
      const json = {
        timeout: c.timeout,
        timeout_continuation: encodeContract(c.timeoutContinuation, encoded),
        when: c.cases.map((x) => encodeCase(x, encoded))
      }
      encoded?.set(c, json)
      return json
    }
    case 'Let':
      return { be: encodeValue(c.value), let: c.id, then: encodeContract(c.then, encoded) }
    case 'Assert':
      return { assert: encodeObservation(c.observation), then: encodeContract(c.then, encoded) }
  }
}

function inputContentEntries(c: InputContent): Array<readonly [string, JsonValue]> {
  switch (c.type) {
    case 'IDeposit':
      return [
        ['input_from_party', encodeParty(c.party)],
        ['into_account', encodeParty(c.account)],
        ['of_token', encodeToken(c.token)],
        ['that_deposits', c.amount]
      ]
    case 'IChoice':
      return [
        ['for_choice_id', encodeChoiceId(c.choice)],
        ['input_that_chooses_num', c.chosen]
      ]
    case 'INotify':
      return []
  }
}

export function encodeInput(i: Input): JsonValue {
  if (i.merkleized === undefined) {
    return i.content.type === 'INotify' ? 'input_notify' : obj(...inputContentEntries(i.content))
  }
  const entries: Array<readonly [string, JsonValue]> = [
    ...inputContentEntries(i.content),
    ['continuation_hash', i.merkleized.hash],
    ['merkleized_continuation', encodeContract(i.merkleized.continuation)]
  ]
  entries.sort(([a], [b]) => (a < b ? -1 : 1))
  return obj(...entries)
}

export function encodeTransactionInput(t: TransactionInput): JsonObject {
  return { tx_inputs: t.inputs.map(encodeInput), tx_interval: encodeBound(t.interval) }
}

export function encodeState(s: State): JsonObject {
  return {
    accounts: s.accounts.map(([k, n]) => [[encodeParty(k.account), encodeToken(k.token)], n]),
    ['boundValues']: s.boundValues.map(([k, n]) => [k, n]),
    choices: s.choices.map(([k, n]) => [encodeChoiceId(k), n]),
    ['minTime']: s.minTime
  }
}

export function encodePayment(p: Payment): JsonObject {
  return { amount: p.amount, payment_from: encodeParty(p.from), to: encodePayee(p.to), token: encodeToken(p.token) }
}

export function encodeWarning(w: TransactionWarning): JsonValue {
  switch (w.type) {
    case 'NonPositiveDeposit':
      return {
        asked_to_deposit: w.amount,
        in_account: encodeParty(w.account),
        of_token: encodeToken(w.token),
        party: encodeParty(w.party)
      }
    case 'NonPositivePay':
      return {
        account: encodeParty(w.account),
        asked_to_pay: w.amount,
        of_token: encodeToken(w.token),
        to_payee: encodePayee(w.payee)
      }
    case 'PartialPay':
      return {
        account: encodeParty(w.account),
        asked_to_pay: w.expected,
        but_only_paid: w.paid,
        of_token: encodeToken(w.token),
        to_payee: encodePayee(w.payee)
      }
    case 'Shadowing':
      return { had_value: w.hadValue, is_now_assigned: w.isNowAssigned, value_id: w.id }
    case 'AssertionFailed':
      return 'assertion_failed'
  }
}

function encodeIntervalError(e: IntervalError): JsonObject {
  return e.type === 'InvalidInterval'
    ? { ['invalidInterval']: encodeBound(e.interval) }
    : { ['intervalInPastError']: { from: e.interval.from, ['minTime']: e.minTime, to: e.interval.to } }
}

export function encodeTransactionError(e: TransactionError): JsonValue {
  return e.type === 'TEIntervalError' ? { context: encodeIntervalError(e.error), error: 'TEIntervalError' } : e.type
}

export function encodeTransactionOutput(o: TransactionOutput): JsonObject {
  if (o.type === 'Error') return { transaction_error: encodeTransactionError(o.error) }
  return {
    contract: encodeContract(o.contract),
    payments: o.payments.map(encodePayment),
    state: encodeState(o.state),
    warnings: o.warnings.map(encodeWarning)
  }
}

export function encodeMarloweData(d: MarloweData, encoded?: EncodedWhens): JsonObject {
  return {
    ['marloweContract']: encodeContract(d.contract, encoded),
    ['marloweParams']: { ['rolesCurrency']: d.params.rolesCurrency },
    ['marloweState']: encodeState(d.state)
  }
}

/** Runtime's `GET /contracts/{id}/next` body. */
export function encodeNextSteps(n: NextSteps): JsonObject {
  const inputs = n.applicableInputs
  const notify = inputs.notify
  const applicable: Array<readonly [string, JsonValue]> = [
    [
      'choices',
      inputs.choices.map((c) => ({
        can_choose_between: c.canChooseBetween.map(encodeBound),
        case_index: BigInt(c.caseIndex),
        for_choice: encodeChoiceId(c.choice),
        is_merkleized_continuation: c.isMerkleizedContinuation
      }))
    ],
    [
      'deposits',
      inputs.deposits.map((d) => ({
        can_deposit: d.canDeposit,
        case_index: BigInt(d.caseIndex),
        into_account: encodeParty(d.account),
        is_merkleized_continuation: d.isMerkleizedContinuation,
        of_token: encodeToken(d.token),
        party: encodeParty(d.party)
      }))
    ]
  ]
  if (notify !== undefined) {
    applicable.push([
      'notify',
      { case_index: BigInt(notify.caseIndex), is_merkleized_continuation: notify.isMerkleizedContinuation }
    ])
  }
  return { applicable_inputs: obj(...applicable), can_reduce: n.canReduce }
}
