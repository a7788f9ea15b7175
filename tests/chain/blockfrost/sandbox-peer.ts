/**
 * The local Blockfrost serving a real sandbox ledger, so that a whole service can run through the Blockfrost
 * adapter: parameters, eras and genesis from the sandbox; before every answer the peer's chain is brought up to
 * the sandbox's (blocks, and the transactions at the Marlowe script addresses from the sandbox's chain index),
 * and UTxOs, transactions and their outputs are read from the ledger; submissions and evaluations go to it.
 *
 * What the peer cannot know it leaves out: blocks holding only other transactions appear when they are the tip
 * and then list no transactions; `/txs/{h}/utxos` lists the unspent outputs only, and no inputs.
 */
import { BlockfrostProvider, type BlockfrostOptions } from '../../../src/chain/blockfrost'
import { get } from '../../../src/chain/blockfrost/shape'
import { deploymentOf } from '../../../src/chain/deployments'
import { ChainError, type BlockPoint, type ChainTx, type Utxo } from '../../../src/chain/provider'
import { GENESIS_OUTPUTS, type SandboxProvider } from '../../../src/chain/sandbox'
import { bytesToHex, hexToBytes } from '../../../src/core/bytes'
import { formatShelleyAddress } from '../../../src/core/cardano/address'
import { decodeTransaction } from '../../../src/core/cardano/tx'
import { isJsonObject, type JsonValue } from '../../../src/core/json/lossless'
import { provider } from './fixtures'
import { BlockfrostPeer, errorBody, type EvaluationAnswer, type RecordedRequest, type SubmitAnswer } from './peer'
import { txContent } from './peer-chain'
import {
  additionalUtxos,
  addressUtxoJson,
  erasJson,
  evaluationFailureJson,
  evaluationJson,
  genesisJson,
  parametersJson,
  scriptHashOf,
  scriptRecord,
  txOutputJson
} from './sandbox-json'

const PAGE = 100
/** Outputs looked for in a transaction whose bytes the peer has not seen. */
const PROBED_OUTPUTS = 64

const scriptAddress = (hash: string): string =>
  formatShelleyAddress({ mainnet: false, payment: { type: 'script', hash } })

/** The sandbox's last block (its tip's slot is the clock's; a block keeps the slot it was made in). */
async function lastBlock(sandbox: SandboxProvider): Promise<BlockPoint> {
  const page = await sandbox.scriptTransactions({ scriptHashes: [], limit: 1 })
  if (page.kind !== 'forward') throw new Error('the sandbox rolled back')
  return page.until
}

class SandboxBackend {
  private readonly scriptHashes: readonly string[]
  private readonly cursors = new Map<string, BlockPoint>()
  private height = -1n
  private syncing: Promise<void> = Promise.resolve()
  /** Bytes of the transactions submitted through the peer. */
  private readonly submitted = new Map<string, Uint8Array>()

  constructor(
    private readonly sandbox: SandboxProvider,
    private readonly peer: BlockfrostPeer
  ) {
    const { semantics, payout, openRole } = deploymentOf(sandbox)
    this.scriptHashes = [semantics.hash, payout.hash, openRole.hash]
  }

  /** Brings the state the request reads up to the ledger's. */
  async refresh(request: RecordedRequest): Promise<void> {
    await this.sync()
    if (request.method !== 'GET') return
    let m: RegExpExecArray | null
    if ((m = /^\/addresses\/([^/]+)\/utxos$/.exec(request.path))) await this.loadAddress(decodeURIComponent(m[1]!))
    else if ((m = /^\/txs\/([0-9a-f]{64})\/utxos$/.exec(request.path))) await this.loadOutputs(m[1]!)
    else if ((m = /^\/txs\/([0-9a-f]{64})$/.exec(request.path))) await this.loadTx(m[1]!)
  }

