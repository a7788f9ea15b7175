/**
 * The warnings a signer must see, derived from the assembled review: validity against `now`, network, minting,
 * collateral, signatures, fee and size, unresolved inputs, encoding, hashes, metadata and the Marlowe outcome.
 * `danger` means the node will reject the transaction or the signer stands to lose funds; `warning` needs a
 * look; `info` explains a limit of the review.
 */
import { formatRef } from '../refs'
import { stringifyJson } from '../../json/lossless'
import type { DecodedTx } from '../tx'
import type { ReviewEnv } from './env'
import { conwayFeatures, preConwayFeatures } from './era'
import { regionOf } from './encoding-view'
import type { ReviewWarning, Severity, TxReview, WarningCode } from './types'
import { unreadCount, unreadInputs, unreadInputsText } from './unread'

/** Beyond the ledger's forecast horizon (3k/f slots = 36 h on mainnet) a Plutus transaction is rejected. */
const FAR_FUTURE_MS = 36n * 3_600_000n
/** Collateral above both the requirement and this is worth a look (wallets commonly reserve 5 ada). */
const COLLATERAL_COMFORT = 5_000_000n
/** Without fee parameters, a fee above this is unusual for any ordinary transaction. */
const HIGH_FEE_WITHOUT_PARAMETERS = 5_000_000n
const ONE_ADA = 1_000_000n
const EXAMPLES = 3

export type ReviewWithoutWarnings = Omit<TxReview, 'warnings'>

export function collectWarnings(env: ReviewEnv, tx: DecodedTx, review: ReviewWithoutWarnings): ReviewWarning[] {
  const warnings: ReviewWarning[] = []
  const warn = (code: WarningCode, severity: Severity, message: string): void => {
    warnings.push({ code, severity, message })
  }
  validityWarnings(env, review, warn)
  networkWarnings(env, review, warn)
  mintWarnings(review, warn)
  collateralWarnings(review, warn)
  signatureWarnings(review, warn)
  feeAndSizeWarnings(review, warn)
  inputWarnings(review, warn)
  encodingWarnings(tx, review, warn)
  hashWarnings(tx, review, warn)
  marloweWarnings(review, warn)
  if (!review.isValid) {
    warn(
      'scripts-marked-failing',
      'danger',
      'The transaction declares that its scripts fail: submitting it only forfeits the collateral.'
    )
  }
  return warnings
}

type Warn = (code: WarningCode, severity: Severity, message: string) => void

function validityWarnings(env: ReviewEnv, review: ReviewWithoutWarnings, warn: Warn): void {
  const { start, end } = review.validity
  const now = env.context.now
  if (end === undefined) {
    warn('no-expiry', 'info', 'The transaction has no expiry (TTL): it stays valid until its inputs are spent.')
  }
  if (now === undefined) return
  if (end?.posixMs !== undefined && now >= end.posixMs) {
    warn('expired', 'danger', `The transaction expired at ${end.utc ?? `slot ${end.slot}`}: the node will reject it.`)
  }
  if (start?.posixMs !== undefined && now < start.posixMs) {
    warn('not-yet-valid', 'warning', `The transaction is not valid before ${start.utc ?? `slot ${start.slot}`}.`)
  }
  if (end?.posixMs !== undefined && end.posixMs - now > FAR_FUTURE_MS) {
    const scripts =
      review.redeemers.length > 0
        ? ' Nodes reject Plutus transactions whose expiry is beyond ~36 h (OutsideForecast).'
        : ''
    warn(
      'far-future-validity',
      'warning',
      `The transaction stays valid until ${end.utc ?? `slot ${end.slot}`}, far in the future.${scripts}`
    )
  }
}

function networkWarnings(env: ReviewEnv, review: ReviewWithoutWarnings, warn: Warn): void {
  const seen = new Map<bigint, string>()
  const note = (id: bigint | undefined, where: string): void => {
    if (id !== undefined && !seen.has(id)) seen.set(id, where)
  }
  note(review.networkId, 'the body network id')
  for (const o of review.outputs) note(o.address.networkId, `output ${o.index}`)
  note(review.collateral.return?.address.networkId, 'the collateral return')
  for (const w of review.withdrawals) note(w.address.networkId, 'a withdrawal')
  for (const i of review.inputs) note(i.address?.networkId, 'a spent input')
  const expected = env.context.networkId === undefined ? undefined : BigInt(env.context.networkId)
  if (expected !== undefined) {
    const wrong = [...seen].filter(([id]) => id !== expected)
    if (wrong.length > 0) {
      const where = wrong.map(([id, w]) => `${w} (network ${id})`).join(', ')
      warn(
        'network-mismatch',
        'danger',
        `The node is on network ${expected}, but ${where} belong${wrong.length === 1 ? 's' : ''} elsewhere.`
      )
    }
  } else if (seen.size > 1) {
    warn(
      'mixed-networks',
      'danger',
      `The transaction mixes networks: ${[...seen].map(([id, w]) => `${w} is on ${id}`).join(', ')}.`
    )
  }
}

