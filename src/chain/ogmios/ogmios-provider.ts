/**
 * `OgmiosProvider`: the `ChainProvider` of a cardano-node reached through Ogmios v6 (JSON-RPC 2.0 over a
 * WebSocket). See ./index.ts for what it does and its limits.
 *
 * Two connections: one for queries, submission, evaluation and the mempool monitor; one for chain sync, whose
 * `nextBlock` may legitimately wait minutes for a block and whose session must restart after a reconnection.
 */
import type { GenesisShelley, SubmitTransactionSuccess } from '@cardano-ogmios/schema'
import { bytesToHex } from '../../core/bytes'
import type { JsonValue } from '../../core/json/lossless'
import {
  ChainError,
  type ChainProvider,
  type ChainTip,
  type EraSummary,
  type NetworkName,
  type ProtocolParameters,
  type RedeemerBudget,
  type TxOutRef,
  type TxStatus,
  type Utxo
} from '../provider'
import { ChainFollower } from './chain-follower'
import { evaluationFailure, queryFailure, submitFailure } from './convert-errors'
import {
  eraOfSummaries,
  toBlockHeight,
  toEraSummaries,
  toPoint,
  toProtocolParameters,
  toRedeemerBudgets,
  toStartTime
} from './convert-ledger'
import { fromTxOutRef, fromUtxo, toUtxos } from './convert-utxo'
import { array, Fields } from '../json-shape'
import { MempoolMonitor } from './mempool'
import { RpcClient, RpcError, type MethodName, type RpcClientOptions } from './rpc-client'

export interface OgmiosProviderOptions {
  /** Ogmios' WebSocket address, e.g. `ws://localhost:1337`. */
  readonly url: string
  readonly network: NetworkName
  /** Deadline of each request, including any wait for a connection (default 30 s). */
  readonly requestTimeoutMs?: number
  /** Deadline of a connection attempt (default 10 s). */
  readonly connectTimeoutMs?: number
  /** First pause before reconnecting; it doubles after each failed attempt (default 500 ms) … */
  readonly reconnectDelayMs?: number
  /** … up to this (default 15 s). */
  readonly maxReconnectDelayMs?: number
  /** WebSocket ping interval, to notice a peer that vanished (default 20 s); `false` for none. */
  readonly heartbeatMs?: number | false
  /** Largest answer accepted, in bytes (default 256 MiB: whole-address UTxO sets can be large). */
  readonly maxMessageBytes?: number
  /** Follow the chain for `txStatus` confirmations (default true); without it `txStatus` only sees the mempool. */
  readonly followChain?: boolean
  /** Blocks remembered for `txStatus` (default 1000, about 5½ hours of mainnet). */
  readonly followBlocks?: number
  /** Longest wait for a block before the chain-sync session is restarted (default 10 min). */
  readonly nextBlockTimeoutMs?: number
  /** Check on connecting that the node serves `network` (default true; see `NETWORK_MAGIC`). */
  readonly checkNetwork?: boolean
}

/** Network magic of the public networks; a `sandbox` node (a local devnet) only has to be a testnet. */
export const NETWORK_MAGIC: Readonly<Partial<Record<NetworkName, number>>> = {
  mainnet: 764824073,
  preprod: 1,
  preview: 2
}

const DEFAULTS = {
  requestTimeoutMs: 30_000,
  connectTimeoutMs: 10_000,
  reconnectDelayMs: 500,
  maxReconnectDelayMs: 15_000,
  heartbeatMs: 20_000,
  maxMessageBytes: 256 * 1024 * 1024,
  followBlocks: 1000,
  nextBlockTimeoutMs: 600_000
} as const

/** The connection settings of `options`, defaults filled in: for every connection to the same Ogmios. */
export function rpcClientOptions(options: Omit<OgmiosProviderOptions, 'network'>): RpcClientOptions {
  return {
    url: options.url,
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs,
    reconnectDelayMs: options.reconnectDelayMs ?? DEFAULTS.reconnectDelayMs,
    maxReconnectDelayMs: options.maxReconnectDelayMs ?? DEFAULTS.maxReconnectDelayMs,
    heartbeatMs: options.heartbeatMs ?? DEFAULTS.heartbeatMs,
    maxMessageBytes: options.maxMessageBytes ?? DEFAULTS.maxMessageBytes
  }
}

