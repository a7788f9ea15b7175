/** `marlowe-desk contract …`: check a contract, list its next steps, or run a transaction on it, offline. */
import { CborReader } from '../../core/cardano/cbor'
import { writtenDataExcess } from '../../core/depth-limits'
import { JsonSyntaxError, stringifyJson, type JsonValue } from '../../core/json/lossless'
import { contractFacts } from '../../core/marlowe/analysis'
import { ValueTooLargeError } from '../../core/marlowe/limits'
import {
  MarloweJsonError,
  parseContract,
  parseInputs,
  parseState,
  encodeNextSteps,
  encodeParty,
  encodeToken,
  encodeTransactionOutput
} from '../../core/marlowe/json'
import { next } from '../../core/marlowe/next'
import { encodeMarloweData } from '../../core/marlowe/plutus/marlowe-data'
import { computeTransaction } from '../../core/marlowe/semantics'
import { emptyState, type Contract, type Party, type State, type TimeInterval } from '../../core/marlowe/types'
import { expectPositionals, parseOptions, type Command, type Output } from '../command'
import { CliError, usageError } from '../errors'
import { readTextFile } from '../files'
import { isoUtc } from '../../core/time'

function load<T>(path: string, parse: (text: string) => T): T {
  const text = readTextFile(path)
  try {
    return parse(text)
  } catch (e) {
    if (e instanceof MarloweJsonError || e instanceof JsonSyntaxError) throw new CliError(`${path}: ${e.message}`)
    throw e
  }
}

/** Runs the semantics; a value past the engine's limit is the command's error, naming where it is. */
function evaluated<T>(command: string, run: () => T): T {
  try {
    return run()
  } catch (e) {
    if (e instanceof ValueTooLargeError) throw new CliError(`${command}: ${e.message}`)
    throw e
  }
}

function integerOption(command: string, name: string, text: string | undefined): bigint | undefined {
  if (text === undefined) return undefined
  if (!/^-?\d+$/.test(text))
    throw usageError(`${command}: --${name} must be an integer (POSIX milliseconds), got ${JSON.stringify(text)}`)
  return BigInt(text)
}

function partyArg(text: string): Party {
  return /^addr(_test)?1/i.test(text) ? { type: 'Address', address: text.toLowerCase() } : { type: 'Role', role: text }
}

const intervalOptions = {
  state: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' }
} as const

function interval(command: string, from: string | undefined, to: string | undefined): TimeInterval {
  const start = integerOption(command, 'from', from) ?? BigInt(Date.now())
  const end = integerOption(command, 'to', to) ?? start + 5n * 60n * 1000n
  return { from: start, to: end }
}

function initialState(path: string | undefined, minTime: bigint): State {
  return path === undefined ? emptyState(minTime) : load(path, parseState)
}

function print(io: Output, value: JsonValue): void {
  io.out(stringifyJson(value, { indent: 2 }))
}

