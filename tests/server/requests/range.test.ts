/** The Range header grammar and the response headers of a page. */
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { pageHeaders, parseRangeHeader, type PageRange } from '../../../src/server/requests'
import { engineError, TX } from './support'

const OTHER = 'd1'.repeat(32)

describe('parsing Range', () => {
  test('no header: limit 100, offset 0, order desc, from the start', () => {
    expect(parseRangeHeader(undefined, 'contractId')).toEqual({
      field: 'contractId',
      limit: 100,
      offset: 0,
      order: 'desc'
    })
  })

  test.each([
    ['the field alone', 'contractId', { limit: 100, offset: 0, order: 'desc' }],
    [
      'a start value with "#"',
      `contractId ${TX}#1`,
      { value: { txId: TX, index: 1 }, limit: 100, offset: 0, order: 'desc' }
    ],
    [
      'an encoded start value',
      `contractId ${TX}%231`,
      { value: { txId: TX, index: 1 }, limit: 100, offset: 0, order: 'desc' }
    ],
    [
      'every option, any order, spaces around',
      `contractId ${TX.toUpperCase()}%232 ; order asc;offset 3 ;  limit 7`,
      { value: { txId: TX, index: 2 }, limit: 7, offset: 3, order: 'asc' }
    ],
    ['options without a value', 'contractId;limit 1;order asc', { limit: 1, offset: 0, order: 'asc' }],
    ['limit 0', 'contractId;limit 0', { limit: 0, offset: 0, order: 'desc' }]
  ])('%s', (_name, header, expected) => {
    expect(parseRangeHeader(header, 'contractId')).toEqual({ field: 'contractId', ...expected })
  })

  test('each field reads its own value type', () => {
    expect(parseRangeHeader(`payoutId ${TX}%230`, 'payoutId').value).toEqual({ txId: TX, index: 0 })
    expect(parseRangeHeader(`transactionId ${TX.toUpperCase()}`, 'transactionId').value).toBe(TX)
    expect(parseRangeHeader(`withdrawalId ${TX};limit 2`, 'withdrawalId')).toEqual({
      field: 'withdrawalId',
      value: TX,
      limit: 2,
      offset: 0,
      order: 'desc'
    })
  })

  test.each([
    ['another field', 'transactionId', 'expected the field contractId'],
    ['an empty header', '', 'expected the field contractId'],
    ['a field in another case', 'contractid', 'expected the field contractId'],
    ['two start values', `contractId ${TX}#1 x`, 'expected one start value after the field'],
    [
      'a start value without index',
      `contractId ${TX}`,
      `Expected [a-fA-F0-9]{64}#[0-9]+ (hint: do you need to URL-encode the '#' as "%23"?)`
    ],
    ['a start value with bad encoding', `contractId ${TX}%2`, 'the start value is not valid URL encoding'],
    ['a negative limit', 'contractId;limit -1', 'limit must be a non-negative integer, got "-1"'],
    ['a decimal limit', 'contractId;limit 1.5', 'limit must be a non-negative integer, got "1.5"'],
    [
      'a huge limit',
      `contractId;limit ${'9'.repeat(16)}`,
      `limit must be a non-negative integer, got "${'9'.repeat(16)}"`
    ],
    ['a negative offset', 'contractId;offset -2', 'offset must be a non-negative integer, got "-2"'],
    ['a word as offset', 'contractId;offset two', 'offset must be a non-negative integer, got "two"'],
    ['an unknown order', 'contractId;order up', 'order must be asc or desc, got "up"'],
    ['an order in capitals', 'contractId;order DESC', 'order must be asc or desc, got "DESC"'],
    ['an unknown option', 'contractId;skip 1', 'unknown option "skip"'],
    ['an option twice', 'contractId;limit 1;limit 2', 'option limit is given twice'],
    ['an option without value', 'contractId;limit', 'expected options "<name> <value>"'],
    ['a trailing semicolon', 'contractId;', 'expected options "<name> <value>"'],
    ['an option with two values', 'contractId;limit 1 2', 'expected options "<name> <value>"']
  ])('%s', (_name, header, reason) => {
    const e = engineError(() => parseRangeHeader(header, 'contractId'), {
      code: 'BadRequest',
      message: `Invalid Range header ${JSON.stringify(header)}: ${reason}`
    })
    expect(e.details).toEqual({ header: 'Range', value: header, reason })
  })

  test('a transaction id range refuses a reference', () => {
    engineError(() => parseRangeHeader(`transactionId ${TX}#1`, 'transactionId'), {
      code: 'BadRequest',
      message: /: Expected \[a-fA-F0-9\]\{64\}$/
    })
  })
})

describe('page headers', () => {
  const range = (limit: number, order: 'asc' | 'desc' = 'desc'): PageRange<'contractId'> => ({
    field: 'contractId',
    limit,
    offset: 0,
    order
  })
  const refs = [
    { txId: TX, index: 1 },
    { txId: OTHER, index: 0 }
  ]

  test('a full page: Content-Range and Next-Range from its last item, values URL-encoded', () => {
    expect(pageHeaders(range(2, 'asc'), { values: refs, totalCount: 10 })).toEqual({
      'Accept-Ranges': 'contractId',
      'Total-Count': '10',
      'Content-Range': `contractId ${TX}%231..${OTHER}%230`,
      'Next-Range': `contractId ${OTHER}%230;limit 2;offset 1;order asc`
    })
  })

  test('a short page (the last one) has no Next-Range', () => {
    const headers = pageHeaders(range(3), { values: refs, totalCount: 2 })
    expect(headers['Content-Range']).toBe(`contractId ${TX}%231..${OTHER}%230`)
    expect(headers).not.toHaveProperty('Next-Range')
  })

  test('an empty page has neither Content-Range nor Next-Range, even with limit 0', () => {
    expect(pageHeaders(range(100), { values: [], totalCount: 0 })).toEqual({
      'Accept-Ranges': 'contractId',
      'Total-Count': '0'
    })
    expect(pageHeaders(range(0), { values: [], totalCount: 5 })).toEqual({
      'Accept-Ranges': 'contractId',
      'Total-Count': '5'
    })
  })

  test('transaction ids are written as they are', () => {
    const txRange: PageRange<'transactionId'> = { field: 'transactionId', limit: 1, offset: 0, order: 'desc' }
    expect(pageHeaders(txRange, { values: [TX], totalCount: 4 })).toEqual({
      'Accept-Ranges': 'transactionId',
      'Total-Count': '4',
      'Content-Range': `transactionId ${TX}..${TX}`,
      'Next-Range': `transactionId ${TX};limit 1;offset 1;order desc`
    })
  })

  test('a client that copies Next-Range into Range gets the next page: the last item, skipped', () => {
    const hex = fc.stringMatching(/^[0-9a-f]{64}$/)
    const ref = fc.record({ txId: hex, index: fc.integer({ min: 0, max: 65535 }) })
    fc.assert(
      fc.property(
        fc.array(ref, { minLength: 1, maxLength: 5 }),
        fc.constantFrom('asc' as const, 'desc' as const),
        (values, order) => {
          const current = range(values.length, order)
          const next = pageHeaders(current, { values, totalCount: 99 })['Next-Range']
          expect(parseRangeHeader(next, 'contractId')).toEqual({
            field: 'contractId',
            value: values.at(-1),
            limit: values.length,
            offset: 1,
            order
          })
        }
      )
    )
  })
})