/** Attempts at reading a tip whose slot, hash and height belong together (see `tip()`). */
const TIP_ATTEMPTS = 3

type Convert<T> = (result: JsonValue) => T

export class OgmiosProvider implements ChainProvider {
  readonly networkId: 0 | 1
  private readonly queries: RpcClient
  private readonly sync: RpcClient | undefined
  private readonly follower: ChainFollower | undefined
  private readonly mempool: MempoolMonitor
  private closed = false

  private constructor(
    readonly network: NetworkName,
    private readonly options: OgmiosProviderOptions
  ) {
    this.networkId = network === 'mainnet' ? 1 : 0
    const rpc = rpcClientOptions(options)
    this.queries = new RpcClient(rpc)
    this.mempool = new MempoolMonitor(this.queries)
    if (options.followChain !== false) {
      this.sync = new RpcClient(rpc)
      this.follower = new ChainFollower(this.sync, {
        maxBlocks: options.followBlocks ?? DEFAULTS.followBlocks,
        nextBlockTimeoutMs: options.nextBlockTimeoutMs ?? DEFAULTS.nextBlockTimeoutMs,
        restartDelayMs: rpc.reconnectDelayMs
      })
    }
  }

  /**
   * Connects (both connections), checks the node's network and starts following the chain. Rejects with
   * `Unavailable` when Ogmios cannot be reached, and with `BadResponse` when it serves another network.
   */
  static async connect(options: OgmiosProviderOptions): Promise<OgmiosProvider> {
    const provider = new OgmiosProvider(options.network, options)
    try {
      await Promise.all([provider.queries.connect(), provider.sync?.connect()])
      if (options.checkNetwork !== false) await provider.checkNetwork()
      provider.follower?.start()
      return provider
    } catch (e) {
      await provider.close()
      throw e
    }
  }

  /** Ogmios v6 has no era query; the era summaries list every era since Byron, so their count names it. */
  era(): Promise<string> {
    return this.query('queryLedgerState/eraSummaries', undefined, (r) => eraOfSummaries(array(r, 'result').length))
  }

  protocolParameters(): Promise<ProtocolParameters> {
    return this.query('queryLedgerState/protocolParameters', undefined, (r) => toProtocolParameters(r))
  }

  async eraSummaries(): Promise<readonly EraSummary[]> {
    const [startTime, eras] = await Promise.all([
      this.query('queryNetwork/startTime', undefined, (r) => toStartTime(r)),
      this.query('queryLedgerState/eraSummaries', undefined, (r) => r)
    ])
    return this.convert('queryLedgerState/eraSummaries', eras, (r) => toEraSummaries(r, startTime))
  }

  /**
   * The last block's slot, hash and height. Ogmios answers them in two queries, so the tip is read before and
   * after the height, and the three are used only if the tip did not move in between.
   */
  async tip(): Promise<ChainTip> {
    for (let attempt = 1; attempt <= TIP_ATTEMPTS; attempt += 1) {
      const [before, height, after] = await Promise.all([
        this.query('queryNetwork/tip', undefined, (r) => toPoint(r)),
        this.query('queryNetwork/blockHeight', undefined, (r) => toBlockHeight(r)),
        this.query('queryNetwork/tip', undefined, (r) => toPoint(r))
      ])
      if (before === 'origin' || after === 'origin' || height === 'origin') {
        throw new ChainError('Unavailable', 'the node has no block yet (it is still starting or syncing)', {
          url: this.options.url
        })
      }
      if (before.slot === after.slot && before.id === after.id) {
        return { slot: after.slot, blockNo: height, blockHash: after.id }
      }
    }
    throw new ChainError('Unavailable', `the chain tip moved during each of ${TIP_ATTEMPTS} readings`, {
      url: this.options.url
    })
  }

  async utxosAt(addresses: readonly string[]): Promise<Utxo[]> {
    if (addresses.length === 0) return []
    return this.query('queryLedgerState/utxo', { addresses: [...addresses] }, (r) => toUtxos(r, 'result'))
  }

  async utxosByRef(refs: readonly TxOutRef[]): Promise<Utxo[]> {
    if (refs.length === 0) return []
    const outputReferences = refs.map(fromTxOutRef)
    return this.query('queryLedgerState/utxo', { outputReferences }, (r) => toUtxos(r, 'result'))
  }

