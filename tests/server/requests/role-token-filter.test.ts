/** The burn body: Runtime's RoleTokenFilter shapes, single values as sets, and its parse errors; bounded nesting. */
import { describe, expect, test } from 'vitest'
import { bytesToHex, utf8Encode } from '../../../src/core/bytes'
import { matchesFilter, type FilteredToken } from '../../../src/engine/service/role-token-filter'
import { decodeRoleTokenFilter } from '../../../src/server/requests'
import { body, engineError, POLICY, TX } from './support'

const OTHER = 'cd'.repeat(28)
const hex = (s: string): string => bytesToHex(utf8Encode(s)!)
const token = (contractId: string, policyId: string, name: string): FilteredToken => ({
  contractId,
  policyId,
  assetName: hex(name)
})
const buyer = token(`${TX}#1`, POLICY, 'Buyer')
const seller = token(`${TX}#1`, POLICY, 'Seller')
const elsewhere = token(`${TX}#2`, OTHER, 'Buyer')

function matched(text: string): string[] {
  const filter = decodeRoleTokenFilter(body(text))
  return Object.entries({ buyer, seller, elsewhere })
    .filter(([, t]) => matchesFilter(filter, t))
    .map(([name]) => name)
}

describe('RoleTokenFilter', () => {
  test('true, false, and each key, with single values or sets', () => {
    expect(matched('true')).toEqual(['buyer', 'seller', 'elsewhere'])
    expect(matched('false')).toEqual([])
    expect(matched(`{"contract_id":"${TX}#1"}`)).toEqual(['buyer', 'seller'])
    expect(matched(`{"contract_id":["${TX.toUpperCase()}#2","${TX}#9"]}`)).toEqual(['elsewhere'])
    expect(matched(`{"roles_currency":"${OTHER.toUpperCase()}"}`)).toEqual(['elsewhere'])
    expect(matched(`{"roles_currency":[]}`)).toEqual([])
    expect(matched(`{"role_tokens":{"policyId":"${POLICY}","assetName":"Seller"}}`)).toEqual(['seller'])
    expect(
      matched(
        `{"role_tokens":[{"policyId":"${POLICY}","assetName":"Buyer"},{"policyId":"${OTHER}","assetName":"Buyer"}]}`
      )
    ).toEqual(['buyer', 'elsewhere'])
  })

  test('and, or, not', () => {
    expect(
      matched(
        `{"and":[{"roles_currency":"${POLICY}"},{"not":{"role_tokens":{"policyId":"${POLICY}","assetName":"Buyer"}}}]}`
      )
    ).toEqual(['seller'])
    expect(
      matched(`{"or":[{"contract_id":"${TX}#2"},{"role_tokens":{"policyId":"${POLICY}","assetName":"Buyer"}}]}`)
    ).toEqual(['buyer', 'elsewhere'])
    expect(matched('{"not":false}')).toEqual(['buyer', 'seller', 'elsewhere'])
  })

  test("malformed filters get Runtime's parse errors", () => {
    const code = 'RequestBodyParseError'
    const failed = '$: Parsing RoleTokenFilter failed, '
    engineError(() => decodeRoleTokenFilter(body('{}')), {
      code,
      message: `${failed}Unexpected number of keys, expected exactly 1.`
    })
    engineError(() => decodeRoleTokenFilter(body('{"not":true,"and":[true,true]}')), {
      code,
      message: `${failed}Unexpected number of keys, expected exactly 1.`
    })
    engineError(() => decodeRoleTokenFilter(body('{"nor":true}')), { code, message: `${failed}Unexpected key: "nor"` })
    engineError(() => decodeRoleTokenFilter(body('"any"')), {
      code,
      message: /^\$: Parsing RoleTokenFilter failed, expected object\|boolean, but encountered /
    })
    engineError(() => decodeRoleTokenFilter(body('{"and":[true]}')), {
      code,
      message: /^\$\.and: Parsing RoleTokenFilter failed, expected an array of two filters/
    })
    engineError(() => decodeRoleTokenFilter(body(`{"contract_id":["${TX}"]}`)), {
      code,
      message: /^\$\.contract_id\[0\]: Parsing RoleTokenFilter failed, Expected \[a-fA-F0-9\]\{64\}#\[0-9\]\+/
    })
    engineError(() => decodeRoleTokenFilter(body('{"roles_currency":"abc"}')), {
      code,
      message: `$.roles_currency: Parsing RoleTokenFilter failed, expected a policy id of 56 hex digits`
    })
    engineError(() => decodeRoleTokenFilter(body(`{"role_tokens":{"policyId":"${POLICY}"}}`)), {
      code,
      message: /^\$\.role_tokens\.assetName: Parsing RoleTokenFilter failed, expected a token name/
    })
  })

  test('nesting and set sizes are bounded', () => {
    const deep = '{"not":'.repeat(100) + 'true' + '}'.repeat(100)
    engineError(() => decodeRoleTokenFilter(body(deep)), {
      code: 'RequestBodyParseError',
      message: /filters nest at most 64 deep$/
    })
    const many = JSON.stringify({ roles_currency: Array.from({ length: 1001 }, () => POLICY) })
    engineError(() => decodeRoleTokenFilter(body(many)), {
      code: 'RequestBodyParseError',
      message: /at most 1000 values are accepted, got 1001$/
    })
    expect(matched('{"not":'.repeat(63) + 'true' + '}'.repeat(63))).toEqual([])
  })
})
