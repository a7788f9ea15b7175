/** Path parameters: contract and payout ids with "#" or "%23", transaction and withdrawal ids. */
import { describe, expect, test } from 'vitest'
import { decodeContractId, decodePayoutId, decodeTransactionId, decodeWithdrawalId } from '../../../src/server/requests'
import { engineError, TX } from './support'

const HINT = `Expected [a-fA-F0-9]{64}#[0-9]+ (hint: do you need to URL-encode the '#' as "%23"?)`
const EXPECTED = 'Expected [a-fA-F0-9]{64}#[0-9]+'

describe('contract and payout ids', () => {
  test.each([
    ['decoded by Fastify', `${TX}#1`, { txId: TX, index: 1 }],
    ['still encoded', `${TX}%231`, { txId: TX, index: 1 }],
    ['upper-case hex', `${TX.toUpperCase()}#0`, { txId: TX, index: 0 }],
    ['a leading zero', `${TX}#007`, { txId: TX, index: 7 }],
    ['the largest index', `${TX}#65535`, { txId: TX, index: 65535 }]
  ])('%s', (_name, param, ref) => {
    expect(decodeContractId(param)).toEqual(ref)
    expect(decodePayoutId(param)).toEqual(ref)
  })

  test.each([
    ['a bare transaction id (the "#" was taken as a fragment)', TX, HINT],
    ['an empty id', '', EXPECTED],
    ['63 hex digits', `${TX.slice(1)}#1`, EXPECTED],
    ['not hex', `${'g'.repeat(64)}#1`, EXPECTED],
    ['no index', `${TX}#`, EXPECTED],
    ['a negative index', `${TX}#-1`, EXPECTED],
    ['two separators', `${TX}#1#2`, EXPECTED],
    ['a lower-case %23 variant of another char', `${TX}%241`, EXPECTED],
    ['an index above 65535', `${TX}#65536`, `${EXPECTED} (the output index must be at most 65535)`],
    ['a huge index', `${TX}#${'9'.repeat(30)}`, `${EXPECTED} (the output index must be at most 65535)`]
  ])('%s', (_name, param, message) => {
    const e = engineError(() => decodeContractId(param), { code: 'BadRequest', message })
    expect(e.details).toEqual({ parameter: 'contractId', value: param, reason: message })
    expect(engineError(() => decodePayoutId(param), { code: 'BadRequest', message }).details.parameter).toBe('payoutId')
  })
})

describe('transaction and withdrawal ids', () => {
  test('64 hex digits, lowercased', () => {
    expect(decodeTransactionId(TX.toUpperCase())).toBe(TX)
    expect(decodeWithdrawalId(TX)).toBe(TX)
  })

  test.each([
    ['a contract id', `${TX}#1`],
    ['63 digits', TX.slice(1)],
    ['65 digits', `${TX}0`],
    ['not hex', 'z'.repeat(64)],
    ['empty', '']
  ])('%s', (_name, param) => {
    const e = engineError(() => decodeTransactionId(param), { code: 'BadRequest', message: 'Expected [a-fA-F0-9]{64}' })
    expect(e.details.parameter).toBe('transactionId')
    expect(
      engineError(() => decodeWithdrawalId(param), { code: 'BadRequest', message: 'Expected [a-fA-F0-9]{64}' }).details
        .parameter
    ).toBe('withdrawalId')
  })
})
