/**
 * Runtime's two alternatives per build endpoint (runtime-api.md §4): `application/json`, `*` or no Accept
 * get the JSON variant; the endpoint's vendor media type gets the variant with the unsigned `tx`; anything
 * else is a 406. Its GETs offer JSON alone, so Servant answers any other Accept with a 406 there too.
 */
import type { FastifyRequest } from 'fastify'
import { HttpError } from './errors'

export type BuildVariant = 'json' | 'vendor'

export const VENDOR_TYPES = {
  create: 'application/vendor.iog.marlowe-runtime.contract-tx-json',
  apply: 'application/vendor.iog.marlowe-runtime.apply-inputs-tx-json',
  withdraw: 'application/vendor.iog.marlowe-runtime.withdraw-tx-json',
  burn: 'application/vendor.iog.marlowe-runtime.burn-role-tokens-tx-json'
} as const

/** The media types an Accept header takes; undefined when it takes anything (absent or empty). */
function acceptedTypes(accept: string | undefined): string[] | undefined {
  if (accept === undefined || accept.trim() === '') return undefined
  // A media range with q=0 is one the client refuses (RFC 9110 §12.5.1).
  return accept
    .split(',')
    .map((part) => part.split(';').map((p) => p.trim().toLowerCase()))
    .filter((params) => !params.slice(1).some((p) => /^q\s*=\s*0(?:\.0{0,3})?$/.test(p)))
    .map((params) => params[0]!)
}

const takesJson = (types: readonly string[]): boolean =>
  types.some((t) => t === 'application/json' || t === '*/*' || t === 'application/*')

/** A GET's preHandler: an Accept that takes no JSON is Servant's 406. */
export async function jsonOnly(request: FastifyRequest): Promise<void> {
  const given = request.headers.accept
  const accept = Array.isArray(given) ? given.join(',') : given
  const types = acceptedTypes(accept)
  if (types === undefined || takesJson(types)) return
  throw new HttpError(406, 'NotAcceptable', `Accept ${JSON.stringify(accept)}: this endpoint answers application/json`)
}

export function buildVariant(accept: string | undefined, vendorType: string): BuildVariant {
  const types = acceptedTypes(accept)
  if (types === undefined) return 'json'
  if (types.includes(vendorType)) return 'vendor'
  if (takesJson(types)) return 'json'
  throw new HttpError(
    406,
    'NotAcceptable',
    `Accept ${JSON.stringify(accept)}: this endpoint answers application/json or ${vendorType}`
  )
}
