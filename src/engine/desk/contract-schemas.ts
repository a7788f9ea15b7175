/**
 * The desk's `contracts.*` and `payouts.*` answers (./contract-views.ts) as src/api/contract.ts declares them, to
 * their leaves: ids and hashes in their forms, no key the contract does not declare, and the contracts, states and
 * inputs exactly what the core's Marlowe decoder makes of their encoding.
 */
import { z } from 'zod'
import type { ChainBlock, ContractHeaderInfo, ContractInfo, ContractTx, PayoutInfo } from '../../api/contract'
import type { NextSteps } from '../../core/marlowe/next'
import {
  contractModel,
  count,
  hex,
  hexOf,
  inputModel,
  jsonObject,
  natural,
  outRef,
  policyId,
  quantity,
  stateModel,
  txId,
  txStatus
} from './schema-parts'

const block: z.ZodType<ChainBlock> = z.strictObject({
  slot: natural,
  blockNo: natural,
  blockHash: hexOf(32, 'a block hash')
})
const funds = z.strictObject({
  lovelace: quantity,
  assets: z.array(z.strictObject({ policyId, assetName: hex, displayName: z.string(), quantity }))
})

export const payoutSchema: z.ZodType<PayoutInfo> = z.strictObject({
  payoutId: outRef,
  // A payout known only from a withdrawal's record may not name its contract or the transaction that paid it.
  contractId: z.union([outRef, z.literal('')]),
  transactionId: z.union([txId, z.literal('')]),
  rolesCurrency: policyId,
  role: z.string(),
  assets: funds,
  status: z.enum(['available', 'withdrawn']),
  withdrawalId: txId.exactOptional()
})

const headerShape = {
  contractId: outRef,
  rolesCurrency: policyId,
  tags: jsonObject,
  metadata: jsonObject,
  status: txStatus,
  block: block.exactOptional()
}

export const contractHeaderSchema: z.ZodType<ContractHeaderInfo> = z.strictObject(headerShape)

export const contractSchema: z.ZodType<ContractInfo> = z.strictObject({
  ...headerShape,
  initialContract: contractModel,
  initialState: stateModel,
  current: z.strictObject({ contract: contractModel, state: stateModel, utxo: outRef.exactOptional() }).exactOptional(),
  assets: funds,
  unclaimedPayouts: z.array(payoutSchema)
})

export const contractTxSchema: z.ZodType<ContractTx> = z.strictObject({
  transactionId: txId,
  status: txStatus,
  block: block.exactOptional(),
  tags: jsonObject,
  metadata: jsonObject,
  inputUtxo: outRef,
  inputs: z.array(inputModel),
  invalidBefore: quantity.exactOptional(),
  invalidHereafter: quantity.exactOptional(),
  output: z.strictObject({ utxo: outRef, contract: contractModel, state: stateModel }).exactOptional(),
  payouts: z.array(payoutSchema),
  consumingTx: txId.exactOptional()
})

const party = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('Address'), address: z.string().min(1) }),
  z.strictObject({ type: z.literal('Role'), role: z.string() })
])
const token = z.strictObject({ currencySymbol: policyId, tokenName: z.string() })
const caseIndex = count
const isMerkleizedContinuation = z.boolean()

export const nextStepsSchema: z.ZodType<NextSteps> = z.strictObject({
  type: z.literal('Next'),
  canReduce: z.boolean(),
  applicableInputs: z.strictObject({
    notify: z.strictObject({ caseIndex, isMerkleizedContinuation }).exactOptional(),
    deposits: z.array(
      z.strictObject({ party, account: party, token, canDeposit: quantity, caseIndex, isMerkleizedContinuation })
    ),
    choices: z.array(
      z.strictObject({
        choice: z.strictObject({ name: z.string(), owner: party }),
        canChooseBetween: z.array(z.strictObject({ from: quantity, to: quantity })),
        caseIndex,
        isMerkleizedContinuation
      })
    )
  })
})
