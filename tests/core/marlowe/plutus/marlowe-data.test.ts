import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { hex } from '@scure/base'
import {
  constrData,
  decodePlutusData,
  encodePlutusData,
  PlutusDataError,
  plutusDataEquals,
  type PlutusData
} from '../../../../src/core/marlowe/plutus/data'
import {
  PlutusDecodeError,
  PlutusEncodeError,
  contractFromPlutusData,
  contractToPlutusData,
  DecodedContracts,
  decodeContract,
  decodeMarloweData,
  decodePayoutDatum,
  decodeRedeemer,
  encodeMarloweData,
  encodePayoutDatum,
  encodeRedeemer,
  inputsToRedeemer,
  marloweDataFromPlutusData,
  marloweDataToPlutusData,
  payoutDatumFromPlutusData,
  probeMarloweData,
  probePayoutDatum,
  redeemerToInputs
} from '../../../../src/core/marlowe/plutus/marlowe-data'
import { merkleHash } from '../../../../src/core/marlowe/plutus/hash'
import {
  ADA,
  CLOSE,
  emptyState,
  type ChoiceId,
  type Contract,
  type Input,
  type MarloweData,
  type Party,
  type Token
} from '../../../../src/core/marlowe/types'

const c = constrData
const B = (h: string): Uint8Array => hex.decode(h)
const text = (s: string): Uint8Array => new TextEncoder().encode(s)

const KEY = '9493315cd92eb5d8c4304e67b7e16ae36d61d34502694657811a2c8e'
const STAKE_KEY = '337b62cfff6403a06a3acbc34f8c46003c69fe79a3628cefa9c47251'
const SCRIPT = 'c37b1b5dc0669f1d3c61a6fddb2e8fde96be87b881c60bce8e8d542f'
const CS = '1b9af43b0eaafc42dfaefbbf4e71437af45454c7292a6b6606363741'

const mainnetBase: Party = {
  type: 'Address',
  address: 'addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3x'
}
const testnetScriptEnterprise: Party = {
  type: 'Address',
  address: 'addr_test1wrphkx6acpnf78fuvxn0mkew3l0fd058hzquvz7w36x4gtcl6szpr'
}
const seller: Party = { type: 'Role', role: 'Seller' }
const buyer: Party = { type: 'Role', role: 'Bűyer €' }
const dollar: Token = { currencySymbol: CS, tokenName: 'dollar' }
const choice: ChoiceId = { name: 'price', owner: mainnetBase }

const mainnetBaseData = c(0, [c(1, []), c(0, [c(0, [B(KEY)]), c(0, [c(0, [c(0, [B(STAKE_KEY)])])])])])
const testnetScriptEnterpriseData = c(0, [c(0, []), c(0, [c(1, [B(SCRIPT)]), c(1, [])])])
const sellerData = c(1, [text('Seller')])
const dollarData = c(0, [B(CS), text('dollar')])
const adaData = c(0, [new Uint8Array(), new Uint8Array()])

