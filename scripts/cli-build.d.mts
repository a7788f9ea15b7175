/** Builds the CLI into `dir` (default out/cli) and returns the executable's path. */
export declare function buildCli(dir?: string): string
/** Builds the engine's worker thread (src/engine/worker/entry.ts, or a test's own `entry`) into `outfile`. */
export declare function buildEngineWorker(outfile: string, entry?: string): void
