/**
 * Every route of Runtime's REST API this service serves (runtime-api.md §2, role-token burning included; contract
 * sources are ./source-routes): decode with ./requests, call the service, answer in Runtime's resource JSON.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { stringifyJson, type JsonObject, type JsonValue } from '../core/json/lossless'
import { formatRef } from '../core/cardano/refs'
import type { MarloweService, PageRequest, UnsignedTx } from '../engine/service'
import { sendJson, sendJsonText } from './app'
import { ResponseCache } from './response-cache'
import {
  contractHeaderJson,
  contractStateJson,
  nextJson,
  payoutHeaderJson,
  payoutStateJson,
  txBodyEnvelope,
  txEnvelope,
  txHeaderJson,
  txJson,
  withdrawalHeaderJson,
  withdrawalJson
} from './runtime-json'
import { HttpError } from './errors'
import { buildVariant, jsonOnly, VENDOR_TYPES } from './negotiation'
import { openApiDocument } from './openapi'
import {
  decodeApplyInputsBody,
  decodeContractId,
  decodeContractsQuery,
  decodeCreateContractBody,
  decodeNextQuery,
  decodePayoutId,
  decodePayoutsQuery,
  decodeRoleTokenFilter,
  decodeTextEnvelopeBody,
  decodeTransactionId,
  decodeTxId,
  decodeWalletHeaders,
  decodeWithdrawalId,
  decodeWithdrawalsQuery,
  decodeWithdrawBody,
  pageHeaders,
  parseRangeHeader,
  type PageRange,
  type RangeField,
  type TextEnvelopeBody
} from './requests'
import { contractLinks, links, payoutLinks, txLinks, withdrawalListLinks } from './resources'
import { registerSourceRoutes } from './source-routes'
import { alreadySubmitted, submitByPath, type SubmitTarget } from './submits'

type Params = Record<string, string>

const params = (request: FastifyRequest): Params => request.params as Params
const body = (request: FastifyRequest): JsonValue => {
  if (request.body === undefined) {
    throw new HttpError(400, 'RequestBodyParseError', 'Error in $: a JSON body is required', 'JSON')
  }
  return request.body as JsonValue
}
const header = (request: FastifyRequest, name: string): string | undefined => {
  const v = request.headers[name]
  return Array.isArray(v) ? v.join(',') : v
}

/** The unsigned tx under the key Runtime's chosen alternative uses (the create response always has `tx`). */
function unsignedJson(unsigned: UnsignedTx, variant: 'json' | 'vendor', alwaysTx = false): JsonObject {
  if (variant === 'vendor') return { tx: txEnvelope(unsigned) }
  return alwaysTx
    ? { txBody: txBodyEnvelope(unsigned), tx: txEnvelope(unsigned) }
    : { txBody: txBodyEnvelope(unsigned) }
}

/**
 * A PUT as Runtime answers it: 202 once the node took the transaction; a transaction the node already had (the
 * wallet sent it, or an earlier PUT's answer was lost) is recorded as submitted and answered with Runtime's 409.
 */
async function runtimeSubmit(service: MarloweService, target: SubmitTarget, envelope: TextEnvelopeBody): Promise<void> {
  if ((await submitByPath(service, target, envelope)) === 'alreadyOnChain') throw alreadySubmitted(target.kind)
}

/** The store's page for a Range (pages are the store's, so the cost is the page's, not the list's). */
function storePage<F extends RangeField>(range: PageRange<F>): PageRequest {
  const start = range.value
  return {
    ...(start === undefined ? {} : { start: typeof start === 'string' ? start : formatRef(start) }),
    order: range.order,
    offset: range.offset,
    limit: range.limit
  }
}

function setPageHeaders(reply: FastifyReply, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) reply.header(name, value)
}

/** `party[<i>][role_token]=<name>` or `party[<i>][address]=<bech32>`: a party as qs writes a Marlowe `Party` object. */
const INDEXED_PARTY = /^party\[(\d+)\]\[(?:role_token|address)\]$/

/**
 * The query of GET /contracts/{id}/next with the published ts-sdk client's party filter folded into `party`.
 * That client (runtime-rest-client 0.4.0-beta) sends its `Party` objects through qs with indices, which
 * Runtime ignores as unknown parameters, so the filter silently does nothing there. Each such value is
 * what Runtime's own `party=` takes (a role name or a bech32 address), so both forms are read, as one set.
 */
function withIndexedParties(query: unknown): unknown {
  if (typeof query !== 'object' || query === null) return query
  const indexed: [number, string][] = []
  const rest: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(query)) {
    const m = INDEXED_PARTY.exec(key)
    if (m === null) rest[key] = value
    else for (const v of Array.isArray(value) ? value : [value]) indexed.push([Number(m[1]), String(v)])
  }
  if (indexed.length === 0) return query
  const given: unknown = rest.party
  const party = given === undefined ? [] : Array.isArray(given) ? given : [given]
  indexed.sort((a, b) => a[0] - b[0])
  return { ...rest, party: [...party, ...indexed.map(([, v]) => v)] }
}

const refValue = (key: string) => decodeContractId(key)

