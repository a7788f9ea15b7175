/**
 * `/openapi.json` against the answers of a real server on 127.0.0.1 (sandbox chain, SQLite file): every operation
 * the document lists is called — a role contract built, submitted, applied to, its payout withdrawn, its role
 * token burned, a contract source uploaded and read, lists and single views, and errors — and each answer's status
 * must be one the document gives that operation, its body what the document's schema for that status says. Every
 * Runtime route the server has must be in the document.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { hexToBytes } from '../../src/core/bytes'
import type { JsonObject, JsonValue } from '../../src/core/json/lossless'
import { VENDOR_TYPES } from '../../src/server/negotiation'
import type { JsonSchema } from '../../src/server/requests'
import { ADA, T0, testWallet } from '../engine/build/support'
import { SchemaChecker } from '../support/json-schema'
import {
  call,
  createBody,
  objectOf,
  pct,
  resourceOf,
  startServer,
  stringOf,
  unsignedTxOf,
  walletHeaders,
  type Answer,
  type TestServer
} from './support'
import { witnessEnvelope } from '../engine/service/support'

const alice = testWallet('alice')
const bob = testWallet('bob')

/** Alice deposits 10 ada into the Payee's account and the contract closes: the Payee (bob) has a payout. */
const PAY_THE_PAYEE: JsonValue = {
  when: [
    {
      case: {
        party: { address: alice.address },
        deposits: 10n * ADA,
        of_token: { currency_symbol: '', token_name: '' },
        into_account: { role_token: 'Payee' }
      },
      then: 'close'
    }
  ],
  timeout: T0 + 10n * 86_400_000n,
  timeout_continuation: 'close'
}

let server: TestServer
let doc: JsonObject
let checker: SchemaChecker
/** `METHOD path-template` → the statuses seen and checked. */
const seen = new Map<string, Set<number>>()

beforeAll(async () => {
  server = await startServer()
  const answer = await call(server, 'GET', '/openapi.json')
  expect(answer.status).toBe(200)
  doc = objectOf(answer.json)
  checker = new SchemaChecker(objectOf(objectOf(doc.components).schemas) as unknown as Record<string, JsonSchema>)
})
afterAll(() => server.close())

function operation(method: string, template: string): JsonObject {
  const item = objectOf(objectOf(doc.paths)[template], `paths[${template}]`)
  return objectOf(item[method.toLowerCase()], `${method} ${template}`)
}

/** Calls the server and checks the answer against the document; returns it. */
async function checked(
  method: string,
  template: string,
  path: string,
  options: Parameters<typeof call>[3] = {}
): Promise<Answer> {
  const answer = await call(server, method, path, options)
  const where = `${method} ${path} → ${answer.status} ${answer.text.slice(0, 300)}`
  const responses = objectOf(operation(method, template).responses)
  const described = responses[String(answer.status)]
  expect(described, `${where}: the document gives no ${answer.status}`).toBeDefined()
  const content = objectOf(described).content
  if (content === undefined) {
    expect(answer.text, `${where}: the document says no body`).toBe('')
  } else {
    const type = (answer.headers.get('content-type') ?? '').split(';')[0] ?? ''
    const media = objectOf(content)[type]
    expect(media, `${where}: the document gives no ${type} body`).toBeDefined()
    expect(answer.json, `${where}: not JSON`).toBeDefined()
    const schema = objectOf(media).schema as unknown as JsonSchema
    expect(checker.problem(answer.json as JsonValue, schema), where).toBeUndefined()
  }
  const key = `${method} ${template}`
  seen.set(key, (seen.get(key) ?? new Set()).add(answer.status))
  return answer
}

const sign = (answer: Answer, signer: typeof alice): JsonObject => ({
  ...witnessEnvelope(unsignedTxOf(answer), [signer])
})

