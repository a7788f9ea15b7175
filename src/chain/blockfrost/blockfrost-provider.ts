/**
 * `BlockfrostProvider`: a `ChainProvider` over Blockfrost's REST API (hosted, or a self-hosted instance at
 * `baseUrl`). Reads are retried with backoff when Blockfrost says "later"; a submission is sent exactly once.
 */
import { formatRef } from '../../core/cardano/refs'
import { bytesToHex } from '../../core/bytes'
import { stringifyJson, type JsonValue } from '../../core/json/lossless'
import {
  ChainError,
  type ChainProvider,
  type ChainTip,
  type EraSummary,
  type NetworkName,
  type ProtocolParameters,
  type RedeemerBudget,
  type ScriptTxPage,
  type ScriptTxQuery,
  type TxOutRef,
  type TxStatus,
  type Utxo
} from '../provider'
import { nodeRejectionReasonFromText } from '../node-rejection'
import { acceptedTxId } from '../submitted-tx-id'
import { eraOfProtocolVersion, toConfirmed, toEraSummaries, toGenesis, toProtocolParameters, toTip } from './convert'
import { additionalUtxoSetV5, toRedeemerBudgets } from './evaluate'
import { BlockfrostHttp, errorMessage, parseBody } from './http'
import { ScriptTxReader } from './script-txs'
import { asArray, asObject, badResponse, get } from './shape'
import { UtxoReader } from './utxos'

export interface BlockfrostOptions {
  readonly network: NetworkName
  readonly projectId: string
  /** API root, e.g. a self-hosted `http://localhost:3000`; default the hosted one for `network`. */
  readonly baseUrl?: string
  /** Per request, including reading the answer (default 20 s). */
  readonly timeoutMs?: number
  /** Extra attempts for reads that met 429, 5xx or a dropped connection (default 3). */
  readonly retries?: number
  /** First backoff before a retry, doubled each time (default 500 ms), and the longest (default 8 s). */
  readonly retryBaseDelayMs?: number
  readonly retryMaxDelayMs?: number
  /** Requests in flight at once (default 8). */
  readonly maxConcurrentRequests?: number
  /** Pages of 100 UTxOs read per address before giving up (default 1000). */
  readonly maxUtxoPages?: number
}

export const BLOCKFROST_URLS: Readonly<Record<Exclude<NetworkName, 'sandbox'>, string>> = {
  mainnet: 'https://cardano-mainnet.blockfrost.io/api/v0',
  preprod: 'https://cardano-preprod.blockfrost.io/api/v0',
  preview: 'https://cardano-preview.blockfrost.io/api/v0'
}

/** Genesis network magic per public network, to catch a base URL or instance serving another chain. */
const NETWORK_MAGIC: Readonly<Partial<Record<NetworkName, bigint>>> = { mainnet: 764824073n, preprod: 1n, preview: 2n }

const PAGE_SIZE = 100
const TX_ID = /^[0-9a-fA-F]{64}$/

export class BlockfrostProvider implements ChainProvider {
  readonly network: NetworkName
  readonly networkId: 0 | 1
  private readonly http: BlockfrostHttp
  private readonly utxos: UtxoReader
  private readonly scriptTxs: ScriptTxReader
  private readonly maxUtxoPages: number
  private genesis: Promise<{ readonly systemStartMs: bigint }> | undefined

  constructor(options: BlockfrostOptions) {
    const baseUrl = options.baseUrl ?? (options.network === 'sandbox' ? undefined : BLOCKFROST_URLS[options.network])
    if (baseUrl === undefined) throw new TypeError('BlockfrostProvider: a sandbox network needs a baseUrl')
    if (options.projectId === '') throw new TypeError('BlockfrostProvider: the project id is empty')
    this.network = options.network
    this.networkId = options.network === 'mainnet' ? 1 : 0
    this.http = new BlockfrostHttp({
      baseUrl,
      projectId: options.projectId,
      network: options.network,
      timeoutMs: options.timeoutMs ?? 20_000,
      retries: options.retries ?? 3,
      retryBaseDelayMs: options.retryBaseDelayMs ?? 500,
      retryMaxDelayMs: options.retryMaxDelayMs ?? 8_000,
      maxConcurrent: options.maxConcurrentRequests ?? 8
    })
    this.utxos = new UtxoReader(this.http)
    this.scriptTxs = new ScriptTxReader(this.http, this.networkId === 1)
    this.maxUtxoPages = options.maxUtxoPages ?? 1000
  }

