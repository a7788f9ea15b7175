import { describe, expect, test, vi } from 'vitest'
import { ChainError, type Utxo } from '../../../src/chain/provider'
import { bytesToHex, hexToBytes } from '../../../src/core/bytes'
import type { JsonValue } from '../../../src/core/json/lossless'
import {
  ADDRESS_A,
  ADDRESS_B,
  ERA_SUMMARIES,
  genesis,
  MAINNET_START_MS,
  MAX_QUANTITY,
  POLICY,
  TX_1,
  TX_2
} from './fixtures'
import { outOfBudget } from '../../../src/engine/build/cost-check'
import type { RpcFault } from './peer'
import { connect, failure, startPeer } from './support'

const TX = hexToBytes('84a400818258201111111111111111111111111111111111111111111111111111111111111111000181a2')

function paramsOf(request: { params: JsonValue } | undefined): JsonValue {
  return request?.params ?? null
}

describe('connecting', () => {
  test('the node must serve the configured network', async () => {
    const peer = await startPeer()
    const e = await failure(connect(peer, { network: 'preview' }))
    expect(e).toBeInstanceOf(ChainError)
    expect(e).toMatchObject({
      kind: 'BadResponse',
      reason: `Ogmios at ${peer.url} serves a testnet with network magic 1, not preview`
    })
    // The failed provider let go of its connections.
    await vi.waitFor(() => expect(peer.connections).toBe(0))

    peer.genesis = genesis(764824073n, 'mainnet')
    const mainnet = await connect(peer, { network: 'mainnet' })
    expect(mainnet.networkId).toBe(1)
    expect(await failure(connect(peer, { network: 'preprod' }))).toMatchObject({ kind: 'BadResponse' })
  })

  test('a testnet provider has network id 0 and opens one connection for queries, one for chain sync', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    expect(provider.network).toBe('preprod')
    expect(provider.networkId).toBe(0)
    expect(peer.connections).toBe(2)
  })

  test('without chain following there is a single connection', async () => {
    const peer = await startPeer()
    await connect(peer, { followChain: false })
    expect(peer.connections).toBe(1)
    expect(peer.requestsOf('findIntersection')).toHaveLength(0)
  })
})

describe('ledger state', () => {
  test('protocol parameters arrive exact', async () => {
    const peer = await startPeer()
    const params = await (await connect(peer)).protocolParameters()
    expect(params.minFeeA).toBe(44n)
    expect(params.priceMem).toEqual({ numerator: 577n, denominator: 10000n })
    expect(params.costModels.PlutusV3).toEqual([100788n, 420n, 9223372036854775807n, -1n])
    expect(params.maxTxExUnits).toEqual({ mem: 14000000n, steps: 10000000000n })
  })

  test('era summaries are in POSIX milliseconds from the network start time; the era is named by their count', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    const eras = await provider.eraSummaries()
    expect(eras).toHaveLength(7)
    expect(eras[1]!.start).toEqual({ slot: 4492800n, time: MAINNET_START_MS + 89856000000n })
    expect(await provider.era()).toBe('conway')
    peer.eraSummaries = ERA_SUMMARIES.slice(0, 6)
    expect(await provider.era()).toBe('babbage')
  })

  test('the tip is the last block: slot, hash and height', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    const last = peer.chain[peer.chain.length - 1]!
    expect(await provider.tip()).toEqual({ slot: last.slot, blockNo: last.height, blockHash: last.id })
  })

  test('a tip that moved while its height was read is read again', async () => {
    const peer = await startPeer()
    const provider = await connect(peer, { followChain: false })
    const old = peer.chain[0]!
    peer.fault('queryNetwork/tip', { kind: 'answer', answer: { result: { slot: old.slot, id: old.id } } })
    const last = peer.chain[peer.chain.length - 1]!
    expect(await provider.tip()).toEqual({ slot: last.slot, blockNo: last.height, blockHash: last.id })
    expect(peer.requestsOf('queryNetwork/tip')).toHaveLength(4)
    expect(peer.requestsOf('queryNetwork/blockHeight')).toHaveLength(2)
  })

  test('a node without blocks has no tip yet', async () => {
    const peer = await startPeer()
    const provider = await connect(peer, { followChain: false })
    peer.fault('queryNetwork/tip', { kind: 'answer', answer: { result: 'origin' } })
    expect(await failure(provider.tip())).toMatchObject({ kind: 'Unavailable' })
  })
})

