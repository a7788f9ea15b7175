/** The one error type of the CBOR layer: what is wrong, and the byte offset where it was found. */
export class CborError extends Error {
  /** The message without the offset suffix. */
  readonly reason: string
  /** Byte offset in the input where reading failed. */
  readonly offset: number

  constructor(reason: string, offset: number) {
    super(`${reason} at byte ${offset}`)
    this.name = 'CborError'
    this.reason = reason
    this.offset = offset
  }
}
