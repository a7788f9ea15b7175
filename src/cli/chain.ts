/**
 * The chain a CLI command talks to: the embedded sandbox, or a real network through Ogmios (with Kupo for the
 * chain index) or Blockfrost (optionally submitting through cardano-submit-api).
 */
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { NetworkName } from '../chain/provider'
import { openNodeChain, type OpenedChain } from '../chain/open'
import { MarloweScriptsError } from '../chain/marlowe-scripts'
import { SandboxProvider, type SandboxOptions } from '../chain/sandbox'
import { SharedChainProvider } from '../chain/shared'
import { evaluatePlutusOffThread } from '../engine/worker'
import { CliError, usageError } from './errors'

/** The options of the sandbox commands: where the sandbox lives, and the validators it runs instead of stand-ins. */
export const sandboxOptions = { data: { type: 'string' }, validators: { type: 'string' } } as const

/** The options of commands that talk to the sandbox or to a real network through a node interface. */
export const chainOptions = {
  ...sandboxOptions,
  network: { type: 'string' },
  ogmios: { type: 'string' },
  kupo: { type: 'string' },
  blockfrost: { type: 'string' },
  'blockfrost-url': { type: 'string' },
  'submit-api': { type: 'string' }
} as const

/** How `--network` and the node options are written in every command's help. */
export const CHAIN_USAGE =
  '[--network sandbox|preview|preprod|mainnet] [--ogmios URL [--kupo URL] | --blockfrost PROJECT_ID [--blockfrost-url URL]] [--submit-api URL]'

export interface ChainChoice {
  readonly network?: string
  /** The data directory ($MARLOWE_DESK_HOME): the sandbox is its `sandbox/`, the service's store beside it. */
  readonly data?: string
  /** For the sandbox: a directory of Marlowe validators (TextEnvelopes) to deploy instead of the stand-ins. */
  readonly validators?: string
  readonly ogmios?: string
  readonly kupo?: string
  readonly blockfrost?: string
  readonly 'blockfrost-url'?: string
  readonly 'submit-api'?: string
  /** The chain another process shares on this machine (`sandbox share`), instead of holding one. */
  readonly chain?: string
}

export type OpenChain = OpenedChain

/** Where Marlowe Desk keeps its files: $MARLOWE_DESK_HOME, else ~/.marlowe-desk. */
export function desktopHome(): string {
  return process.env['MARLOWE_DESK_HOME'] ?? join(homedir(), '.marlowe-desk')
}

/**
 * Opens the chain a command talks to. `follow`: the sandbox clock follows the wall clock (a long-running
 * server); otherwise it moves only when asked (one-shot commands).
 */
export async function openChain(
  command: string,
  choice: ChainChoice,
  options: { readonly follow?: boolean } = {}
): Promise<OpenChain> {
  if (choice.chain !== undefined) return openSharedChain(command, choice)
  const network = networkName(command, choice.network)
  const node = choice.ogmios ?? choice.kupo ?? choice.blockfrost ?? choice['submit-api'] ?? choice['blockfrost-url']
  if (network === 'sandbox') {
    if (node !== undefined) {
      throw usageError(
        `${command}: the sandbox is embedded; --ogmios, --kupo, --blockfrost and --submit-api need --network`
      )
    }
    const follow = options.follow === true
    const dataDir = join(choice.data ?? desktopHome(), 'sandbox')
    const validators = choice.validators === undefined ? {} : { validators: choice.validators }
    const provider = openSandbox(
      command,
      follow ? { dataDir, ...validators } : { dataDir, clockTickMs: false, ...validators }
    )
    return { provider, network, close: () => provider.close() }
  }
  if (choice.validators !== undefined) {
    throw usageError(`${command}: --validators runs validators on the sandbox; --network ${network} has its own`)
  }
  return openNode(command, network, choice)
}

/**
 * Opens the sandbox, its scripts run on the engine's worker (a long one never holds up `serve`'s requests),
 * reporting unusable validator files as the command's error.
 */
function openSandbox(command: string, options: SandboxOptions): SandboxProvider {
  try {
    return SandboxProvider.open({ evaluate: evaluatePlutusOffThread, ...options })
  } catch (e) {
    if (e instanceof MarloweScriptsError) throw new CliError(`${command}: --validators: ${e.message}`)
    throw e
  }
}

/** `--chain URL`: the chain's own process holds the ledger (or the node link); it says which network it is. */
async function openSharedChain(command: string, choice: ChainChoice): Promise<OpenChain> {
  const url = choice.chain ?? ''
  const node = choice.ogmios ?? choice.kupo ?? choice.blockfrost ?? choice['submit-api'] ?? choice['blockfrost-url']
  if (node !== undefined || choice.validators !== undefined) {
    throw usageError(
      `${command}: --chain uses the chain another process holds; its node and validators are that process's`
    )
  }
  if (!/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\/?$/.test(url)) {
    throw usageError(`${command}: --chain ${url} is not a local http://127.0.0.1:PORT/ URL (see "sandbox share")`)
  }
  const provider = await SharedChainProvider.open(url)
  if (choice.network !== undefined && networkName(command, choice.network) !== provider.network) {
    throw usageError(`${command}: --network ${choice.network}, but the chain at ${url} is ${provider.network}`)
  }
  return { provider, network: provider.network, close: () => Promise.resolve() }
}

/** A `--port` value, or `fallback` without one. */
export function portOf(command: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback
  const port = Number(text)
  if (!/^\d+$/.test(text) || port > 65535) throw usageError(`${command}: --port ${text} is not a port number (0-65535)`)
  return port
}

function networkName(command: string, text: string | undefined): NetworkName {
  const name = text ?? 'sandbox'
  if (name === 'sandbox' || name === 'preview' || name === 'preprod' || name === 'mainnet') return name
  throw usageError(`${command}: --network ${name} is not one of sandbox, preview, preprod, mainnet`)
}

/** A real network through Ogmios or Blockfrost, optionally submitting through cardano-submit-api. */
async function openNode(command: string, network: NetworkName, choice: ChainChoice): Promise<OpenChain> {
  if ((choice.ogmios === undefined) === (choice.blockfrost === undefined)) {
    throw usageError(`${command}: --network ${network} needs exactly one of --ogmios URL or --blockfrost PROJECT_ID`)
  }
  if (choice['blockfrost-url'] !== undefined && choice.blockfrost === undefined) {
    throw usageError(`${command}: --blockfrost-url goes with --blockfrost PROJECT_ID`)
  }
  if (choice.kupo !== undefined && choice.ogmios === undefined) {
    throw usageError(`${command}: --kupo goes with --ogmios URL (the blocks Kupo points at are read through Ogmios)`)
  }
  if (choice.kupo !== undefined && !/^https?:\/\/\S+$/.test(choice.kupo)) {
    throw usageError(`${command}: --kupo ${choice.kupo} is not an http:// or https:// URL`)
  }
  const blockfrost = choice.blockfrost
  return openNodeChain(network, {
    ...(choice.ogmios === undefined ? {} : { ogmios: choice.ogmios }),
    ...(choice.kupo === undefined ? {} : { kupo: choice.kupo }),
    ...(blockfrost === undefined
      ? {}
      : {
          blockfrost: {
            projectId: blockfrost,
            ...(choice['blockfrost-url'] === undefined ? {} : { url: choice['blockfrost-url'] })
          }
        }),
    ...(choice['submit-api'] === undefined ? {} : { submitApi: choice['submit-api'] })
  })
}
