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
  // A media range with q=0 is one the client refuses (RFC 9110 §12.5.1).
  const types = accept
    .split(',')
    .map((part) => part.split(';').map((p) => p.trim().toLowerCase()))
    .filter((params) => !params.slice(1).some((p) => /^q\s*=\s*0(?:\.0{0,3})?$/.test(p)))
    .map((params) => params[0]!)
  if (types.includes(vendorType)) return 'vendor'
  if (types.some((t) => t === 'application/json' || t === '*/*' || t === 'application/*')) return 'json'
  throw new HttpError(
    406,
    'NotAcceptable',
    `Accept ${JSON.stringify(accept)}: this endpoint answers application/json or ${vendorType}`
  )
}