/** A contract that uses every constructor of Contract, Case, Action, Value and Observation. */
const everything: Contract = {
  type: 'When',
  cases: [
    {
      type: 'Case',
      action: { type: 'Deposit', account: seller, party: mainnetBase, token: dollar, value: 10n ** 50n },
      then: {
        type: 'Pay',
        from: seller,
        to: { type: 'Party', party: testnetScriptEnterprise },
        token: ADA,
        value: {
          type: 'Cond',
          observation: {
            type: 'AndObs',
            left: { type: 'OrObs', left: true, right: { type: 'NotObs', observation: false } },
            right: { type: 'ChoseSomething', choice }
          },
          then: { type: 'AvailableMoney', account: seller, token: dollar },
          else: {
            type: 'AddValue',
            left: { type: 'SubValue', left: -(2n ** 64n) - 1n, right: { type: 'NegValue', value: 5n } },
            right: {
              type: 'MulValue',
              left: { type: 'DivValue', left: { type: 'TimeIntervalStart' }, right: { type: 'TimeIntervalEnd' } },
              right: { type: 'UseValue', id: 'x' }
            }
          }
        },
        then: {
          type: 'If',
          observation: { type: 'ValueGE', left: { type: 'ChoiceValue', choice }, right: 0n },
          then: { type: 'Let', id: 'x', value: 1n, then: CLOSE },
          else: { type: 'Assert', observation: { type: 'ValueGT', left: 1n, right: 2n }, then: CLOSE }
        }
      }
    },
    {
      type: 'Case',
      action: {
        type: 'Choice',
        choice,
        bounds: [
          { from: 0n, to: 10n },
          { from: 20n, to: 2n ** 70n }
        ]
      },
      then: CLOSE
    },
    {
      type: 'MerkleizedCase',
      action: {
        type: 'Notify',
        observation: {
          type: 'AndObs',
          left: { type: 'ValueLT', left: 1n, right: 2n },
          right: {
            type: 'AndObs',
            left: { type: 'ValueLE', left: 1n, right: 2n },
            right: { type: 'ValueEQ', left: 1n, right: 1n }
          }
        }
      },
      hash: merkleHash(CLOSE)
    }
  ],
  timeout: 1_700_000_000_000n,
  timeoutContinuation: {
    type: 'Pay',
    from: buyer,
    to: { type: 'Account', account: seller },
    token: dollar,
    value: 1n,
    then: CLOSE
  }
}

const datum: MarloweData = {
  params: { rolesCurrency: CS },
  state: {
    accounts: [
      [{ account: seller, token: ADA }, 2_000_000n],
      [{ account: mainnetBase, token: dollar }, 7n],
      [{ account: seller, token: ADA }, 1n]
    ],
    choices: [[choice, -3n]],
    boundValues: [
      ['y', 2n ** 80n],
      ['x', 0n]
    ],
    minTime: 1_699_999_999_999n
  },
  contract: everything
}

function decodeFailure(f: () => unknown): PlutusDecodeError {
  try {
    f()
  } catch (error) {
    if (error instanceof PlutusDecodeError) return error
    throw error
  }
  throw new Error('decoded without error')
}

/** The node at `path` of a Data tree, with the path scheme of `replaceAt`. */
function nodeAt(d: PlutusData, path: readonly number[]): PlutusData {
  const [head, ...rest] = path
  if (head === undefined) return d
  if (typeof d !== 'object' || d instanceof Uint8Array) throw new Error('path leaves the tree')
  const items = 'constr' in d ? d.fields : 'list' in d ? d.list : d.map.flat()
  const child = items[head]
  if (child === undefined) throw new Error(`no child ${head}`)
  return nodeAt(child, rest)
}

/** Replaces the node at `path` of a Data tree: field and list indices; in maps 2i is key i, 2i+1 its value. */
function replaceAt(d: PlutusData, path: readonly number[], replacement: PlutusData): PlutusData {
  const [head, ...rest] = path
  if (head === undefined) return replacement
  if (typeof d !== 'object' || d instanceof Uint8Array) throw new Error('path leaves the tree')
  const swap = (items: readonly PlutusData[]): PlutusData[] =>
    items.map((x, i) => (i === head ? replaceAt(x, rest, replacement) : x))
  if ('constr' in d) return { constr: d.constr, fields: swap(d.fields) }
  if ('list' in d) return { list: swap(d.list) }
  return {
    map: d.map.map(([k, v], i) => [
      2 * i === head ? replaceAt(k, rest, replacement) : k,
      2 * i + 1 === head ? replaceAt(v, rest, replacement) : v
    ])
  }
}

