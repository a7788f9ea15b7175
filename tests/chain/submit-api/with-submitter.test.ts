import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import type { ChainProvider, Utxo } from '../../../src/chain/provider'
import { ChainError } from '../../../src/chain/provider'
import { SubmitApiClient, withSubmitter, type TxSubmitter } from '../../../src/chain/submit-api'
import type { BlockfrostPeer } from '../blockfrost/peer'
import { ADDR_A, BLOCK, provider, seededPeer } from '../blockfrost/fixtures'
import { sampleTx, sampleTxId, SubmitApiPeer } from './peer'

/** A query provider that records which methods were called and answers canned values. */
function recordingProvider(calls: string[]): ChainProvider {
  const utxo: Utxo = { ref: { txId: '11'.repeat(32), index: 0 }, address: ADDR_A, value: { lovelace: 1n, assets: {} } }
  const call =
    <T>(name: string, value: T) =>
    (...args: unknown[]): Promise<T> => {
      calls.push(`${name}(${args.length})`)
      return Promise.resolve(value)
    }
  return {
    network: 'preview',
    networkId: 0,
    era: call('era', 'conway'),
    protocolParameters: call('protocolParameters', {} as never),
    eraSummaries: call('eraSummaries', []),
    tip: call('tip', { slot: 1n, blockNo: 2n, blockHash: BLOCK }),
    utxosAt: call('utxosAt', [utxo]),
    utxosByRef: call('utxosByRef', [utxo]),
    evaluate: call('evaluate', []),
    submit: call('submit', 'query-provider-submitted'),
    txStatus: call('txStatus', { status: 'pending' })
  }
}

describe('withSubmitter', () => {
  test('submit goes to the submitter; every other method, with its arguments, to the query provider', async () => {
    const calls: string[] = []
    const submitted: Uint8Array[] = []
    const submitter: TxSubmitter = {
      submit: (tx) => {
        submitted.push(tx)
        return Promise.resolve('submitter-id')
      }
    }
    const p = withSubmitter(recordingProvider(calls), submitter)
    expect([p.network, p.networkId]).toEqual(['preview', 0])
    const tx = Uint8Array.of(1, 2, 3)
    expect(await p.submit(tx)).toBe('submitter-id')
    expect(submitted).toEqual([tx])
    expect(calls).toEqual([])
    expect(await p.era()).toBe('conway')
    await p.protocolParameters()
    await p.eraSummaries()
    expect(await p.tip()).toEqual({ slot: 1n, blockNo: 2n, blockHash: BLOCK })
    expect(await p.utxosAt([ADDR_A])).toHaveLength(1)
    expect(await p.utxosByRef([{ txId: '11'.repeat(32), index: 0 }])).toHaveLength(1)
    await p.evaluate(tx, [])
    expect(await p.txStatus('aa'.repeat(32))).toEqual({ status: 'pending' })
    expect(calls).toEqual([
      'era(0)',
      'protocolParameters(0)',
      'eraSummaries(0)',
      'tip(0)',
      'utxosAt(1)',
      'utxosByRef(1)',
      'evaluate(2)',
      'txStatus(1)'
    ])
  })

  test("a submitter's ChainError reaches the caller unchanged", async () => {
    const rejected = new ChainError('Rejected', 'no')
    const p = withSubmitter(recordingProvider([]), { submit: () => Promise.reject(rejected) })
    await expect(p.submit(Uint8Array.of(0))).rejects.toBe(rejected)
  })
})

describe('Blockfrost for queries, cardano-submit-api for submissions', () => {
  let blockfrost: BlockfrostPeer
  let submitApi: SubmitApiPeer

  beforeEach(async () => {
    blockfrost = await seededPeer()
    submitApi = await SubmitApiPeer.start()
  })
  afterEach(async () => {
    await blockfrost.close()
    await submitApi.close()
  })

  test('reads hit Blockfrost only, the submission hits the submit API only', async () => {
    const p = withSubmitter(provider(blockfrost), new SubmitApiClient({ url: submitApi.url }))
    const tx = sampleTx(123n)
    expect(await p.submit(tx)).toBe(sampleTxId(tx))
    expect(blockfrost.requests).toHaveLength(0)
    expect((await p.tip()).blockHash).toBe(BLOCK)
    expect(await p.utxosAt([ADDR_A])).toHaveLength(2)
    expect(blockfrost.requestsTo(/^POST \/tx\/submit$/)).toHaveLength(0)
    expect(submitApi.received).toHaveLength(1)
  })
})
