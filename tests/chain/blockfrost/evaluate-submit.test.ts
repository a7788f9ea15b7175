import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { bytesToHex, hexToBytes } from '../../../src/core/bytes'
import { parseJson } from '../../../src/core/json/lossless'
import type { Utxo } from '../../../src/chain/provider'
import { ledgerRejection, sampleTx, sampleTxId } from '../submit-api/peer'
import {
  ADDR_A,
  HASHED_DATUM,
  HASHED_DATUM_HASH,
  INLINE_DATUM,
  MAX_U64,
  NATIVE_CBOR,
  PLUTUS_SCRIPT,
  POLICY,
  provider,
  SCRIPT_ADDR,
  seededPeer,
  TOKEN,
  TX1,
  TX2
} from './fixtures'
import { errorBody, type BlockfrostPeer } from './peer'
import { chainFailure } from '../support/failure'

let peer: BlockfrostPeer

beforeEach(async () => {
  peer = await seededPeer()
})
afterEach(() => peer.close())

const TX = sampleTx(170_000n)

const V6_RESULT = {
  jsonrpc: '2.0',
  method: 'evaluateTransaction',
  result: [
    { validator: { index: 0n, purpose: 'spend' }, budget: { memory: 1_765_011n, cpu: 384_791_603n } },
    { validator: { index: 1n, purpose: 'mint' }, budget: { memory: 10n, cpu: 20n } },
    { validator: { index: 0n, purpose: 'publish' }, budget: { memory: 1n, cpu: 2n } },
    { validator: { index: 2n, purpose: 'withdraw' }, budget: { memory: 3n, cpu: 4n } }
  ],
  id: null
}

describe('Blockfrost evaluation', () => {
  test('without additional UTxOs: the CBOR endpoint, the tx as hex text, Ogmios v6 budgets', async () => {
    peer.state.evaluate = () => ({ status: 200, body: V6_RESULT })
    const budgets = await provider(peer).evaluate(TX)
    expect(budgets).toEqual([
      { tag: 'spend', index: 0, exUnits: { mem: 1_765_011n, steps: 384_791_603n } },
      { tag: 'mint', index: 1, exUnits: { mem: 10n, steps: 20n } },
      { tag: 'cert', index: 0, exUnits: { mem: 1n, steps: 2n } },
      { tag: 'reward', index: 2, exUnits: { mem: 3n, steps: 4n } }
    ])
    const [request] = peer.requestsTo(/^POST \/utils\/txs\/evaluate$/)
    expect(request?.query.get('version')).toBe('6')
    expect(request?.headers['content-type']).toBe('application/cbor')
    expect(new TextDecoder().decode(request?.body)).toBe(bytesToHex(TX))
  })

  test('with additional UTxOs: the JSON endpoint with Ogmios v5 TxIn/TxOut pairs, quantities exact', async () => {
    peer.state.evaluate = () => ({ status: 200, body: V6_RESULT })
    const additional: Utxo[] = [
      {
        ref: { txId: TX1, index: 3 },
        address: ADDR_A,
        value: { lovelace: BigInt(MAX_U64), assets: { [POLICY]: { [TOKEN]: BigInt(MAX_U64), '': 1n } } }
      },
      {
        ref: { txId: TX2, index: 0 },
        address: SCRIPT_ADDR,
        value: { lovelace: 2_000_000n, assets: {} },
        datum: hexToBytes(INLINE_DATUM),
        scriptRef: { language: 'PlutusV2', bytes: hexToBytes(PLUTUS_SCRIPT) }
      },
      {
        ref: { txId: TX2, index: 1 },
        address: SCRIPT_ADDR,
        value: { lovelace: 3_000_000n, assets: {} },
        datumHash: HASHED_DATUM_HASH,
        datum: hexToBytes(HASHED_DATUM),
        scriptRef: { language: 'Native', bytes: hexToBytes(NATIVE_CBOR) }
      }
    ]
    expect(await provider(peer).evaluate(TX, additional)).toHaveLength(4)
    const [request] = peer.requestsTo(/^POST \/utils\/txs\/evaluate\/utxos$/)
    expect(request?.query.get('version')).toBe('6')
    expect(request?.headers['content-type']).toBe('application/json')
    const text = new TextDecoder().decode(request?.body)
    // The 64-bit quantities are written as exact JSON integers.
    expect(text).toContain(`"coins":${MAX_U64}`)
    expect(parseJson(text)).toEqual({
      cbor: bytesToHex(TX),
      additionalUtxoSet: [
        [
          { txId: TX1, index: 3n },
          {
            address: ADDR_A,
            value: { coins: BigInt(MAX_U64), assets: { [`${POLICY}.${TOKEN}`]: BigInt(MAX_U64), [POLICY]: 1n } }
          }
        ],
        [
          { txId: TX2, index: 0n },
          {
            address: SCRIPT_ADDR,
            value: { coins: 2_000_000n },
            datum: INLINE_DATUM,
            script: { 'plutus:v2': PLUTUS_SCRIPT }
          }
        ],
        [
          { txId: TX2, index: 1n },
          {
            address: SCRIPT_ADDR,
            value: { coins: 3_000_000n },
            datumHash: HASHED_DATUM_HASH,
            script: { native: { all: ['e5'.repeat(28), { expiresAt: 1000n }] } }
          }
        ]
      ]
    })
  })

  test('an Ogmios v6 script failure is EvaluationFailed, naming the failing validator', async () => {
    peer.state.evaluate = () => ({
      status: 200,
      body: {
        jsonrpc: '2.0',
        method: 'evaluateTransaction',
        error: {
          code: 3010n,
          message: 'Some scripts of the transactions terminated with error(s).',
          data: [
            {
              validator: { index: 0n, purpose: 'spend' },
              error: { code: 3012n, message: 'The validator crashed / exited prematurely.', data: { traces: ['oops'] } }
            }
          ]
        },
        id: null
      }
    })
    const e = await chainFailure(provider(peer).evaluate(TX))
    expect(e.kind).toBe('EvaluationFailed')
    expect(e.reason).toContain('spend[0]: The validator crashed / exited prematurely.')
    expect(e.details['code']).toBe(3010n)
  })

  test('an Ogmios v5 answer (a backend ignoring the version) is read too', async () => {
    peer.state.evaluate = () => ({
      status: 200,
      body: {
        type: 'jsonwsp/response',
        version: '1.0',
        servicename: 'ogmios',
        methodname: 'EvaluateTx',
        result: {
          EvaluationResult: { 'spend:0': { memory: 1700n, steps: 476468n }, 'mint:1': { memory: 42n, steps: 99n } }
        },
        reflection: null
      }
    })
    expect(await provider(peer).evaluate(TX)).toEqual([
      { tag: 'spend', index: 0, exUnits: { mem: 1700n, steps: 476468n } },
      { tag: 'mint', index: 1, exUnits: { mem: 42n, steps: 99n } }
    ])
    peer.state.evaluate = () => ({ status: 200, body: { result: { EvaluationFailure: { ScriptFailures: {} } } } })
    expect((await chainFailure(provider(peer).evaluate(TX))).kind).toBe('EvaluationFailed')
  })

  test("a 400 (an undecodable transaction) is EvaluationFailed with Blockfrost's message", async () => {
    peer.state.evaluate = () => ({
      status: 400,
      body: { status_code: 400n, error: 'Bad Request', message: 'Invalid transaction CBOR.' }
    })
    const e = await chainFailure(provider(peer).evaluate(TX))
    expect(e).toMatchObject({ kind: 'EvaluationFailed', reason: 'Invalid transaction CBOR.' })
  })

  test('an answer of neither form is a BadResponse', async () => {
    peer.state.evaluate = () => ({ status: 200, body: { hello: 'world' } })
    expect((await chainFailure(provider(peer).evaluate(TX))).kind).toBe('BadResponse')
    peer.state.evaluate = () => ({
      status: 200,
      body: {
        jsonrpc: '2.0',
        result: [{ validator: { index: 0n, purpose: 'spent' }, budget: { memory: 1n, cpu: 1n } }]
      }
    })
    expect((await chainFailure(provider(peer).evaluate(TX))).kind).toBe('BadResponse')
  })
})

