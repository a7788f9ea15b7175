/**
 * Contract sources and merkleized contracts over HTTP (runtime-api.md §3.10, §5.1–5.2), on a real server, a
 * sandbox chain and a SQLite file: a bundle is uploaded and read back, a contract is created from its id
 * (merkleized), and a deposit and a choice whose continuations the server reveals from its store move it to
 * its close on chain. The published Runtime client drives the same calls.
 */
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { mkRestClient, type RestClient } from '@marlowe.io/runtime-rest-client'
import { addressBech32 } from '@marlowe.io/runtime-core'
import { parseJson, type JsonObject, type JsonValue } from '../../src/core/json/lossless'
import { decodeContract } from '../../src/core/marlowe/json/decode'
import { encodeContract, encodeInput } from '../../src/core/marlowe/json/encode'
import { deepMerkleize } from '../../src/core/marlowe/merkle'
import { merkleHash } from '../../src/core/marlowe/plutus/hash'
import type { Contract, Party } from '../../src/core/marlowe/types'
import { openDatabase } from '../../src/store/database'
import { SqliteGate } from '../../src/store/sqlite-gate'
import { SqliteContractSources } from '../../src/store/contract-sources'
import { deploymentOf } from '../../src/chain/deployments'
import { decodeRedeemer } from '../../src/core/marlowe/plutus/marlowe-data'
import { ADA, T0, costCheckNotes, testWallet } from '../engine/build/support'
import { checkMarloweSpend, decodeTx } from '../engine/build/marlowe-validator'
import {
  call,
  createBody,
  createConfirmed,
  expectApiError,
  objectOf,
  signAndPut,
  startServer,
  stringOf,
  TOKEN,
  unsignedTxOf,
  walletHeaders,
  type Answer,
  type TestServer
} from './support'

const alice = testWallet('alice')
const bob = testWallet('bob')
const DAY = 86_400_000n
const PRICE = 10n * ADA

const aliceParty: Party = { type: 'Address', address: alice.address }
const bobParty: Party = { type: 'Address', address: bob.address }

/** Alice deposits the price, Bob chooses 1, the price is paid to Bob: written as labelled objects. */
function escrowBundle(): JsonValue {
  return [
    { label: 'alice', type: 'party', value: { address: alice.address } },
    { label: 'bob', type: 'party', value: { address: bob.address } },
    { label: 'ada', type: 'token', value: { currency_symbol: '', token_name: '' } },
    { label: 'price', type: 'value', value: PRICE },
    {
      label: 'pay',
      type: 'contract',
      value: {
        from_account: { ref: 'alice' },
        to: { party: { ref: 'bob' } },
        token: { ref: 'ada' },
        pay: { ref: 'price' },
        then: 'close'
      }
    },
    {
      label: 'choose',
      type: 'contract',
      value: {
        when: [
          {
            case: {
              for_choice: { choice_name: 'ok', choice_owner: { ref: 'bob' } },
              choose_between: [{ from: 1n, to: 1n }]
            },
            then: { ref: 'pay' }
          }
        ],
        timeout: T0 + 2n * DAY,
        timeout_continuation: 'close'
      }
    },
    {
      label: 'main',
      type: 'contract',
      value: {
        when: [
          {
            case: {
              into_account: { ref: 'alice' },
              party: { ref: 'alice' },
              of_token: { ref: 'ada' },
              deposits: { ref: 'price' }
            },
            then: { ref: 'choose' }
          }
        ],
        timeout: T0 + DAY,
        timeout_continuation: 'close'
      }
    }
  ]
}

/** The same contract written out in core JSON, as `?expand=true` must give it back. */
function escrowContract(chooseBy = T0 + 2n * DAY): Contract {
  const ada = { currencySymbol: '', tokenName: '' }
  return {
    type: 'When',
    cases: [
      {
        type: 'Case',
        action: { type: 'Deposit', account: aliceParty, party: aliceParty, token: ada, value: PRICE },
        then: {
          type: 'When',
          cases: [
            {
              type: 'Case',
              action: { type: 'Choice', choice: { name: 'ok', owner: bobParty }, bounds: [{ from: 1n, to: 1n }] },
              then: {
                type: 'Pay',
                from: aliceParty,
                to: { type: 'Party', party: bobParty },
                token: ada,
                value: PRICE,
                then: { type: 'Close' }
              }
            }
          ],
          timeout: chooseBy,
          timeoutContinuation: { type: 'Close' }
        }
      }
    ],
    timeout: T0 + DAY,
    timeoutContinuation: { type: 'Close' }
  }
}

