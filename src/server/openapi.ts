/**
 * `GET /openapi.json`: the API as OpenAPI 3.1. Request bodies, headers and query parameters come from the
 * schemas the routes validate with (./requests); responses by the resource JSON the routes send (./responses).
 */
import type { JsonObject, JsonValue } from '../core/json/lossless'
import { toJsonValue } from '../core/json/plain'
import { VENDOR_TYPES } from './negotiation'
import { requestParameters, requestSchemas, type ParameterComponent } from './requests'
import { RESPONSE_SCHEMAS } from './responses'
import { RUNTIME_VERSION } from './status-headers'

interface Operation {
  readonly method: 'get' | 'post' | 'put'
  readonly path: string
  readonly operationId: string
  readonly summary: string
  readonly pathParams?: readonly string[]
  readonly parameters?: readonly ParameterComponent[]
  readonly range?: string
  readonly body?: string
  readonly success: number
  /** The success body's component (./responses); none for an empty body. */
  readonly response?: string
  readonly vendorType?: string
  readonly errors: readonly number[]
}

const OPERATIONS: readonly Operation[] = [
  {
    method: 'get',
    path: '/healthcheck',
    operationId: 'healthcheck',
    summary: 'Liveness; status in the headers',
    success: 200,
    errors: []
  },
  {
    method: 'get',
    path: '/contracts',
    operationId: 'getContracts',
    summary: 'Confirmed contracts, newest first',
    parameters: ['GetContractsQuery'],
    range: 'contractId',
    success: 206,
    response: 'ContractPage',
    errors: [400, 416]
  },
  {
    method: 'post',
    path: '/contracts',
    operationId: 'createContract',
    summary: 'Build the transaction that opens a contract',
    parameters: ['CreateContractHeaders'],
    body: 'PostContractsRequest',
    success: 201,
    response: 'CreateContractResponse',
    vendorType: VENDOR_TYPES.create,
    errors: [400, 404, 406, 413, 503]
  },
  {
    method: 'get',
    path: '/contracts/{contractId}',
    operationId: 'getContractById',
    summary: 'A contract and its state',
    pathParams: ['contractId'],
    success: 200,
    response: 'LinkedContractState',
    errors: [400, 404]
  },
  {
    method: 'put',
    path: '/contracts/{contractId}',
    operationId: 'submitContract',
    summary: 'Submit the signed creation transaction',
    pathParams: ['contractId'],
    body: 'TextEnvelope',
    success: 202,
    errors: [400, 403, 404, 409, 503]
  },
  {
    method: 'get',
    path: '/contracts/{contractId}/next',
    operationId: 'getNextStepsForContract',
    summary: 'The inputs the contract accepts in an interval',
    pathParams: ['contractId'],
    parameters: ['GetNextQuery'],
    success: 200,
    response: 'Next',
    errors: [400, 404]
  },
  {
    method: 'get',
    path: '/contracts/{contractId}/transactions',
    operationId: 'getTransactionsForContract',
    summary: 'Confirmed input applications, newest first',
    pathParams: ['contractId'],
    range: 'transactionId',
    success: 206,
    response: 'TxPage',
    errors: [400, 404, 416]
  },
  {
    method: 'post',
    path: '/contracts/{contractId}/transactions',
    operationId: 'applyInputsToContract',
    summary: 'Build an input application',
    pathParams: ['contractId'],
    parameters: ['WalletHeaders'],
    body: 'PostTransactionsRequest',
    success: 201,
    response: 'ApplyInputsResponse',
    vendorType: VENDOR_TYPES.apply,
    errors: [400, 404, 406, 413, 503]
  },
  {
    method: 'get',
    path: '/contracts/{contractId}/transactions/{transactionId}',
    operationId: 'getContractTransactionById',
    summary: 'An input application',
    pathParams: ['contractId', 'transactionId'],
    success: 200,
    response: 'LinkedTx',
    errors: [400, 404]
  },
  {
    method: 'put',
    path: '/contracts/{contractId}/transactions/{transactionId}',
    operationId: 'submitContractTransaction',
    summary: 'Submit a signed input application',
    pathParams: ['contractId', 'transactionId'],
    body: 'TextEnvelope',
    success: 202,
    errors: [400, 403, 404, 409, 503]
  },
  {
    method: 'post',
    path: '/contracts/sources',
    operationId: 'createContractSources',
    summary: 'Upload a Marlowe object bundle into the contract store (merkleized)',
    parameters: ['PostContractSourcesQuery'],
    body: 'ObjectBundle',
    success: 200,
    response: 'ContractSourceIds',
    errors: [400, 413]
  },
  {
    method: 'get',
    path: '/contracts/sources/{contractSourceId}',
    operationId: 'getContractSourceById',
    summary: 'A contract from the contract store',
    pathParams: ['contractSourceId'],
    parameters: ['GetContractSourceQuery'],
    success: 200,
    response: 'MarloweContract',
    errors: [400, 404]
  },
  {
    method: 'get',
    path: '/contracts/sources/{contractSourceId}/adjacency',
    operationId: 'getContractSourceAdjacency',
    summary: 'The ids of the continuations a stored contract names',
    pathParams: ['contractSourceId'],
    success: 200,
    response: 'ContractSourceIdList',
    errors: [400, 404]
  },
  {
    method: 'get',
    path: '/contracts/sources/{contractSourceId}/closure',
    operationId: 'getContractSourceClosure',
    summary: 'The ids of a stored contract and every continuation it reaches',
    pathParams: ['contractSourceId'],
    success: 200,
    response: 'ContractSourceIdList',
    errors: [400, 404]
  },
  {
    method: 'get',
    path: '/withdrawals',
    operationId: 'getWithdrawals',
    summary: 'Confirmed withdrawals, newest first',
    parameters: ['GetWithdrawalsQuery'],
    range: 'withdrawalId',
    success: 206,
    response: 'WithdrawalPage',
    errors: [400, 416]
  },
  {
    method: 'post',
    path: '/withdrawals',
    operationId: 'withdrawPayouts',
    summary: 'Build a payout withdrawal',
    parameters: ['WalletHeaders'],
    body: 'PostWithdrawalsRequest',
    success: 201,
    response: 'WithdrawResponse',
    vendorType: VENDOR_TYPES.withdraw,
    errors: [400, 406, 413, 503]
  },
  {
    method: 'get',
    path: '/withdrawals/{withdrawalId}',
    operationId: 'getWithdrawalById',
    summary: 'A withdrawal',
    pathParams: ['withdrawalId'],
    success: 200,
    response: 'Withdrawal',
    errors: [400, 404]
  },
  {
    method: 'put',
    path: '/withdrawals/{withdrawalId}',
    operationId: 'submitWithdrawal',
    summary: 'Submit a signed withdrawal',
    pathParams: ['withdrawalId'],
    body: 'TextEnvelope',
    success: 202,
    errors: [400, 403, 404, 409, 503]
  },
  {
    method: 'post',
    path: '/role-tokens/burnTxs',
    operationId: 'burnRoleTokens',
    summary: 'Build a transaction that burns role tokens of closed contracts; the answer is a bare {txId, txBody|tx}',
    parameters: ['WalletHeaders'],
    body: 'RoleTokenFilter',
    success: 201,
    response: 'BurnTx',
    vendorType: VENDOR_TYPES.burn,
    errors: [400, 406, 413, 503]
  },
  {
    method: 'put',
    path: '/role-tokens/burnTxs/{txId}',
    operationId: 'submitBurnRoleTokensTx',
    summary: 'Submit a signed role-token burn (an unknown id is a 400, as in Runtime)',
    pathParams: ['txId'],
    body: 'TextEnvelope',
    success: 202,
    errors: [400, 403, 409, 503]
  },
  {
    method: 'get',
    path: '/payouts',
    operationId: 'getPayouts',
    summary: 'Payouts, newest first',
    parameters: ['GetPayoutsQuery'],
    range: 'payoutId',
    success: 206,
    response: 'PayoutPage',
    errors: [400, 416]
  },
  {
    method: 'get',
    path: '/payouts/{payoutId}',
    operationId: 'getPayoutById',
    summary: 'A payout',
    pathParams: ['payoutId'],
    success: 200,
    response: 'LinkedPayoutState',
    errors: [400, 404]
  }
]

