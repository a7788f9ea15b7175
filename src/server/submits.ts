/**
 * Runtime's PUTs mapped onto the service's one submit: the path names the build as Runtime does (a contract's
 * creation, one of its input applications, a withdrawal, a burn) and the body is a text envelope in hex — the
 * signed transaction or a witness set; the service takes the build's transaction id and the signed form.
 * Runtime's own words for what goes wrong on the way (runtime-api.md §3.4, §3.9, §3.11, §3.13) are said here.
 */
import { BytesError, hexToBytes } from '../core/bytes'
import {
  envelopeContent,
  ERAS,
  keyWitnessEnvelopeType,
  txEnvelopeType,
  witnessSetEnvelopeType,
  type Era
} from '../core/cardano/tx-envelope'
import { vkeyWitnessesOfWitnessSet, vkeyWitnessOfKeyWitness, WitnessError } from '../core/cardano/witnesses'
import { EngineError } from '../engine/errors'
import type { MarloweService, SignedForm, SubmitOutcome, TxKind } from '../engine/service'
import type { TextEnvelopeBody } from './requests'

/** Which build a PUT is for: its path. */
export type SubmitTarget =
  | { readonly kind: 'create'; readonly contractId: string }
  | { readonly kind: 'apply'; readonly contractId: string; readonly transactionId: string }
  | { readonly kind: 'withdraw'; readonly withdrawalId: string }
  | { readonly kind: 'burn'; readonly txId: string }

interface Build {
  readonly txId: string
  readonly kind: TxKind
  readonly contractId?: string
  readonly era: string
}

/** The PUT a build is submitted by. */
export function submitTargetOf(build: Pick<Build, 'kind' | 'txId' | 'contractId'>): SubmitTarget {
  if (build.kind === 'create') return { kind: 'create', contractId: build.contractId ?? '' }
  if (build.kind === 'apply') return { kind: 'apply', contractId: build.contractId ?? '', transactionId: build.txId }
  if (build.kind === 'burn') return { kind: 'burn', txId: build.txId }
  return { kind: 'withdraw', withdrawalId: build.txId }
}

/** Runtime's 409 for a submit of a transaction already submitted or on chain. */
export function alreadySubmitted(kind: TxKind): EngineError {
  if (kind === 'burn') return new EngineError('Conflict', 'TxAlreadySubmitted', 'Tx already submitted')
  return kind === 'withdraw'
    ? new EngineError('Conflict', 'WithdrawalAlreadySubmitted', 'Withdrawal already submitted')
    : new EngineError(
        'Conflict',
        'ContractAlreadySubmitted',
        kind === 'create' ? 'Contract already submitted' : 'Transaction already submitted'
      )
}

const bad = (code: string, message: string, details: Record<string, unknown> = {}): EngineError =>
  new EngineError('BadRequest', code, message, details)

function wrongPlace(build: Build): EngineError {
  const target = submitTargetOf(build)
  const where =
    target.kind === 'create'
      ? `PUT /contracts/${encodeURIComponent(target.contractId)}`
      : target.kind === 'apply'
        ? `PUT /contracts/${encodeURIComponent(target.contractId)}/transactions/${target.transactionId}`
        : target.kind === 'withdraw'
          ? `PUT /withdrawals/${target.withdrawalId}`
          : `PUT /role-tokens/burnTxs/${target.txId}`
  const what = {
    create: 'a contract creation',
    apply: 'an input application',
    withdraw: 'a withdrawal',
    burn: 'a role-token burn'
  }[build.kind]
  return bad('WrongSubmitOperation', `transaction ${build.txId} was built as ${what}: submit it with ${where}`, {
    kind: build.kind,
    txId: build.txId
  })
}

const notFound = (message: string): EngineError => new EngineError('NotFound', 'NotFound', message)

/** The stored build the path names: 404 when there is none, 400 when it is another kind of build. */
async function buildOf(service: MarloweService, target: SubmitTarget): Promise<Build> {
  switch (target.kind) {
    case 'create': {
      const contractId = target.contractId.toLowerCase()
      const row = await service.creationOf(contractId)
      if (row !== undefined) return row
      const other = await service.builtTx(contractId.slice(0, 64))
      if (other !== undefined) throw wrongPlace(other)
      throw notFound('Contract not found')
    }
    case 'apply': {
      const row = await service.builtTx(target.transactionId)
      if (row === undefined) throw notFound('Transaction not found')
      if (row.kind !== 'apply') throw wrongPlace(row)
      if (row.contractId !== target.contractId.toLowerCase()) throw notFound('Transaction not found')
      return row
    }
    case 'withdraw': {
      const row = await service.builtTx(target.withdrawalId)
      if (row === undefined) throw notFound('Withdrawal not found')
      if (row.kind !== 'withdraw') throw wrongPlace(row)
      return row
    }
    case 'burn': {
      // Runtime answers an unknown burn with 400, not 404 (runtime-api.md §3.13).
      const row = await service.builtTx(target.txId)
      if (row === undefined) throw bad('TxNotFound', 'Transaction not found')
      if (row.kind !== 'burn') throw wrongPlace(row)
      return row
    }
  }
}