describe('UTxOs', () => {
  test('by address: the query names the addresses, and token quantities beyond 2^53 stay exact', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    const atA = await provider.utxosAt([ADDRESS_A])
    expect(atA.map((u) => u.ref)).toEqual([
      { txId: TX_1, index: 0 },
      { txId: TX_2, index: 7 }
    ])
    expect(paramsOf(peer.requestsOf('queryLedgerState/utxo')[0])).toEqual({ addresses: [ADDRESS_A] })
    const [atB] = await provider.utxosAt([ADDRESS_B])
    expect(atB!.value.assets[POLICY]!['4d61726c6f7765']).toBe(MAX_QUANTITY)
    expect(atB!.value.assets[POLICY]!['4d61726c6f7765']!.toString()).toBe('18446744073709551615')
  })

  test('by reference: unknown references are simply absent', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    const found = await provider.utxosByRef([
      { txId: TX_1, index: 1 },
      { txId: TX_2, index: 0 }
    ])
    expect(found.map((u) => u.ref)).toEqual([{ txId: TX_1, index: 1 }])
    expect(paramsOf(peer.requestsOf('queryLedgerState/utxo')[0])).toEqual({
      outputReferences: [
        { transaction: { id: TX_1 }, index: 1n },
        { transaction: { id: TX_2 }, index: 0n }
      ]
    })
  })

  test('no addresses or references: no query at all', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    expect(await provider.utxosAt([])).toEqual([])
    expect(await provider.utxosByRef([])).toEqual([])
    expect(peer.requestsOf('queryLedgerState/utxo')).toHaveLength(0)
  })
})

describe('evaluation', () => {
  const extra: Utxo = {
    ref: { txId: TX_2, index: 3 },
    address: ADDRESS_B,
    value: { lovelace: 2_000_000n, assets: { [POLICY]: { '': MAX_QUANTITY } } },
    datum: hexToBytes('d87980')
  }

  test('budgets per redeemer, with the additional UTxOs sent along', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    peer.evaluation = {
      result: [
        { validator: { purpose: 'spend', index: 0n }, budget: { memory: 1700n, cpu: 476468n } },
        { validator: { purpose: 'mint', index: 1n }, budget: { memory: 9000000000000n, cpu: 18446744073709551615n } }
      ]
    }
    expect(await provider.evaluate(TX, [extra])).toEqual([
      { tag: 'spend', index: 0, exUnits: { mem: 1700n, steps: 476468n } },
      { tag: 'mint', index: 1, exUnits: { mem: 9000000000000n, steps: MAX_QUANTITY } }
    ])
    expect(paramsOf(peer.requestsOf('evaluateTransaction')[0])).toEqual({
      transaction: { cbor: bytesToHex(TX) },
      additionalUtxo: [
        {
          transaction: { id: TX_2 },
          index: 3n,
          address: ADDRESS_B,
          value: { ada: { lovelace: 2_000_000n }, [POLICY]: { '': MAX_QUANTITY } },
          datum: 'd87980'
        }
      ]
    })
    await provider.evaluate(TX)
    expect(paramsOf(peer.requestsOf('evaluateTransaction')[1])).toEqual({ transaction: { cbor: bytesToHex(TX) } })
  })

  test('failing scripts are EvaluationFailed with what the node said about each', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    const data = [
      {
        validator: { purpose: 'spend', index: 0n },
        error: {
          code: 3012n,
          message: 'Some of the scripts failed to evaluate to a positive outcome.',
          data: {
            validationError: 'An error has occurred: User error: The machine terminated because of an error.',
            traces: ['Deadline passed']
          }
        }
      }
    ]
    peer.evaluation = {
      error: { code: 3010, message: 'Some scripts of the transactions terminated with error(s).', data }
    }
    const e = await failure(provider.evaluate(TX))
    expect(e).toBeInstanceOf(ChainError)
    expect(e).toMatchObject({ kind: 'EvaluationFailed', details: { code: 3010, data } })
    expect((e as ChainError).reason).toContain(
      'spend #0: Some of the scripts failed to evaluate to a positive outcome.'
    )
    expect((e as ChainError).reason).toContain('traces: Deadline passed')
  })

  test("a script out of its budget: Plutus' words reach the cost check through Ogmios' nested answer", async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    const answer = (validationError: string): RpcFault => ({
      code: 3010,
      message: 'Some scripts of the transactions terminated with error(s).',
      data: [
        {
          validator: { purpose: 'spend', index: 0n },
          error: {
            code: 3012n,
            message: 'Some of the scripts failed to evaluate to a positive outcome.',
            data: { validationError, traces: [] }
          }
        }
      ]
    })
    peer.evaluation = {
      error: answer(
        'An error has occurred: The machine terminated part way through evaluation due to overspending the budget.\n' +
          'The budget when the machine terminated was:\n({ cpu: 9123\n| mem: -1898 })'
      )
    }
    const overBudget = await failure(provider.evaluate(TX))
    expect(overBudget).toBeInstanceOf(ChainError)
    expect(outOfBudget(overBudget as ChainError)).toBe(true)
    peer.evaluation = {
      error: answer('An error has occurred: User error: The machine terminated because of an error.')
    }
    const failed = await failure(provider.evaluate(TX))
    expect(failed).toBeInstanceOf(ChainError)
    expect(outOfBudget(failed as ChainError)).toBe(false)
  })

  test('a transaction that cannot be evaluated is EvaluationFailed too', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    peer.evaluation = {
      error: {
        code: 3004,
        message: 'Unable to create the evaluation context from the given transaction.',
        data: { reason: 'Unknown transaction input (missing from UTxO set): 2222…#3' }
      }
    }
    expect(await failure(provider.evaluate(TX))).toMatchObject({
      kind: 'EvaluationFailed',
      reason: 'Unable to create the evaluation context from the given transaction.',
      details: { code: 3004 }
    })
  })
})