describe('marlowe-core.md §2.5 vectors', () => {
  const empty: MarloweData = { params: { rolesCurrency: '' }, state: emptyState(0n), contract: CLOSE }

  it('encodes the empty MarloweData', () => {
    expect(hex.encode(encodeMarloweData(empty))).toBe('d8799fd8799f40ffd8799fa0a0a000ffd87980ff')
    expect(decodeMarloweData(B('d8799fd8799f40ffd8799fa0a0a000ffd87980ff'))).toEqual(empty)
  })

  it('encodes the [INotify] and empty redeemers', () => {
    const notify: Input[] = [{ content: { type: 'INotify' } }]
    expect(hex.encode(encodeRedeemer(notify))).toBe('9fd8799fd87b80ffff')
    expect(decodeRedeemer(B('9fd8799fd87b80ffff'))).toEqual(notify)
    expect(hex.encode(encodeRedeemer([]))).toBe('80')
    expect(decodeRedeemer(B('80'))).toEqual([])
  })

  it('encodes the payout datum for Seller', () => {
    const expected = 'd8799f581c1b9af43b0eaafc42dfaefbbf4e71437af45454c7292a6b66063637414653656c6c6572ff'
    expect(hex.encode(encodePayoutDatum({ rolesCurrency: CS, role: 'Seller' }))).toBe(expected)
    expect(decodePayoutDatum(B(expected))).toEqual({ rolesCurrency: CS, role: 'Seller' })
  })

  it('encodes Close', () => {
    expect(hex.encode(encodePlutusData(contractToPlutusData(CLOSE)))).toBe('d87980')
    expect(contractFromPlutusData(decodePlutusData(B('d87980')))).toEqual(CLOSE)
  })
})

