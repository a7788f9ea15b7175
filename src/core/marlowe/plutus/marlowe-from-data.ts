/**
 * Plutus Data → Marlowe model, the inverse of marlowe-to-data.ts. Errors are `PlutusDecodeError`s naming
 * the path of the bad node, rooted at the name the caller gives (`datum`, `redeemer`, …).
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
import { addressPartyFromFields } from './address-data'
import type { PlutusData } from './data'
import {
  PlutusDecodeError,
  type ConstrView,
  fieldsOf,
  readConstr,
  readHex,
  readInteger,
  readList,
  readMap,
  readRecord,
  readText
} from './data-shape'

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

export function marloweDataFromPlutusData(d: PlutusData, path = 'datum'): MarloweData {
  const [params, state, contract] = readRecord(d, path, 'MarloweData', 3)
  const [rolesCurrency] = readRecord(params, `${path}.params`, 'MarloweParams', 1)
  return {
    params: { rolesCurrency: readHex(rolesCurrency, `${path}.params.rolesCurrency`) },
    state: stateFromData(state, `${path}.state`),
    contract: contractFromPlutusData(contract, `${path}.contract`)
  }
}

export function contractFromPlutusData(d: PlutusData, path = 'contract'): Contract {
  const c = readConstr(d, path, 'Contract', CONTRACT)
  switch (c.index) {
    case 0:
      fieldsOf(c, 0)
      return { type: 'Close' }
    case 1: {
      const [from, to, token, value, then] = fieldsOf(c, 5)
      return {
        type: 'Pay',
        from: partyFromData(from, `${path}.from`),
        to: payeeFromData(to, `${path}.to`),
        token: tokenFromData(token, `${path}.token`),
        value: valueFromData(value, `${path}.value`),
        then: contractFromPlutusData(then, `${path}.then`)
      }
    }
    case 2: {
      const [observation, then, otherwise] = fieldsOf(c, 3)
      return {
        type: 'If',
        observation: observationFromData(observation, `${path}.observation`),
        then: contractFromPlutusData(then, `${path}.then`),
        else: contractFromPlutusData(otherwise, `${path}.else`)
      }
    }
    case 3: {
      const [cases, timeout, continuation] = fieldsOf(c, 3)
      return {
        type: 'When',
        cases: readList(cases, `${path}.cases`).map((x, i) => caseFromData(x, `${path}.cases[${i}]`)),
        timeout: readInteger(timeout, `${path}.timeout`),
        timeoutContinuation: contractFromPlutusData(continuation, `${path}.timeoutContinuation`)
      }
    }
    case 4: {
      const [id, value, then] = fieldsOf(c, 3)
      return {
        type: 'Let',
        id: valueIdFromData(id, `${path}.id`),
        value: valueFromData(value, `${path}.value`),
        then: contractFromPlutusData(then, `${path}.then`)
      }
    }
    default: {
      const [observation, then] = fieldsOf(c, 2)
      return {
        type: 'Assert',
        observation: observationFromData(observation, `${path}.observation`),
        then: contractFromPlutusData(then, `${path}.then`)
      }
    }
  }
}

/**
 * The semantics validator's redeemer. A merkleized input's continuation is not in the redeemer, so it is
 * taken from `continuations`; without it the input cannot be represented and decoding fails.
 */
export function redeemerToInputs(d: PlutusData, continuations?: ContinuationLookup, path = 'redeemer'): Input[] {
  return readList(d, path).map((item, i) => {
    const itemPath = `${path}[${i}]`
    const c = readConstr(item, itemPath, 'MarloweTxInput', ['Input', 'MerkleizedTxInput'])
    if (c.index === 0) {
      const [content] = fieldsOf(c, 1)
      return { content: inputContentFromData(content, `${itemPath}.content`) }
    }
    const [content, hashData] = fieldsOf(c, 2)
    const hash = readHex(hashData, `${itemPath}.hash`)
    const continuation = continuations?.(hash)
    if (continuation === undefined) {
      throw new PlutusDecodeError(`${itemPath}.hash`, `no continuation was supplied for merkleized input ${hash}`)
    }
    return { content: inputContentFromData(content, `${itemPath}.content`), merkleized: { hash, continuation } }
  })
}

export function payoutDatumFromPlutusData(d: PlutusData, path = 'payoutDatum'): PayoutDatum {
  const [rolesCurrency, role] = readRecord(d, path, 'PayoutDatum', 2)
  return { rolesCurrency: readHex(rolesCurrency, `${path}.rolesCurrency`), role: readText(role, `${path}.role`) }
}