const check: Command = {
  name: 'contract check',
  summary: 'validate a Marlowe contract JSON file and summarise it',
  help: `Usage: marlowe-desk contract check <contract.json> [--json]

Parses the contract with integers kept exact and validates it as Marlowe Runtime does. Prints the parties,
roles, tokens, deadlines and the size of its initial datum; --json prints the same as JSON.
Exit code 1 with the path and reason when the file is not a valid contract.`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, { json: { type: 'boolean' } })
    const [file] = expectPositionals(this.name, positionals, ['contract.json'])
    const contract: Contract = load(file!, parseContract)
    const facts = contractFacts(contract)
    const datum = encodeMarloweData({ params: { rolesCurrency: '' }, state: emptyState(0n), contract })
    const datumBytes = datum.length
    // What the service would refuse to build: a datum deeper than a transaction can be read back with.
    const excess = writtenDataExcess(new CborReader(datum).nesting())
    if (excess !== undefined) {
      throw new CliError(
        `${file}: the contract is nested too deeply to be built: its datum nests ${excess.depth} ${excess.measure} levels, at most ${excess.limit} can be read back (merkleize it, or make it shallower)`
      )
    }
    const lastDeadline = facts.timeouts.reduce<bigint | undefined>(
      (m, t) => (m === undefined || t > m ? t : m),
      undefined
    )
    const summary = {
      valid: true,
      parties: facts.parties.map(encodeParty),
      roles: [...facts.roles],
      tokens: facts.tokens.map(encodeToken),
      deadlines: BigInt(facts.timeouts.length),
      lastDeadline: lastDeadline ?? null,
      merkleizedCases: BigInt(facts.merkleHashes.length),
      nodes: BigInt(facts.nodes),
      datumBytes: BigInt(datumBytes)
    }
    if (values.json === true) return print(io, summary)
    const deadline = lastDeadline === undefined ? 'none' : `${isoUtc(lastDeadline)} (${lastDeadline})`
    io.out(
      [
        `${file}: valid Marlowe contract (${facts.nodes} nodes)`,
        `roles: ${facts.roles.length === 0 ? 'none' : facts.roles.join(', ')}`,
        `addresses: ${facts.parties.flatMap((p) => (p.type === 'Address' ? [p.address] : [])).join(', ') || 'none'}`,
        `tokens: ${facts.tokens.map((t) => (t.currencySymbol === '' ? 'ada' : `${t.currencySymbol}.${t.tokenName}`)).join(', ') || 'none'}`,
        `deadlines: ${facts.timeouts.length}, last ${deadline}`,
        `merkleized cases: ${facts.merkleHashes.length}`,
        `initial datum: ${datumBytes} bytes`
      ].join('\n')
    )
  }
}

const nextCommand: Command = {
  name: 'contract next',
  summary: "list the inputs a contract accepts now (Runtime's GET /contracts/{id}/next)",
  help: `Usage: marlowe-desk contract next <contract.json> [--state state.json] [--from MS] [--to MS] [--party ROLE|ADDRESS]...

Prints, as Marlowe Runtime does, whether the contract can reduce and which deposits, choices and notify it
accepts in the interval [--from, --to] (POSIX milliseconds; default: now to now + 5 minutes). Without
--state the contract starts from an empty state. --party keeps only what those parties can do.`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, {
      ...intervalOptions,
      party: { type: 'string', multiple: true }
    })
    const [file] = expectPositionals(this.name, positionals, ['contract.json'])
    const contract = load(file!, parseContract)
    const timeInterval = interval(this.name, values.from, values.to)
    const state = initialState(values.state, timeInterval.from)
    const parties = values.party?.map(partyArg)
    const result = evaluated(this.name, () => next({ timeInterval }, state, contract, parties))
    if (result.type === 'IntervalError') throw new CliError(`interval error: ${result.error.type}`)
    print(io, encodeNextSteps(result))
  }
}

const apply: Command = {
  name: 'contract apply',
  summary: 'run one transaction on a contract offline (computeTransaction)',
  help: `Usage: marlowe-desk contract apply <contract.json> --inputs inputs.json [--state state.json] [--from MS] [--to MS]

Runs the Marlowe semantics for the inputs (a JSON array, Runtime's form; [] to only reduce) over the interval
[--from, --to] and prints the transaction output: payments, warnings, the new state and contract, or the
transaction error. Exit code 1 when the semantics reject the transaction.`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, { ...intervalOptions, inputs: { type: 'string' } })
    const [file] = expectPositionals(this.name, positionals, ['contract.json'])
    if (values.inputs === undefined) throw usageError(`${this.name}: --inputs is required (see --help)`)
    const contract = load(file!, parseContract)
    const inputs = load(values.inputs, parseInputs)
    const timeInterval = interval(this.name, values.from, values.to)
    const state = initialState(values.state, timeInterval.from)
    const output = evaluated(this.name, () => computeTransaction({ interval: timeInterval, inputs }, state, contract))
    print(io, encodeTransactionOutput(output))
    if (output.type === 'Error') throw new CliError(`the transaction fails: ${output.error.type}`)
  }
}

export const contractCommands: readonly Command[] = [check, nextCommand, apply]