describe('model ↔ Data layout', () => {
  it('round-trips a datum that uses every constructor, bignums and duplicate map keys', () => {
    const bytes = encodeMarloweData(datum)
    expect(decodeMarloweData(bytes)).toEqual(datum)
    expect(hex.encode(encodeMarloweData(decodeMarloweData(bytes)))).toBe(hex.encode(bytes))
  })

  it('encodes address parties as Constr 0 [network, Plutus Address]', () => {
    const account = (p: Party): PlutusData =>
      marloweDataToPlutusData({ ...datum, state: { ...emptyState(0n), accounts: [[{ account: p, token: ADA }, 1n]] } })
    // MarloweData field 1 = state; State field 0 = accounts; entry 0's key; AccountKey field 0 = the party.
    const keyOf = (p: Party): PlutusData => nodeAt(account(p), [1, 0, 0, 0])
    expect(plutusDataEquals(keyOf(mainnetBase), mainnetBaseData)).toBe(true)
    expect(plutusDataEquals(keyOf(testnetScriptEnterprise), testnetScriptEnterpriseData)).toBe(true)
    expect(plutusDataEquals(keyOf(seller), sellerData)).toBe(true)
  })

  it('puts the account first in Deposit and IDeposit, the observation first in Cond', () => {
    const deposit: Contract = {
      type: 'When',
      cases: [
        {
          type: 'Case',
          action: { type: 'Deposit', account: seller, party: mainnetBase, token: dollar, value: 5n },
          then: CLOSE
        }
      ],
      timeout: 9n,
      timeoutContinuation: CLOSE
    }
    const expected = c(3, [
      { list: [c(0, [c(0, [sellerData, mainnetBaseData, dollarData, c(1, [5n])]), c(0, [])])] },
      9n,
      c(0, [])
    ])
    expect(plutusDataEquals(contractToPlutusData(deposit), expected)).toBe(true)

    const input: Input = {
      content: { type: 'IDeposit', account: seller, party: mainnetBase, token: ADA, amount: 3n }
    }
    const redeemer = { list: [c(0, [c(0, [sellerData, mainnetBaseData, adaData, 3n])])] }
    expect(plutusDataEquals(inputsToRedeemer([input]), redeemer)).toBe(true)

    const cond: Contract = {
      type: 'Pay',
      from: seller,
      to: { type: 'Account', account: seller },
      token: ADA,
      value: {
        type: 'Cond',
        observation: true,
        then: { type: 'AvailableMoney', account: seller, token: dollar },
        else: 0n
      },
      then: CLOSE
    }
    const value = c(11, [c(9, []), c(0, [sellerData, dollarData]), c(1, [0n])])
    const pay = c(1, [sellerData, c(0, [sellerData]), adaData, value, c(0, [])])
    expect(plutusDataEquals(contractToPlutusData(cond), pay)).toBe(true)
  })

  it('wraps ValueIds and the params in Constr 0 and keeps state maps in list order', () => {
    const d = marloweDataToPlutusData({
      params: { rolesCurrency: '' },
      state: {
        accounts: [],
        choices: [],
        boundValues: [
          ['b', 1n],
          ['a', 2n]
        ],
        minTime: 5n
      },
      contract: { type: 'Let', id: 'a', value: { type: 'UseValue', id: 'b' }, then: CLOSE }
    })
    const expected = c(0, [
      c(0, [new Uint8Array()]),
      c(0, [
        { map: [] },
        { map: [] },
        {
          map: [
            [c(0, [text('b')]), 1n],
            [c(0, [text('a')]), 2n]
          ]
        },
        5n
      ]),
      c(4, [c(0, [text('a')]), c(10, [c(0, [text('b')])]), c(0, [])])
    ])
    expect(plutusDataEquals(d, expected)).toBe(true)
  })

  it('writes text as UTF-8 bytes', () => {
    expect(hex.encode(encodePayoutDatum({ rolesCurrency: '', role: 'Bűyer €' }))).toBe(
      `d8799f404a${hex.encode(text('Bűyer €'))}ff`
    )
  })

  it('keeps a leading byte-order mark in text, as Haskell decodeUtf8 does', () => {
    const bytes = hex.decode('d8799f4043efbbbfff')
    expect(decodePayoutDatum(bytes)).toEqual({ rolesCurrency: '', role: '\uFEFF' })
    expect(hex.encode(encodePayoutDatum(decodePayoutDatum(bytes)))).toBe('d8799f4043efbbbfff')
  })

  it('puts merkleized inputs in the redeemer without their continuation and restores it by hash', () => {
    const continuation: Contract = { type: 'Assert', observation: true, then: CLOSE }
    const hash = merkleHash(continuation)
    const inputs: Input[] = [
      { content: { type: 'IChoice', choice, chosen: 4n }, merkleized: { hash, continuation } },
      { content: { type: 'INotify' } }
    ]
    const redeemer = inputsToRedeemer(inputs)
    expect(
      plutusDataEquals(redeemer, {
        list: [c(1, [c(1, [c(0, [text('price'), mainnetBaseData]), 4n]), B(hash)]), c(0, [c(2, [])])]
      })
    ).toBe(true)
    const lookup = (h: string): Contract | undefined => (h === hash ? continuation : undefined)
    expect(redeemerToInputs(redeemer, lookup)).toEqual(inputs)
    expect(decodeRedeemer(encodeRedeemer(inputs), lookup)).toEqual(inputs)
    expect(decodeFailure(() => redeemerToInputs(redeemer)).message).toBe(
      `redeemer[0].hash: no continuation was supplied for merkleized input ${hash}`
    )
  })
})

