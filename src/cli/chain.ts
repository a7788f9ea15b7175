/**
 * The chain a CLI command talks to: the embedded sandbox, or a real network through Ogmios or Blockfrost
 * (optionally submitting through cardano-submit-api).
 */
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { NetworkName } from '../chain/provider'
import { openNodeChain, type OpenedChain } from '../chain/open'
import { SandboxProvider } from '../chain/sandbox'
import { usageError } from './errors'

/** The options of the sandbox commands: where the sandbox lives. */
export const sandboxOptions = { data: { type: 'string' } } as const

/** The options of commands that talk to the sandbox or to a real network through a node interface. */
export const chainOptions = {
  ...sandboxOptions,
  network: { type: 'string' },
  ogmios: { type: 'string' },
  blockfrost: { type: 'string' },
  'blockfrost-url': { type: 'string' },
  'submit-api': { type: 'string' }
} as const

/** How `--network` and the node options are written in every command's help. */
export const CHAIN_USAGE =
  '[--network sandbox|preview|preprod|mainnet] [--ogmios URL | --blockfrost PROJECT_ID [--blockfrost-url URL]] [--submit-api URL]'

export interface ChainChoice {
  readonly network?: string
  /** For the sandbox commands: the sandbox directory; for `serve`: the data directory holding it. */
  readonly data?: string
  readonly ogmios?: string
  readonly blockfrost?: string
  readonly 'blockfrost-url'?: string
  readonly 'submit-api'?: string
}

export type OpenChain = OpenedChain

/** Where Marlowe Desk keeps its files: $MARLOWE_DESK_HOME, else ~/.marlowe-desk. */
export function desktopHome(): string {
  return process.env['MARLOWE_DESK_HOME'] ?? join(homedir(), '.marlowe-desk')
}

/**
 * Opens the chain a command talks to. `follow`: the sandbox clock follows the wall clock (a long-running
 * server); otherwise it moves only when asked (one-shot commands), and `data` is the sandbox directory itself.
 */
export async function openChain(
  command: string,
  choice: ChainChoice,
  options: { readonly follow?: boolean } = {}
): Promise<OpenChain> {
  const network = networkName(command, choice.network)
  const node = choice.ogmios ?? choice.blockfrost ?? choice['submit-api'] ?? choice['blockfrost-url']
  if (network === 'sandbox') {
    if (node !== undefined) {
      throw usageError(`${command}: the sandbox is embedded; --ogmios, --blockfrost and --submit-api need --network`)
    }
    const follow = options.follow === true
    const home = choice.data ?? desktopHome()
    const dataDir = follow ? join(home, 'sandbox') : (choice.data ?? join(desktopHome(), 'sandbox'))
    const provider = SandboxProvider.open(follow ? { dataDir } : { dataDir, clockTickMs: false })
    return { provider, network, close: () => provider.close() }
  }
  return openNode(command, network, choice)
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
  const blockfrost = choice.blockfrost
  return openNodeChain(network, {
    ...(choice.ogmios === undefined ? {} : { ogmios: choice.ogmios }),
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
