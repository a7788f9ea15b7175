/**
 * Runtime's resource JSON as the desk's `contracts.*` and `payouts.*` answers carry it (runtime-json.ts writes it),
 * to its leaves: every key present, `null` only where Runtime has a Maybe, ids and hashes in their forms, and the
 * contracts, states and inputs read back by the core's Marlowe JSON decoder.
 */
import { z } from 'zod'
import {
  hex,
  isoTime,
  jsonObject,
  jsonValue,
  marloweContract,
  marloweInput,
  marloweParty,
  marlowePayment,
  marloweState,
  marloweToken,
  natural,
  outRef,
  policyId,
  quantity,
  txId,
  txStatus
} from './schema-parts'

const block = z.strictObject({ slotNo: natural, blockNo: natural, blockHeaderHash: hex.length(64) }).nullable()
const assets = z.strictObject({
  lovelace: quantity,
  tokens: z.record(hex.length(56), z.record(z.string(), quantity))
})
const envelope = z.strictObject({ type: z.string().min(1), description: z.string(), cborHex: hex.min(2) })
const unclaimedPayout = z.strictObject({ payoutId: outRef, role: z.string(), assets })

const headerShape = {
  contractId: outRef,
  roleTokenMintingPolicyId: policyId,
  version: z.literal('v1'),
  tags: jsonObject,
  metadata: jsonObject,
  status: txStatus,
  block
}

/** `contractHeaderJson`. */
export const contractHeaderSchema = z.strictObject(headerShape)

/** `contractStateJson`. */
export const contractStateSchema = z.strictObject({
  ...headerShape,
  initialContract: marloweContract,
  initialState: marloweState,
  currentContract: marloweContract.nullable(),
  state: marloweState.nullable(),
  utxo: outRef.nullable(),
  assets,
  txBody: envelope.nullable(),
  unclaimedPayouts: z.array(unclaimedPayout)
})

const semanticOutput = z.union([
  z.strictObject({
    contract: marloweContract,
    payments: z.array(marlowePayment),
    state: marloweState,
    warnings: z.array(jsonValue)
  }),
  z.strictObject({ transaction_error: jsonValue })
])

/** `txJson`. */
export const transactionSchema = z.strictObject({
  contractId: outRef,
  transactionId: txId,
  tags: jsonObject,
  metadata: jsonObject,
  status: txStatus,
  block,
  inputUtxo: outRef,
  inputContract: marloweContract,
  inputState: marloweState,
  inputs: z.array(marloweInput),
  outputUtxo: outRef.nullable(),
  outputContract: marloweContract.nullable(),
  outputState: marloweState.nullable(),
  assets,
  payouts: z.array(unclaimedPayout),
  consumingTx: txId.nullable(),
  invalidBefore: isoTime.nullable(),
  invalidHereafter: isoTime.nullable(),
  reconstructedSemanticInput: z.strictObject({
    tx_interval: z.strictObject({ from: quantity, to: quantity }),
    tx_inputs: z.array(marloweInput)
  }),
  reconstructedSemanticOutput: semanticOutput.nullable(),
  txBody: envelope.nullable()
})

/** `payoutStateJson`. */
export const payoutStateSchema = z.strictObject({
  payoutId: outRef,
  contractId: z.union([outRef, z.literal('')]),
  withdrawalId: txId.nullable(),
  role: z.strictObject({ policyId: hex.length(56), assetName: z.string() }),
  status: z.enum(['available', 'withdrawn']),
  payoutValidatorAddress: z.string().min(1),
  assets
})

const bound = z.strictObject({ from: quantity, to: quantity })
const caseIndex = natural
const merkleized = z.boolean()

/** `nextJson` (Runtime's GET /contracts/{id}/next). */
export const nextStepsSchema = z.strictObject({
  applicable_inputs: z.strictObject({
    choices: z.array(
      z.strictObject({
        can_choose_between: z.array(bound),
        case_index: caseIndex,
        for_choice: z.strictObject({ choice_name: z.string(), choice_owner: marloweParty }),
        is_merkleized_continuation: merkleized
      })
    ),
    deposits: z.array(
      z.strictObject({
        can_deposit: quantity,
        case_index: caseIndex,
        into_account: marloweParty,
        is_merkleized_continuation: merkleized,
        of_token: marloweToken,
        party: marloweParty
      })
    ),
    notify: z.strictObject({ case_index: caseIndex, is_merkleized_continuation: merkleized }).exactOptional()
  }),
  can_reduce: z.boolean()
})