describe('decoding errors name the path', () => {
  const good = marloweDataToPlutusData(datum)
  // MarloweData field 2 = contract; When field 0 = cases; case 1; Case field 1 = continuation.
  const secondCaseThen = [2, 0, 1, 1]

  it.each<[string, readonly number[], PlutusData, string]>([
    [
      'an unknown Contract constructor',
      secondCaseThen,
      c(9, []),
      'datum.contract.cases[1].then: expected Contract constructor 0..5, got constructor 9'
    ],
    ['a wrong field count', secondCaseThen, c(1, [1n]), 'datum.contract.cases[1].then: Pay takes 5 fields, got 1'],
    ['fields on Close', secondCaseThen, c(0, [1n]), 'datum.contract.cases[1].then: Close takes 0 fields, got 1'],
    [
      'a bytes timeout',
      [2, 1],
      new Uint8Array(2),
      'datum.contract.timeout: expected an integer, got a byte string of 2 bytes'
    ],
    ['a non-list of cases', [2, 0], { map: [] }, 'datum.contract.cases: expected a list, got a map'],
    [
      'an integer as a Value',
      [2, 0, 0, 0, 3],
      7n,
      'datum.contract.cases[0].action.value: expected a Value constructor, got integer 7'
    ],
    [
      'an unknown Observation',
      [2, 0, 0, 1, 3, 0],
      c(11, []),
      'datum.contract.cases[0].then.value.observation: expected Observation constructor 0..10, got constructor 11'
    ],
    [
      'invalid UTF-8 in a token name',
      [1, 0, 2, 1, 1],
      B('ff'),
      'datum.state.accounts[1].key.token.tokenName: byte string ff is not valid UTF-8 text'
    ],
    ['a list as the accounts map', [1, 0], { list: [] }, 'datum.state.accounts: expected a map, got a list'],
    [
      'a bad network Bool',
      [1, 0, 2, 0, 0],
      c(2, []),
      'datum.state.accounts[1].key.account.network: expected Bool constructor 0..1, got constructor 2'
    ],
    [
      'a short credential hash',
      [1, 0, 2, 0, 1, 0, 0],
      B('00'),
      'datum.state.accounts[1].key.account.address.payment.hash: expected a 28-byte hash, got 1 bytes'
    ],
    [
      'a staking pointer',
      [1, 0, 2, 0, 1, 1, 0],
      c(1, [1n, 2n, 3n]),
      'datum.state.accounts[1].key.account.address.stake.just: ' +
        'a staking pointer cannot be part of a Marlowe address party'
    ],
    [
      'a Maybe with fields on Nothing',
      [1, 0, 2, 0, 1, 1],
      c(1, [1n]),
      'datum.state.accounts[1].key.account.address.stake: Nothing takes 0 fields, got 1'
    ],
    ['a non-bytes roles currency', [0, 0], 0n, 'datum.params.rolesCurrency: expected a byte string, got integer 0'],
    [
      'a constructor index beyond 2^53',
      [2],
      c(2n ** 60n, []),
      'datum.contract: expected Contract constructor 0..5, got constructor 1152921504606846976'
    ]
  ])('reports %s', (_, path, replacement, message) => {
    expect(decodeFailure(() => marloweDataFromPlutusData(replaceAt(good, path, replacement))).message).toBe(message)
  })

  it('names the bad node under a thousand levels above a large field, counting each level’s fields once', () => {
    // Assert TrueObs … nested 1000 deep over a Close given a 100,000-item list as a field it does not have.
    let d: PlutusData = c(0, [{ list: Array.from({ length: 100_000 }, (_, i) => BigInt(i)) }])
    for (let i = 0; i < 1000; i++) d = c(5, [c(9, []), d])
    expect(decodeFailure(() => decodeContract(encodePlutusData(d))).message).toBe(
      `contract${'.then'.repeat(1000)}: Close takes 0 fields, got 1`
    )
  })

  it('uses the caller’s root name', () => {
    expect(decodeFailure(() => contractFromPlutusData(c(6, []))).message).toBe(
      'contract: expected Contract constructor 0..5, got constructor 6'
    )
    expect(decodeFailure(() => payoutDatumFromPlutusData(c(0, [B(CS), B('c3')]))).message).toBe(
      'payoutDatum.role: byte string c3 is not valid UTF-8 text'
    )
    expect(decodeFailure(() => redeemerToInputs({ list: [c(0, [c(3, [])])] })).message).toBe(
      'redeemer[0].content: expected InputContent constructor 0..2, got constructor 3'
    )
    expect(decodeFailure(() => marloweDataFromPlutusData(c(0, []), 'txInfoData[2]')).message).toBe(
      'txInfoData[2]: MarloweData takes 3 fields, got 0'
    )
  })
})

