/** The Plutus Data tree and its error type; the codec lives in data-encoder.ts and data-decoder.ts. */
export interface ConstrData {
  readonly constr: bigint
  readonly fields: readonly PlutusData[]
}

export interface MapData {
  readonly map: ReadonlyArray<readonly [PlutusData, PlutusData]>
}

export interface ListData {
  readonly list: readonly PlutusData[]
}

/** `I` is a bigint, `B` a Uint8Array; maps keep their pairs in order, duplicates included, as Data does. */
export type PlutusData = bigint | Uint8Array | ConstrData | MapData | ListData

export class PlutusDataError extends Error {
  /** Byte offset in the input where decoding failed; undefined for encoding errors. */
  readonly offset: number | undefined

  constructor(message: string, offset?: number) {
    super(offset === undefined ? message : `${message} at byte ${offset}`)
    this.name = 'PlutusDataError'
    this.offset = offset
  }
}

export function constrData(constr: number | bigint, fields: readonly PlutusData[]): ConstrData {
  return { constr: BigInt(constr), fields }
}

export function isConstrData(d: PlutusData): d is ConstrData {
  return typeof d === 'object' && 'constr' in d
}

export function isMapData(d: PlutusData): d is MapData {
  // A Uint8Array has a `map` method, so `'map' in d` alone would match byte strings.
  return typeof d === 'object' && !(d instanceof Uint8Array) && 'map' in d
}

export function isListData(d: PlutusData): d is ListData {
  return typeof d === 'object' && 'list' in d
}