const PATH_PARAMS: Readonly<Record<string, JsonObject>> = {
  contractId: { type: 'string', pattern: '^[a-fA-F0-9]{64}%23[0-9]+$', description: 'txid#ix with "#" URL-encoded' },
  payoutId: { type: 'string', pattern: '^[a-fA-F0-9]{64}%23[0-9]+$', description: 'txid#ix with "#" URL-encoded' },
  transactionId: { type: 'string', pattern: '^[a-fA-F0-9]{64}$' },
  contractSourceId: { type: 'string', pattern: '^[a-fA-F0-9]{64}$', description: 'A merkle hash' },
  withdrawalId: { type: 'string', pattern: '^[a-fA-F0-9]{64}$' },
  txId: { type: 'string', pattern: '^[a-fA-F0-9]{64}$' }
}

const ERROR_RESPONSE: JsonObject = {
  description: 'An error',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } }
}

const API_ERROR: JsonObject = {
  type: 'object',
  required: ['message', 'errorCode', 'details'],
  properties: { message: { type: 'string' }, errorCode: { type: 'string' }, details: {} }
}

function operationJson(op: Operation, schemas: Readonly<Record<string, JsonValue>>): JsonObject {
  const parameters: JsonValue[] = (op.pathParams ?? []).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: PATH_PARAMS[name] ?? { type: 'string' }
  }))
  for (const component of op.parameters ?? []) {
    parameters.push(...requestParameters(component, requestSchemas()).map((p) => toJsonValue(p)))
  }
  if (op.range !== undefined) {
    parameters.push({
      name: 'Range',
      in: 'header',
      required: false,
      schema: { type: 'string' },
      description: `${op.range} [<value>][;limit <n>][;offset <n>][;order asc|desc]`
    })
  }
  const success: JsonObject = { description: op.summary }
  if (op.response !== undefined) {
    const schema = { $ref: `#/components/schemas/${op.response}` }
    success.content = {
      'application/json': { schema },
      ...(op.vendorType === undefined ? {} : { [op.vendorType]: { schema } })
    }
  }
  const responses: JsonObject = { [String(op.success)]: success }
  for (const status of op.errors) responses[String(status)] = ERROR_RESPONSE
  const out: JsonObject = { operationId: op.operationId, summary: op.summary, parameters, responses }
  if (op.body !== undefined && Object.hasOwn(schemas, op.body)) {
    out.requestBody = {
      required: true,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${op.body}` } } }
    }
  }
  return out
}

let cached: JsonObject | undefined

export function openApiDocument(): JsonObject {
  if (cached !== undefined) return cached
  const schemas = toJsonValue(requestSchemas()) as JsonObject
  const paths: JsonObject = {}
  for (const op of OPERATIONS) {
    const item = (paths[op.path] ??= {}) as JsonObject
    item[op.method] = operationJson(op, schemas)
  }
  cached = {
    openapi: '3.1.0',
    info: {
      title: 'Marlowe Desk build/submit service (Marlowe Runtime REST API)',
      version: RUNTIME_VERSION,
      license: { name: 'Apache-2.0' }
    },
    servers: [{ url: 'http://127.0.0.1:3780' }],
    paths,
    components: {
      schemas: { ...schemas, ...RESPONSE_SCHEMAS, ApiError: API_ERROR },
      securitySchemes: { token: { type: 'http', scheme: 'bearer' } }
    },
    security: [{ token: [] }]
  }
  return cached
}
