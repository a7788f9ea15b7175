/** Builds the CLI into `dir` (default out/cli) and returns the executable's path. */
export declare function buildCli(dir?: string): string