function stateFromData(d: PlutusData, path: string): State {
  const [accounts, choices, boundValues, minTime] = readRecord(d, path, 'State', 4)
  return {
    accounts: readMap(accounts, `${path}.accounts`).map(([key, value], i) => {
      const at = `${path}.accounts[${i}]`
      return [accountKeyFromData(key, `${at}.key`), readInteger(value, `${at}.value`)] as const
    }),
    choices: readMap(choices, `${path}.choices`).map(([key, value], i) => {
      const at = `${path}.choices[${i}]`
      return [choiceIdFromData(key, `${at}.key`), readInteger(value, `${at}.value`)] as const
    }),
    boundValues: readMap(boundValues, `${path}.boundValues`).map(([key, value], i) => {
      const at = `${path}.boundValues[${i}]`
      return [valueIdFromData(key, `${at}.key`), readInteger(value, `${at}.value`)] as const
    }),
    minTime: readInteger(minTime, `${path}.minTime`)
  }
}

function accountKeyFromData(d: PlutusData, path: string): AccountKey {
  const [account, token] = readRecord(d, path, 'AccountKey', 2)
  return { account: partyFromData(account, `${path}.account`), token: tokenFromData(token, `${path}.token`) }
}

function caseFromData(d: PlutusData, path: string): Case {
  const c = readConstr(d, path, 'Case', ['Case', 'MerkleizedCase'])
  const [action, continuation] = fieldsOf(c, 2)
  if (c.index === 0) {
    return {
      type: 'Case',
      action: actionFromData(action, `${path}.action`),
      then: contractFromPlutusData(continuation, `${path}.then`)
    }
  }
  return {
    type: 'MerkleizedCase',
    action: actionFromData(action, `${path}.action`),
    hash: readHex(continuation, `${path}.hash`)
  }
}

function actionFromData(d: PlutusData, path: string): Action {
  const c = readConstr(d, path, 'Action', ['Deposit', 'Choice', 'Notify'])
  if (c.index === 0) {
    const [account, party, token, value] = fieldsOf(c, 4)
    return {
      type: 'Deposit',
      account: partyFromData(account, `${path}.account`),
      party: partyFromData(party, `${path}.party`),
      token: tokenFromData(token, `${path}.token`),
      value: valueFromData(value, `${path}.value`)
    }
  }
  if (c.index === 1) {
    const [choice, bounds] = fieldsOf(c, 2)
    return {
      type: 'Choice',
      choice: choiceIdFromData(choice, `${path}.choice`),
      bounds: readList(bounds, `${path}.bounds`).map((b, i) => boundFromData(b, `${path}.bounds[${i}]`))
    }
  }
  const [observation] = fieldsOf(c, 1)
  return { type: 'Notify', observation: observationFromData(observation, `${path}.observation`) }
}

function inputContentFromData(d: PlutusData, path: string): InputContent {
  const c = readConstr(d, path, 'InputContent', ['IDeposit', 'IChoice', 'INotify'])
  if (c.index === 0) {
    const [account, party, token, amount] = fieldsOf(c, 4)
    return {
      type: 'IDeposit',
      account: partyFromData(account, `${path}.account`),
      party: partyFromData(party, `${path}.party`),
      token: tokenFromData(token, `${path}.token`),
      amount: readInteger(amount, `${path}.amount`)
    }
  }
  if (c.index === 1) {
    const [choice, chosen] = fieldsOf(c, 2)
    return {
      type: 'IChoice',
      choice: choiceIdFromData(choice, `${path}.choice`),
      chosen: readInteger(chosen, `${path}.chosen`)
    }
  }
  fieldsOf(c, 0)
  return { type: 'INotify' }
}

