/**
 * Transaction metadata as the user types it: `{ "<uint64 label>": metadatum }` in JSON, read with the core's
 * lossless parser (integers stay exact) and checked with the very conversion the builder applies.
 */
import { MetadataError, transactionMetadataFromJson } from '../../../core/cardano/metadata'
import { isJsonObject, JsonSyntaxError, parseJson, type JsonValue } from '../../../core/json/lossless'

/** The first problem of a metadata text as a sentence, or undefined when it is empty or valid. */
export function metadataProblem(text: string): string | undefined {
  if (text.trim() === '') return undefined
  let json: JsonValue
  try {
    json = parseJson(text)
  } catch (e) {
    if (e instanceof JsonSyntaxError) return `Line ${e.line}, column ${e.column}: ${e.reason}.`
    throw e
  }
  if (!isJsonObject(json)) return 'Metadata is a JSON object of labels to values, like {"674": {"msg": ["hello"]}}.'
  try {
    transactionMetadataFromJson(json)
    return undefined
  } catch (e) {
    if (e instanceof MetadataError) return `${e.message}.`
    throw e
  }
}
