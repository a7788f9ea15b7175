/**
 * Desk's own routes beside Runtime's, for the command line's offline story while `serve` holds the chain (the
 * sandbox admits one process): `POST /desk/bundles` answers the review bundle of a transaction (what an
 * air-gapped review needs), and `POST /desk/submissions` submits a signed transaction — one of our builds as its
 * PUT would, checked against the build, any other as it is — safe to repeat: one the node has is not sent again. Both take a TextEnvelope, as Runtime's PUT does,
 * and the Runtime API token: neither signs anything. `POST /desk/discards` gives up an unsigned build (its inputs
 * are free for other builds, its PUT answers 409 BuildDiscarded): a POST of a discard rather than a DELETE of the
 * build, because the build is not deleted — it is still listed and still answers, as discarded — and because
 * Runtime has no DELETE anywhere that a client of both could confuse it with.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { hexToBytes } from '../core/bytes'
import { stringifyBundle } from '../core/cardano/bundle'
import type { JsonObject, JsonValue } from '../core/json/lossless'
import { reviewBundleOf } from '../engine/desk'
import type { MarloweService, SignedSubmission } from '../engine/service'
import { transactionOfEnvelope, type TransactionFile } from '../engine/sign'
import { sendJson, sendJsonText } from './app'
import { HttpError } from './errors'
import { decodeDiscardBody, decodeTextEnvelopeBody } from './requests'
import { submitTargetOf } from './submits'

export const BUNDLES_PATH = '/desk/bundles'
export const SUBMISSIONS_PATH = '/desk/submissions'
export const DISCARDS_PATH = '/desk/discards'

function bodyOf(request: FastifyRequest): JsonValue {
  if (request.body === undefined) {
    throw new HttpError(400, 'RequestBodyParseError', 'Error in $: a JSON body is required', 'JSON')
  }
  return request.body as JsonValue
}

function transactionOf(request: FastifyRequest): TransactionFile {
  const envelope = decodeTextEnvelopeBody(bodyOf(request))
  // The decoder has checked the hex.
  const cbor = hexToBytes(envelope.cborHex)
  return transactionOfEnvelope({ type: envelope.type, description: envelope.description, cbor })
}

function alreadyJson(already: NonNullable<SignedSubmission['already']>): JsonObject {
  if (already.status !== 'confirmed') return { status: already.status }
  const { slot, blockNo, blockHash } = already.block
  return { status: already.status, block: { slot, blockNo, blockHash } }
}

export function registerTransferRoutes(app: FastifyInstance, service: MarloweService): void {
  app.post(BUNDLES_PATH, async (request, reply) => {
    const { bundle, missing } = await reviewBundleOf(service.provider, transactionOf(request), Date.now())
    reply.header('X-Missing-Outputs', missing.join(','))
    return sendJsonText(reply, 200, stringifyBundle(bundle))
  })

  app.post(SUBMISSIONS_PATH, async (request, reply) => {
    const { txId, build, already } = await service.submitSigned(transactionOf(request))
    // 202: the node took it now; 200: it had it already, and nothing was sent.
    return sendJson(reply, already === undefined ? 202 : 200, {
      txId,
      ...(build === undefined ? {} : { build: { ...submitTargetOf(build) } }),
      ...(already === undefined ? {} : { already: alreadyJson(already) })
    })
  })

  app.post(DISCARDS_PATH, async (request, reply) => {
    const row = await service.discard(decodeDiscardBody(bodyOf(request)).txId)
    // Discarding again changes nothing: the first discard's time is answered.
    return sendJson(reply, 200, {
      txId: row.txId,
      discardedAt: row.discardedAt === undefined ? null : new Date(row.discardedAt).toISOString()
    })
  })
}