/**
 * Runtime's message, word for word (clients match on it); the details list every type this service takes, which
 * beside Runtime's are cardano-cli's key witness and, for a Conway build, the Babbage witness set the published
 * Runtime client sends.
 */
function unknownType(envelope: TextEnvelopeBody, era: Era): EngineError {
  const allowed = [txEnvelopeType(era), witnessSetEnvelopeType(era)]
  const taken = [...allowed, keyWitnessEnvelopeType(era)]
  const accepted = era === 'Babbage' ? taken : [...taken, witnessSetEnvelopeType('Babbage')]
  return bad(
    'BadRequest',
    `Unknown envelope type - allowed types are: ${allowed.map((t) => JSON.stringify(t)).join(', ')}`,
    { type: envelope.type, accepted }
  )
}

const invalidCbor = (reason: string): EngineError => bad('BadRequest', `Invalid text envelope cbor value: ${reason}`)

function cborOf(envelope: TextEnvelopeBody): Uint8Array {
  try {
    const bytes = hexToBytes(envelope.cborHex)
    if (bytes.length === 0) throw new BytesError('empty')
    return bytes
  } catch (e) {
    if (e instanceof BytesError) throw bad('BadRequest', 'Invalid text envelope cbor value', { reason: e.message })
    throw e
  }
}

function readWitnesses<T>(read: () => T): T {
  try {
    return read()
  } catch (e) {
    if (e instanceof WitnessError) throw invalidCbor(e.message)
    throw e
  }
}

/** The signed form a PUT's body stands for, for a build made in `era`; 400 for anything else. */
export function signedFormOf(envelope: TextEnvelopeBody, era: Era): SignedForm {
  const content = envelopeContent({ type: envelope.type, description: envelope.description, cbor: new Uint8Array() })
  if (content === undefined) throw unknownType(envelope, era)
  const cbor = cborOf(envelope)
  switch (content.kind) {
    case 'tx':
      if (content.era !== era) throw unknownType(envelope, era)
      return { tx: cbor }
    case 'witness-set':
      // The published Runtime client labels every witness set Babbage, whatever the era.
      if (content.era !== era && content.era !== 'Babbage') throw unknownType(envelope, era)
      return { witnesses: readWitnesses(() => vkeyWitnessesOfWitnessSet(cbor)) }
    case 'key-witness':
      if (content.era !== era) throw unknownType(envelope, era)
      return { witnesses: readWitnesses(() => [vkeyWitnessOfKeyWitness(cbor)]) }
    case 'body':
      throw bad(
        'MissingSignatures',
        `a "${envelope.type}" holds a body without signatures: send the signed "${txEnvelopeType(era)}" or a "${witnessSetEnvelopeType(era)}"`
      )
  }
}

function eraOf(build: Build): Era {
  const era = ERAS.find((e) => e === build.era)
  if (era === undefined) {
    throw new EngineError('Internal', 'CorruptStore', `transaction ${build.txId} has an unknown era`)
  }
  return era
}

/** The service's refusals of a build no longer unsigned, in Runtime's words for the kind of build. */
async function inRuntimeWords<T>(kind: TxKind, call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (e) {
    if (!(e instanceof EngineError)) throw e
    if (e.code === 'AlreadySubmitted') throw alreadySubmitted(kind)
    if (e.code === 'InvalidTransaction' && typeof e.details.reason === 'string') throw invalidCbor(e.details.reason)
    throw e
  }
}

/**
 * A PUT: the build its path names, checked submittable before its body is read (Runtime's 409 comes first), then
 * submitted in the signed form the body holds. Resolves once the node accepted it, or with `alreadyOnChain`.
 */
export async function submitByPath(
  service: MarloweService,
  target: SubmitTarget,
  envelope: TextEnvelopeBody
): Promise<SubmitOutcome> {
  const build = await buildOf(service, target)
  await inRuntimeWords(build.kind, () => service.submittable(build.txId))
  const signed = signedFormOf(envelope, eraOf(build))
  return inRuntimeWords(build.kind, () => service.submitBuild(build.txId, signed))
}
