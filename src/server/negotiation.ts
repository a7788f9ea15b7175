/**
 * Runtime's two alternatives per build endpoint (runtime-api.md §4): `application/json`, `*` or no Accept
 * get the JSON variant; the endpoint's vendor media type gets the variant with the unsigned `tx`; anything
 * else is a 406.
 */
import { HttpError } from './errors'

export type BuildVariant = 'json' | 'vendor'

export const VENDOR_TYPES = {
  create: 'application/vendor.iog.marlowe-runtime.contract-tx-json',
  apply: 'application/vendor.iog.marlowe-runtime.apply-inputs-tx-json',
  withdraw: 'application/vendor.iog.marlowe-runtime.withdraw-tx-json'
} as const

export function buildVariant(accept: string | undefined, vendorType: string): BuildVariant {
  if (accept === undefined || accept.trim() === '') return 'json'
  const types = accept.split(',').map((part) => part.split(';')[0]!.trim().toLowerCase())
  if (types.includes(vendorType)) return 'vendor'
  if (types.some((t) => t === 'application/json' || t === '*/*' || t === 'application/*')) return 'json'
  throw new HttpError(
    406,
    'NotAcceptable',
    `Accept ${JSON.stringify(accept)}: this endpoint answers application/json or ${vendorType}`
  )
}