  evaluate(tx: Uint8Array, additionalUtxos: readonly Utxo[] = []): Promise<RedeemerBudget[]> {
    const params = {
      transaction: { cbor: bytesToHex(tx) },
      ...(additionalUtxos.length === 0 ? {} : { additionalUtxo: additionalUtxos.map(fromUtxo) })
    }
    return this.call('evaluateTransaction', params, (r) => toRedeemerBudgets(r), evaluationFailure)
  }

  /** Resolves with the id Ogmios reports once the node accepted the transaction into its mempool. */
  submit(tx: Uint8Array): Promise<string> {
    const params = { transaction: { cbor: bytesToHex(tx) } }
    return this.call('submitTransaction', params, submittedId, submitFailure)
  }

  /**
   * Confirmed if the transaction is in a block the follower has seen (blocks since connecting, the last
   * `followBlocks` of them), pending if it is in the node's mempool, else unknown. The follower is asked again
   * after the mempool, in case the transaction moved from the mempool into a block in between.
   */
  async txStatus(txId: string): Promise<TxStatus> {
    const id = txId.toLowerCase()
    if (!/^[0-9a-f]{64}$/.test(id)) return { status: 'unknown' }
    this.checkOpen()
    const confirmed = this.follower?.lookup(id)
    if (confirmed !== undefined) return { status: 'confirmed', block: confirmed }
    const pending = await this.mempool.has(id)
    const confirmedMeanwhile = this.follower?.lookup(id)
    if (confirmedMeanwhile !== undefined) return { status: 'confirmed', block: confirmedMeanwhile }
    return pending ? { status: 'pending' } : { status: 'unknown' }
  }

  /** Closes both connections; every pending and later call fails with `Unavailable`. */
  async close(): Promise<void> {
    this.closed = true
    this.follower?.stop()
    await Promise.all([this.queries.close(), this.sync?.close()])
  }

  /** Compares the node's Shelley genesis (network magic, mainnet or testnet) with the configured network. */
  private async checkNetwork(): Promise<void> {
    type Genesis = Pick<GenesisShelley, 'networkMagic' | 'network'>
    const genesis = await this.query('queryNetwork/genesisConfiguration', { era: 'shelley' }, (r): Genesis => {
      const genesis = Fields.of<GenesisShelley>(r, 'result')
      return {
        networkMagic: genesis.smallNatural('networkMagic'),
        network: genesis.oneOf('network', ['mainnet', 'testnet'])
      }
    })
    const magic = NETWORK_MAGIC[this.network]
    const matches =
      magic === undefined
        ? genesis.network === 'testnet'
        : genesis.networkMagic === magic && genesis.network === (this.network === 'mainnet' ? 'mainnet' : 'testnet')
    if (!matches) {
      throw new ChainError(
        'BadResponse',
        `Ogmios at ${this.options.url} serves a ${genesis.network} with network magic ${genesis.networkMagic}, not ${this.network}`,
        { url: this.options.url, networkMagic: genesis.networkMagic, network: genesis.network }
      )
    }
  }

  private query<T>(method: MethodName, params: JsonValue | undefined, convert: Convert<T>): Promise<T> {
    return this.call(method, params, convert, queryFailure)
  }

  private async call<T>(
    method: MethodName,
    params: JsonValue | undefined,
    convert: Convert<T>,
    onError: (e: RpcError) => ChainError
  ): Promise<T> {
    this.checkOpen()
    let result: JsonValue
    try {
      result = await this.queries.request(method, params)
    } catch (e) {
      throw e instanceof RpcError ? onError(e) : e
    }
    return this.convert(method, result, convert)
  }

  /** Any failure to read an answer is a `BadResponse` naming the method and what was wrong where. */
  private convert<T>(method: string, result: JsonValue, convert: Convert<T>): T {
    try {
      return convert(result)
    } catch (e) {
      const what = e instanceof Error ? e.message : String(e)
      throw new ChainError('BadResponse', `Ogmios answered ${method} with something unexpected: ${what}`, {
        url: this.options.url,
        method
      })
    }
  }

  private checkOpen(): void {
    if (this.closed)
      throw new ChainError('Unavailable', 'the Ogmios provider has been closed', { url: this.options.url })
  }
}

type Submitted = SubmitTransactionSuccess['result']

function submittedId(result: JsonValue): string {
  return Fields.of<Submitted>(result, 'result').fields<Submitted['transaction']>('transaction').hex('id', 32)
}