function mintWarnings(review: ReviewWithoutWarnings, warn: Warn): void {
  const unknown = review.mint.filter((m) => !m.known)
  if (unknown.length > 0) {
    warn(
      'unknown-policy-mint',
      'warning',
      `Mints or burns under ${unknown.length} unknown polic${unknown.length === 1 ? 'y' : 'ies'}: ${list(unknown.map((m) => m.policyId))}.`
    )
  }
  const owned = new Set<string>()
  for (const input of review.inputs) {
    if (input.owner !== 'own') continue
    for (const a of input.value?.assets ?? []) owned.add(`${a.policyId}.${a.assetName}`)
  }
  const burnt = review.mint.flatMap((m) =>
    m.assets
      .filter((a) => a.quantity < 0n && owned.has(`${m.policyId}.${a.assetName}`))
      .map((a) => a.assetNameText ?? a.assetName)
  )
  if (burnt.length > 0) warn('burns-own-tokens', 'warning', `Burns tokens from your wallet: ${list(burnt)}.`)
}

function collateralWarnings(review: ReviewWithoutWarnings, warn: Warn): void {
  const { collateral } = review
  const tokens = collateral.inputs.some((i) => (i.value?.assets.length ?? 0) > 0)
  if (tokens) {
    const fix = collateral.return === undefined ? ' and there is no collateral return: the ledger rejects this' : ''
    warn(
      'collateral-has-tokens',
      collateral.return === undefined ? 'danger' : 'warning',
      `Collateral inputs hold tokens${fix}.`
    )
  }
  const { atRisk, required } = collateral
  if (atRisk !== undefined && atRisk > COLLATERAL_COMFORT && (required === undefined || atRisk > required)) {
    const need = required === undefined ? '' : ` (the ledger requires ${ada(required)})`
    warn('collateral-too-large', 'warning', `${ada(atRisk)} of collateral is at risk if a script fails${need}.`)
  }
}

function signatureWarnings(review: ReviewWithoutWarnings, warn: Warn): void {
  const missing = review.witnesses.needed.filter((n) => !n.signed && n.wallet === undefined)
  if (missing.length > 0) {
    warn(
      'missing-signatures',
      'warning',
      `Needs ${missing.length} signature${missing.length === 1 ? '' : 's'} this app does not hold: ${list(missing.map((n) => n.keyHash))}.`
    )
  }
}

function feeAndSizeWarnings(review: ReviewWithoutWarnings, warn: Warn): void {
  const { fee, minimum } = review.fee
  if (minimum === undefined) {
    if (fee > HIGH_FEE_WITHOUT_PARAMETERS)
      warn('fee-unusually-high', 'warning', `The fee is ${ada(fee)}, unusually high.`)
  } else {
    const excess = fee - minimum
    if (excess > minimum && excess > ONE_ADA) {
      warn(
        'fee-unusually-high',
        'warning',
        `The fee is ${ada(fee)}, more than twice the ${ada(minimum)} the ledger asks.`
      )
    }
    if (fee < minimum)
      warn('fee-below-minimum', 'danger', `The fee ${ada(fee)} is below the ledger minimum of ${ada(minimum)}.`)
  }
  const { bytes, max } = review.size
  if (max !== undefined && bytes > max)
    warn('tx-too-large', 'danger', `The transaction is ${bytes} bytes, over the ${max}-byte limit.`)
}

function inputWarnings(review: ReviewWithoutWarnings, warn: Warn): void {
  const unread = unreadInputs(review)
  const count = unreadCount(unread)
  if (count > 0) {
    const them = count === 1 ? 'it' : 'them'
    warn(
      'unresolved-inputs',
      'info',
      `${unreadInputsText(unread)} could not be read: the values, owners and datums behind ${them} are unknown. Review the transaction with its bundle to see ${them}.`
    )
  }
  // A spent script output's datum hash, and a Marlowe continuation's, must have the datum in the witness set.
  const missing =
    review.inputs.filter((i) => i.owner === 'script' && i.datum?.form === 'hash' && i.datum.source !== 'witness-set')
      .length + review.outputs.filter((o) => o.address.scriptName !== undefined && o.datum?.source === 'missing').length
  if (missing > 0) {
    warn(
      'missing-datum',
      'danger',
      `${missing} datum${missing === 1 ? ' is' : 's are'} named by hash but missing from the witness set.`
    )
  }
  const dangling = review.redeemers.filter((r) => r.target.kind === 'missing')
  if (dangling.length > 0) {
    warn(
      'redeemer-without-target',
      'danger',
      `${dangling.length} redeemer${dangling.length === 1 ? ' points' : 's point'} at nothing in the transaction.`
    )
  }
}

