/** The shape of a CLI command and the option parsing every command shares (node:util parseArgs). */
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { usageError } from './errors'

export interface Output {
  out(text: string): void
  err(text: string): void
}

export interface Command {
  /** e.g. "contract check" */
  readonly name: string
  readonly summary: string
  /** Full help text, shown for `--help`. */
  readonly help: string
  run(args: readonly string[], io: Output): Promise<void>
}

type Options = NonNullable<ParseArgsConfig['options']>

type OptionValue<T> = T extends { type: 'boolean' } ? boolean : string

export interface Parsed<O extends Options> {
  readonly values: { [K in keyof O]?: O[K] extends { multiple: true } ? OptionValue<O[K]>[] : OptionValue<O[K]> }
  readonly positionals: string[]
}

/** Parses strictly: unknown options and missing values are usage errors naming the command. */
export function parseOptions<O extends Options>(command: string, args: readonly string[], options: O): Parsed<O> {
  try {
    const { values, positionals } = parseArgs({ args: [...args], options, allowPositionals: true, strict: true })
    return { values: values as Parsed<O>['values'], positionals }
  } catch (e) {
    throw usageError(`${command}: ${e instanceof Error ? e.message : String(e)} (see --help)`)
  }
}

export function expectPositionals(command: string, positionals: readonly string[], names: readonly string[]): string[] {
  if (positionals.length !== names.length) {
    throw usageError(
      `${command}: expected ${names.map((n) => `<${n}>`).join(' ')}, got ${positionals.length} argument(s) (see --help)`
    )
  }
  return [...positionals]
}
