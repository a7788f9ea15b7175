/** The one error a transaction decode (and so a review) throws for bytes that are not a valid transaction. */
export class TxDecodeError extends Error {
  /** The message without the offset suffix. */
  readonly reason: string
  /** Byte offset in the transaction where the problem was found, when there is one. */
  readonly offset: number | undefined

  constructor(reason: string, offset?: number) {
    super(offset === undefined ? reason : `${reason} at byte ${offset}`)
    this.name = 'TxDecodeError'
    this.reason = reason
    this.offset = offset
  }
}