const APPLY_TX = 'application/vendor.iog.marlowe-runtime.apply-inputs-tx-json'
const applyBody = (inputs: JsonValue[]): JsonObject => ({ version: 'v1', inputs, tags: {}, metadata: {} })
const depositInput = encodeInput({
  content: {
    type: 'IDeposit',
    account: aliceParty,
    party: aliceParty,
    token: { currencySymbol: '', tokenName: '' },
    amount: PRICE
  }
})
const choiceInput = encodeInput({ content: { type: 'IChoice', choice: { name: 'ok', owner: bobParty }, chosen: 1n } })

const postSources = (server: TestServer, main: string, body: JsonValue | string): Promise<Answer> =>
  call(server, 'POST', `/contracts/sources?main=${encodeURIComponent(main)}`, { body })

/** Rows of the contract store, read from the SQLite file with a connection of its own. */
function storedCount(): number {
  const db = new Database(server.databasePath, { readonly: true, fileMustExist: true })
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM contract_sources').get() as { n: number }).n
  } finally {
    db.close()
  }
}

const resultsOf = (a: Answer): JsonValue => objectOf(a.json).results ?? null

/**
 * The apply tx passes the semantics validator's own checks (made independently in TypeScript: the sandbox runs
 * stand-ins unless MARLOWE_VALIDATORS_DIR names the real ones), and its redeemer names the continuation it
 * reveals by hash, the continuation itself travelling as a witness datum: what the validator looks up.
 */
async function expectRevealed(tx: Uint8Array, hash: string, continuation: Contract): Promise<void> {
  const d = deploymentOf(server.sandbox)
  const context = { provider: server.sandbox, semanticsHash: d.semantics.hash, payoutHash: d.payout.hash }
  expect(await checkMarloweSpend(context, tx)).toEqual([])
  const spend = decodeTx(tx).redeemers.find((r) => r.tag === 'spend')
  const inputs = decodeRedeemer(spend!.data, (h) => (h === hash ? continuation : undefined))
  expect(inputs.map((i) => i.merkleized)).toEqual([{ hash, continuation }])
}

let server: TestServer
let client: RestClient
beforeAll(async () => {
  server = await startServer()
  client = mkRestClient(`${server.base}/t/${TOKEN}`, true)
})
afterAll(async () => {
  await server.close()
})

describe('uploading a bundle and reading it back', () => {
  const merkleized = deepMerkleize(escrowContract())
  const mainId = merkleHash(merkleized.contract)
  const [payId, chooseId] = [...merkleized.continuations.keys()]

  test('POST /contracts/sources: 200 with the main id and every contract object id', async () => {
    const a = await postSources(server, 'main', escrowBundle())
    expect(a.status, a.text).toBe(200)
    expect(objectOf(a.json)).toEqual({
      contractSourceId: mainId,
      intermediateIds: { pay: payId, choose: chooseId, main: mainId }
    })
  })

  test('GET /contracts/sources/{id}: the stored contract, merkleized; ?expand=true inlines every continuation', async () => {
    const stored = await call(server, 'GET', `/contracts/sources/${mainId}`)
    expect(stored.status, stored.text).toBe(200)
    expect(decodeContract(stored.json)).toEqual(merkleized.contract)
    expect(objectOf(stored.json).when).toEqual([expect.objectContaining({ merkleized_then: chooseId })])
    const unexpanded = await call(server, 'GET', `/contracts/sources/${mainId}?expand=false`)
    expect(unexpanded.json).toEqual(stored.json)
    const expanded = await call(server, 'GET', `/contracts/sources/${mainId.toUpperCase()}?expand=true`)
    expect(expanded.status, expanded.text).toBe(200)
    expect(decodeContract(expanded.json)).toEqual(escrowContract())
    const flag = await call(server, 'GET', `/contracts/sources/${mainId}?expand`)
    expect(flag.json).toEqual(expanded.json)
  })

  test('adjacency is the direct children, closure the contract and everything below it, in hex order', async () => {
    const adjacency = await call(server, 'GET', `/contracts/sources/${mainId}/adjacency`)
    expect(adjacency.status).toBe(200)
    expect(resultsOf(adjacency)).toEqual([chooseId])
    const closure = await call(server, 'GET', `/contracts/sources/${mainId}/closure`)
    expect(resultsOf(closure)).toEqual([mainId, chooseId!, payId!].sort())
    const leaf = await call(server, 'GET', `/contracts/sources/${payId}/adjacency`)
    expect(resultsOf(leaf)).toEqual([])
  })

  test('the store is durable: the SQLite file holds every contract by hash', async () => {
    const db = openDatabase(server.databasePath)
    try {
      const store = new SqliteContractSources(new SqliteGate(db))
      expect(await store.get(mainId)).toEqual(merkleized.contract)
      expect(await store.closure(mainId)).toHaveLength(3)
    } finally {
      db.close()
    }
  })

  test('a restarted server on the same file answers the source, and uploading it again changes nothing', async () => {
    const again = await startServer({ databasePath: server.databasePath })
    try {
      const a = await call(again, 'GET', `/contracts/sources/${mainId}/closure`)
      expect(a.status, a.text).toBe(200)
      expect(resultsOf(a)).toEqual([mainId, chooseId!, payId!].sort())
      const count = storedCount()
      expect(objectOf((await postSources(again, 'main', escrowBundle())).json).contractSourceId).toBe(mainId)
      expect(storedCount()).toBe(count)
    } finally {
      await again.close()
    }
  })

  test('newline-separated bundles link as one: a later bundle uses a label of an earlier one', async () => {
    const [first, second] = [
      [{ label: 'n.close', type: 'contract', value: 'close' }],
      [{ label: 'n.main', type: 'contract', value: { assert: true, then: { ref: 'n.close' } } }]
    ]
    const a = await postSources(server, 'n.main', `${JSON.stringify(first)}\n${JSON.stringify(second)}\n`)
    expect(a.status, a.text).toBe(200)
    const id = merkleHash({ type: 'Assert', observation: true, then: { type: 'Close' } })
    expect(objectOf(a.json).contractSourceId).toBe(id)
  })
})