describe('every operation, answered live, fits the document', () => {
  let contractId = ''
  let contractPath = ''
  let transactionId = ''
  let payoutId = ''
  let withdrawalId = ''

  test('health and a role contract created, listed and read', async () => {
    await checked('GET', '/healthcheck', '/healthcheck')
    const built = await checked('POST', '/contracts', '/contracts', {
      body: createBody(PAY_THE_PAYEE, { roles: { Payee: bob.address }, tags: { 'desk.openapi': null } }),
      headers: walletHeaders(alice)
    })
    expect(built.status, built.text).toBe(201)
    // Built again with the vendor type, the one signed below (a contract of its own: another build, other inputs).
    const vendor = await checked('POST', '/contracts', '/contracts', {
      body: createBody(PAY_THE_PAYEE, { roles: { Payee: bob.address }, tags: { 'desk.openapi': null } }),
      headers: walletHeaders(alice, { accept: VENDOR_TYPES.create })
    })
    expect(vendor.status, vendor.text).toBe(201)
    contractId = stringOf(resourceOf(vendor).contractId, 'contractId')
    contractPath = `/contracts/${pct(contractId)}`
    const unsignedView = await checked('GET', '/contracts/{contractId}', contractPath)
    expect(resourceOf(unsignedView).status).toBe('unsigned')
    const put = await checked('PUT', '/contracts/{contractId}', contractPath, { body: sign(vendor, alice) })
    expect(put.status, put.text).toBe(202)
    await server.opened.follower.sync()
    expect((await checked('GET', '/contracts', '/contracts')).status).toBe(206)
    expect(resourceOf(await checked('GET', '/contracts/{contractId}', contractPath)).status).toBe('confirmed')
    const next = await checked(
      'GET',
      '/contracts/{contractId}/next',
      `${contractPath}/next?validityStart=2025-01-01T00:00:10Z&validityEnd=2025-01-01T00:10:00Z&party=${encodeURIComponent(alice.address)}`
    )
    expect(next.status, next.text).toBe(200)
  })

  test('an input applied, its transaction listed and read', async () => {
    const path = `${contractPath}/transactions`
    const deposit = {
      version: 'v1',
      inputs: [
        {
          input_from_party: { address: alice.address },
          that_deposits: 10n * ADA,
          of_token: { currency_symbol: '', token_name: '' },
          into_account: { role_token: 'Payee' }
        }
      ],
      tags: {},
      metadata: {}
    }
    const json = await checked('POST', '/contracts/{contractId}/transactions', path, {
      body: deposit,
      headers: walletHeaders(alice)
    })
    expect(json.status, json.text).toBe(201)
    const built = await checked('POST', '/contracts/{contractId}/transactions', path, {
      body: deposit,
      headers: walletHeaders(alice, { accept: VENDOR_TYPES.apply })
    })
    expect(built.status, built.text).toBe(201)
    transactionId = stringOf(resourceOf(built).transactionId, 'transactionId')
    const template = '/contracts/{contractId}/transactions/{transactionId}'
    const put = await checked('PUT', template, `${path}/${transactionId}`, { body: sign(built, alice) })
    expect(put.status, put.text).toBe(202)
    await server.opened.follower.sync()
    expect((await checked('GET', '/contracts/{contractId}/transactions', path)).status).toBe(206)
    expect((await checked('GET', template, `${path}/${transactionId}`)).status).toBe(200)
    expect(resourceOf(await checked('GET', '/contracts/{contractId}', contractPath)).currentContract).toBeNull()
  })

  test('the payout listed, read, withdrawn; the withdrawal listed and read', async () => {
    const payouts = await checked('GET', '/payouts', '/payouts')
    expect(payouts.status).toBe(206)
    const mine = (objectOf(payouts.json).results as JsonValue[])
      .map((r) => objectOf(objectOf(r).resource))
      .find((p) => p.contractId === contractId)
    payoutId = stringOf(mine?.payoutId, 'payoutId')
    expect((await checked('GET', '/payouts/{payoutId}', `/payouts/${pct(payoutId)}`)).status).toBe(200)
    const built = await checked('POST', '/withdrawals', '/withdrawals', {
      body: { payouts: [payoutId] },
      headers: walletHeaders(bob, { accept: VENDOR_TYPES.withdraw })
    })
    expect(built.status, built.text).toBe(201)
    withdrawalId = stringOf(resourceOf(built).withdrawalId, 'withdrawalId')
    const put = await checked('PUT', '/withdrawals/{withdrawalId}', `/withdrawals/${withdrawalId}`, {
      body: sign(built, bob)
    })
    expect(put.status, put.text).toBe(202)
    await server.opened.follower.sync()
    expect((await checked('GET', '/withdrawals', '/withdrawals')).status).toBe(206)
    expect((await checked('GET', '/withdrawals/{withdrawalId}', `/withdrawals/${withdrawalId}`)).status).toBe(200)
  })

  test('the closed contract’s role token burned', async () => {
    const built = await checked('POST', '/role-tokens/burnTxs', '/role-tokens/burnTxs', {
      body: { contract_id: contractId },
      headers: walletHeaders(bob, { accept: VENDOR_TYPES.burn })
    })
    expect(built.status, built.text).toBe(201)
    const body = objectOf(built.json)
    const txId = stringOf(body.txId, 'txId')
    const tx = stringOf(objectOf(body.tx, 'tx').cborHex, 'cborHex')
    const envelope = witnessEnvelope(hexToBytes(tx), [bob])
    const put = await checked('PUT', '/role-tokens/burnTxs/{txId}', `/role-tokens/burnTxs/${txId}`, {
      body: { ...envelope }
    })
    expect(put.status, put.text).toBe(202)
  })

  test('a contract source uploaded and read back', async () => {
    const bundle = [
      { label: 'payee', type: 'party', value: { role_token: 'Payee' } },
      { label: 'main', type: 'contract', value: 'close' }
    ]
    const uploaded = await checked('POST', '/contracts/sources', '/contracts/sources?main=main', { body: bundle })
    expect(uploaded.status, uploaded.text).toBe(200)
    const id = stringOf(objectOf(uploaded.json).contractSourceId, 'contractSourceId')
    const base = '/contracts/sources/{contractSourceId}'
    expect((await checked('GET', base, `/contracts/sources/${id}?expand=true`)).status).toBe(200)
    expect((await checked('GET', `${base}/adjacency`, `/contracts/sources/${id}/adjacency`)).status).toBe(200)
    expect((await checked('GET', `${base}/closure`, `/contracts/sources/${id}/closure`)).status).toBe(200)
  })

  test('errors: each is a status the document gives the operation, with its error body', async () => {
    const unknownRef = pct(`${'ab'.repeat(32)}#0`)
    const unknownTx = 'cd'.repeat(32)
    const errors: Array<[string, string, string, Parameters<typeof call>[3]?]> = [
      ['GET', '/contracts', '/contracts', { headers: { range: `contractId ${unknownRef}` } }],
      ['GET', '/contracts', '/contracts?partyRole=%ZZ'],
      ['POST', '/contracts', '/contracts', { body: { version: 'v1' }, headers: walletHeaders(alice) }],
      ['GET', '/contracts/{contractId}', `/contracts/${unknownRef}`],
      ['GET', '/contracts/{contractId}', '/contracts/not-a-ref'],
      ['PUT', '/contracts/{contractId}', contractPath, { body: { type: 'x', description: '', cborHex: '00' } }],
      ['PUT', '/contracts/{contractId}', `/contracts/${unknownRef}`, { body: { type: 'x' } }],
      ['GET', '/contracts/{contractId}/next', `/contracts/${unknownRef}/next`],
      ['GET', '/contracts/{contractId}/transactions', `/contracts/${unknownRef}/transactions`],
      [
        'POST',
        '/contracts/{contractId}/transactions',
        `/contracts/${unknownRef}/transactions`,
        {
          body: { version: 'v1', inputs: [], tags: {}, metadata: {} },
          headers: walletHeaders(alice)
        }
      ],
      ['GET', '/contracts/{contractId}/transactions/{transactionId}', `${contractPath}/transactions/${unknownTx}`],
      [
        'PUT',
        '/contracts/{contractId}/transactions/{transactionId}',
        `${contractPath}/transactions/${unknownTx}`,
        {
          body: { type: 'ShelleyTxWitness ConwayEra', description: '', cborHex: 'a0' }
        }
      ],
      ['POST', '/contracts/sources', '/contracts/sources', { body: [] }],
      ['GET', '/contracts/sources/{contractSourceId}', `/contracts/sources/${unknownTx}`],
      ['GET', '/contracts/sources/{contractSourceId}/adjacency', `/contracts/sources/${unknownTx}/adjacency`],
      ['GET', '/contracts/sources/{contractSourceId}/closure', `/contracts/sources/${unknownTx}/closure`],
      ['GET', '/withdrawals', '/withdrawals', { headers: { range: `withdrawalId ${unknownTx}` } }],
      ['POST', '/withdrawals', '/withdrawals', { body: { payouts: [] }, headers: walletHeaders(bob) }],
      ['GET', '/withdrawals/{withdrawalId}', `/withdrawals/${unknownTx}`],
      [
        'PUT',
        '/withdrawals/{withdrawalId}',
        `/withdrawals/${unknownTx}`,
        {
          body: { type: 'ShelleyTxWitness ConwayEra', description: '', cborHex: 'a0' }
        }
      ],
      ['POST', '/role-tokens/burnTxs', '/role-tokens/burnTxs', { body: false, headers: walletHeaders(bob) }],
      [
        'PUT',
        '/role-tokens/burnTxs/{txId}',
        `/role-tokens/burnTxs/${unknownTx}`,
        {
          body: { type: 'ShelleyTxWitness ConwayEra', description: '', cborHex: 'a0' }
        }
      ],
      ['GET', '/payouts', '/payouts', { headers: { range: `payoutId ${unknownRef}` } }],
      ['GET', '/payouts/{payoutId}', `/payouts/${unknownRef}`]
    ]
    for (const [method, template, path, options] of errors) {
      const answer = await checked(method, template, path, options)
      expect(answer.status, `${method} ${path}: ${answer.text}`).toBeGreaterThanOrEqual(400)
    }
  })

  test('every operation in the document was answered with a success and an error, each as it says', () => {
    const listed: string[] = []
    for (const [template, item] of Object.entries(objectOf(doc.paths))) {
      for (const method of Object.keys(objectOf(item))) listed.push(`${method.toUpperCase()} ${template}`)
    }
    for (const key of listed) {
      const statuses = [...(seen.get(key) ?? [])]
      expect(
        statuses.some((s) => s < 300),
        `${key}: no success checked`
      ).toBe(true)
      if (key !== 'GET /healthcheck')
        expect(
          statuses.some((s) => s >= 400),
          `${key}: no error checked`
        ).toBe(true)
    }
    expect(listed.length).toBe(seen.size)
  })

  test('every Runtime route the server has is in the document, and nothing else', () => {
    const documented: string[] = []
    for (const [template, item] of Object.entries(objectOf(doc.paths))) {
      for (const method of Object.keys(objectOf(item))) documented.push(`${method.toUpperCase()} ${template}`)
    }
    const served = servedRoutes(server.app.printRoutes({ commonPrefix: false })).filter(
      (route) => !/ \/desk\/|openapi\.json|^OPTIONS|^HEAD/.test(route)
    )
    expect(served.length).toBeGreaterThan(20)
    expect(documented.sort()).toEqual(served.sort())
  })
})

/** `METHOD /path/{param}` of each route in Fastify's printed route tree (four columns a level). */
function servedRoutes(tree: string): string[] {
  const stack: string[] = []
  const routes: string[] = []
  for (const line of tree.split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line)
    if (m === null) continue
    const depth = [...(m[1] ?? '')].length / 4
    stack.length = depth
    stack.push(m[2] ?? '')
    const path = stack.join('').replace(/:(\w+)/g, '{$1}')
    for (const method of (m[3] ?? '').split(', ').filter((x) => x !== '')) routes.push(`${method} ${path}`)
  }
  return routes
}
