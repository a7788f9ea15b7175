/** Query strings of the list and next-step endpoints. */
import { describe, expect, test } from 'vitest'
import {
  decodeContractsQuery,
  decodeNextQuery,
  decodePayoutsQuery,
  decodeWithdrawalsQuery
} from '../../../src/server/requests'
import { engineError, POLICY, TESTNET_ADDRESS, TESTNET_ADDRESS_2, TX, type Expected } from './support'

const bad = (message: string | RegExp): Expected => ({ code: 'BadRequest', message })

describe('GET /contracts filters', () => {
  test('no query at all: no filters', () => {
    const empty = { roleCurrencies: [], tags: [], partyAddresses: [], partyRoles: [] }
    expect(decodeContractsQuery(undefined)).toEqual(empty)
    expect(decodeContractsQuery({})).toEqual(empty)
  })

  test('single and repeated values, deduplicated, hex and addresses lowercased', () => {
    const query = {
      roleCurrency: [POLICY.toUpperCase(), POLICY, ''],
      tag: 'my.tag',
      partyAddress: [TESTNET_ADDRESS, TESTNET_ADDRESS_2.toUpperCase()],
      partyRole: [`${POLICY}.Buyer`, `${POLICY}.a.b`, `${POLICY}.`]
    }
    expect(decodeContractsQuery(query)).toEqual({
      roleCurrencies: [POLICY, ''],
      tags: ['my.tag'],
      partyAddresses: [TESTNET_ADDRESS, TESTNET_ADDRESS_2],
      partyRoles: [
        { policyId: POLICY, assetName: 'Buyer' },
        { policyId: POLICY, assetName: 'a.b' },
        { policyId: POLICY, assetName: '' }
      ]
    })
  })

  test.each([
    [
      'a role currency not hex',
      { roleCurrency: 'xyz' },
      bad('Invalid role currency: roleCurrency "xyz": expected a policy id in hex')
    ],
    ['an odd-length role currency', { roleCurrency: ['ab', 'abc'] }, bad(/^Invalid role currency: roleCurrency "abc"/)],
    [
      'a party address that is not one',
      { partyAddress: 'addr_test1zz' },
      bad('Invalid address: partyAddress "addr_test1zz": not a bech32 string')
    ],
    [
      'a party role without a dot',
      { partyRole: 'Buyer' },
      bad('Invalid role token: partyRole "Buyer": expected "<policyId>.<tokenName>"')
    ],
    [
      'a party role with a bad policy',
      { partyRole: 'zz.Buyer' },
      bad(/^Invalid role token: partyRole "zz\.Buyer": expected a policy/)
    ],
    [
      'a tag that is not text',
      { tag: { a: '1' } },
      bad('Invalid tag: tag: expected strings, got an object with keys a')
    ]
  ])('%s', (_name, query, expected) => {
    engineError(() => decodeContractsQuery(query), expected)
  })
})

describe('GET /withdrawals filters', () => {
  test('role currencies', () => {
    expect(decodeWithdrawalsQuery({ roleCurrency: POLICY })).toEqual({ roleCurrencies: [POLICY] })
    expect(decodeWithdrawalsQuery({})).toEqual({ roleCurrencies: [] })
  })

  test('a bad role currency', () => {
    const e = engineError(
      () => decodeWithdrawalsQuery({ roleCurrency: 'q' }),
      bad('Invalid role value: roleCurrency "q": expected a policy id in hex')
    )
    expect(e.details).toEqual({ parameter: 'roleCurrency', value: 'q', reason: 'expected a policy id in hex' })
  })
})

describe('GET /payouts filters', () => {
  test('contract ids (# or %23), role tokens and a case-insensitive status', () => {
    expect(
      decodePayoutsQuery({
        contractId: [`${TX}%231`, `${TX}#1`, `${TX.toUpperCase()}#2`],
        roleToken: `${POLICY}.Seller`,
        status: 'Withdrawn'
      })
    ).toEqual({
      contractIds: [
        { txId: TX, index: 1 },
        { txId: TX, index: 2 }
      ],
      roleTokens: [{ policyId: POLICY, assetName: 'Seller' }],
      status: 'withdrawn'
    })
    expect(decodePayoutsQuery({ status: 'AVAILABLE' }).status).toBe('available')
    expect(decodePayoutsQuery({})).toEqual({ contractIds: [], roleTokens: [] })
  })

  test.each([
    [
      'a bare transaction id',
      { contractId: TX },
      bad(
        `Invalid contractId value: contractId "${TX}": Expected [a-fA-F0-9]{64}#[0-9]+ (hint: do you need to URL-encode the '#' as "%23"?)`
      )
    ],
    [
      'a role token without a dot',
      { roleToken: POLICY },
      bad(/^Invalid roleToken value: roleToken "(ab)+": expected "<policyId>\.<tokenName>"$/)
    ],
    [
      'an unknown status',
      { status: 'paid' },
      bad('Invalid status value: status "paid": expected "available" or "withdrawn"')
    ],
    [
      'a repeated status',
      { status: ['available', 'withdrawn'] },
      bad('Invalid status value: status: expected a string, got an array of 2')
    ]
  ])('%s', (_name, query, expected) => {
    engineError(() => decodePayoutsQuery(query), expected)
  })
})

describe('GET /contracts/{id}/next', () => {
  test('the interval in POSIX ms and parties: addresses, else role names', () => {
    expect(
      decodeNextQuery({
        validityStart: '2024-01-31T12:00:00Z',
        validityEnd: '2024-01-31T12:00:00.999Z',
        party: ['Buyer', TESTNET_ADDRESS.toUpperCase(), 'Buyer', 'addr_test1zz']
      })
    ).toEqual({
      validityStart: 1706702400000n,
      validityEnd: 1706702400999n,
      parties: [
        { type: 'Role', role: 'Buyer' },
        { type: 'Address', address: TESTNET_ADDRESS },
        { type: 'Role', role: 'addr_test1zz' }
      ]
    })
  })

  test('no party means no filtering', () => {
    const q = decodeNextQuery({ validityStart: '2024-01-31T12:00:00Z', validityEnd: '2024-01-31T13:00:00Z' })
    expect(q.parties).toEqual([])
  })

  test.each([
    [
      'no validityStart',
      { validityEnd: '2024-01-31T12:00:00Z' },
      bad('Invalid validityStart value: validityStart: the parameter is required')
    ],
    [
      'no validityEnd',
      { validityStart: '2024-01-31T12:00:00Z' },
      bad('Invalid validityEnd value: validityEnd: the parameter is required')
    ],
    [
      'POSIX ms instead of ISO',
      { validityStart: '1706702400000', validityEnd: '2024-01-31T12:00:00Z' },
      bad(
        'Invalid validityStart value: validityStart: expected an ISO-8601 time such as "2024-01-31T12:00:00Z", got "1706702400000"'
      )
    ],
    [
      'month 13',
      { validityStart: '2024-01-31T12:00:00Z', validityEnd: '2024-13-01T00:00:00Z' },
      bad('Invalid validityEnd value: validityEnd: month 13 is not between 1 and 12')
    ],
    [
      'a repeated validityStart',
      { validityStart: ['2024-01-31T12:00:00Z', '2024-01-31T12:00:00Z'], validityEnd: '2024-01-31T12:00:00Z' },
      bad(/^Invalid validityStart value: validityStart: expected an ISO-8601 time .*, got an array of 2$/)
    ]
  ])('%s', (_name, query, expected) => {
    engineError(() => decodeNextQuery(query), expected)
  })
})
