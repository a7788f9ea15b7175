/**
 * Recomputes the script data hash: blake2b-256 of `redeemers ‖ datums ‖ language views`, the first two exactly
 * as the witness set encodes them. Without redeemers, Conway hashes `A0 ‖ datums ‖ A0` (an empty redeemer map
 * and no languages). The languages are those of the Plutus scripts the transaction runs: its witness-set
 * scripts and the reference scripts it needs; when unresolved inputs hide reference scripts, every candidate
 * set of languages with a cost model is tried.
 */
import { blake2bPartsHex } from '../../blake2b'
import type { ScriptLanguage } from '../tx'
import { encodeLanguageViews } from './language-views'
import type { ReviewProtocolParameters, ScriptDataHashView } from './types'

const EMPTY_MAP = Uint8Array.of(0xa0)
const PLUTUS = ['PlutusV1', 'PlutusV2', 'PlutusV3'] as const

export interface ScriptDataInputs {
  readonly declared: string | undefined
  readonly redeemersBytes: Uint8Array | undefined
  readonly datumsBytes: Uint8Array | undefined
  /** Languages known to be used. */
  readonly languages: ReadonlySet<ScriptLanguage>
  /** False when reference scripts of unresolved inputs may add languages. */
  readonly certain: boolean
  readonly costModels: ReviewProtocolParameters['costModels']
}

export function checkScriptDataHash(input: ScriptDataInputs): ScriptDataHashView {
  const { declared, redeemersBytes, datumsBytes, costModels } = input
  const withDeclared = declared === undefined ? {} : { declared }
  const languages = redeemersBytes === undefined ? new Set<ScriptLanguage>() : input.languages
  const listed = PLUTUS.filter((l) => languages.has(l))
  if (redeemersBytes === undefined && datumsBytes === undefined) {
    return { ...withDeclared, status: declared === undefined ? 'not-needed' : 'unexpected', languages: [] }
  }
  if (declared === undefined) return { status: 'missing', languages: listed }
  // Without redeemers no script runs: the language views are the empty map, whatever the cost models.
  const models = redeemersBytes === undefined ? {} : costModels
  if (models === undefined) {
    return { ...withDeclared, status: 'not-checked', languages: listed, reason: 'no cost models in the context' }
  }
  const prefix = [redeemersBytes ?? EMPTY_MAP, ...(datumsBytes === undefined ? [] : [datumsBytes])]
  const candidates = input.certain || redeemersBytes === undefined ? [languages] : supersets(languages, models)
  let first: string | undefined
  for (const candidate of candidates) {
    const views = encodeLanguageViews(candidate, models)
    if ('missing' in views) {
      if (candidates.length === 1) {
        return { ...withDeclared, status: 'not-checked', languages: listed, reason: `no ${views.missing} cost model` }
      }
      continue
    }
    const computed = blake2bPartsHex([...prefix, views.bytes], 32)
    first ??= computed
    if (computed === declared) {
      return { declared, computed, status: 'match', languages: PLUTUS.filter((l) => candidate.has(l)) }
    }
  }
  const reason = input.certain ? undefined : 'unresolved inputs may carry reference scripts in other languages'
  return {
    declared,
    ...(first === undefined ? {} : { computed: first }),
    status: 'mismatch',
    languages: listed,
    ...(reason === undefined ? {} : { reason })
  }
}

/** Every set of languages containing `known` whose extra members have cost models, `known` itself first. */
function supersets(
  known: ReadonlySet<ScriptLanguage>,
  costModels: NonNullable<ReviewProtocolParameters['costModels']>
): Array<ReadonlySet<ScriptLanguage>> {
  const optional = PLUTUS.filter((l) => !known.has(l) && costModels[l] !== undefined)
  const sets: Array<ReadonlySet<ScriptLanguage>> = []
  for (let mask = 0; mask < 1 << optional.length; mask++) {
    const set = new Set(known)
    optional.forEach((l, i) => {
      if (mask & (1 << i)) set.add(l)
    })
    sets.push(set)
  }
  return sets
}
