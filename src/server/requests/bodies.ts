/**
 * Request bodies (already parsed losslessly) → the engine's requests. First the JSON shape, as Runtime's
 * aeson instances check it (`RequestBodyParseError`); then the values, in the order and with the messages of
 * Runtime's DTO conversion (`BadRequest`).
 */
import { z } from 'zod'
import type { TxOutRef } from '../../chain/provider'
import { utf8Length } from '../../core/bytes'
import type { JsonValue } from '../../core/json/lossless'
import { metadatumFromJson } from '../../engine/build'
import { formatRef } from '../../core/cardano/refs'
import type { ApplyRequest, CreateRequest, WithdrawRequest } from '../../engine/build'
import { EngineError } from '../../engine/errors'
import { toInitialAccounts } from './accounts'
import type { NetworkId } from './addresses'
import { bodyParseError, engineErrorsOnly, invalid, relabel } from './errors'
import { TX_ID } from './ids'
import { childPath, parseWith } from './problems'
import { toRolesConfig } from './roles'
import {
  objectBundle,
  postContractsRequest,
  postTransactionsRequest,
  postWithdrawalsRequest,
  textEnvelope
} from './schemas'

/** The contract itself, or the id of a contract source in the store (a merkleized create). */
export type CreateContractBody = Omit<CreateRequest, 'stakeAddress' | 'continuations' | 'contract'> &
  ({ readonly contract: CreateRequest['contract'] } | { readonly sourceId: string })
export type ApplyInputsBody = Omit<ApplyRequest, 'contractId' | 'marloweUtxo' | 'datum'>

export interface TextEnvelopeBody {
  readonly type: string
  readonly description: string
  /** Lowercase hex. */
  readonly cborHex: string
}

export interface BodyOptions {
  /** When given, addresses in `roles` and `accounts` must be for this network (else the builder checks). */
  readonly networkId?: NetworkId
}

function shape<S extends z.ZodType>(schema: S, body: JsonValue): z.output<S> {
  const parsed = parseWith(schema, body)
  if (!parsed.ok) throw bodyParseError(parsed.problem)
  return parsed.value
}

function checkVersion(version: string): void {
  if (version !== 'v1') {
    throw invalid(
      'Unsupported Marlowe version',
      '$.version',
      `${JSON.stringify(version)} is not supported; the only version is "v1"`
    )
  }
}

/** Runs a builder conversion as the check, so the service refuses exactly what the builder would. */
function checkWith(runtimeMessage: string, convert: () => void): void {
  try {
    convert()
  } catch (e) {
    if (e instanceof EngineError) throw relabel(runtimeMessage, e)
    throw e
  }
}

function checkMetadata(metadata: Readonly<Record<string, JsonValue>>): void {
  checkWith('Invalid metadata value', () => {
    for (const [label, value] of Object.entries(metadata)) metadatumFromJson(value, childPath('$.metadata', label))
  })
}

function checkTags(tags: Readonly<Record<string, JsonValue>>): void {
  for (const [tag, payload] of Object.entries(tags)) {
    const where = childPath('$.tags', tag)
    if (utf8Length(tag) < 0) throw invalid('Invalid tags value', where, 'the tag is not valid Unicode text')
    if (payload !== null) checkWith('Invalid tags value', () => metadatumFromJson(payload, where))
  }
}

/** POST /contracts: a contract, or a contract source id (64 hex digits) that the service looks up in its store. */
export function decodeCreateContractBody(body: JsonValue, options: BodyOptions = {}): CreateContractBody {
  return engineErrorsOnly(() => {
    const dto = shape(postContractsRequest, body)
    checkVersion(dto.version)
    const roles = dto.roles === undefined ? undefined : toRolesConfig(dto.roles, '$.roles', options.networkId)
    const accounts =
      dto.accounts === undefined ? undefined : toInitialAccounts(dto.accounts, '$.accounts', options.networkId)
    checkMetadata(dto.metadata)
    checkTags(dto.tags)
    return {
      ...dto.contract,
      tags: dto.tags,
      metadata: dto.metadata,
      ...(roles === undefined ? {} : { roles }),
      ...(accounts === undefined ? {} : { accounts }),
      ...(dto.threadTokenName === undefined ? {} : { threadTokenName: dto.threadTokenName }),
      ...(dto.minUTxODeposit === undefined ? {} : { minUTxODeposit: dto.minUTxODeposit })
    }
  })
}

/** POST /contracts/sources: each JSON document of the body is one bundle, checked for shape. */
export function decodeObjectBundles(documents: readonly JsonValue[]): readonly JsonValue[] {
  return engineErrorsOnly(() => {
    for (const document of documents) shape(objectBundle, document)
    return documents
  })
}

/** POST /contracts/{contractId}/transactions; the caller adds the contract id from the path. */
export function decodeApplyInputsBody(body: JsonValue): ApplyInputsBody {
  return engineErrorsOnly(() => {
    const dto = shape(postTransactionsRequest, body)
    checkVersion(dto.version)
    checkMetadata(dto.metadata)
    checkTags(dto.tags)
    return {
      inputs: dto.inputs,
      tags: dto.tags,
      metadata: dto.metadata,
      ...(dto.invalidBefore === undefined ? {} : { invalidBefore: dto.invalidBefore }),
      ...(dto.invalidHereafter === undefined ? {} : { invalidHereafter: dto.invalidHereafter })
    }
  })
}

/** POST /withdrawals: the payouts are a set (duplicates collapse); none is `EmptyPayouts`. */
export function decodeWithdrawBody(body: JsonValue): WithdrawRequest {
  return engineErrorsOnly(() => {
    const dto = shape(postWithdrawalsRequest, body)
    const payouts = new Map<string, TxOutRef>()
    for (const ref of dto.payouts) payouts.set(formatRef(ref), ref)
    if (payouts.size === 0) throw invalid('Invalid payouts', '$.payouts', 'no payouts to withdraw', 'EmptyPayouts')
    return { payouts: [...payouts.values()] }
  })
}

/** PUT bodies: a signed transaction or witness set; which types an endpoint accepts is its own check. */
export function decodeTextEnvelopeBody(body: JsonValue): TextEnvelopeBody {
  return engineErrorsOnly(() => {
    const dto = shape(textEnvelope, body)
    return { type: dto.type, description: dto.description, cborHex: dto.cborHex.toLowerCase() }
  })
}

/** Desk's POST /desk/discards: which unsigned build to give up. */
const discardRequest = z.strictObject(
  {
    txId: z
      .string({ error: 'a transaction id (64 hex digits)' })
      .regex(TX_ID, { error: 'a transaction id (64 hex digits)' })
  },
  { error: 'an object' }
)

export function decodeDiscardBody(body: JsonValue): { readonly txId: string } {
  return engineErrorsOnly(() => ({ txId: shape(discardRequest, body).txId.toLowerCase() }))
}