describe('Blockfrost submission', () => {
  test('the raw bytes as application/cbor; the answer is the tx id', async () => {
    expect(await provider(peer).submit(TX)).toBe(sampleTxId(TX))
    const [request] = peer.requestsTo(/^POST \/tx\/submit$/)
    expect(request?.headers['content-type']).toBe('application/cbor')
    expect(request?.headers['project_id']).toBe(peer.projectId)
    expect(request?.body).toEqual(TX)
  })

  test("a rejection is Rejected with the node's own words", async () => {
    const lines = [
      'ConwayUtxowFailure (UtxoFailure (ValueNotConservedUTxO (MaryValue (Coin 0) (MultiAsset (fromList []))) (MaryValue (Coin 9920718377) (MultiAsset (fromList [])))))',
      'ConwayUtxowFailure (UtxoFailure (BadInputsUTxO (fromList [TxIn (TxId {unTxId = SafeHash "5176"}) (TxIx {unTxIx = 1})])))'
    ]
    peer.state.submit = () => ({ status: 400, body: errorBody(400, ledgerRejection(lines)) })
    const e = await chainFailure(provider(peer).submit(TX))
    expect(e.kind).toBe('Rejected')
    expect(e.reason).toBe(lines.join('; '))
    // An older backend's plain-text message is passed on as it is.
    peer.state.submit = () => ({
      status: 400,
      body: errorBody(400, 'transaction submit error ShelleyTxValidationError …')
    })
    expect(await chainFailure(provider(peer).submit(TX))).toMatchObject({
      kind: 'Rejected',
      reason: 'transaction submit error ShelleyTxValidationError …'
    })
  })

  test('a submission is never retried, even after a 500, and a full mempool (425) is Unavailable', async () => {
    peer.faults.push({ match: /^POST \/tx\/submit$/, status: 500, times: 5 })
    expect((await chainFailure(provider(peer).submit(TX))).kind).toBe('Unavailable')
    expect(peer.requestsTo(/^POST \/tx\/submit$/)).toHaveLength(1)
    peer.faults.length = 0
    peer.faults.push({ match: /^POST \/tx\/submit$/, status: 425 })
    const e = await chainFailure(provider(peer).submit(TX))
    expect(e.kind).toBe('Unavailable')
    expect(e.reason).toContain('mempool')
  })

  test('an accepted submission whose answer names another transaction is a BadResponse', async () => {
    peer.state.submit = () => ({ status: 200, body: JSON.stringify('00'.repeat(32)) })
    expect((await chainFailure(provider(peer).submit(TX))).kind).toBe('BadResponse')
  })
})
