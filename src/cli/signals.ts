/** Long-running commands (serve, sandbox share) run until the user or the system asks them to stop. */

/** Resolves with the signal's name at the first SIGINT or SIGTERM. */
export function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string): void => {
      process.off('SIGINT', onInt)
      process.off('SIGTERM', onTerm)
      resolve(signal)
    }
    const onInt = (): void => stop('SIGINT')
    const onTerm = (): void => stop('SIGTERM')
    process.on('SIGINT', onInt)
    process.on('SIGTERM', onTerm)
  })
}
