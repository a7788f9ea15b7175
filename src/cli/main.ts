/** `marlowe-desk`: the command line. Edges translate; the work happens in core and engine. */
import type { Command, Output } from './command'
import { contractCommands } from './commands/contract'
import { keysCommands } from './commands/keys'
import { txCommands } from './commands/tx'
import { sandboxCommands } from './commands/sandbox'
import { serveCommand } from './commands/serve'
import { validatorsCommands } from './commands/validators'
import { ChainError } from '../chain/provider'
import { EngineError } from '../engine/errors'
import { installNativeCodecs } from '../engine/native-codecs'
import { chainErrorText, CliError, thrownText } from './errors'

const COMMANDS: readonly Command[] = [
  serveCommand,
  ...sandboxCommands,
  ...contractCommands,
  ...keysCommands,
  ...txCommands,
  ...validatorsCommands
]

/** What each group of commands (the first word of a two-word command) is for, shown in its help. */
const GROUPS: Readonly<Record<string, string>> = {
  sandbox: 'The embedded sandbox ledger: its test wallets, a faucet, and a clock you can move forward.',
  contract: 'Marlowe contracts from JSON files, offline: validate, list what can happen next, run a step.',
  keys: 'Wallets in the local keystore: create, restore, list, addresses, export and import keys.',
  tx: 'Transactions: review, sign and assemble offline; bundle for an offline review and submit online.',
  validators: 'The Marlowe validators: fetch them from a network to run them on the sandbox.'
}

function commandList(commands: readonly Command[]): string[] {
  const width = Math.max(...commands.map((c) => c.name.length))
  return commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`)
}

function overview(): string {
  return [
    'Usage: marlowe-desk <command> [options]',
    '',
    'Commands:',
    ...commandList(COMMANDS),
    '',
    'Run marlowe-desk <command> --help for a command’s options.'
  ].join('\n')
}

function groupHelp(group: string): string {
  return [
    `Usage: marlowe-desk ${group} <command> [options]`,
    '',
    GROUPS[group] ?? '',
    '',
    'Commands:',
    ...commandList(COMMANDS.filter((c) => c.name.startsWith(`${group} `))),
    '',
    `Run marlowe-desk ${group} <command> --help for a command’s options.`
  ].join('\n')
}

/** Finds the command whose (multi-word) name prefixes the arguments. */
function resolve(args: readonly string[]): { command: Command; rest: string[] } | undefined {
  for (const command of COMMANDS) {
    const words = command.name.split(' ')
    if (words.every((w, i) => args[i] === w)) return { command, rest: args.slice(words.length) }
  }
  return undefined
}

const isHelp = (arg: string | undefined): boolean => arg === '--help' || arg === '-h' || arg === 'help'

/** A group named without one of its commands: its help, on stdout when asked for, else as a usage error. */
function group(args: readonly string[], io: Output): number {
  const [name, next] = args as [string, ...string[]]
  if (isHelp(next)) {
    io.out(groupHelp(name))
    return 0
  }
  const problem =
    next === undefined
      ? `marlowe-desk ${name}: name a ${name} command (one of those below)`
      : `marlowe-desk: unknown command "${name} ${next}"`
  io.err(`${problem}\n\n${groupHelp(name)}`)
  return 2
}

export async function main(args: readonly string[], io: Output): Promise<number> {
  if (args.length === 0 || isHelp(args[0])) {
    io.out(overview())
    return 0
  }
  const found = resolve(args)
  if (found === undefined) {
    if (Object.hasOwn(GROUPS, args[0]!)) return group(args, io)
    io.err(`marlowe-desk: unknown command "${args.slice(0, 2).join(' ')}"\n\n${overview()}`)
    return 2
  }
  if (found.rest.includes('--help') || found.rest.includes('-h')) {
    io.out(found.command.help)
    return 0
  }
  try {
    await installNativeCodecs()
    await found.command.run(found.rest, io)
    return 0
  } catch (e) {
    if (e instanceof CliError) {
      // Commands name themselves in their messages; say it once.
      const prefix = `${found.command.name}: `
      io.err(`marlowe-desk ${prefix}${e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message}`)
      return e.exitCode
    }
    if (e instanceof ChainError) {
      io.err(`marlowe-desk ${found.command.name}: ${chainErrorText(e)}`)
      return 1
    }
    if (e instanceof EngineError) {
      io.err(`marlowe-desk ${found.command.name}: ${e.message} (${e.code})`)
      return 1
    }
    io.err(`marlowe-desk ${found.command.name}: unexpected error: ${thrownText(e)}`)
    return 1
  }
}
