/**
 * The OpenAPI components generated from the request schemas: complete, self-contained, and saying the same
 * as the decoders (checked with the tests' small validator for the JSON Schema subset they use).
 */
import { describe, expect, test } from 'vitest'
import type { JsonValue } from '../../../src/core/json/lossless'
import {
  decodeCreateContractBody,
  requestParameters,
  requestSchemas,
  type JsonSchema
} from '../../../src/server/requests'
import { SchemaChecker } from '../../support/json-schema'
import { body, POLICY, TESTNET_ADDRESS, TX } from './support'

const schemas = requestSchemas()

const checker = new SchemaChecker(schemas)
const valid = (value: JsonValue, schema: JsonSchema): boolean => checker.valid(value, schema)

function walk(node: unknown, visit: (obj: Record<string, unknown>) => void): void {
  if (Array.isArray(node)) node.forEach((n) => walk(n, visit))
  else if (typeof node === 'object' && node !== null) {
    visit(node as Record<string, unknown>)
    Object.values(node).forEach((n) => walk(n, visit))
  }
}

describe('request components', () => {
  test('every body, header set, query and parameter has a named component', () => {
    expect(Object.keys(schemas).sort()).toEqual(
      [
        'Address',
        'Assets',
        'Contract',
        'ContractIdParameter',
        'CreateContractHeaders',
        'GetContractSourceQuery',
        'GetContractsQuery',
        'GetNextQuery',
        'GetPayoutsQuery',
        'GetWithdrawalsQuery',
        'Inputs',
        'Metadata',
        'ObjectBundle',
        'PolicyId',
        'PostContractSourcesQuery',
        'PostContractsRequest',
        'PostTransactionsRequest',
        'PostWithdrawalsRequest',
        'RangeHeader',
        'RoleTokenConfig',
        'RoleTokenFilter',
        'RolesConfig',
        'Tags',
        'TextEnvelope',
        'TokenMetadata',
        'TokenMetadataFile',
        'TransactionMetadata',
        'TxId',
        'TxOutRef',
        'WalletHeaders'
      ].sort()
    )
  })

  test('required keys of the bodies are those of the service spec', () => {
    const required = (id: string) => [...(schemas[id]?.required ?? [])].sort()
    expect(required('PostContractsRequest')).toEqual(['contract', 'metadata', 'tags', 'version'])
    expect(required('PostTransactionsRequest')).toEqual(['inputs', 'metadata', 'tags', 'version'])
    expect(required('PostWithdrawalsRequest')).toEqual(['payouts'])
    expect(required('TextEnvelope')).toEqual(['cborHex', 'description', 'type'])
    expect(required('WalletHeaders')).toEqual(['X-Change-Address'])
  })

  test('minUTxODeposit is an optional integer of at most 18446744073709552000; version is "v1"', () => {
    const properties = schemas.PostContractsRequest?.properties ?? {}
    expect(properties.minUTxODeposit).toEqual({
      anyOf: [{ type: 'integer', minimum: 0, maximum: 18446744073709552000 }, { type: 'null' }]
    })
    expect(JSON.stringify(properties.minUTxODeposit)).toContain('"maximum":18446744073709552000')
    expect(properties.version).toMatchObject({ type: 'string', enum: ['v1'] })
    expect(properties.contract).toEqual({ $ref: '#/components/schemas/Contract' })
    expect(properties.roles).toEqual({ anyOf: [{ $ref: '#/components/schemas/RolesConfig' }, { type: 'null' }] })
  })

  test('self-contained: every $ref resolves, no $schema or $id, plain JSON (no bigints)', () => {
    walk(schemas, (obj) => {
      expect(obj).not.toHaveProperty('$schema')
      expect(obj).not.toHaveProperty('$id')
      if (typeof obj.$ref === 'string') expect(Object.keys(schemas)).toContain(obj.$ref.split('/').pop())
      if (typeof obj.pattern === 'string') expect(() => new RegExp(obj.pattern as string)).not.toThrow()
      if (Array.isArray(obj.required) && obj.properties !== undefined) {
        const properties = Object.keys((obj.properties as object | undefined) ?? {})
        for (const key of obj.required) expect(properties).toContain(key)
      }
    })
    expect(JSON.parse(JSON.stringify(schemas))).toEqual(schemas)
  })

  test('patterns agree with the decoders', () => {
    const pattern = (id: string) => new RegExp(schemas[id]?.pattern ?? '^$')
    expect(pattern('TxOutRef').test(`${TX}#1`)).toBe(true)
    expect(pattern('TxOutRef').test(`${TX}%231`)).toBe(false)
    expect(pattern('ContractIdParameter').test(`${TX}%231`)).toBe(true)
    expect(pattern('TxId').test(TX)).toBe(true)
    expect(pattern('PolicyId').test(POLICY)).toBe(true)
    expect(pattern('RangeHeader').test(`contractId ${TX}%231;limit 5;offset 1;order asc`)).toBe(true)
  })
})