test('/openapi.json lists the contract-source routes with their parameters', async () => {
  const doc = objectOf((await call(server, 'GET', '/openapi.json')).json)
  const paths = objectOf(doc.paths)
  const op = (path: string, method: string) => objectOf(objectOf(paths[path]!)[method])
  expect(op('/contracts/sources', 'post').operationId).toBe('createContractSources')
  expect(op('/contracts/sources', 'post').parameters).toEqual([
    expect.objectContaining({ name: 'main', in: 'query', required: true })
  ])
  expect(op('/contracts/sources/{contractSourceId}', 'get').operationId).toBe('getContractSourceById')
  expect(op('/contracts/sources/{contractSourceId}/adjacency', 'get').operationId).toBe('getContractSourceAdjacency')
  expect(op('/contracts/sources/{contractSourceId}/closure', 'get').operationId).toBe('getContractSourceClosure')
  expect(Object.keys(objectOf(objectOf(doc.components).schemas))).toContain('ObjectBundle')
})

describe('bad bundles and unknown ids', () => {
  const cases: ReadonlyArray<[string, string, JsonValue | string, string, string, JsonValue]> = [
    [
      'a use before its definition (a cycle)',
      'a',
      [
        { label: 'a', type: 'contract', value: { assert: true, then: { ref: 'b' } } },
        { label: 'b', type: 'contract', value: { assert: true, then: { ref: 'a' } } }
      ],
      'BadRequest',
      'Symbol not defined.',
      'b'
    ],
    [
      'an unknown label',
      'm',
      [{ label: 'm', type: 'contract', value: { ref: 'nowhere' } }],
      'BadRequest',
      'Symbol not defined.',
      'nowhere'
    ],
    [
      'a duplicate label',
      'm',
      [
        { label: 'm', type: 'contract', value: 'close' },
        { label: 'm', type: 'contract', value: 'close' }
      ],
      'BadRequest',
      'Duplicate label.',
      'm'
    ],
    [
      'a reference of the wrong type',
      'm',
      [
        { label: 'v', type: 'value', value: 1n },
        { label: 'm', type: 'contract', value: { if: { ref: 'v' }, then: 'close', else: 'close' } }
      ],
      'BadRequest',
      'Type mismatch.',
      { expected: 'observation', actual: 'value' }
    ],
    [
      'a merkleized case the store does not hold',
      'm',
      [
        {
          label: 'm',
          type: 'contract',
          value: {
            when: [{ case: { notify_if: true }, merkleized_then: 'ab'.repeat(32) }],
            timeout: 1n,
            timeout_continuation: 'close'
          }
        }
      ],
      'BadRequest',
      'Merkleized continuation not in store.',
      'ab'.repeat(32)
    ],
    [
      'a main label that is not a contract',
      'v',
      [{ label: 'v', type: 'value', value: 1n }],
      'BadRequest',
      'Main contract not defined.',
      null
    ]
  ]
  test.each(cases)('%s: 400 with Runtime’s message and details', async (_name, main, body, code, message, details) => {
    const a = await postSources(server, main, body)
    const e = expectApiError(a, 400, code)
    expect(e.message).toBe(message)
    expect(e.details).toEqual(details)
  })

  test('an oversize bundle, a malformed one and a missing main are refused with 400, and nothing is stored', async () => {
    const doubling: JsonValue[] = [{ label: 'v0', type: 'value', value: 1n }]
    for (let i = 1; i <= 20; i += 1) {
      doubling.push({ label: `v${i}`, type: 'value', value: { add: { ref: `v${i - 1}` }, and: { ref: `v${i - 1}` } } })
    }
    doubling.push({ label: 'm', type: 'contract', value: { assert: { value: { ref: 'v20' }, gt: 0n }, then: 'close' } })
    const before = storedCount()
    expect(expectApiError(await postSources(server, 'm', doubling), 400, 'BadRequest').message).toMatch(
      /more than 50000 JSON nodes/
    )
    expectApiError(
      await postSources(server, 'm', [{ label: 'm', type: 'thing', value: 1n }]),
      400,
      'RequestBodyParseError'
    )
    expectApiError(await postSources(server, 'm', '[{"label":'), 400, 'RequestBodyParseError')
    expectApiError(await call(server, 'POST', '/contracts/sources', { body: [] }), 400, 'BadRequest')
    const tooBig = `[${Array.from({ length: 200_000 }, (_, i) => `{"label":"x${i}","type":"value","value":1}`).join(',')}]`
    expectApiError(await postSources(server, 'm', tooBig), 413, 'PayloadTooLarge')
    expect(storedCount()).toBe(before)
  })

  test('unknown and malformed ids: 404 NotFound and 400', async () => {
    for (const path of ['', '/adjacency', '/closure']) {
      expectApiError(await call(server, 'GET', `/contracts/sources/${'cd'.repeat(32)}${path}`), 404, 'NotFound')
      expectApiError(await call(server, 'GET', `/contracts/sources/nothex${path}`), 400, 'BadRequest')
    }
    expectApiError(await call(server, 'GET', `/contracts/sources/${'cd'.repeat(32)}?expand=maybe`), 400, 'BadRequest')
  })
})

