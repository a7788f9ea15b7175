/**
 * OpenAPI 3.1 `components.schemas` for the response side: the resource JSON the routes send (runtime-api.md §6,
 * written by ./runtime-json.ts), their link wrappers and the build answers. Every Runtime field is
 * present (a missing value is `null`), so each object lists all its keys as required and no others. Marlowe core
 * JSON inside them (contracts, states, inputs) is described by its top-level kind only. `TxId` and `TxOutRef` are the
 * request side's (./requests).
 */
import type { JsonObject, JsonValue } from '../core/json/lossless'

const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` })
const nullable = (schema: JsonObject): JsonObject => ({ anyOf: [schema, { type: 'null' }] })
const string = (pattern?: string): JsonObject =>
  pattern === undefined ? { type: 'string' } : { type: 'string', pattern }
const array = (items: JsonValue): JsonObject => ({ type: 'array', items })

/** An object with exactly these keys, all required. */
function record(properties: JsonObject): JsonObject {
  return { type: 'object', required: Object.keys(properties), properties, additionalProperties: false }
}

/** A resource with its links, as single GETs and list items send it. */
const linked = (resource: string): JsonObject =>
  record({ resource: ref(resource), links: { type: 'object', additionalProperties: { type: 'string' } } })

const page = (resource: string): JsonObject => record({ results: array(linked(resource)) })

const TX_ID = '^[0-9a-f]{64}$'

const HEADER_FIELDS: JsonObject = {
  contractId: ref('TxOutRef'),
  roleTokenMintingPolicyId: ref('RolesPolicyId'),
  version: { const: 'v1' },
  tags: { type: 'object' },
  metadata: { type: 'object' },
  status: ref('TxStatus'),
  block: nullable(ref('BlockHeader'))
}

/** What a transaction's header and its full view both begin with. */
const TX_FIELDS: JsonObject = {
  contractId: ref('TxOutRef'),
  transactionId: ref('TxId'),
  tags: { type: 'object' },
  metadata: { type: 'object' },
  status: ref('TxStatus'),
  block: nullable(ref('BlockHeader'))
}

const PAYOUT_HEADER_FIELDS: JsonObject = {
  payoutId: ref('TxOutRef'),
  contractId: ref('TxOutRef'),
  withdrawalId: nullable(ref('TxId')),
  role: record({ policyId: ref('RolesPolicyId'), assetName: string() }),
  status: { enum: ['available', 'withdrawn'] }
}

const WITHDRAWAL_HEADER_FIELDS: JsonObject = {
  withdrawalId: ref('TxId'),
  status: ref('TxStatus'),
  block: nullable(ref('BlockHeader'))
}

/** An unsigned transaction as a build answers it: the body, the whole tx, or both (by the Accept header). */
function built(fields: JsonObject, alwaysTx: boolean): JsonObject {
  const properties = { ...fields, txBody: ref('TxEnvelope'), tx: ref('TxEnvelope') }
  const required = Object.keys(fields)
  return {
    type: 'object',
    properties,
    additionalProperties: false,
    required,
    anyOf: [{ required: alwaysTx ? ['tx'] : ['txBody'] }, { required: ['tx'] }]
  }
}

export const RESPONSE_SCHEMAS: Readonly<Record<string, JsonObject>> = {
  RolesPolicyId: string('^([0-9a-f]{56})?$'),
  TxStatus: { enum: ['unsigned', 'submitted', 'confirmed'] },
  BlockHeader: record({ slotNo: { type: 'integer' }, blockNo: { type: 'integer' }, blockHeaderHash: string(TX_ID) }),
  ResourceAssets: record({
    lovelace: { type: 'integer' },
    tokens: { type: 'object', additionalProperties: { type: 'object', additionalProperties: { type: 'integer' } } }
  }),
  TxEnvelope: record({ type: string(), description: string(), cborHex: string('^([0-9a-f]{2})+$') }),
  MarloweContract: { type: ['string', 'object'] },
  MarloweState: { type: 'object' },
  Payout: record({ payoutId: ref('TxOutRef'), role: string(), assets: ref('ResourceAssets') }),
  SafetyError: { type: 'object', required: ['error'], properties: { error: string() } },

  ContractHeader: record(HEADER_FIELDS),
  ContractState: record({
    ...HEADER_FIELDS,
    initialContract: ref('MarloweContract'),
    initialState: ref('MarloweState'),
    currentContract: nullable(ref('MarloweContract')),
    state: nullable(ref('MarloweState')),
    utxo: nullable(ref('TxOutRef')),
    assets: ref('ResourceAssets'),
    txBody: nullable(ref('TxEnvelope')),
    unclaimedPayouts: array(ref('Payout'))
  }),
  TxHeader: record({
    ...TX_FIELDS,
    utxo: nullable(ref('TxOutRef'))
  }),
  Tx: record({
    ...TX_FIELDS,
    inputUtxo: ref('TxOutRef'),
    inputContract: ref('MarloweContract'),
    inputState: ref('MarloweState'),
    inputs: array({ type: ['string', 'object'] }),
    outputUtxo: nullable(ref('TxOutRef')),
    outputContract: nullable(ref('MarloweContract')),
    outputState: nullable(ref('MarloweState')),
    assets: ref('ResourceAssets'),
    payouts: array(ref('Payout')),
    consumingTx: nullable(ref('TxId')),
    invalidBefore: nullable(string()),
    invalidHereafter: nullable(string()),
    reconstructedSemanticInput: record({
      tx_interval: record({ from: { type: 'integer' }, to: { type: 'integer' } }),
      tx_inputs: array({ type: ['string', 'object'] })
    }),
    reconstructedSemanticOutput: nullable({ type: 'object' }),
    txBody: nullable(ref('TxEnvelope'))
  }),
  Next: record({
    applicable_inputs: {
      type: 'object',
      required: ['choices', 'deposits'],
      properties: {
        choices: array({ type: 'object' }),
        deposits: array({ type: 'object' }),
        notify: { type: 'object' }
      },
      additionalProperties: false
    },
    can_reduce: { type: 'boolean' }
  }),
  PayoutHeader: record(PAYOUT_HEADER_FIELDS),
  PayoutState: record({ ...PAYOUT_HEADER_FIELDS, payoutValidatorAddress: string(), assets: ref('ResourceAssets') }),
  WithdrawalHeader: record(WITHDRAWAL_HEADER_FIELDS),
  Withdrawal: record({ payouts: array(ref('PayoutHeader')), ...WITHDRAWAL_HEADER_FIELDS }),

  ContractPage: page('ContractHeader'),
  TxPage: page('TxHeader'),
  WithdrawalPage: page('WithdrawalHeader'),
  PayoutPage: page('PayoutHeader'),
  LinkedContractState: linked('ContractState'),
  LinkedTx: linked('Tx'),
  LinkedPayoutState: linked('PayoutState'),

  CreateContractResponse: linked('CreateContractTx'),
  CreateContractTx: built({ contractId: ref('TxOutRef'), safetyErrors: array(ref('SafetyError')) }, true),
  ApplyInputsResponse: linked('ApplyInputsTx'),
  ApplyInputsTx: built(
    { contractId: ref('TxOutRef'), transactionId: ref('TxId'), safetyErrors: array(ref('SafetyError')) },
    false
  ),
  WithdrawResponse: linked('WithdrawTx'),
  WithdrawTx: built({ withdrawalId: ref('TxId') }, false),
  BurnTx: built({ txId: ref('TxId') }, false),

  ContractSourceIds: record({
    contractSourceId: string(TX_ID),
    intermediateIds: { type: 'object', additionalProperties: string(TX_ID) }
  }),
  ContractSourceIdList: record({ results: array(string(TX_ID)) })
}