  async era(): Promise<string> {
    return eraOfProtocolVersion((await this.protocolParameters()).protocolVersion.major)
  }

  async protocolParameters(): Promise<ProtocolParameters> {
    return toProtocolParameters(await this.http.getJson('/epochs/latest/parameters'))
  }

  async eraSummaries(): Promise<readonly EraSummary[]> {
    const [eras, genesis] = await Promise.all([this.http.getJson('/network/eras'), this.systemStart()])
    return toEraSummaries(eras, genesis.systemStartMs)
  }

  async tip(): Promise<ChainTip> {
    return toTip(await this.http.getJson('/blocks/latest'))
  }

  async utxosAt(addresses: readonly string[]): Promise<Utxo[]> {
    const perAddress = await Promise.all([...new Set(addresses)].map((a) => this.utxosAtAddress(a)))
    return perAddress.flat()
  }

  async utxosByRef(refs: readonly TxOutRef[]): Promise<Utxo[]> {
    const wanted = new Map<string, Set<number>>()
    for (const ref of refs) {
      // A malformed id cannot name an output on chain: it is simply absent, like any unknown reference.
      if (!TX_ID.test(ref.txId) || !Number.isSafeInteger(ref.index) || ref.index < 0) continue
      const id = ref.txId.toLowerCase()
      wanted.set(id, (wanted.get(id) ?? new Set()).add(ref.index))
    }
    const found = await Promise.all([...wanted].map(([txId, indices]) => this.unspentOutputs(txId, indices)))
    const byRef = new Map(found.flat().map((u) => [formatRef(u.ref), u]))
    const out: Utxo[] = []
    for (const ref of refs) {
      const key = formatRef({ txId: ref.txId.toLowerCase(), index: ref.index })
      const utxo = byRef.get(key)
      if (utxo !== undefined) {
        out.push(utxo)
        byRef.delete(key)
      }
    }
    return out
  }

  /**
   * Without `additionalUtxos` the CBOR endpoint (body: the transaction as hex text, as Blockfrost wants); with them
   * the JSON one. Both are asked for Ogmios v6 answers.
   */
  async evaluate(tx: Uint8Array, additionalUtxos: readonly Utxo[] = []): Promise<RedeemerBudget[]> {
    const answer =
      additionalUtxos.length === 0
        ? await this.http.request({
            method: 'POST',
            path: '/utils/txs/evaluate?version=6',
            contentType: 'application/cbor',
            body: bytesToHex(tx),
            retry: true
          })
        : await this.http.request({
            method: 'POST',
            path: '/utils/txs/evaluate/utxos?version=6',
            contentType: 'application/json',
            body: stringifyJson({ cbor: bytesToHex(tx), additionalUtxoSet: additionalUtxoSetV5(additionalUtxos) }),
            retry: true
          })
    if (answer.status === 400) {
      throw new ChainError(
        'EvaluationFailed',
        errorMessage(answer.text) ?? 'Blockfrost could not evaluate the transaction'
      )
    }
    if (answer.status === 404)
      throw badResponse('POST /utils/txs/evaluate', 'HTTP 404: is this Blockfrost instance able to evaluate?')
    return toRedeemerBudgets(parseBody(answer.text, 'POST /utils/txs/evaluate'))
  }

  /** Sent once, never retried: a lost answer does not mean a lost transaction (`txStatus` tells). */
  async submit(tx: Uint8Array): Promise<string> {
    const answer = await this.http.request({
      method: 'POST',
      path: '/tx/submit',
      contentType: 'application/cbor',
      body: tx,
      retry: false
    })
    if (answer.status === 400) {
      const message = errorMessage(answer.text)
      const reason = nodeRejectionReasonFromText(message ?? answer.text)
      throw new ChainError('Rejected', reason, message === undefined ? {} : { message })
    }
    if (answer.status === 404)
      throw badResponse('POST /tx/submit', 'HTTP 404: is this Blockfrost instance able to submit?')
    return acceptedTxId(answer.text, tx, 'Blockfrost')
  }