function encodingWarnings(tx: DecodedTx, review: ReviewWithoutWarnings, warn: Warn): void {
  const { issues, setTags } = review.encoding
  const duplicates = issues.filter((i) => i.kind === 'duplicate-map-key' || i.kind === 'duplicate-set-element')
  if (duplicates.length > 0) {
    const at = duplicates.flatMap((d) => d.offsets).slice(0, EXAMPLES)
    warn(
      'duplicate-keys',
      'danger',
      `Duplicate map keys or set elements (at byte ${at.join(', ')}): the ledger rejects most of them, and other tools may read a different value.`
    )
  }
  const bodyIssues = tx.issues.recorded.filter(
    (i) => i.kind !== 'duplicate-map-key' && i.kind !== 'duplicate-set-element' && regionOf(tx, i.offset) === 'body'
  )
  if (bodyIssues.length > 0 || setTags === 'mixed') {
    const kinds: string[] = [...new Set(bodyIssues.map((i) => i.kind))]
    if (setTags === 'mixed') kinds.push('mixed set tags')
    warn(
      'non-canonical-encoding',
      'info',
      `The body is not canonical CBOR (CIP-21: ${kinds.join(', ')}); hardware wallets may refuse it.`
    )
  }
  const unknown = [
    ...tx.body.unknownKeys.map((k) => `body key ${k}`),
    ...tx.witnessSet.unknownKeys.map((k) => `witness set key ${k}`)
  ]
  if (unknown.length > 0) warn('unknown-fields', 'warning', `Fields no known era defines: ${list(unknown)}.`)
  const old = preConwayFeatures(tx)
  if (old.length > 0) {
    const mixed = conwayFeatures(tx).length > 0 ? ' alongside Conway features' : ''
    warn(
      'not-valid-in-conway',
      'danger',
      `The transaction carries ${old.join(' and ')}${mixed}, which the Conway ledger rejects.`
    )
  }
}

function hashWarnings(tx: DecodedTx, review: ReviewWithoutWarnings, warn: Warn): void {
  const sdh = review.scriptDataHash
  if (sdh.status === 'mismatch') {
    warn(
      'script-data-hash-mismatch',
      sdh.reason === undefined ? 'danger' : 'warning',
      `The script data hash does not match the redeemers, datums and cost models${sdh.reason === undefined ? '' : ` (${sdh.reason})`}.`
    )
  } else if (sdh.status === 'missing') {
    warn('script-data-hash-mismatch', 'danger', 'The transaction has redeemers or datums but no script data hash.')
  } else if (sdh.status === 'unexpected') {
    warn('script-data-hash-mismatch', 'danger', 'The transaction has a script data hash but no redeemers or datums.')
  }
  const declared = tx.body.auxDataHash
  const aux = tx.auxData
  if (aux === undefined ? declared !== undefined : declared !== aux.hash) {
    const why =
      aux === undefined
        ? 'no auxiliary data is attached'
        : declared === undefined
          ? 'the body does not declare its hash'
          : 'its hash differs'
    warn('aux-data-hash-mismatch', 'danger', `The auxiliary data does not match the body: ${why}.`)
  }
  if (aux !== undefined && aux.oversizedStrings > 0) {
    warn(
      'invalid-metadata',
      'danger',
      `${aux.oversizedStrings} metadata string${aux.oversizedStrings === 1 ? ' is' : 's are'} longer than 64 bytes, which the ledger rejects.`
    )
  }
}

function marloweWarnings(review: ReviewWithoutWarnings, warn: Warn): void {
  const { steps, created, withdrawals } = review.marlowe
  const allRead = [...review.inputs, ...review.referenceInputs].every((i) => i.resolved)
  // Unread inputs hide scripts by themselves (the unresolved-inputs warning says so); read, they are not Marlowe's.
  if (review.redeemers.length > 0 && steps.length + created.length + withdrawals.length === 0 && allRead) {
    warn(
      'scripts-not-marlowe',
      'info',
      "The transaction runs Plutus scripts that are not the Marlowe validators Desk knows for this network, so there is no Marlowe section: they are another application's, or Marlowe validators of a sandbox started with its own, which only that sandbox's Desk recognises."
    )
  }
  for (const step of review.marlowe.steps) {
    const at = formatRef(step.input)
    const { result } = step
    if (result.type === 'error') {
      warn(
        'marlowe-failure',
        'danger',
        `The Marlowe contract at ${at} rejects these inputs: ${stringifyJson(result.error)}.`
      )
    } else if (result.type === 'success' && result.continuationMatches !== true) {
      const why = result.closes
        ? result.continuingOutput === undefined
          ? undefined
          : `the contract closes, yet output ${result.continuingOutput} goes back to the Marlowe script`
        : result.continuingOutput === undefined
          ? 'no output continues the contract'
          : 'the continuing output does not carry the new state as a datum hash'
      if (why !== undefined) warn('marlowe-failure', 'danger', `The Marlowe validator will fail at ${at}: ${why}.`)
    }
  }
}

function ada(lovelace: bigint): string {
  const sign = lovelace < 0n ? '-' : ''
  const abs = lovelace < 0n ? -lovelace : lovelace
  return `${sign}${abs / ONE_ADA}.${(abs % ONE_ADA).toString().padStart(6, '0')} ada`
}

function list(items: readonly string[]): string {
  return items.length <= EXAMPLES
    ? items.join(', ')
    : `${items.slice(0, EXAMPLES).join(', ')} and ${items.length - EXAMPLES} more`
}
