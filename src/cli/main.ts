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
import { CliError } from './errors'

const COMMANDS: readonly Command[] = [
  serveCommand,
  ...sandboxCommands,
  ...contractCommands,
  ...keysCommands,
  ...txCommands,
  ...validatorsCommands
]

function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length))
  return [
    'Usage: marlowe-desk <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run marlowe-desk <command> --help for a command’s options.'
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

export async function main(args: readonly string[], io: Output): Promise<number> {
  if (args.length === 0 || args[0] === '--help' || args[0] === '-h' || args[0] === 'help') {
    io.out(overview())
    return 0
  }
  const found = resolve(args)
  if (found === undefined) {
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
      io.err(`marlowe-desk ${found.command.name}: the chain says: ${e.reason} (${e.kind})`)
      return 1
    }
    if (e instanceof EngineError) {
      io.err(`marlowe-desk ${found.command.name}: ${e.message} (${e.code})`)
      return 1
    }
    io.err(
      `marlowe-desk ${found.command.name}: unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`
    )
    return 1
  }
}
