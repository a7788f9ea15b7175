/**
 * Runtime's contract-source routes (runtime-api.md §3.10): upload object bundles into the contract store, read a
 * stored contract (expanded or not), its adjacency and its closure. These answers are bare objects, as
 * Runtime's are. An unknown id is a 404 `NotFound` in the API's error shape (Runtime's has an empty body).
 */
import type { FastifyInstance, FastifyReply } from 'fastify'
import { JsonSyntaxError, parseJson, type JsonValue } from '../core/json/lossless'
import { encodeContract } from '../core/marlowe/json'
import { BundleError } from '../core/marlowe/object-bundle'
import type { MarloweService } from '../engine/service'
import { sendJson } from './app'
import { HttpError } from './errors'
import { decodeContractSourceQuery, decodeContractSourcesQuery, decodeObjectBundles } from './requests'

const SOURCE_ID = /^[0-9a-fA-F]{64}$/

/**
 * The body: one JSON document, or several separated by newlines (Runtime streams newline-separated bundles;
 * the published client sends one). A body that is neither is refused with the error of reading it whole.
 */
export function parseDocuments(text: string): JsonValue[] {
  try {
    return [parseJson(text)]
  } catch (whole) {
    if (!(whole instanceof JsonSyntaxError)) throw whole
    const lines = text.split('\n').filter((line) => line.trim() !== '')
    if (lines.length < 2) throw whole
    try {
      return lines.map((line) => parseJson(line))
    } catch {
      throw whole
    }
  }
}

function sourceIdOf(params: unknown): string {
  const id = (params as Record<string, string | undefined>).contractSourceId ?? ''
  if (!SOURCE_ID.test(id)) {
    throw new HttpError(400, 'BadRequest', 'Invalid contract source id: expected 64 hex digits', id)
  }
  return id.toLowerCase()
}

function bundleFailure(e: unknown): unknown {
  if (!(e instanceof BundleError)) return e
  return new HttpError(400, e.kind === 'Malformed' ? 'RequestBodyParseError' : 'BadRequest', e.message, e.details)
}

const notFound = (reply: FastifyReply, id: string): FastifyReply =>
  sendJson(reply, 404, { message: `Contract source ${id} not found`, errorCode: 'NotFound', details: null })

export function registerSourceRoutes(app: FastifyInstance, service: MarloweService): void {
  const sources = service.sources
  void app.register(async (scope) => {
    // Only here may a body hold several JSON documents. The published Runtime client posts its bundle with no
    // content type of its own, so axios labels the JSON text as a form: it is read as JSON all the same (the
    // token and Origin checks, not the content type, are what keep other sites out).
    scope.removeContentTypeParser(['application/json', 'text/json'])
    const types = ['application/json', 'text/json', 'application/x-www-form-urlencoded']
    scope.addContentTypeParser(types, { parseAs: 'string' }, (_req, body, done) => {
      try {
        done(null, parseDocuments(body as string))
      } catch (e) {
        if (e instanceof JsonSyntaxError) {
          done(new HttpError(400, 'RequestBodyParseError', `Error in $: ${e.message}`, 'ObjectBundle'), undefined)
        } else done(e as Error, undefined)
      }
    })

    scope.post('/contracts/sources', async (request, reply) => {
      const { main } = decodeContractSourcesQuery(request.query)
      if (request.body === undefined) {
        throw new HttpError(400, 'RequestBodyParseError', 'Error in $: a JSON body is required', 'ObjectBundle')
      }
      const documents = decodeObjectBundles(request.body as JsonValue[])
      try {
        const imported = await sources.import(main, documents)
        return sendJson(reply, 200, {
          contractSourceId: imported.contractSourceId,
          intermediateIds: Object.fromEntries(imported.intermediateIds)
        })
      } catch (e) {
        throw bundleFailure(e)
      }
    })

    scope.get('/contracts/sources/:contractSourceId', async (request, reply) => {
      const id = sourceIdOf(request.params)
      const { expand } = decodeContractSourceQuery(request.query)
      const contract = await sources.get(id, expand)
      return contract === undefined ? notFound(reply, id) : sendJson(reply, 200, encodeContract(contract))
    })

    scope.get('/contracts/sources/:contractSourceId/adjacency', async (request, reply) => {
      const id = sourceIdOf(request.params)
      const results = await sources.adjacency(id)
      return results === undefined ? notFound(reply, id) : sendJson(reply, 200, { results: [...results] })
    })

    scope.get('/contracts/sources/:contractSourceId/closure', async (request, reply) => {
      const id = sourceIdOf(request.params)
      const results = await sources.closure(id)
      return results === undefined ? notFound(reply, id) : sendJson(reply, 200, { results: [...results] })
    })
  })
}