export function registerRoutes(app: FastifyInstance, service: MarloweService): void {
  const cache = new ResponseCache()
  const networkId = service.provider.networkId
  const contractIdOf = (request: FastifyRequest): string =>
    formatRef(decodeContractId(params(request).contractId ?? ''))

  app.get('/healthcheck', async (_request, reply) => reply.code(200).send())

  app.get('/openapi.json', { preHandler: jsonOnly }, async (_request, reply) => sendJson(reply, 200, openApiDocument()))

  app.get('/contracts', { preHandler: jsonOnly }, async (request, reply) => {
    const q = decodeContractsQuery(request.query)
    const range = parseRangeHeader(header(request, 'range'), 'contractId')
    // Paged by the store: the cost is the page's, however many contracts the chain holds.
    const page = await service.pageContracts(
      {
        roleCurrencies: q.roleCurrencies,
        tags: q.tags,
        partyAddresses: q.partyAddresses,
        partyRoles: q.partyRoles.map((r) => ({ policyId: r.policyId, role: r.assetName }))
      },
      storePage(range)
    )
    if (page === undefined) throw new HttpError(416, 'RangeNotSatisfiable', 'Initial contract ID not found')
    // The range is the store's page, rows that do not read back included, so paging goes on past them.
    setPageHeaders(reply, pageHeaders(range, { values: page.ids.map(refValue), totalCount: page.total }))
    return sendJson(reply, 206, {
      results: page.headers.map((c) => ({ resource: contractHeaderJson(c), links: contractLinks(c) }))
    })
  })

  app.post('/contracts', async (request, reply) => {
    const variant = buildVariant(header(request, 'accept'), VENDOR_TYPES.create)
    const { wallet, stakeAddress } = decodeWalletHeaders(request.headers, { networkId, stakeAddress: true })
    const decoded = decodeCreateContractBody(body(request), { networkId })
    const result = await service.createContract(wallet, {
      ...decoded,
      tags: decoded.tags ?? {},
      metadata: decoded.metadata ?? {},
      ...(stakeAddress === undefined ? {} : { stakeAddress })
    } as Parameters<MarloweService['createContract']>[1])
    return sendJson(reply, 201, {
      resource: {
        contractId: result.contractId,
        ...unsignedJson(result.unsigned, variant, true),
        safetyErrors: [...result.safetyErrors]
      },
      links: { contract: links.contract(result.contractId) }
    })
  })

  app.get('/contracts/:contractId', { preHandler: jsonOnly }, async (request, reply) => {
    const contractId = contractIdOf(request)
    const body = await cache.get(`contract ${contractId}`, service.stateVersion, async () => {
      const view = await service.getContract(contractId)
      const l: JsonObject = view.status === 'confirmed' ? { transactions: links.transactions(view.contractId) } : {}
      return stringifyJson({ resource: contractStateJson(view), links: l })
    })
    return sendJsonText(reply, 200, body)
  })

  app.put('/contracts/:contractId', async (request, reply) => {
    const contractId = contractIdOf(request)
    await runtimeSubmit(service, { kind: 'create', contractId }, decodeTextEnvelopeBody(body(request)))
    return reply.code(202).send()
  })

  app.get('/contracts/:contractId/next', { preHandler: jsonOnly }, async (request, reply) => {
    const contractId = contractIdOf(request)
    const q = decodeNextQuery(withIndexedParties(request.query))
    const steps = await service.next(contractId, {
      interval: { from: q.validityStart, to: q.validityEnd },
      parties: q.parties
    })
    return sendJson(reply, 200, nextJson(steps))
  })

  app.get('/contracts/:contractId/transactions', { preHandler: jsonOnly }, async (request, reply) => {
    const contractId = contractIdOf(request)
    const range = parseRangeHeader(header(request, 'range'), 'transactionId')
    // Paged by the store: the cost is the page's, however long the contract's history.
    const page = await service.pageTransactions(contractId, storePage(range))
    if (page === undefined) throw new HttpError(416, 'RangeNotSatisfiable', 'Starting transaction not found')
    setPageHeaders(reply, pageHeaders(range, { values: page.ids, totalCount: page.total }))
    return sendJson(reply, 206, {
      results: page.headers.map((t) => ({
        resource: txHeaderJson(t),
        links: { transaction: links.transaction(t.contractId, t.transactionId) }
      }))
    })
  })

  app.post('/contracts/:contractId/transactions', async (request, reply) => {
    const contractId = contractIdOf(request)
    const variant = buildVariant(header(request, 'accept'), VENDOR_TYPES.apply)
    const { wallet } = decodeWalletHeaders(request.headers, { networkId })
    const decoded = decodeApplyInputsBody(body(request))
    const result = await service.applyInputs(contractId, wallet, {
      ...decoded,
      tags: decoded.tags ?? {},
      metadata: decoded.metadata ?? {}
    } as Parameters<MarloweService['applyInputs']>[2])
    return sendJson(reply, 201, {
      resource: {
        contractId: result.contractId,
        transactionId: result.transactionId,
        ...unsignedJson(result.unsigned, variant),
        safetyErrors: [...result.safetyErrors]
      },
      links: { transaction: links.transaction(result.contractId, result.transactionId) }
    })
  })

  app.get('/contracts/:contractId/transactions/:transactionId', { preHandler: jsonOnly }, async (request, reply) => {
    const contractId = contractIdOf(request)
    const transactionId = decodeTransactionId(params(request).transactionId ?? '')
    const body = await cache.get(`tx ${contractId} ${transactionId}`, service.stateVersion, async () => {
      const view = await service.getTransaction(contractId, transactionId)
      return stringifyJson({ resource: txJson(view), links: txLinks(view) })
    })
    return sendJsonText(reply, 200, body)
  })

  app.put('/contracts/:contractId/transactions/:transactionId', async (request, reply) => {
    const contractId = contractIdOf(request)
    const transactionId = decodeTransactionId(params(request).transactionId ?? '')
    await runtimeSubmit(service, { kind: 'apply', contractId, transactionId }, decodeTextEnvelopeBody(body(request)))
    return reply.code(202).send()
  })

  app.get('/withdrawals', { preHandler: jsonOnly }, async (request, reply) => {
    const q = decodeWithdrawalsQuery(request.query)
    const range = parseRangeHeader(header(request, 'range'), 'withdrawalId')
    const page = await service.pageWithdrawals(q.roleCurrencies, storePage(range))
    if (page === undefined) throw new HttpError(416, 'RangeNotSatisfiable', 'Initial withdrawal ID not found')
    setPageHeaders(reply, pageHeaders(range, { values: page.ids, totalCount: page.total }))
    return sendJson(reply, 206, {
      results: page.views.map((w) => ({ resource: withdrawalHeaderJson(w), links: withdrawalListLinks(w) }))
    })
  })

  app.post('/withdrawals', async (request, reply) => {
    const variant = buildVariant(header(request, 'accept'), VENDOR_TYPES.withdraw)
    const { wallet } = decodeWalletHeaders(request.headers, { networkId })
    const result = await service.withdraw(wallet, decodeWithdrawBody(body(request)))
    return sendJson(reply, 201, {
      resource: { withdrawalId: result.withdrawalId, ...unsignedJson(result.unsigned, variant) },
      links: { withdrawal: links.withdrawal(result.withdrawalId) }
    })
  })

  app.get('/withdrawals/:withdrawalId', { preHandler: jsonOnly }, async (request, reply) => {
    const view = await service.getWithdrawal(decodeWithdrawalId(params(request).withdrawalId ?? ''))
    return sendJson(reply, 200, withdrawalJson(view))
  })

  app.put('/withdrawals/:withdrawalId', async (request, reply) => {
    const withdrawalId = decodeWithdrawalId(params(request).withdrawalId ?? '')
    await runtimeSubmit(service, { kind: 'withdraw', withdrawalId }, decodeTextEnvelopeBody(body(request)))
    return reply.code(202).send()
  })

  // Runtime answers a burn build with a bare {txId, txBody|tx}, and an unknown burn's PUT with 400 (§3.13).
  app.post('/role-tokens/burnTxs', async (request, reply) => {
    const variant = buildVariant(header(request, 'accept'), VENDOR_TYPES.burn)
    const { wallet } = decodeWalletHeaders(request.headers, { networkId })
    const result = await service.burnRoleTokens(wallet, decodeRoleTokenFilter(body(request)))
    return sendJson(reply, 201, { txId: result.txId, ...unsignedJson(result.unsigned, variant) })
  })

  app.put('/role-tokens/burnTxs/:txId', async (request, reply) => {
    const txId = decodeTxId(params(request).txId ?? '')
    await runtimeSubmit(service, { kind: 'burn', txId }, decodeTextEnvelopeBody(body(request)))
    return reply.code(202).send()
  })

  app.get('/payouts', { preHandler: jsonOnly }, async (request, reply) => {
    const q = decodePayoutsQuery(request.query)
    const range = parseRangeHeader(header(request, 'range'), 'payoutId')
    const page = await service.pagePayouts(
      {
        contractIds: q.contractIds.map(formatRef),
        roleTokens: q.roleTokens.map((r) => ({ policyId: r.policyId, role: r.assetName })),
        ...(q.status === undefined ? {} : { status: q.status })
      },
      storePage(range)
    )
    if (page === undefined) throw new HttpError(416, 'RangeNotSatisfiable', 'Initial payout ID not found')
    setPageHeaders(reply, pageHeaders(range, { values: page.ids.map(refValue), totalCount: page.total }))
    return sendJson(reply, 206, {
      results: page.views.map((p) => ({ resource: payoutHeaderJson(p), links: { payout: links.payout(p.payoutId) } }))
    })
  })

  app.get('/payouts/:payoutId', { preHandler: jsonOnly }, async (request, reply) => {
    const view = await service.getPayout(formatRef(decodePayoutId(params(request).payoutId ?? '')))
    return sendJson(reply, 200, { resource: payoutStateJson(view), links: payoutLinks(view) })
  })

  registerSourceRoutes(app, service)
}
