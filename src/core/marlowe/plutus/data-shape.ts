/** The error for well-formed Plutus Data of the wrong shape for the Marlowe type read from it. */
export class PlutusDecodeError extends Error {
  readonly path: string

  constructor(path: string, message: string) {
    super(`${path}: ${message}`)
    this.name = 'PlutusDecodeError'
    this.path = path
  }
}
