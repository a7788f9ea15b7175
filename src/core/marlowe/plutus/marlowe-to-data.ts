/**
 * Marlowe model → Plutus Data, following the constructor indices and field order of marlowe-core.md §2.2
 * (which is `makeIsDataIndexed` in the Haskell types: declaration order, newtypes wrapped in Constr 0).
 */
import { hexToBytes, utf8Encode } from '../../bytes'
import { AddressError, parseShelleyAddress } from '../../cardano/address'
import type {
  AccountKey,
  Action,
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
  Value,
  ValueId
} from '../types'
import { addressPartyFields } from './address-data'
import { constrData, type PlutusData } from './data'

/** The model holds something Data cannot carry: an invalid address, hex or text. */
export class PlutusEncodeError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'PlutusEncodeError'
  }
}

const LOWERCASE_HEX = /^(?:[0-9a-f]{2})*$/

export function marloweDataToPlutusData(md: MarloweData): PlutusData {
  const params = constrData(0, [hexBytes(md.params.rolesCurrency, 'roles currency')])
  return constrData(0, [params, stateToData(md.state), contractToPlutusData(md.contract)])
}

export function contractToPlutusData(c: Contract): PlutusData {
  switch (c.type) {
    case 'Close':
      return constrData(0, [])
    case 'Pay':
      return constrData(1, [
        partyToData(c.from),
        payeeToData(c.to),
        tokenToData(c.token),
        valueToData(c.value),
        contractToPlutusData(c.then)
      ])
    case 'If':
      return constrData(2, [
        observationToData(c.observation),
        contractToPlutusData(c.then),
        contractToPlutusData(c.else)
      ])
    case 'When':
      return constrData(3, [{ list: c.cases.map(caseToData) }, c.timeout, contractToPlutusData(c.timeoutContinuation)])
    case 'Let':
      return constrData(4, [valueIdToData(c.id), valueToData(c.value), contractToPlutusData(c.then)])
    case 'Assert':
      return constrData(5, [observationToData(c.observation), contractToPlutusData(c.then)])
  }
}

/** The semantics validator's redeemer; merkleized continuations travel in the datum witnesses, not here. */
export function inputsToRedeemer(inputs: readonly Input[]): PlutusData {
  return {
    list: inputs.map((input) =>
      input.merkleized === undefined
        ? constrData(0, [inputContentToData(input.content)])
        : constrData(1, [inputContentToData(input.content), hexBytes(input.merkleized.hash, 'continuation hash')])
    )
  }
}

export function payoutDatumToPlutusData(p: PayoutDatum): PlutusData {
  return constrData(0, [hexBytes(p.rolesCurrency, 'roles currency'), textBytes(p.role)])
}

function stateToData(s: State): PlutusData {
  return constrData(0, [
    { map: s.accounts.map(([key, amount]) => [accountKeyToData(key), amount]) },
    { map: s.choices.map(([choice, chosen]) => [choiceIdToData(choice), chosen]) },
    { map: s.boundValues.map(([id, value]) => [valueIdToData(id), value]) },
    s.minTime
  ])
}

function accountKeyToData(key: AccountKey): PlutusData {
  return constrData(0, [partyToData(key.account), tokenToData(key.token)])
}

function caseToData(c: Case): PlutusData {
  return c.type === 'Case'
    ? constrData(0, [actionToData(c.action), contractToPlutusData(c.then)])
    : constrData(1, [actionToData(c.action), hexBytes(c.hash, 'merkleized case hash')])
}

function actionToData(a: Action): PlutusData {
  switch (a.type) {
    case 'Deposit':
      return constrData(0, [partyToData(a.account), partyToData(a.party), tokenToData(a.token), valueToData(a.value)])
    case 'Choice':
      return constrData(1, [choiceIdToData(a.choice), { list: a.bounds.map((b) => constrData(0, [b.from, b.to])) }])
    case 'Notify':
      return constrData(2, [observationToData(a.observation)])
  }
}

