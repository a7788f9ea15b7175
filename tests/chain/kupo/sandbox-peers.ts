/**
 * A local Ogmios and a local Kupo telling a sandbox ledger's chain, and the sandbox provider with its chain
 * index read through them (`KupoScriptIndex` over real HTTP and WebSocket), so that a whole service can learn
 * the chain through the Kupo adapter while building on the sandbox.
 *
 * Before every page the peers are brought up to the sandbox: each of its blocks holding transactions at the
 * Marlowe scripts (from the sandbox's own index, with their bytes), and its last block. The sandbox confirms
 * each transaction in a block of its own at the clock's slot, so several can share a slot; a real chain has one
 * block per slot, so the peers give the k-th block of a sandbox slot s the slot 1000·s + k (same height and id).
 */
import { deploymentOf } from '../../../src/chain/deployments'
import { withScriptIndex } from '../../../src/chain/delegating-provider'
import { KupoClient, KupoScriptIndex } from '../../../src/chain/kupo'
import { OgmiosBlockReader, rpcClientOptions } from '../../../src/chain/ogmios'
import type { BlockPoint, ChainProvider, ChainTx } from '../../../src/chain/provider'
import type { SandboxProvider } from '../../../src/chain/sandbox'
import { OgmiosPeer } from '../ogmios/peer'
import { KupoPeer } from './peer'

export interface SandboxKupo {
  readonly provider: ChainProvider
  readonly ogmios: OgmiosPeer
  readonly kupo: KupoPeer
  close(): Promise<void>
}

export const SLOTS_PER_SANDBOX_SLOT = 1000n

export async function sandboxKupo(sandbox: SandboxProvider): Promise<SandboxKupo> {
  const ogmios = await OgmiosPeer.start()
  ogmios.chain.splice(0)
  const kupo = await KupoPeer.start(() => ogmios.chain)
  const reader = await OgmiosBlockReader.connect(
    rpcClientOptions({ url: ogmios.url, requestTimeoutMs: 5000, reconnectDelayMs: 10, heartbeatMs: false })
  )
  const deployment = deploymentOf(sandbox)
  const scriptHashes = [deployment.semantics.hash, deployment.payout.hash]
  let cursor: BlockPoint | undefined

  const add = (block: BlockPoint, txs: readonly ChainTx[]): void => {
    const last = ogmios.chain[ogmios.chain.length - 1]
    if (last?.id === block.blockHash) return
    const base = block.slot * SLOTS_PER_SANDBOX_SLOT
    const slot = last !== undefined && last.slot >= base ? last.slot + 1n : base
    ogmios.addBlockAt(
      { slot, height: block.blockNo, id: block.blockHash },
      txs.map((t) => t.cbor)
    )
  }

  const mirror = async (): Promise<void> => {
    for (;;) {
      const page = await sandbox.scriptTransactions({
        scriptHashes,
        limit: 100,
        ...(cursor === undefined ? {} : { after: cursor })
      })
      if (page.kind !== 'forward') throw new Error('the sandbox rolled back')
      const blocks = new Map<string, { block: BlockPoint; txs: ChainTx[] }>()
      for (const tx of page.txs) {
        const held = blocks.get(tx.block.blockHash) ?? { block: tx.block, txs: [] }
        held.txs.push(tx)
        blocks.set(tx.block.blockHash, held)
      }
      for (const { block, txs } of blocks.values()) add(block, txs)
      add(page.until, [])
      cursor = page.until
      const last = page.txs[page.txs.length - 1]
      if (last === undefined || page.until.blockNo !== last.block.blockNo) return
    }
  }

  const index = new KupoScriptIndex({ kupo: new KupoClient({ url: kupo.url, timeoutMs: 5000 }), blocks: reader })
  const provider = withScriptIndex(sandbox, {
    scriptTransactions: async (query) => {
      await mirror()
      return index.scriptTransactions(query)
    }
  })
  return {
    provider,
    ogmios,
    kupo,
    close: async () => {
      await reader.close()
      await kupo.close()
      await ogmios.close()
    }
  }
}