  async txStatus(txId: string): Promise<TxStatus> {
    if (!TX_ID.test(txId)) return { status: 'unknown' }
    const id = txId.toLowerCase()
    const tx = await this.http.getJsonOrMissing(`/txs/${id}`)
    if (tx !== undefined) return toConfirmed(tx, id)
    const pending = await this.http.getJsonOrMissing(`/mempool/${id}`)
    return pending === undefined ? { status: 'unknown' } : { status: 'pending' }
  }

  /**
   * The chain index, from Blockfrost's address listings (./script-txs.ts): only contracts at script addresses
   * without a stake credential are listed.
   */
  scriptTransactions(query: ScriptTxQuery): Promise<ScriptTxPage> {
    return this.scriptTxs.page(query)
  }

  private systemStart(): Promise<{ readonly systemStartMs: bigint }> {
    if (this.genesis !== undefined) return this.genesis
    const pending = this.http.getJson('/genesis').then((json) => {
      const genesis = toGenesis(json)
      const expected = NETWORK_MAGIC[this.network]
      if (expected !== undefined && genesis.networkMagic !== expected) {
        throw new ChainError(
          'Unavailable',
          `this Blockfrost instance serves the network with magic ${genesis.networkMagic}, not ${this.network} (${expected}): check the base URL`
        )
      }
      return genesis
    })
    // Genesis never changes, but a failed read must not stick.
    this.genesis = pending
    pending.catch(() => {
      if (this.genesis === pending) this.genesis = undefined
    })
    return pending
  }

  /** Every page of `GET /addresses/{a}/utxos`; 404 means an address never seen on chain, so no UTxOs. */
  private async utxosAtAddress(address: string): Promise<Utxo[]> {
    const seen = new Set<string>()
    const raw: Array<{ json: JsonValue; what: string }> = []
    for (let page = 1; ; page += 1) {
      if (page > this.maxUtxoPages) {
        throw badResponse(`addresses/${address}/utxos`, `more than ${this.maxUtxoPages} pages of UTxOs`)
      }
      const path = `/addresses/${encodeURIComponent(address)}/utxos?count=${PAGE_SIZE}&page=${page}`
      const json = await this.http.getJsonOrMissing(path)
      if (json === undefined) return []
      const items = asArray(json, `addresses/${address}/utxos?page=${page}`)
      let fresh = 0
      items.forEach((item, i) => {
        const o = asObject(item, `addresses/${address}/utxos?page=${page}[${i}]`)
        const key = `${String(get(o, 'tx_hash'))}#${String(get(o, 'output_index'))}`
        // Outputs spent while paging shift later pages; one seen twice is kept once.
        if (seen.has(key)) return
        seen.add(key)
        fresh += 1
        raw.push({ json: item, what: `addresses/${address}/utxos?page=${page}[${i}]` })
      })
      if (items.length < PAGE_SIZE) break
      if (fresh === 0) throw badResponse(`addresses/${address}/utxos`, `page ${page} repeats earlier pages`)
    }
    // Older backends leave `address` out of these items: it is the address asked about.
    return Promise.all(raw.map(({ json, what }) => this.utxos.toUtxo(json, what, { address })))
  }

  /** The requested outputs of one transaction still unspent (`consumed_by_tx` unset), excluding collateral outputs. */
  private async unspentOutputs(txId: string, indices: ReadonlySet<number>): Promise<Utxo[]> {
    const json = await this.http.getJsonOrMissing(`/txs/${txId}/utxos`)
    if (json === undefined) return []
    const what = `txs/${txId}/utxos`
    const outputs = asArray(get(asObject(json, what), 'outputs'), `${what}.outputs`)
    const picked = outputs.flatMap((item, i) => {
      const o = asObject(item, `${what}.outputs[${i}]`)
      const index = get(o, 'output_index')
      if (typeof index !== 'bigint' || !indices.has(Number(index))) return []
      // Older backends omit `consumed_by_tx`: their outputs are taken as unspent.
      if (typeof get(o, 'consumed_by_tx') === 'string' || get(o, 'collateral') === true) return []
      return [{ item, what: `${what}.outputs[${i}]` }]
    })
    return Promise.all(picked.map(({ item, what: w }) => this.utxos.toUtxo(item, w, { txId })))
  }
}