describe('a merkleized contract from a source id, to its close on chain', () => {
  let contractId = ''
  let path = ''
  const merkleized = deepMerkleize(escrowContract())

  test('POST /contracts with the source id creates the merkleized contract', async () => {
    const upload = await postSources(server, 'main', escrowBundle())
    const sourceId = stringOf(objectOf(upload.json).contractSourceId, 'contractSourceId')
    const built = await call(server, 'POST', '/contracts', {
      body: createBody(sourceId),
      headers: walletHeaders(alice)
    })
    expect(built.status, built.text).toBe(201)
    const resource = objectOf(objectOf(built.json).resource)
    // Every continuation is known from the store: no MissingContinuation, only the sandbox's cost-check notes.
    expect(resource.safetyErrors).toEqual(costCheckNotes(server.sandbox))
    contractId = stringOf(resource.contractId, 'contractId')
    path = `/contracts/${encodeURIComponent(contractId)}`
    await signAndPut(server, path, unsignedTxOf(built), [alice])
    await server.opened.follower.sync()
    const state = objectOf(objectOf((await call(server, 'GET', path)).json).resource)
    expect(state.status).toBe('confirmed')
    expect(state.initialContract).toEqual(encodeContract(merkleized.contract))
  })

  test('a plain deposit takes the merkleized case: the server reveals its continuation from the store', async () => {
    const a = await call(server, 'POST', `${path}/transactions`, {
      body: applyBody([depositInput]),
      headers: walletHeaders(alice, { accept: APPLY_TX })
    })
    expect(a.status, a.text).toBe(201)
    const txId = stringOf(objectOf(objectOf(a.json).resource).transactionId, 'transactionId')
    const [chooseHash] = [...merkleized.continuations.keys()].slice(1)
    await expectRevealed(unsignedTxOf(a), chooseHash!, merkleized.continuations.get(chooseHash!)!)
    await signAndPut(server, `${path}/transactions/${txId}`, unsignedTxOf(a), [alice])
    await server.opened.follower.sync()
    const state = objectOf(objectOf((await call(server, 'GET', path)).json).resource)
    expect(state.currentContract).toEqual(encodeContract(merkleized.continuations.get(chooseHash!)!))
    const tx = objectOf(objectOf((await call(server, 'GET', `${path}/transactions/${txId}`)).json).resource)
    expect(tx.inputs).toEqual([
      { ...objectOf(depositInput), continuation_hash: chooseHash!, merkleized_continuation: state.currentContract }
    ])
  })

  test('a plain choice reveals the payment, which pays Bob and closes the contract', async () => {
    const a = await call(server, 'POST', `${path}/transactions`, {
      body: applyBody([choiceInput]),
      headers: walletHeaders(bob, { accept: APPLY_TX })
    })
    expect(a.status, a.text).toBe(201)
    const txId = stringOf(objectOf(objectOf(a.json).resource).transactionId, 'transactionId')
    const [payHash] = [...merkleized.continuations.keys()]
    await expectRevealed(unsignedTxOf(a), payHash!, merkleized.continuations.get(payHash!)!)
    const before = await server.sandbox.utxosAt([bob.address])
    await signAndPut(server, `${path}/transactions/${txId}`, unsignedTxOf(a), [bob])
    await server.opened.follower.sync()
    const state = objectOf(objectOf((await call(server, 'GET', path)).json).resource)
    expect(state.currentContract).toBeNull()
    expect(state.utxo).toBeNull()
    const tx = objectOf(objectOf((await call(server, 'GET', `${path}/transactions/${txId}`)).json).resource)
    expect(tx.outputContract).toBeNull()
    // Bob is paid the price by the revealed payment (his own fees came from other outputs of his).
    const paid = (await server.sandbox.utxosAt([bob.address])).filter(
      (u) => !before.some((b) => b.ref.txId === u.ref.txId && b.ref.index === u.ref.index)
    )
    expect(paid.map((u) => u.value.lovelace)).toContain(PRICE)
  })

  test('a continuation the store does not hold: 404 ContractContinuationNotFound', async () => {
    // Created from the contract itself (a later choice deadline: other hashes), so no continuation is in the store.
    const hidden = deepMerkleize(escrowContract(T0 + 3n * DAY))
    const lonely = await createConfirmed(server, alice, createBody(encodeContract(hidden.contract)))
    const a = await call(server, 'POST', `/contracts/${encodeURIComponent(lonely)}/transactions`, {
      body: applyBody([depositInput]),
      headers: walletHeaders(alice)
    })
    expect(expectApiError(a, 404, 'ContractContinuationNotFound').message).toMatch(/not in the contract store/)
  })

  test('an unknown source id: 404 ContractNotFound', async () => {
    const a = await call(server, 'POST', '/contracts', {
      body: createBody('ef'.repeat(32)),
      headers: walletHeaders(alice)
    })
    expectApiError(a, 404, 'ContractNotFound')
  })
})

