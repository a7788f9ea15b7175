/** Memory as the benchmarks measure it: resident set size once garbage is collected. */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

export const mib = (bytes: number): number => bytes / (1024 * 1024)

/**
 * RSS after full collections, so garbage not yet collected does not count as growth. One collection frees the
 * garbage but V8 gives the freed pages back to the system over the next ones: three, a moment apart.
 */
export async function settledRss(): Promise<number> {
  setFlagsFromString('--expose_gc')
  const gc = runInNewContext('gc') as () => void
  for (let round = 0; round < 3; round += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    gc()
  }
  await new Promise((resolve) => setImmediate(resolve))
  return process.memoryUsage().rss
}
