import { describe, expect, it } from 'vitest'
import { JsonSyntaxError } from '../../../../src/core/json/lossless'
import {
  MarloweJsonError,
  parseContract,
  parseInputs,
  parseMarloweData,
  parseState,
  parseTransactionInput,
  stringifyContract
} from '../../../../src/core/marlowe/json'

const ADA = '{"currency_symbol":"","token_name":""}'
const ROLE = (r: string): string => `{"role_token":${JSON.stringify(r)}}`
const ADDR = 'addr_test1vrssw4edcts00kk6lp7p5n64666m23tpprqaarmdwkaq69gfvqnpz'
const pay = (amount: string): string =>
  `{"when":[{"case":{"notify_if":true},"then":{"from_account":${ROLE('A')},"to":{"party":${ROLE('B')}},"token":${ADA},"pay":${amount},"then":"close"}}],"timeout":10,"timeout_continuation":"close"}`

function rejection(parse: (text: string) => unknown, text: string): string {
  try {
    parse(text)
  } catch (e) {
    if (e instanceof MarloweJsonError || e instanceof JsonSyntaxError) return e.message
    throw e
  }
  throw new Error('accepted')
}

describe('parseContract', () => {
  it('reads integers beyond 2^53 exactly and writes them back', () => {
    const text = pay('123456789012345678901234567890')
    const c = parseContract(text)
    expect(stringifyContract(c)).toContain('"pay":123456789012345678901234567890')
  })

  it('accepts integral numbers written with a fraction or exponent, as Haskell does', () => {
    expect(stringifyContract(parseContract(pay('1.5e1')))).toContain('"pay":15')
  })

  it('normalises addresses and currency symbols to lowercase', () => {
    const c = parseContract(
      `{"from_account":{"address":"${ADDR.toUpperCase()}"},"to":{"account":${ROLE('x')}},"token":{"currency_symbol":"AB","token_name":"t"},"pay":1,"then":"close"}`
    )
    expect(stringifyContract(c)).toBe(
      `{"from_account":{"address":"${ADDR}"},"pay":1,"then":"close","to":{"account":{"role_token":"x"}},"token":{"currency_symbol":"ab","token_name":"t"}}`
    )
  })

  it('ignores extra keys, as Haskell does', () => {
    expect(parseContract('{"assert":true,"then":"close","comment":"x"}')).toEqual({
      type: 'Assert',
      observation: true,
      then: { type: 'Close' }
    })
  })

  const cases: Array<[string, string, string]> = [
    ['a fractional amount', pay('1.5'), 'contract.when[0].then.pay: expected an integer, got the number 1.5'],
    ['a string amount', pay('"10"'), 'contract.when[0].then.pay: expected a value, got the string "10"'],
    [
      'an unknown value object',
      pay('{"plus":1}'),
      'contract.when[0].then.pay: expected a value (an object with amount_of_token'
    ],
    ['a missing timeout', '{"when":[],"timeout_continuation":"close"}', 'contract: missing key "timeout"'],
    [
      'a non-array when',
      '{"when":{},"timeout":1,"timeout_continuation":"close"}',
      'contract.when: expected an array of cases, got an empty object'
    ],
    [
      'an unknown contract',
      '"open"',
      'contract: expected a contract ("close" or an object with pay, if, when, let or assert), got the string "open"'
    ],
    [
      'a case without continuation',
      '{"when":[{"case":{"notify_if":true}}],"timeout":1,"timeout_continuation":"close"}',
      'contract.when[0]: missing key "then" (or "merkleized_then")'
    ],
    [
      'a short merkle hash',
      '{"when":[{"case":{"notify_if":true},"merkleized_then":"abcd"}],"timeout":1,"timeout_continuation":"close"}',
      'contract.when[0].merkleized_then: expected 32 bytes of base16, got 2'
    ],
    [
      'an unknown action',
      '{"when":[{"case":{"wait":1},"then":"close"}],"timeout":1,"timeout_continuation":"close"}',
      'contract.when[0].case: expected an action'
    ],
    [
      'an observation of the wrong type',
      '{"assert":1,"then":"close"}',
      'contract.assert: expected an observation (true, false or an object with'
    ],
    [
      'an unknown observation',
      '{"assert":{"maybe":true},"then":"close"}',
      'contract.assert: expected an observation (an object with both'
    ],
    [
      'bad hex',
      `{"from_account":${ROLE('a')},"to":{"party":${ROLE('b')}},"token":{"currency_symbol":"xyz","token_name":""},"pay":1,"then":"close"}`,
      'contract.token.currency_symbol: expected base16 bytes, got the string "xyz"'
    ],
    [
      'odd-length hex',
      `{"from_account":${ROLE('a')},"to":{"party":${ROLE('b')}},"token":{"currency_symbol":"abc","token_name":""},"pay":1,"then":"close"}`,
      'contract.token.currency_symbol: expected base16 bytes'
    ],
    [
      'a token name over 32 bytes',
      `{"from_account":${ROLE('a')},"to":{"party":${ROLE('b')}},"token":{"currency_symbol":"","token_name":"${'é'.repeat(17)}"},"pay":1,"then":"close"}`,
      "contract.token.token_name: name is 34 bytes in UTF-8, over the ledger's limit of 32"
    ],
    [
      'a role name over 32 bytes',
      `{"assert":true,"then":{"from_account":${ROLE('r'.repeat(33))},"to":{"party":${ROLE('b')}},"token":${ADA},"pay":1,"then":"close"}}`,
      'contract.then.from_account.role_token: name is 33 bytes'
    ],
    [
      'an unpaired surrogate',
      `{"let":"\\ud800","be":1,"then":"close"}`,
      'contract.let: text contains an unpaired surrogate'
    ],
    [
      'a malformed address',
      `{"from_account":{"address":"addr_test1xyz"},"to":{"party":${ROLE('b')}},"token":${ADA},"pay":1,"then":"close"}`,
      'contract.from_account.address: '
    ],
    [
      'a bad party',
      `{"from_account":{"pubkey":"ab"},"to":{"party":${ROLE('b')}},"token":${ADA},"pay":1,"then":"close"}`,
      'contract.from_account: expected a party'
    ],
    [
      'a bad payee',
      `{"from_account":${ROLE('a')},"to":{"wallet":${ROLE('b')}},"token":${ADA},"pay":1,"then":"close"}`,
      'contract.to: expected a payee'
    ],
    [
      'a bad bound',
      `{"when":[{"case":{"for_choice":{"choice_name":"c","choice_owner":${ROLE('a')}},"choose_between":[{"from":1}]},"then":"close"}],"timeout":1,"timeout_continuation":"close"}`,
      'contract.when[0].case.choose_between[0]: missing key "to"'
    ],
    ['a non-string value id', '{"let":1,"be":1,"then":"close"}', 'contract.let: expected a string, got the integer 1'],
    ['invalid JSON', '{"when":', 'invalid JSON at line 1, column 9: unexpected end of input']
  ]

  it.each(cases)('rejects %s', (_what, text, message) => {
    expect(rejection(parseContract, text)).toContain(message)
  })

  it('rejects hostile nesting with an error, not a stack overflow', () => {
    const deep = '{"assert":true,"then":'.repeat(50_000) + '"close"' + '}'.repeat(50_000)
    expect(rejection(parseContract, deep)).toContain('nesting deeper than 1000 levels')
  })
})

