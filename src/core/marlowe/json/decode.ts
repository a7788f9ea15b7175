/**
 * JSON → model, following the Cardano Haskell parsers (the format Marlowe Runtime speaks). Alternatives
 * are recognised by their keys in the order Haskell tries them; extra keys are ignored as Haskell does.
 * Every failure is a `MarloweJsonError` naming the path and the reason.
 */
import { AddressError, parseShelleyAddress } from '../../cardano/address'
import { JsonDecimal, type JsonObject, type JsonValue } from '../../json/lossless'
import type {
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
  State,
  TimeInterval,
  Token,
  TransactionInput,
  Value
} from '../types'
import { asArray, asInteger, asObject, asPair, asString, child, describe, fail, field, has, index } from './reader'
import { isHex, MAX_ASSET_NAME_BYTES, utf8Length } from './text'

function text(v: JsonValue | undefined, path: string): string {
  const s = asString(v, path)
  if (utf8Length(s) < 0) fail(path, 'text contains an unpaired surrogate and has no UTF-8 form')
  return s
}

function assetName(v: JsonValue | undefined, path: string): string {
  const s = text(v, path)
  const n = utf8Length(s)
  if (n > MAX_ASSET_NAME_BYTES)
    fail(path, `name is ${n} bytes in UTF-8, over the ledger's limit of ${MAX_ASSET_NAME_BYTES}`)
  return s
}

function hexBytes(v: JsonValue | undefined, path: string, exactBytes?: number): string {
  const s = asString(v, path)
  if (!isHex(s)) fail(path, `expected base16 bytes, got ${describe(v)}`)
  if (exactBytes !== undefined && s.length !== exactBytes * 2) {
    fail(path, `expected ${exactBytes} bytes of base16, got ${s.length / 2}`)
  }
  return s.toLowerCase()
}

export function decodeParty(v: JsonValue | undefined, path: string): Party {
  const obj = asObject(v, path, 'a party ({"address": …} or {"role_token": …})')
  if (has(obj, 'address')) {
    const raw = asString(obj.address, child(path, 'address'))
    try {
      parseShelleyAddress(raw)
      // bech32 is all-lowercase or all-uppercase, so the canonical form of a valid address is its lowercase.
      return { type: 'Address', address: raw.toLowerCase() }
    } catch (e) {
      if (e instanceof AddressError) fail(child(path, 'address'), e.message)
      throw e
    }
  }
  if (has(obj, 'role_token')) return { type: 'Role', role: assetName(obj.role_token, child(path, 'role_token')) }
  fail(path, `expected a party ({"address": …} or {"role_token": …}), got ${describe(v)}`)
}

export function decodeToken(v: JsonValue | undefined, path: string): Token {
  const obj = asObject(v, path, 'a token ({"currency_symbol": …, "token_name": …})')
  return {
    currencySymbol: hexBytes(field(obj, 'currency_symbol', path), child(path, 'currency_symbol')),
    tokenName: assetName(field(obj, 'token_name', path), child(path, 'token_name'))
  }
}

export function decodeChoiceId(v: JsonValue | undefined, path: string): ChoiceId {
  const obj = asObject(v, path, 'a choice id ({"choice_name": …, "choice_owner": …})')
  return {
    name: text(field(obj, 'choice_name', path), child(path, 'choice_name')),
    owner: decodeParty(field(obj, 'choice_owner', path), child(path, 'choice_owner'))
  }
}

export function decodePayee(v: JsonValue | undefined, path: string): Payee {
  const obj = asObject(v, path, 'a payee ({"account": …} or {"party": …})')
  if (has(obj, 'account')) return { type: 'Account', account: decodeParty(obj.account, child(path, 'account')) }
  if (has(obj, 'party')) return { type: 'Party', party: decodeParty(obj.party, child(path, 'party')) }
  fail(path, `expected a payee ({"account": …} or {"party": …}), got ${describe(v)}`)
}

export function decodeBound(v: JsonValue | undefined, path: string): Bound {
  const obj = asObject(v, path, 'a bound ({"from": …, "to": …})')
  return {
    from: asInteger(field(obj, 'from', path), child(path, 'from')),
    to: asInteger(field(obj, 'to', path), child(path, 'to'))
  }
}

export function decodeTimeInterval(v: JsonValue | undefined, path: string): TimeInterval {
  return decodeBound(v, path)
}