describe('the components accept what the decoders accept', () => {
  const postContracts = schemas.PostContractsRequest!
  const good = [
    '{"version":"v1","contract":"close","tags":{},"metadata":{}}',
    `{"version":"v1","contract":{"when":[],"timeout":1,"timeout_continuation":"close"},"tags":{"t":null},"metadata":{"674":"x"},"roles":"${POLICY}","minUTxODeposit":18446744073709552000}`,
    `{"version":"v1","contract":"close","tags":{},"metadata":{},"roles":{"script":"OpenRole","policyId":"${POLICY}","openRoleNames":["A"]},"threadTokenName":"T"}`,
    `{"version":"v1","contract":"close","tags":{},"metadata":{},"roles":{"A":"OpenRole","B":"${TESTNET_ADDRESS}","C":{"recipients":{"OpenRole":2}},"D":{"script":"OpenRole","metadata":{"name":"n","image":"ipfs://x","files":[{"name":"f","src":"ipfs://y","mediaType":"a/b"}],"k":1}}},"accounts":{"A":{"lovelace":1}}}`
  ]
  test.each(good)('valid: %s', (text) => {
    expect(() => decodeCreateContractBody(body(text))).not.toThrow()
    expect(valid(body(text), postContracts)).toBe(true)
  })

  const shapeErrors = [
    '{"contract":"close","tags":{},"metadata":{}}',
    '{"version":1,"contract":"close","tags":{},"metadata":{}}',
    '{"version":"v1","contract":"close","tags":[],"metadata":{}}',
    '{"version":"v1","contract":"close","tags":{},"metadata":{"x":1}}',
    '{"version":"v1","contract":"close","tags":{},"metadata":{},"minUTxODeposit":-1}',
    '{"version":"v1","contract":"close","tags":{},"metadata":{},"minUTxODeposit":18446744073709560000}',
    '{"version":"v1","contract":"close","tags":{},"metadata":{},"minUTxODeposit":1.5}',
    '{"version":"v1","contract":"close","tags":{},"metadata":{},"roles":"xyz"}',
    '{"version":"v1","contract":"close","tags":{},"metadata":{},"roles":{"A":{"recipients":{"OpenRole":-1}}}}',
    '{"version":"v1","contract":"close","tags":{},"metadata":{},"roles":{"A":{"metadata":null}}}',
    '{"version":"v1","contract":"close","tags":{},"metadata":{},"roles":{"A":{"script":"OpenRole","metadata":{"name":"n"}}}}',
    '{"version":"v1","contract":"close","tags":{},"metadata":{},"accounts":{"A":{"tokens":{}}}}',
    '{"version":"v1","contract":5,"tags":{},"metadata":{}}'
  ]
  test.each(shapeErrors)('invalid: %s', (text) => {
    expect(() => decodeCreateContractBody(body(text))).toThrow(
      expect.objectContaining({ code: 'RequestBodyParseError' })
    )
    expect(valid(body(text), postContracts)).toBe(false)
  })

  test('a withdrawal and an envelope', () => {
    expect(valid(body(`{"payouts":["${TX}#0"]}`), schemas.PostWithdrawalsRequest!)).toBe(true)
    expect(valid(body(`{"payouts":["${TX}"]}`), schemas.PostWithdrawalsRequest!)).toBe(false)
    expect(valid(body('{"type":"Tx ConwayEra","description":"","cborHex":"00"}'), schemas.TextEnvelope!)).toBe(true)
    expect(valid(body('{"type":"Tx ConwayEra","cborHex":"00"}'), schemas.TextEnvelope!)).toBe(false)
  })
})

describe('parameters', () => {
  test('wallet headers', () => {
    expect(requestParameters('CreateContractHeaders', schemas).map((p) => [p.name, p.in, p.required])).toEqual([
      ['X-Change-Address', 'header', true],
      ['X-Address', 'header', false],
      ['X-Collateral-UTxO', 'header', false],
      ['X-Stake-Address', 'header', false]
    ])
  })

  test('repeatable query parameters are exploded arrays; required ones say so', () => {
    const contracts = requestParameters('GetContractsQuery', schemas)
    expect(contracts.map((p) => p.name)).toEqual(['roleCurrency', 'tag', 'partyAddress', 'partyRole'])
    for (const p of contracts) {
      expect(p).toMatchObject({ in: 'query', required: false, explode: true, schema: { type: 'array' } })
      expect(p.description).toMatch(/\w/)
    }
    const next = requestParameters('GetNextQuery', schemas)
    expect(next.map((p) => [p.name, p.required, p.schema.format])).toEqual([
      ['validityStart', true, 'date-time'],
      ['validityEnd', true, 'date-time'],
      ['party', false, undefined]
    ])
    expect(requestParameters('GetPayoutsQuery', schemas).find((p) => p.name === 'status')).toMatchObject({
      required: false,
      schema: { type: 'string', enum: ['available', 'withdrawn'] }
    })
  })
})