describe('parseState, inputs and datum', () => {
  it('keeps the order of association lists as written', () => {
    const s = parseState(
      `{"accounts":[[[${ROLE('b')},${ADA}],2],[[${ROLE('a')},${ADA}],1]],"choices":[],"boundValues":[["y",1],["x",2]],"minTime":0}`
    )
    expect(s.accounts.map(([k]) => (k.account.type === 'Role' ? k.account.role : ''))).toEqual(['b', 'a'])
    expect(s.boundValues.map(([k]) => k)).toEqual(['y', 'x'])
  })

  it.each([
    ['a missing minTime', '{"accounts":[],"choices":[],"boundValues":[]}', 'state: missing key "minTime"'],
    [
      'an entry that is not a pair',
      '{"accounts":[[1]],"choices":[],"boundValues":[],"minTime":0}',
      'state.accounts[0]: expected a pair [key, value]'
    ],
    [
      'a non-integer balance',
      `{"accounts":[[[${ROLE('a')},${ADA}],"1"]],"choices":[],"boundValues":[],"minTime":0}`,
      'state.accounts[0][1]: expected an integer'
    ],
    [
      'a bad account key',
      `{"accounts":[[[${ROLE('a')}],1]],"choices":[],"boundValues":[],"minTime":0}`,
      'state.accounts[0][0]: expected a pair'
    ]
  ])('rejects a state with %s', (_what, text, message) => {
    expect(rejection(parseState, text)).toContain(message)
  })

  it('reads every input form, merkleized included', () => {
    const hash = 'ab'.repeat(32)
    const inputs = parseInputs(
      `["input_notify",{"input_from_party":${ROLE('a')},"that_deposits":5,"of_token":${ADA},"into_account":${ROLE('a')}},` +
        `{"for_choice_id":{"choice_name":"c","choice_owner":${ROLE('a')}},"input_that_chooses_num":3},` +
        `{"continuation_hash":"${hash.toUpperCase()}","merkleized_continuation":"close"},` +
        `{"for_choice_id":{"choice_name":"c","choice_owner":${ROLE('a')}},"input_that_chooses_num":3,"continuation_hash":"${hash}","merkleized_continuation":"close"}]`
    )
    expect(inputs.map((i) => [i.content.type, i.merkleized?.hash])).toEqual([
      ['INotify', undefined],
      ['IDeposit', undefined],
      ['IChoice', undefined],
      ['INotify', hash],
      ['IChoice', hash]
    ])
  })

  it.each([
    ['an unknown input', '["notify"]', 'inputs[0]: expected an input'],
    [
      'an input object without content',
      '[{"x":1}]',
      'inputs[0]: expected an input ("input_notify" or an object with input_from_party or for_choice_id)'
    ],
    [
      'a merkleized input without its continuation',
      `[{"continuation_hash":"${'00'.repeat(32)}"}]`,
      'inputs[0]: missing key "merkleized_continuation"'
    ],
    [
      'a deposit without an amount',
      `[{"input_from_party":${ROLE('a')},"of_token":${ADA},"into_account":${ROLE('a')}}]`,
      'inputs[0]: missing key "that_deposits"'
    ]
  ])('rejects %s', (_what, text, message) => {
    expect(rejection(parseInputs, text)).toContain(message)
  })

  it('rejects a transaction input without an interval', () => {
    expect(rejection(parseTransactionInput, '{"tx_inputs":[]}')).toContain('input: missing key "tx_interval"')
  })

  it('reads Marlowe data and rejects bad params', () => {
    const state = '{"accounts":[],"choices":[],"boundValues":[],"minTime":0}'
    expect(
      parseMarloweData(`{"marloweParams":{"rolesCurrency":""},"marloweState":${state},"marloweContract":"close"}`)
        .contract
    ).toEqual({ type: 'Close' })
    expect(
      rejection(
        parseMarloweData,
        `{"marloweParams":{"rolesCurrency":"x"},"marloweState":${state},"marloweContract":"close"}`
      )
    ).toContain('datum.marloweParams.rolesCurrency: expected base16 bytes')
  })
})