describe('submission', () => {
  test('an accepted transaction: its id, and it waits in the mempool', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    const id = await provider.submit(TX)
    expect(id).toMatch(/^[0-9a-f]{64}$/)
    expect(paramsOf(peer.requestsOf('submitTransaction')[0])).toEqual({ transaction: { cbor: bytesToHex(TX) } })
    expect(peer.mempool.has(id)).toBe(true)
  })

  test("a ledger rejection is Rejected with the node's reason, code and data", async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    const message =
      "The transaction contains unknown UTxO references as inputs. This can happen if the inputs you're trying to spend have already been spent, or if you've simply referred to non-existing UTxO altogether. The field 'data.unknownOutputReferences' indicates all unknown inputs."
    const data = { unknownOutputReferences: [{ transaction: { id: TX_1 }, index: 0n }] }
    peer.onSubmit = () => ({ error: { code: 3117, message, data } })
    const e = await failure(provider.submit(TX))
    expect(e).toBeInstanceOf(ChainError)
    expect(e).toMatchObject({
      kind: 'Rejected',
      reason: message,
      details: { method: 'submitTransaction', code: 3117, data }
    })
  })

  test('an era mismatch at a hard fork is a rejection the caller may retry (code 3005)', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    const message =
      'Failed to submit the transaction in the current era. This may happen when trying to submit a transaction near an era boundary (i.e. at the moment of a hard-fork). Retrying should help.'
    peer.onSubmit = () => ({ error: { code: 3005, message, data: { queryEra: 'babbage', ledgerEra: 'conway' } } })
    expect(await failure(provider.submit(TX))).toMatchObject({
      kind: 'Rejected',
      reason: message,
      details: { code: 3005, data: { queryEra: 'babbage', ledgerEra: 'conway' } }
    })
  })

  test('bytes that are no transaction are rejected with the decoder’s reason', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    peer.onSubmit = () => ({
      error: {
        code: -32602,
        message: 'Invalid transaction',
        data: { conway: 'DeserialiseFailure 0 "expected list len or indef"' }
      }
    })
    expect(await failure(provider.submit(hexToBytes('00')))).toMatchObject({
      kind: 'Rejected',
      reason: 'Invalid transaction (conway: DeserialiseFailure 0 "expected list len or indef")'
    })
  })

  test('an acceptance without a transaction id is not understood', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    peer.onSubmit = () => ({ result: { transaction: { id: 'not hex' } } })
    const e = await failure(provider.submit(TX))
    expect(e).toMatchObject({ kind: 'BadResponse' })
    expect((e as ChainError).reason).toContain('result.transaction.id: expected hex')
  })
})

describe('closing', () => {
  test('every later call fails with Unavailable and the connections are gone', async () => {
    const peer = await startPeer()
    const provider = await connect(peer)
    await provider.close()
    for (const call of [provider.tip(), provider.utxosAt([ADDRESS_A]), provider.submit(TX), provider.txStatus(TX_1)]) {
      expect(await failure(call)).toMatchObject({ kind: 'Unavailable' })
    }
    await vi.waitFor(() => expect(peer.connections).toBe(0))
  })
})
