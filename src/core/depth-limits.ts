/**
 * How deep anything Marlowe Desk reads may nest, in one place, and how those limits bound what it writes:
 * nothing is built that the desk cannot read back.
 *
 * A contract arrives as JSON, is written as Plutus Data (its datum) and travels as CBOR inside a transaction,
 * and each of those has its reader and its limit:
 *
 * - JSON: a document nests at most `MAX_JSON_DEPTH` arrays and objects (the lossless parser).
 * - Plutus Data: a datum or redeemer nests at most `MAX_DATA_DEPTH` constructors, lists and maps (the Data
 *   decoder, which the review and every stored datum go through).
 * - CBOR: a transaction read as one tree (to split off its body, to add witnesses) nests at most
 *   `MAX_CBOR_DEPTH` items, and its witness datums and redeemers start `DATA_LEVEL_IN_TX` levels down.
 *
 * The JSON limit does not bound the others: a `negate` is one JSON level but one constructor, that is two CBOR
 * levels (a tag and its fields' array); a `When` is three JSON levels, three Data levels and five CBOR levels;
 * an address party is one JSON level and five Data levels. So a contract well inside the JSON limit can make a
 * datum the transaction reader refuses. Every datum and redeemer a build writes is therefore measured
 * (`CborReader.nesting`) and the build refused, before any input is reserved, when `writtenDataExcess` finds it
 * deeper than its readers take. The other way round, no JSON level of a contract costs less than 5/3 of a CBOR
 * level (the When), so a contract that fits is at most some 720 JSON levels deep, and every answer carrying it
 * reads back within `MAX_JSON_DEPTH`. Metadata and tags nest in CBOR as their JSON does,
 * at most eight levels down (under the auxiliary data, its label and Runtime's tag list), so within
 * `MAX_CBOR_DEPTH`; what bounds them is that every answer echoes them deeper still (`MAX_LABEL_DEPTH`).
 *
 * The limits themselves are far above real contracts (which merkleize long schedules) and low enough that the
 * readers, some of them recursive, stay within the stack on hostile input.
 */

/** Arrays and objects a JSON document may nest. */
export const MAX_JSON_DEPTH = 1000

/** Constructors, lists and maps a Plutus Data item may nest (the outermost one is level 1). */
export const MAX_DATA_DEPTH = 1024

/**
 * Arrays and objects a metadata or tag value may nest. Every answer that echoes one must read back within
 * `MAX_JSON_DEPTH`, and the deepest echo is the review's, in cardano-cli's detailed schema: three JSON levels
 * for each level of a map (`{"map": [{"k": …, "v": …}]}`), below the answer's own levels (at most 16).
 */
export const MAX_LABEL_DEPTH = Math.floor((MAX_JSON_DEPTH - 16) / 3)

/** Levels a CBOR item may nest (the item itself is level 0; an array, map or tag holds the next level). */
export const MAX_CBOR_DEPTH = 1200

/**
 * The level of a witness datum or redeemer in a transaction: transaction array, witness set map, the Conway set
 * tag and its list (a redeemer: the redeemer map and its value array), then the Data item.
 */
export const DATA_LEVEL_IN_TX = 4

/** The CBOR levels below its own that a datum or redeemer the desk writes may use. */
export const MAX_WRITTEN_DATA_CBOR_DEPTH = MAX_CBOR_DEPTH - DATA_LEVEL_IN_TX

/** How deep one CBOR item nests: CBOR levels below the item, and arrays and maps one inside another. */
export interface Nesting {
  readonly depth: number
  readonly containers: number
}

/** A written Data item deeper than one of its readers takes: which measure, how deep, and the limit. */
export interface DepthExcess {
  readonly measure: 'CBOR' | 'Plutus Data'
  readonly depth: number
  readonly limit: number
}

/**
 * Why a datum or redeemer nested as `n` could not be read back from the transaction that carries it, or
 * undefined when it can. Arrays and maps are the Data decoder's levels (a constructor's fields are an array),
 * so `containers` is at least the Data depth.
 */
export function writtenDataExcess(n: Nesting): DepthExcess | undefined {
  if (n.depth > MAX_WRITTEN_DATA_CBOR_DEPTH)
    return { measure: 'CBOR', depth: n.depth, limit: MAX_WRITTEN_DATA_CBOR_DEPTH }
  if (n.containers > MAX_DATA_DEPTH) return { measure: 'Plutus Data', depth: n.containers, limit: MAX_DATA_DEPTH }
  return undefined
}