function inputContentToData(c: InputContent): PlutusData {
  switch (c.type) {
    case 'IDeposit':
      return constrData(0, [partyToData(c.account), partyToData(c.party), tokenToData(c.token), c.amount])
    case 'IChoice':
      return constrData(1, [choiceIdToData(c.choice), c.chosen])
    case 'INotify':
      return constrData(2, [])
  }
}

function valueToData(v: Value): PlutusData {
  if (typeof v === 'bigint') return constrData(1, [v])
  switch (v.type) {
    case 'AvailableMoney':
      return constrData(0, [partyToData(v.account), tokenToData(v.token)])
    case 'NegValue':
      return constrData(2, [valueToData(v.value)])
    case 'AddValue':
      return constrData(3, [valueToData(v.left), valueToData(v.right)])
    case 'SubValue':
      return constrData(4, [valueToData(v.left), valueToData(v.right)])
    case 'MulValue':
      return constrData(5, [valueToData(v.left), valueToData(v.right)])
    case 'DivValue':
      return constrData(6, [valueToData(v.left), valueToData(v.right)])
    case 'ChoiceValue':
      return constrData(7, [choiceIdToData(v.choice)])
    case 'TimeIntervalStart':
      return constrData(8, [])
    case 'TimeIntervalEnd':
      return constrData(9, [])
    case 'UseValue':
      return constrData(10, [valueIdToData(v.id)])
    case 'Cond':
      return constrData(11, [observationToData(v.observation), valueToData(v.then), valueToData(v.else)])
  }
}

function observationToData(o: Observation): PlutusData {
  if (typeof o === 'boolean') return constrData(o ? 9 : 10, [])
  switch (o.type) {
    case 'AndObs':
      return constrData(0, [observationToData(o.left), observationToData(o.right)])
    case 'OrObs':
      return constrData(1, [observationToData(o.left), observationToData(o.right)])
    case 'NotObs':
      return constrData(2, [observationToData(o.observation)])
    case 'ChoseSomething':
      return constrData(3, [choiceIdToData(o.choice)])
    case 'ValueGE':
      return constrData(4, [valueToData(o.left), valueToData(o.right)])
    case 'ValueGT':
      return constrData(5, [valueToData(o.left), valueToData(o.right)])
    case 'ValueLT':
      return constrData(6, [valueToData(o.left), valueToData(o.right)])
    case 'ValueLE':
      return constrData(7, [valueToData(o.left), valueToData(o.right)])
    case 'ValueEQ':
      return constrData(8, [valueToData(o.left), valueToData(o.right)])
  }
}

function partyToData(p: Party): PlutusData {
  if (p.type === 'Role') return constrData(1, [textBytes(p.role)])
  try {
    return constrData(0, addressPartyFields(parseShelleyAddress(p.address)))
  } catch (error) {
    if (!(error instanceof AddressError)) throw error
    throw new PlutusEncodeError(`address party "${p.address}": ${error.message}`, { cause: error })
  }
}

function payeeToData(p: Payee): PlutusData {
  return p.type === 'Account' ? constrData(0, [partyToData(p.account)]) : constrData(1, [partyToData(p.party)])
}

function tokenToData(t: Token): PlutusData {
  return constrData(0, [hexBytes(t.currencySymbol, 'currency symbol'), textBytes(t.tokenName)])
}

function choiceIdToData(c: ChoiceId): PlutusData {
  return constrData(0, [textBytes(c.name), partyToData(c.owner)])
}

function valueIdToData(id: ValueId): PlutusData {
  return constrData(0, [textBytes(id)])
}

function hexBytes(text: string, what: string): Uint8Array {
  if (!LOWERCASE_HEX.test(text)) throw new PlutusEncodeError(`${what} "${text}" is not lowercase hex`)
  return hexToBytes(text)
}

/** A lone surrogate has no UTF-8 form; TextEncoder would silently replace it and change the hash. */
function textBytes(text: string): Uint8Array {
  const bytes = utf8Encode(text)
  if (bytes === undefined) throw new PlutusEncodeError(`text ${JSON.stringify(text)} contains a lone surrogate`)
  return bytes
}
