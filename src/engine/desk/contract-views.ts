/**
 * The service's views of contracts, transactions and payouts as the desk answers with them (src/api/contract.ts):
 * the Marlowe model as it is, funds with display names, and nothing the window does not use (no unsigned bodies,
 * no validator addresses). Runtime's JSON of the same views is the REST API's (src/server).
 */
import type { ChainBlock, ContractHeaderInfo, ContractInfo, ContractTx, PayoutInfo } from '../../api/contract'
import type { BlockRow, ContractHeader, ContractView, PayoutView, TransactionView } from '../service'
import { valueFunds } from './wallets'

const chainBlock = (b: BlockRow): ChainBlock => ({ slot: b.slot, blockNo: b.blockNo, blockHash: b.blockHash })

const inBlock = (b: BlockRow | undefined): { block?: ChainBlock } => (b === undefined ? {} : { block: chainBlock(b) })

export function payoutInfo(p: PayoutView): PayoutInfo {
  return {
    payoutId: p.payoutId,
    contractId: p.contractId,
    transactionId: p.transactionId,
    rolesCurrency: p.rolesCurrency,
    role: p.role,
    assets: valueFunds(p.assets),
    status: p.status,
    ...(p.withdrawalId === undefined ? {} : { withdrawalId: p.withdrawalId })
  }
}

export function contractHeaderInfo(c: ContractHeader): ContractHeaderInfo {
  return {
    contractId: c.contractId,
    rolesCurrency: c.rolesCurrency,
    tags: c.tags,
    metadata: c.metadata,
    status: c.status,
    ...inBlock(c.block)
  }
}

export function contractInfo(c: ContractView): ContractInfo {
  const current = c.current
  return {
    ...contractHeaderInfo(c),
    initialContract: c.initialContract,
    initialState: c.initialState,
    ...(current === undefined
      ? {}
      : {
          current: {
            contract: current.contract,
            state: current.state,
            ...(current.utxo === undefined ? {} : { utxo: current.utxo })
          }
        }),
    assets: valueFunds(c.assets),
    unclaimedPayouts: c.unclaimedPayouts.map(payoutInfo)
  }
}

export function contractTx(t: TransactionView): ContractTx {
  return {
    transactionId: t.transactionId,
    status: t.status,
    ...inBlock(t.block),
    tags: t.tags,
    metadata: t.metadata,
    inputUtxo: t.inputUtxo,
    inputs: t.inputs,
    ...(t.invalidBefore === undefined ? {} : { invalidBefore: t.invalidBefore }),
    ...(t.invalidHereafter === undefined ? {} : { invalidHereafter: t.invalidHereafter }),
    ...(t.output === undefined
      ? {}
      : { output: { utxo: t.output.utxo, contract: t.output.contract, state: t.output.state } }),
    payouts: t.payouts.map(payoutInfo),
    ...(t.consumingTx === undefined ? {} : { consumingTx: t.consumingTx })
  }
}
