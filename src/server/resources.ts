/**
 * The links of the HTTP API's resources (runtime-api.md §6), relative without a leading slash; the resources
 * themselves are the service's views as Runtime's JSON (./runtime-json.ts).
 */
import type { JsonObject } from '../core/json/lossless'
import type { ContractView, PayoutView, TransactionView, WithdrawalView } from '../engine/service'

export const encodeId = (ref: string): string => ref.replace('#', '%23')

export const links = {
  contract: (contractId: string) => `contracts/${encodeId(contractId)}`,
  transactions: (contractId: string) => `contracts/${encodeId(contractId)}/transactions`,
  transaction: (contractId: string, txId: string) => `contracts/${encodeId(contractId)}/transactions/${txId}`,
  withdrawal: (withdrawalId: string) => `withdrawals/${withdrawalId}`,
  payout: (payoutId: string) => `payouts/${encodeId(payoutId)}`
}

export function contractLinks(c: Pick<ContractView, 'contractId' | 'status'>): JsonObject {
  return c.status === 'confirmed'
    ? { contract: links.contract(c.contractId), transactions: links.transactions(c.contractId) }
    : { contract: links.contract(c.contractId) }
}

export function txLinks(t: TransactionView): JsonObject {
  const out: JsonObject = {}
  if (t.inputUtxo !== t.contractId) out.previous = links.transaction(t.contractId, t.inputUtxo.slice(0, 64))
  if (t.consumingTx !== undefined) out.next = links.transaction(t.contractId, t.consumingTx)
  return out
}

export function payoutLinks(p: PayoutView): JsonObject {
  const out: JsonObject = {
    contract: links.contract(p.contractId),
    transaction: links.transaction(p.contractId, p.transactionId)
  }
  if (p.withdrawalId !== undefined) out.withdrawal = links.withdrawal(p.withdrawalId)
  return out
}

/**
 * The links of a GET /withdrawals item. Runtime sends only `withdrawal`; the published ts-sdk client
 * (runtime-rest-client 0.4.0-beta) requires `contract` and `transactions` there and fails on any non-empty
 * page without them, so both are added too, for the contract of the withdrawal's first payout.
 */
export function withdrawalListLinks(w: WithdrawalView): JsonObject {
  const out: JsonObject = { withdrawal: links.withdrawal(w.withdrawalId) }
  const contractId = w.payouts.find((p) => p.contractId !== '')?.contractId
  if (contractId !== undefined) {
    out.contract = links.contract(contractId)
    out.transactions = links.transactions(contractId)
  }
  return out
}