function valueFromData(d: PlutusData, path: string): Value {
  const c = readConstr(d, path, 'Value', VALUE)
  switch (c.index) {
    case 0: {
      const [account, token] = fieldsOf(c, 2)
      return {
        type: 'AvailableMoney',
        account: partyFromData(account, `${path}.account`),
        token: tokenFromData(token, `${path}.token`)
      }
    }
    case 1: {
      const [n] = fieldsOf(c, 1)
      return readInteger(n, `${path}.constant`)
    }
    case 2: {
      const [value] = fieldsOf(c, 1)
      return { type: 'NegValue', value: valueFromData(value, `${path}.value`) }
    }
    case 3:
      return valuePair('AddValue', c)
    case 4:
      return valuePair('SubValue', c)
    case 5:
      return valuePair('MulValue', c)
    case 6:
      return valuePair('DivValue', c)
    case 7: {
      const [choice] = fieldsOf(c, 1)
      return { type: 'ChoiceValue', choice: choiceIdFromData(choice, `${path}.choice`) }
    }
    case 8:
      fieldsOf(c, 0)
      return { type: 'TimeIntervalStart' }
    case 9:
      fieldsOf(c, 0)
      return { type: 'TimeIntervalEnd' }
    case 10: {
      const [id] = fieldsOf(c, 1)
      return { type: 'UseValue', id: valueIdFromData(id, `${path}.id`) }
    }
    default: {
      const [observation, then, otherwise] = fieldsOf(c, 3)
      return {
        type: 'Cond',
        observation: observationFromData(observation, `${path}.observation`),
        then: valueFromData(then, `${path}.then`),
        else: valueFromData(otherwise, `${path}.else`)
      }
    }
  }
}

function valuePair(type: 'AddValue' | 'SubValue' | 'MulValue' | 'DivValue', c: ConstrView): Value {
  const [left, right] = fieldsOf(c, 2)
  return { type, left: valueFromData(left, `${c.path}.left`), right: valueFromData(right, `${c.path}.right`) }
}

function observationFromData(d: PlutusData, path: string): Observation {
  const c = readConstr(d, path, 'Observation', OBSERVATION)
  switch (c.index) {
    case 0:
      return observationPair('AndObs', c)
    case 1:
      return observationPair('OrObs', c)
    case 2: {
      const [observation] = fieldsOf(c, 1)
      return { type: 'NotObs', observation: observationFromData(observation, `${path}.observation`) }
    }
    case 3: {
      const [choice] = fieldsOf(c, 1)
      return { type: 'ChoseSomething', choice: choiceIdFromData(choice, `${path}.choice`) }
    }
    case 4:
      return comparison('ValueGE', c)
    case 5:
      return comparison('ValueGT', c)
    case 6:
      return comparison('ValueLT', c)
    case 7:
      return comparison('ValueLE', c)
    case 8:
      return comparison('ValueEQ', c)
    default:
      fieldsOf(c, 0)
      return c.index === 9
  }
}

function observationPair(type: 'AndObs' | 'OrObs', c: ConstrView): Observation {
  const [left, right] = fieldsOf(c, 2)
  return {
    type,
    left: observationFromData(left, `${c.path}.left`),
    right: observationFromData(right, `${c.path}.right`)
  }
}

function comparison(type: 'ValueGE' | 'ValueGT' | 'ValueLT' | 'ValueLE' | 'ValueEQ', c: ConstrView): Observation {
  const [left, right] = fieldsOf(c, 2)
  return { type, left: valueFromData(left, `${c.path}.left`), right: valueFromData(right, `${c.path}.right`) }
}

function partyFromData(d: PlutusData, path: string): Party {
  const c = readConstr(d, path, 'Party', ['Address', 'Role'])
  if (c.index === 1) {
    const [role] = fieldsOf(c, 1)
    return { type: 'Role', role: readText(role, `${path}.role`) }
  }
  const [network, address] = fieldsOf(c, 2)
  return { type: 'Address', address: addressPartyFromFields(network, address, path) }
}

function payeeFromData(d: PlutusData, path: string): Payee {
  const c = readConstr(d, path, 'Payee', ['Account', 'Party'])
  const [party] = fieldsOf(c, 1)
  return c.index === 0
    ? { type: 'Account', account: partyFromData(party, `${path}.account`) }
    : { type: 'Party', party: partyFromData(party, `${path}.party`) }
}

function tokenFromData(d: PlutusData, path: string): Token {
  const [currencySymbol, tokenName] = readRecord(d, path, 'Token', 2)
  return {
    currencySymbol: readHex(currencySymbol, `${path}.currencySymbol`),
    tokenName: readText(tokenName, `${path}.tokenName`)
  }
}

function choiceIdFromData(d: PlutusData, path: string): ChoiceId {
  const [name, owner] = readRecord(d, path, 'ChoiceId', 2)
  return { name: readText(name, `${path}.name`), owner: partyFromData(owner, `${path}.owner`) }
}

function valueIdFromData(d: PlutusData, path: string): string {
  const [name] = readRecord(d, path, 'ValueId', 1)
  return readText(name, `${path}.name`)
}

function boundFromData(d: PlutusData, path: string): Bound {
  const [from, to] = readRecord(d, path, 'Bound', 2)
  return { from: readInteger(from, `${path}.from`), to: readInteger(to, `${path}.to`) }
}
