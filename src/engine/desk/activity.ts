/**
 * `wallets.activity`: the wallet's transactions in the desk's records — every build of its own (its change comes
 * back to its address) and others' transactions that pay it — newest first, a page at a time. A discarded or
 * superseded build never reached the chain and is left out.
 */
import type { WalletActivityItem, WalletActivityPage } from '../../api/contract'
import { decodeTransaction } from '../../core/cardano/tx'
import type { TxRow } from '../../store/service-store'
import { slotTime } from './contract-calls'
import type { DeskContext } from './context'

const STATUSES = ['unsigned', 'submitted', 'confirmed'] as const

function paysTo(row: TxRow, addresses: ReadonlySet<string>): boolean {
  return decodeTransaction(row.signedTx ?? row.unsignedTx).body.outputs.some((o) => addresses.has(o.address.text))
}

export async function walletActivity(
  ctx: DeskContext,
  request: { readonly walletId: string; readonly offset: number; readonly limit: number }
): Promise<WalletActivityPage> {
  const addresses = new Set(await ctx.wallets.fundAddresses(request.walletId))
  const eras = await ctx.provider.eraSummaries()
  const rows = (await Promise.all(STATUSES.map((status) => ctx.store.txsWithStatus(status)))).flat()
  const items: WalletActivityItem[] = rows
    .filter((row) => row.discardedAt === undefined && row.supersededAt === undefined && paysTo(row, addresses))
    .map((row) => ({
      txId: row.txId,
      kind: row.kind,
      ...(row.contractId === undefined ? {} : { contractId: row.contractId }),
      status: row.status,
      origin: row.origin,
      at: (row.block === undefined ? undefined : slotTime(eras, row.block.slot)) ?? BigInt(row.createdAt)
    }))
  // Newest first; the id orders those of the same moment, so that pages neither repeat nor skip one.
  items.sort((a, b) => (a.at === b.at ? (a.txId < b.txId ? -1 : 1) : a.at > b.at ? -1 : 1))
  return { items: items.slice(request.offset, request.offset + request.limit), total: items.length }
}
