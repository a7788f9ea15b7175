/** CLI failures: a message for the user and the exit code (2 for usage errors, 1 for everything else). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1
  ) {
    super(message)
    this.name = 'CliError'
  }
}

export function usageError(message: string): CliError {
  return new CliError(message, 2)
}
