/**
 * The typed failures of the builders, each with Runtime's `errorCode` (runtime-api.md §8) and its `details`
 * shape, so the HTTP edge maps them without translation.
 */
import type { TxOutRef } from '../../chain/provider'
import { hexToBytes, utf8DecodeStrict } from '../../core/bytes'
import type { Value } from '../../core/cardano/value'
import type { JsonValue } from '../../core/json/lossless'
import { encodeTransactionError } from '../../core/marlowe/json'
import { ValueTooLargeError } from '../../core/marlowe/limits'
import type { TransactionError } from '../../core/marlowe/types'
import { EngineError } from '../errors'
import { formatRef } from '../../core/cardano/refs'
import { assetList } from './values'

export function badRequest(message: string, details: Readonly<Record<string, unknown>> = {}): EngineError {
  return new EngineError('BadRequest', 'BadRequest', message, details)
}

/** Runtime's `Tokens` JSON: policy id → token name (text, as Runtime writes names; hex if not UTF-8) → quantity. */
function tokensJson(value: Value): Record<string, Record<string, bigint>> {
  const out: Record<string, Record<string, bigint>> = {}
  for (const q of assetList(value)) {
    const name = utf8DecodeStrict(hexToBytes(q.assetName)) ?? q.assetName
    ;(out[q.policyId] ??= {})[name] = q.quantity
  }
  return out
}

export type CoinSelectionFailure =
  | { readonly tag: 'InsufficientLovelace'; readonly required: bigint; readonly available: bigint }
  | { readonly tag: 'InsufficientTokens'; readonly tokens: Value }
  | { readonly tag: 'NoCollateralFound'; readonly txOutRefs: readonly TxOutRef[] }

export function coinSelectionFailed(failure: CoinSelectionFailure): EngineError {
  const detail: Record<string, unknown> =
    failure.tag === 'InsufficientLovelace'
      ? { tag: failure.tag, required: failure.required, available: failure.available }
      : failure.tag === 'InsufficientTokens'
        ? { tag: failure.tag, tokens: tokensJson(failure.tokens) }
        : { tag: failure.tag, txOutRefs: failure.txOutRefs.map(formatRef) }
  const message =
    failure.tag === 'InsufficientLovelace'
      ? `Coin selection failed: the wallet holds ${failure.available} lovelace, ${failure.required} are needed`
      : failure.tag === 'InsufficientTokens'
        ? 'Coin selection failed: the wallet lacks some native tokens the transaction needs'
        : 'Coin selection failed: no pure-ada UTxO in the wallet is large enough to serve as collateral'
  return new EngineError('BadRequest', 'CoinSelectionFailed', message, {
    tag: 'CoinSelectionFailed',
    coinSelectionFailed: detail
  })
}

/** `assetName` is the role name as text, as Runtime's `AssetId` JSON writes it. */
export function roleTokenNotFound(policyId: string, role: string, heldByPendingBuild = false): EngineError {
  const where = heldByPendingBuild
    ? 'is only in a wallet UTxO that another pending transaction spends'
    : 'is not at any wallet address'
  return new EngineError('BadRequest', 'RoleTokenNotFound', `Role token ${policyId}.${role} ${where}`, {
    tag: 'RoleTokenNotFound',
    assetId: { policyId, assetName: role }
  })
}

export function payoutNotFound(ref: TxOutRef): EngineError {
  return new EngineError('BadRequest', 'PayoutNotFound', `Payout ${formatRef(ref)} is unknown or already withdrawn`, {
    tag: 'PayoutNotFound',
    txOutRef: formatRef(ref)
  })
}

export function insufficientMinAdaDeposit(required: bigint, given: bigint): EngineError {
  return new EngineError(
    'BadRequest',
    'InsufficientMinAdaDeposit',
    `The min-UTxO deposit ${given} is below the ${required} lovelace this contract may need`,
    { minimumRequiredDeposit: required }
  )
}

export function computeTransactionFailed(error: TransactionError): EngineError {
  return new EngineError(
    'BadRequest',
    'MarloweComputeTransactionFailed',
    `The Marlowe semantics reject these inputs: ${describeTransactionError(error)}`,
    { tag: 'MarloweComputeTransactionFailed', transactionError: encodeTransactionError(error) }
  )
}

/** A Marlowe value beyond the core's limit (`MAX_VALUE_BITS`), with where it is and how long it is. */
function valueTooLarge(e: ValueTooLargeError): EngineError {
  const where = e.path === undefined ? '' : ` at ${e.path}`
  return new EngineError(
    'BadRequest',
    'MarloweValueTooLarge',
    `The Marlowe contract computes a value of ${e.bits} bits${where}, over the limit of ${e.limitBits} bits`,
    { ...(e.path === undefined ? {} : { path: e.path }), bits: e.bits, limitBits: e.limitBits }
  )
}

/** Runs Marlowe evaluation, a value beyond the limit becoming `valueTooLarge`. */
export function evaluating<T>(run: () => T): T {
  try {
    return run()
  } catch (e) {
    throw e instanceof ValueTooLargeError ? valueTooLarge(e) : e
  }
}

/** `evaluating` for an evaluation run on the engine's worker. */
export async function evaluatingOffThread<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (e) {
    throw e instanceof ValueTooLargeError ? valueTooLarge(e) : e
  }
}

function describeTransactionError(error: TransactionError): string {
  switch (error.type) {
    case 'TEAmbiguousTimeIntervalError':
      return 'the validity interval contains a timeout (ambiguous interval)'
    case 'TEApplyNoMatchError':
      return 'no case of the contract accepts these inputs'
    case 'TEUselessTransaction':
      return 'the transaction would change nothing (useless transaction)'
    case 'TEHashMismatch':
      return 'a merkleized continuation does not match its hash'
    case 'TEIntervalError':
      return error.error.type === 'InvalidInterval'
        ? 'the validity interval is empty or inverted'
        : `the validity interval ends before the contract's minimum time ${error.error.minTime}`
  }
}

/** A failure that names a Runtime code and the JSON details Runtime gives it. */
export function engineFailure(
  kind: EngineError['kind'],
  code: string,
  message: string,
  details: Readonly<Record<string, JsonValue>> = {}
): EngineError {
  return new EngineError(kind, code, message, details)
}