describe('decoding hostile bytes', () => {
  // Read in one pass from the bytes, the datum must come out as a tree decode followed by shape checks would
  // have it: malformed CBOR anywhere is a PlutusDataError (the tree decoder's), whatever the shape; well-formed
  // Data decodes to the model whose Data it is, or fails with a PlutusDecodeError. A probe gives the same model
  // or nothing.
  function expectLikeTreeDecode(bytes: Uint8Array): void {
    let tree: PlutusData | PlutusDataError
    try {
      tree = decodePlutusData(bytes)
    } catch (error) {
      if (!(error instanceof PlutusDataError)) throw error
      tree = error
    }
    let decoded: MarloweData
    try {
      decoded = decodeMarloweData(bytes)
    } catch (error) {
      if (tree instanceof PlutusDataError) expect(error).toEqual(tree)
      else expect(error).toBeInstanceOf(PlutusDecodeError)
      // A probe (is this datum a MarloweData?) skips wording the error, and must refuse what the decoder does.
      expect(probeMarloweData(bytes)).toBeUndefined()
      return
    }
    expect(probeMarloweData(bytes)).toEqual(decoded)
    expect(tree).not.toBeInstanceOf(PlutusDataError)
    expect(plutusDataEquals(marloweDataToPlutusData(decoded), tree as PlutusData)).toBe(true)
  }

  const good = encodeMarloweData(datum)
  const edits = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 3 })

  it('agrees with a tree decode on corrupted datums', () => {
    fc.assert(
      fc.property(edits, (changes) => {
        const bytes = good.slice()
        for (const [at, value] of changes) bytes[at % bytes.length] = value
        expectLikeTreeDecode(bytes)
      }),
      { numRuns: 4000 }
    )
  })

  it('agrees with a tree decode on every truncation and on trailing bytes', () => {
    for (let length = 0; length < good.length; length += 1) expectLikeTreeDecode(good.subarray(0, length))
    expectLikeTreeDecode(Uint8Array.of(...good, 0))
  })

  it('tells a payout datum from MarloweData by probing either way', () => {
    const payout = encodePayoutDatum({ rolesCurrency: 'ab'.repeat(28), role: 'Seller' })
    expect(probeMarloweData(payout)).toBeUndefined()
    expect(probePayoutDatum(payout)).toEqual(decodePayoutDatum(payout))
    expect(probePayoutDatum(good)).toBeUndefined()
    expect(probeMarloweData(good)).toEqual(decodeMarloweData(good))
  })

  it('reports a wrong field count before what is in the fields, in either array form', () => {
    // Pay with one field, an integer where its `from` party would be: definite, then indefinite.
    const contract = (fields: string): Uint8Array => hex.decode(`d87a${fields}`)
    for (const bytes of [contract('8101'), contract('9f01ff')]) {
      expect(decodeFailure(() => decodeContract(bytes)).message).toBe('contract: Pay takes 5 fields, got 1')
    }
  })
})

describe('names', () => {
  it('come back exactly, thousands of them past the name cache’s limit, short and long, ASCII or not', () => {
    const names = Array.from({ length: 1500 }, (_, i) =>
      i % 3 === 0 ? `n${i}` : i % 3 === 1 ? `ñ€${i}` : `${'x'.repeat(70)}${i}`
    )
    const contract = (from: number): Contract => ({
      type: 'When',
      cases: names.slice(from).map((name) => ({
        type: 'Case',
        action: { type: 'Choice', choice: { name, owner: seller }, bounds: [{ from: 0n, to: 1n }] },
        then: CLOSE
      })),
      timeout: 1n,
      timeoutContinuation: CLOSE
    })
    for (const from of [0, 700, 0]) {
      const md: MarloweData = { ...datum, contract: contract(from) }
      expect(decodeMarloweData(encodeMarloweData(md))).toEqual(md)
    }
  })
})