describe('the published Runtime client', () => {
  test('uploads a bundle, reads it back (expanded, adjacency, closure) and creates from its id', async () => {
    const bundle = parseJson(
      JSON.stringify([
        { label: 'c.close', type: 'contract', value: 'close' },
        {
          label: 'c.main',
          type: 'contract',
          value: {
            when: [{ case: { notify_if: true }, then: { assert: true, then: { ref: 'c.close' } } }],
            timeout: Number(T0 + DAY),
            timeout_continuation: 'close'
          }
        }
      ])
    )
    const created = await client.createContractSources({ bundle: { main: 'c.main', bundle: bundle as never } })
    const expected = deepMerkleize(
      decodeContract(
        parseJson(
          `{"when":[{"case":{"notify_if":true},"then":{"assert":true,"then":"close"}}],"timeout":${T0 + DAY},"timeout_continuation":"close"}`
        )
      )
    )
    expect(created.contractSourceId).toBe(merkleHash(expected.contract))
    expect(Object.keys(created.intermediateIds).sort()).toEqual(['c.close', 'c.main'])
    const id = created.contractSourceId
    const expanded = await client.getContractSourceById({ contractSourceId: id, expand: true })
    expect(expanded).toMatchObject({ when: [{ case: { notify_if: true }, then: { assert: true, then: 'close' } }] })
    expect((await client.getContractSourceAdjacency({ contractSourceId: id })).results).toEqual([
      ...expected.continuations.keys()
    ])
    expect((await client.getContractSourceClosure({ contractSourceId: id })).results).toHaveLength(2)
    const built = await client.buildCreateContractTx({
      sourceId: id,
      version: 'v1',
      changeAddress: addressBech32(alice.address),
      accounts: {}
    })
    expect(built.contractId).toMatch(/^[0-9a-f]{64}#\d+$/)
  })
})
