/**
 * The language views of the script data hash (Alonzo–Conway CDDL): a canonical map from language to its cost
 * model. Keys sort canonically (shorter encoding first), so PlutusV2 (`01`) and V3 (`02`) come before V1,
 * whose view keeps two historical quirks: its key is the byte string `41 00` rather than `00`, and its cost
 * model is an *indefinite* list wrapped in a byte string.
 */
import { concatBytes } from '../../bytes'
import { encodeHead, encodeInt, MAJOR_ARRAY, MAJOR_BYTES, MAJOR_MAP } from '../cbor'
import type { ScriptLanguage } from '../tx'
import type { ReviewProtocolParameters } from './types'

type PlutusLanguage = 'PlutusV1' | 'PlutusV2' | 'PlutusV3'

const CANONICAL_ORDER: readonly PlutusLanguage[] = ['PlutusV2', 'PlutusV3', 'PlutusV1']
const KEY: Readonly<Record<PlutusLanguage, Uint8Array>> = {
  PlutusV1: Uint8Array.of(0x41, 0x00),
  PlutusV2: Uint8Array.of(0x01),
  PlutusV3: Uint8Array.of(0x02)
}

/** The encoded views, or the first language whose cost model is missing. */
export function encodeLanguageViews(
  languages: ReadonlySet<ScriptLanguage>,
  costModels: NonNullable<ReviewProtocolParameters['costModels']>
): { bytes: Uint8Array } | { missing: PlutusLanguage } {
  const parts: Uint8Array[] = []
  let count = 0
  for (const language of CANONICAL_ORDER) {
    if (!languages.has(language)) continue
    const model = costModels[language]
    if (model === undefined) return { missing: language }
    count += 1
    parts.push(KEY[language], encodedModel(language, model))
  }
  return { bytes: concatBytes([encodeHead(MAJOR_MAP, count), ...parts]) }
}

// Encoded cost models by model array: protocol parameters stay the same across many reviews, and each model
// is a few hundred integers to encode.
const encodedV1 = new WeakMap<readonly bigint[], Uint8Array>()
const encodedLater = new WeakMap<readonly bigint[], Uint8Array>()

function encodedModel(language: PlutusLanguage, model: readonly bigint[]): Uint8Array {
  const cache = language === 'PlutusV1' ? encodedV1 : encodedLater
  let bytes = cache.get(model)
  if (bytes === undefined) {
    bytes = language === 'PlutusV1' ? v1View(model) : definiteList(model)
    cache.set(model, bytes)
  }
  return bytes
}

function definiteList(model: readonly bigint[]): Uint8Array {
  return concatBytes([encodeHead(MAJOR_ARRAY, model.length), ...model.map(encodeInt)])
}

function v1View(model: readonly bigint[]): Uint8Array {
  const list = concatBytes([Uint8Array.of(0x9f), ...model.map(encodeInt), Uint8Array.of(0xff)])
  return concatBytes([encodeHead(MAJOR_BYTES, list.length), list])
}