const VALUE_KEYS = 'amount_of_token, negate, add, value/minus, multiply, divide, value_of_choice, use_value or if'

export function decodeValue(v: JsonValue | undefined, path: string): Value {
  if (typeof v === 'bigint') return v
  if (v instanceof JsonDecimal) fail(path, `expected an integer, got ${describe(v)}`)
  if (v === 'time_interval_start') return { type: 'TimeIntervalStart' }
  if (v === 'time_interval_end') return { type: 'TimeIntervalEnd' }
  if (typeof v === 'string') fail(path, `expected a value, got ${describe(v)}`)
  const obj = asObject(
    v,
    path,
    `a value (an integer, "time_interval_start", "time_interval_end" or an object with ${VALUE_KEYS})`
  )
  if (has(obj, 'amount_of_token')) {
    return {
      type: 'AvailableMoney',
      token: decodeToken(obj.amount_of_token, child(path, 'amount_of_token')),
      account: decodeParty(field(obj, 'in_account', path), child(path, 'in_account'))
    }
  }
  if (has(obj, 'negate')) return { type: 'NegValue', value: subValue(obj, 'negate', path) }
  if (has(obj, 'add')) return { type: 'AddValue', left: subValue(obj, 'add', path), right: subValue(obj, 'and', path) }
  if (has(obj, 'minus'))
    return { type: 'SubValue', left: subValue(obj, 'value', path), right: subValue(obj, 'minus', path) }
  if (has(obj, 'multiply')) {
    return { type: 'MulValue', left: subValue(obj, 'multiply', path), right: subValue(obj, 'times', path) }
  }
  if (has(obj, 'divide'))
    return { type: 'DivValue', left: subValue(obj, 'divide', path), right: subValue(obj, 'by', path) }
  if (has(obj, 'value_of_choice')) {
    return { type: 'ChoiceValue', choice: decodeChoiceId(obj.value_of_choice, child(path, 'value_of_choice')) }
  }
  if (has(obj, 'use_value')) return { type: 'UseValue', id: text(obj.use_value, child(path, 'use_value')) }
  if (has(obj, 'if')) {
    return {
      type: 'Cond',
      observation: decodeObservation(obj.if, child(path, 'if')),
      then: subValue(obj, 'then', path),
      else: subValue(obj, 'else', path)
    }
  }
  fail(path, `expected a value (an object with ${VALUE_KEYS}), got ${describe(v)}`)
}

function subValue(obj: JsonObject, key: string, path: string): Value {
  return decodeValue(field(obj, key, path), child(path, key))
}

function subObservation(obj: JsonObject, key: string, path: string): Observation {
  return decodeObservation(field(obj, key, path), child(path, key))
}

const COMPARISONS = [
  ['ge_than', 'ValueGE'],
  ['gt', 'ValueGT'],
  ['lt', 'ValueLT'],
  ['le_than', 'ValueLE'],
  ['equal_to', 'ValueEQ']
] as const

const OBSERVATION_KEYS = 'both, either, not, chose_something_for, or value with ge_than/gt/lt/le_than/equal_to'

export function decodeObservation(v: JsonValue | undefined, path: string): Observation {
  if (typeof v === 'boolean') return v
  const obj = asObject(v, path, `an observation (true, false or an object with ${OBSERVATION_KEYS})`)
  if (has(obj, 'both'))
    return { type: 'AndObs', left: subObservation(obj, 'both', path), right: subObservation(obj, 'and', path) }
  if (has(obj, 'either'))
    return { type: 'OrObs', left: subObservation(obj, 'either', path), right: subObservation(obj, 'or', path) }
  if (has(obj, 'not')) return { type: 'NotObs', observation: subObservation(obj, 'not', path) }
  if (has(obj, 'chose_something_for')) {
    return {
      type: 'ChoseSomething',
      choice: decodeChoiceId(obj.chose_something_for, child(path, 'chose_something_for'))
    }
  }
  for (const [key, type] of COMPARISONS) {
    if (has(obj, key)) {
      return {
        type,
        left: decodeValue(field(obj, 'value', path), child(path, 'value')),
        right: decodeValue(obj[key], child(path, key))
      }
    }
  }
  fail(path, `expected an observation (an object with ${OBSERVATION_KEYS}), got ${describe(v)}`)
}

