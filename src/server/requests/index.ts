/**
 * The HTTP API's request decoding: bodies, wallet headers, path ids, query strings and `Range` → the
 * engine's typed requests, failing only with `EngineError`s that carry Runtime's codes and messages; and the
 * OpenAPI schemas of all of them, generated from the schemas that validate them.
 */
export type { NetworkId } from './addresses'
export {
  decodeApplyInputsBody,
  decodeCreateContractBody,
  decodeDiscardBody,
  decodeObjectBundles,
  decodeTextEnvelopeBody,
  decodeWithdrawBody,
  type ApplyInputsBody,
  type BodyOptions,
  type CreateContractBody,
  type TextEnvelopeBody
} from './bodies'
export { decodeWalletHeaders, type DecodedWalletHeaders, type HeaderInput, type WalletHeaderOptions } from './headers'
export { decodeContractId, decodePayoutId, decodeTransactionId, decodeTxId, decodeWithdrawalId, TX_ID } from './ids'
export { decodeRoleTokenFilter } from './role-token-filter'
export { requestParameters, requestSchemas, type ParameterComponent, type ParameterObject } from './openapi'
export {
  decodeContractSourceQuery,
  decodeContractSourcesQuery,
  decodeContractsQuery,
  decodeNextQuery,
  decodePayoutsQuery,
  decodeWithdrawalsQuery,
  type AssetId,
  type ContractsQuery,
  type NextQuery,
  type PayoutsQuery,
  type PayoutStatus,
  type WithdrawalsQuery
} from './queries'
export {
  DEFAULT_LIMIT,
  pageHeaders,
  parseRangeHeader,
  type Page,
  type PageRange,
  type RangeField,
  type RangeFields,
  type RangeOrder
} from './range'
export { parseIsoTime } from './time'
export type { JsonSchema } from './wire'
