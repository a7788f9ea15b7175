/**
 * "Is this transaction in the node's mempool?" through Ogmios' mempool monitor: acquire a snapshot, ask
 * `hasTransaction`, release. The protocol keeps one snapshot per connection and `acquireMempool` on an already
 * acquired one waits for the mempool to change, so checks run one at a time, and after a check that failed
 * half-way the next one releases first (ignoring "nothing acquired") to start from a known state.
 */
import { stringifyJson, type JsonValue } from '../../core/json/lossless'
import { ChainError } from '../provider'
import { queryFailure } from './convert-errors'
import { boolean } from '../json-shape'
import { RpcError, type MethodName, type RpcClient } from './rpc-client'

/** `MustAcquireMempoolFirst`: the snapshot was lost, i.e. the connection was replaced mid-check. */
const MUST_ACQUIRE_FIRST = 4000

export class MempoolMonitor {
  private queue: Promise<unknown> = Promise.resolve()
  private unknownState = false

  constructor(private readonly client: RpcClient) {
    // A new connection starts with nothing acquired.
    client.onOpen(() => {
      this.unknownState = false
    })
  }

  has(txId: string): Promise<boolean> {
    const check = this.queue.then(() => this.check(txId))
    this.queue = check.catch(() => undefined)
    return check
  }

  private async check(txId: string): Promise<boolean> {
    if (this.unknownState) await this.call('releaseMempool').catch(() => undefined)
    this.unknownState = true
    await this.call('acquireMempool')
    const result = await this.call('hasTransaction', { id: txId })
    await this.call('releaseMempool')
    this.unknownState = false
    try {
      return boolean(result, 'result')
    } catch {
      throw new ChainError(
        'BadResponse',
        `Ogmios answered hasTransaction with ${stringifyJson(result).slice(0, 200)}`,
        {
          method: 'hasTransaction'
        }
      )
    }
  }

  private async call(method: MethodName, params?: { id: string }): Promise<JsonValue> {
    try {
      return await this.client.request(method, params)
    } catch (e) {
      if (!(e instanceof RpcError)) throw e
      if (e.code === MUST_ACQUIRE_FIRST) {
        throw new ChainError('Unavailable', 'the mempool snapshot was lost with the connection', {
          method,
          code: e.code
        })
      }
      throw queryFailure(e)
    }
  }
}