describe('contracts decoded before', () => {
  const continuation: Contract = { type: 'When', cases: [], timeout: 99n, timeoutContinuation: CLOSE }
  const spent: MarloweData = {
    params: { rolesCurrency: CS },
    state: emptyState(0n),
    contract: { type: 'If', observation: true, then: continuation, else: CLOSE }
  }
  const continuing: MarloweData = { ...spent, state: emptyState(5n), contract: continuation }

  it('give a continuing datum the very contract object read from the spent one', () => {
    const known = new DecodedContracts()
    const before = decodeMarloweData(encodeMarloweData(spent), 'datum', known)
    const after = decodeMarloweData(encodeMarloweData(continuing), 'datum', known)
    expect(after).toEqual(continuing)
    expect(before.contract.type === 'If' && after.contract === before.contract.then).toBe(true)
    expect(decodeMarloweData(encodeMarloweData(continuing)).contract).not.toBe(after.contract)
  })

  it('are not used for another contract of the same length, and errors stay those of a plain decode', () => {
    const known = new DecodedContracts()
    decodeMarloweData(encodeMarloweData(spent), 'datum', known)
    const other: MarloweData = { ...continuing, contract: { ...continuation, timeout: 98n } }
    expect(decodeMarloweData(encodeMarloweData(other), 'datum', known)).toEqual(other)
    const broken = encodeMarloweData(continuing)
    broken[broken.length - 2] = 0xf4
    expect(() => decodeMarloweData(broken, 'datum', known)).toThrow(
      new PlutusDataError('a float or simple value is not Plutus Data', broken.length - 2)
    )
    const fields = (marloweDataToPlutusData(continuing) as { fields: readonly PlutusData[] }).fields
    const wrongShape = encodePlutusData(c(0, [fields[0]!, fields[1]!, c(9, [])]))
    expect(decodeFailure(() => decodeMarloweData(wrongShape, 'datum', known)).message).toBe(
      'datum.contract: expected Contract constructor 0..5, got constructor 9'
    )
  })
})

describe('encoding errors', () => {
  const POINTER = 'addr1gx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer5pnz75xxcrzqf96k'
  const payFrom = (from: Party, token: Token): Contract => ({
    type: 'Pay',
    from,
    to: { type: 'Account', account: seller },
    token,
    value: 1n,
    then: CLOSE
  })

  it.each<[string, Contract, string]>([
    [
      'an invalid address party',
      payFrom({ type: 'Address', address: 'addr1nope' }, ADA),
      'address party "addr1nope": not a bech32 string'
    ],
    [
      'a pointer address party',
      payFrom({ type: 'Address', address: POINTER }, ADA),
      `address party "${POINTER}": pointer addresses cannot be Marlowe parties`
    ],
    [
      'an uppercase currency symbol',
      payFrom(seller, { currencySymbol: 'AB', tokenName: '' }),
      'currency symbol "AB" is not lowercase hex'
    ],
    [
      'an odd-length merkle hash',
      {
        type: 'When',
        cases: [{ type: 'MerkleizedCase', action: { type: 'Notify', observation: true }, hash: 'abc' }],
        timeout: 0n,
        timeoutContinuation: CLOSE
      },
      'merkleized case hash "abc" is not lowercase hex'
    ],
    [
      'a lone surrogate in a value id',
      { type: 'Let', id: 'x\uD800', value: 1n, then: CLOSE },
      'text "x\\ud800" contains a lone surrogate'
    ]
  ])('rejects %s', (_, contract, message) => {
    expect(() => contractToPlutusData(contract)).toThrow(new PlutusEncodeError(message))
  })

  it('keeps surrogate pairs', () => {
    const contract: Contract = { type: 'Let', id: 'emoji 😀', value: 1n, then: CLOSE }
    expect(contractFromPlutusData(contractToPlutusData(contract))).toEqual(contract)
  })
})