export function decodeAction(v: JsonValue | undefined, path: string): Action {
  const obj = asObject(v, path, 'an action (deposit, choice or notify)')
  if (has(obj, 'deposits')) {
    return {
      type: 'Deposit',
      account: decodeParty(field(obj, 'into_account', path), child(path, 'into_account')),
      party: decodeParty(field(obj, 'party', path), child(path, 'party')),
      token: decodeToken(field(obj, 'of_token', path), child(path, 'of_token')),
      value: decodeValue(obj.deposits, child(path, 'deposits'))
    }
  }
  if (has(obj, 'for_choice')) {
    const boundsPath = child(path, 'choose_between')
    const bounds = asArray(field(obj, 'choose_between', path), boundsPath, 'an array of bounds')
    return {
      type: 'Choice',
      choice: decodeChoiceId(obj.for_choice, child(path, 'for_choice')),
      bounds: bounds.map((b, i) => decodeBound(b, index(boundsPath, i)))
    }
  }
  if (has(obj, 'notify_if'))
    return { type: 'Notify', observation: decodeObservation(obj.notify_if, child(path, 'notify_if')) }
  fail(path, `expected an action (an object with deposits, for_choice or notify_if), got ${describe(v)}`)
}

function decodeCase(v: JsonValue | undefined, path: string, depth: number): Case {
  const obj = asObject(v, path, 'a case ({"case": …, "then": …})')
  const action = decodeAction(field(obj, 'case', path), child(path, 'case'))
  if (has(obj, 'then')) return { type: 'Case', action, then: decodeContractAt(obj.then, child(path, 'then'), depth) }
  if (has(obj, 'merkleized_then')) {
    return { type: 'MerkleizedCase', action, hash: hexBytes(obj.merkleized_then, child(path, 'merkleized_then'), 32) }
  }
  fail(path, 'missing key "then" (or "merkleized_then")')
}

export function decodeContract(v: JsonValue | undefined, path = 'contract'): Contract {
  return decodeContractAt(v, path, 0)
}

/**
 * Contracts nest one level per step; the parser's depth limit bounds this recursion, and the counter
 * guards models built from other sources.
 */
const MAX_CONTRACT_DEPTH = 4096

function subContract(obj: JsonObject, key: string, path: string, depth: number): Contract {
  return decodeContractAt(field(obj, key, path), child(path, key), depth + 1)
}

function decodeContractAt(v: JsonValue | undefined, path: string, depth: number): Contract {
  if (depth > MAX_CONTRACT_DEPTH) fail(path, `contract nests deeper than ${MAX_CONTRACT_DEPTH} levels`)
  if (v === 'close') return { type: 'Close' }
  const obj = asObject(v, path, 'a contract ("close" or an object with pay, if, when, let or assert)')
  if (has(obj, 'pay')) {
    return {
      type: 'Pay',
      from: decodeParty(field(obj, 'from_account', path), child(path, 'from_account')),
      to: decodePayee(field(obj, 'to', path), child(path, 'to')),
      token: decodeToken(field(obj, 'token', path), child(path, 'token')),
      value: decodeValue(obj.pay, child(path, 'pay')),
      then: subContract(obj, 'then', path, depth)
    }
  }
  if (has(obj, 'if')) {
    return {
      type: 'If',
      observation: decodeObservation(obj.if, child(path, 'if')),
      then: subContract(obj, 'then', path, depth),
      else: subContract(obj, 'else', path, depth)
    }
  }
  if (has(obj, 'when')) {
    const casesPath = child(path, 'when')
    const cases = asArray(obj.when, casesPath, 'an array of cases')
    return {
      type: 'When',
      cases: cases.map((c, i) => decodeCase(c, index(casesPath, i), depth + 1)),
      timeout: asInteger(field(obj, 'timeout', path), child(path, 'timeout')),
      timeoutContinuation: subContract(obj, 'timeout_continuation', path, depth)
    }
  }
  if (has(obj, 'let')) {
    return {
      type: 'Let',
      id: text(obj.let, child(path, 'let')),
      value: decodeValue(field(obj, 'be', path), child(path, 'be')),
      then: subContract(obj, 'then', path, depth)
    }
  }
  if (has(obj, 'assert')) {
    return {
      type: 'Assert',
      observation: decodeObservation(obj.assert, child(path, 'assert')),
      then: subContract(obj, 'then', path, depth)
    }
  }
  fail(path, `expected a contract ("close" or an object with pay, if, when, let or assert), got ${describe(v)}`)
}