  async submit(tx: Uint8Array): Promise<SubmitAnswer> {
    try {
      const txId = await this.sandbox.submit(tx)
      this.submitted.set(txId, tx.slice())
      return { status: 200, body: JSON.stringify(txId) }
    } catch (e) {
      if (e instanceof ChainError && e.kind === 'Rejected') return { status: 400, body: errorBody(400, e.reason) }
      throw e
    }
  }

  async evaluate(request: {
    readonly path: string
    readonly tx: string
    readonly json?: JsonValue
  }): Promise<EvaluationAnswer> {
    let tx: Uint8Array
    let extra: Utxo[]
    try {
      tx = hexToBytes(request.tx)
      const body = request.json ?? {}
      extra =
        request.path.endsWith('/utxos') && isJsonObject(body) ? additionalUtxos(get(body, 'additionalUtxoSet')) : []
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e)
      return { status: 400, body: { status_code: 400n, error: 'Bad Request', message } }
    }
    try {
      return { status: 200, body: evaluationJson(await this.sandbox.evaluate(tx, extra)) }
    } catch (e) {
      if (e instanceof ChainError && e.kind === 'EvaluationFailed') {
        return { status: 200, body: evaluationFailureJson(e.reason) }
      }
      throw e
    }
  }

  /** One sync at a time: requests arrive concurrently, and blocks must be appended once, in order. */
  private sync(): Promise<void> {
    const run = this.syncing.then(() => this.syncNow())
    this.syncing = run.catch(() => undefined)
    return run
  }

  /**
   * Appends the blocks made since the last sync: those holding script transactions, and the tip. The tip is
   * read first and the script transactions up to it, so that a block made meanwhile waits for the next sync.
   */
  private async syncNow(): Promise<void> {
    const tip = await lastBlock(this.sandbox)
    const blocks = new Map<bigint, { block: BlockPoint; txs: Map<string, { tx: ChainTx; addresses: string[] }> }>()
    for (const hash of this.scriptHashes) {
      for (const tx of await this.scriptTxs(hash, tip)) {
        const entry = blocks.get(tx.block.blockNo) ?? { block: tx.block, txs: new Map() }
        const listed = entry.txs.get(tx.txId) ?? { tx, addresses: [] }
        listed.addresses.push(scriptAddress(hash))
        entry.txs.set(tx.txId, listed)
        blocks.set(tx.block.blockNo, entry)
      }
    }
    const ordered = [...blocks.values()].sort((a, b) => (a.block.blockNo < b.block.blockNo ? -1 : 1))
    for (const { block, txs } of ordered) {
      this.append(
        block,
        [...txs.values()].map(({ tx, addresses }) => ({ cbor: tx.cbor, addresses }))
      )
    }
    if (tip.blockNo > this.height) this.append(tip, [])
  }

  /** The script's transactions after the last read, up to the tip. */
  private async scriptTxs(hash: string, tip: BlockPoint): Promise<ChainTx[]> {
    const out: ChainTx[] = []
    for (;;) {
      const after = this.cursors.get(hash)
      const page = await this.sandbox.scriptTransactions({
        scriptHashes: [hash],
        limit: PAGE,
        ...(after === undefined ? {} : { after })
      })
      if (page.kind !== 'forward') throw new Error('the sandbox rolled back')
      const upToTip = page.txs.filter((tx) => tx.block.blockNo <= tip.blockNo)
      out.push(...upToTip)
      const last = upToTip[upToTip.length - 1]
      if (last !== undefined) this.cursors.set(hash, last.block)
      if (upToTip.length < PAGE) return out
    }
  }

  private append(block: BlockPoint, txs: ReadonlyArray<{ cbor: Uint8Array; addresses: readonly string[] }>): void {
    this.peer.appendBlock({
      hash: block.blockHash,
      height: block.blockNo,
      slot: block.slot,
      time: this.sandbox.slotToTime(block.slot) / 1000n,
      txs
    })
    this.height = block.blockNo
  }

  /** The reference scripts and hashed datums an output names, so the adapter can fetch them. */
  private register(utxos: readonly Utxo[]): void {
    const s = this.peer.state
    for (const u of utxos) {
      if (u.scriptRef !== undefined) s.scripts.set(scriptHashOf(u.scriptRef), scriptRecord(u.scriptRef))
      if (u.datumHash !== undefined && u.datum !== undefined) s.datums.set(u.datumHash, bytesToHex(u.datum))
    }
  }

  private async blockOf(txId: string): Promise<BlockPoint | undefined> {
    const status = await this.sandbox.txStatus(txId)
    return status.status === 'confirmed' ? status.block : undefined
  }

  private async loadAddress(address: string): Promise<void> {
    let utxos: Utxo[]
    try {
      utxos = await this.sandbox.utxosAt([address])
    } catch (e) {
      if (e instanceof ChainError) throw e
      // Not an address the ledger can read: Blockfrost has never seen it.
      this.peer.state.addressUtxos.delete(address)
      return
    }
    this.register(utxos)
    const items = await Promise.all(
      utxos.map(async (u) => addressUtxoJson(u, (await this.blockOf(u.ref.txId))?.blockHash ?? ''))
    )
    this.peer.state.addressUtxos.set(address, items)
  }

  private async loadOutputs(txId: string): Promise<void> {
    if ((await this.blockOf(txId)) === undefined) {
      this.peer.state.txUtxos.delete(txId)
      return
    }
    const count = this.outputCount(txId)
    const utxos = await this.sandbox.utxosByRef(Array.from({ length: count }, (_, index) => ({ txId, index })))
    this.register(utxos)
    this.peer.state.txUtxos.set(txId, { hash: txId, inputs: [], outputs: utxos.map(txOutputJson) })
  }

  private outputCount(txId: string): number {
    const listed = this.peer.state.txCbor.get(txId)
    const known = this.submitted.get(txId) ?? (listed === undefined ? undefined : hexToBytes(listed))
    if (known !== undefined) return decodeTransaction(known).body.outputs.length
    const genesis = GENESIS_OUTPUTS.filter((o) => o.ref.txId === txId).length
    return genesis > 0 ? genesis : PROBED_OUTPUTS
  }

  /** A transaction outside the script log (the tip's, or a wallet's): its block from the ledger. */
  private async loadTx(txId: string): Promise<void> {
    if (this.peer.state.txs.has(txId)) return
    const block = await this.blockOf(txId)
    if (block === undefined) return
    const at = {
      hash: block.blockHash,
      height: block.blockNo,
      slot: block.slot,
      time: this.sandbox.slotToTime(block.slot) / 1000n
    }
    this.peer.state.txs.set(txId, txContent(at, 0, txId, this.submitted.get(txId)))
  }
}

/** A local Blockfrost over `sandbox`; `close()` it (the sandbox stays open). */
export async function sandboxPeer(sandbox: SandboxProvider): Promise<BlockfrostPeer> {
  const peer = await BlockfrostPeer.start('sandboxTestProjectId0123456789abc')
  const [parameters, eras] = await Promise.all([sandbox.protocolParameters(), sandbox.eraSummaries()])
  const systemStartMs = eras[0]!.start.time
  const s = peer.state
  s.parameters = parametersJson(parameters)
  s.eras = erasJson(eras, systemStartMs)
  s.genesis = genesisJson(systemStartMs)
  const backend = new SandboxBackend(sandbox, peer)
  s.refresh = (request) => backend.refresh(request)
  s.submit = (tx) => backend.submit(tx)
  s.evaluate = (request) => backend.evaluate(request)
  return peer
}

/** The Blockfrost adapter on the sandbox's network, over the peer. */
export function sandboxBlockfrost(peer: BlockfrostPeer, options: Partial<BlockfrostOptions> = {}): BlockfrostProvider {
  return provider(peer, { network: 'sandbox', timeoutMs: 20_000, ...options })
}