function decodeInputContent(obj: JsonObject, path: string): InputContent | undefined {
  if (has(obj, 'input_from_party')) {
    return {
      type: 'IDeposit',
      party: decodeParty(obj.input_from_party, child(path, 'input_from_party')),
      amount: asInteger(field(obj, 'that_deposits', path), child(path, 'that_deposits')),
      token: decodeToken(field(obj, 'of_token', path), child(path, 'of_token')),
      account: decodeParty(field(obj, 'into_account', path), child(path, 'into_account'))
    }
  }
  if (has(obj, 'for_choice_id')) {
    return {
      type: 'IChoice',
      choice: decodeChoiceId(obj.for_choice_id, child(path, 'for_choice_id')),
      chosen: asInteger(field(obj, 'input_that_chooses_num', path), child(path, 'input_that_chooses_num'))
    }
  }
  return undefined
}

export function decodeInput(v: JsonValue | undefined, path: string): Input {
  if (v === 'input_notify') return { content: { type: 'INotify' } }
  const obj = asObject(v, path, 'an input ("input_notify", a deposit or a choice)')
  const content = decodeInputContent(obj, path)
  if (has(obj, 'continuation_hash') || has(obj, 'merkleized_continuation')) {
    return {
      content: content ?? { type: 'INotify' },
      merkleized: {
        hash: hexBytes(field(obj, 'continuation_hash', path), child(path, 'continuation_hash'), 32),
        continuation: decodeContract(
          field(obj, 'merkleized_continuation', path),
          child(path, 'merkleized_continuation')
        )
      }
    }
  }
  if (content === undefined) {
    fail(
      path,
      `expected an input ("input_notify" or an object with input_from_party or for_choice_id), got ${describe(v)}`
    )
  }
  return { content }
}

export function decodeTransactionInput(v: JsonValue | undefined, path = 'input'): TransactionInput {
  const obj = asObject(v, path, 'a transaction input ({"tx_interval": …, "tx_inputs": […]})')
  const inputsPath = child(path, 'tx_inputs')
  const inputs = asArray(field(obj, 'tx_inputs', path), inputsPath, 'an array of inputs')
  return {
    interval: decodeTimeInterval(field(obj, 'tx_interval', path), child(path, 'tx_interval')),
    inputs: inputs.map((x, i) => decodeInput(x, index(inputsPath, i)))
  }
}

export function decodeInputs(v: JsonValue | undefined, path = 'inputs'): Input[] {
  return asArray(v, path, 'an array of inputs').map((x, i) => decodeInput(x, index(path, i)))
}

function assocEntries<K>(
  v: JsonValue | undefined,
  path: string,
  decodeKey: (k: JsonValue, p: string) => K
): Array<readonly [K, bigint]> {
  return asArray(v, path, 'an array of [key, value] pairs').map((entry, i) => {
    const p = index(path, i)
    const [k, n] = asPair(entry, p)
    return [decodeKey(k, index(p, 0)), asInteger(n, index(p, 1))] as const
  })
}

export function decodeState(v: JsonValue | undefined, path = 'state'): State {
  const obj = asObject(v, path, 'a state ({"accounts", "choices", "boundValues", "minTime"})')
  return {
    accounts: assocEntries(field(obj, 'accounts', path), child(path, 'accounts'), (k, p) => {
      const [account, token] = asPair(k, p)
      return { account: decodeParty(account, index(p, 0)), token: decodeToken(token, index(p, 1)) }
    }),
    choices: assocEntries(field(obj, 'choices', path), child(path, 'choices'), decodeChoiceId),
    boundValues: assocEntries(field(obj, 'boundValues', path), child(path, 'boundValues'), text),
    minTime: asInteger(field(obj, 'minTime', path), child(path, 'minTime'))
  }
}

export function decodeMarloweData(v: JsonValue | undefined, path = 'datum'): MarloweData {
  const obj = asObject(v, path, 'Marlowe data ({"marloweParams", "marloweState", "marloweContract"})')
  const paramsPath = child(path, 'marloweParams')
  const params = asObject(field(obj, 'marloweParams', path), paramsPath, 'Marlowe params ({"rolesCurrency": …})')
  return {
    params: { rolesCurrency: hexBytes(field(params, 'rolesCurrency', paramsPath), child(paramsPath, 'rolesCurrency')) },
    state: decodeState(field(obj, 'marloweState', path), child(path, 'marloweState')),
    contract: decodeContract(field(obj, 'marloweContract', path), child(path, 'marloweContract'))
  }
}
