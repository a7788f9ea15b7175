/**
 * A chain another process shares on this machine (./chain-server.ts): every ChainProvider call goes to it over
 * HTTP, so that replicas of `serve` see one ledger. An unreachable chain is ChainError 'Unavailable', as an
 * unreachable node is.
 */
import type { MarloweDeployment } from '../deployments'
import {
  ChainError,
  type ChainErrorKind,
  type ChainProvider,
  type ChainTip,
  type EraSummary,
  type NetworkName,
  type ProtocolParameters,
  type RedeemerBudget,
  type ScriptTxPage,
  type ScriptTxQuery,
  type TxOutRef,
  type TxStatus,
  type Utxo
} from '../provider'
import { DESCRIBE_PATH, type SharedChainCall } from './protocol'
import { decodeWire, encodeWire, type WireValue } from './wire'

/** Longer than any sandbox call takes (a script evaluation is seconds at most), short of a hung request. */
const CALL_TIMEOUT_MS = 60_000

const KINDS: readonly ChainErrorKind[] = ['Rejected', 'EvaluationFailed', 'Unavailable', 'BadResponse']

interface Description {
  readonly network: NetworkName
  readonly networkId: 0 | 1
  readonly deployment?: MarloweDeployment
  readonly chainIndex: boolean
}

async function request(url: string, init: RequestInit): Promise<WireValue> {
  let text: string
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(CALL_TIMEOUT_MS) })
    text = await response.text()
  } catch (e) {
    throw new ChainError('Unavailable', `the shared chain at ${url} cannot be reached: ${(e as Error).message}`)
  }
  try {
    return decodeWire(text)
  } catch {
    throw new ChainError('BadResponse', `the shared chain at ${url} answered something that is not its wire`)
  }
}

function recordOf(value: WireValue, what: string): { readonly [key: string]: WireValue } {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Uint8Array) {
    throw new ChainError('BadResponse', `the shared chain answered ${what} with something that is not a record`)
  }
  return value as { readonly [key: string]: WireValue }
}

export class SharedChainProvider implements ChainProvider {
  readonly network: NetworkName
  readonly networkId: 0 | 1
  readonly deployment?: MarloweDeployment
  readonly scriptTransactions?: (query: ScriptTxQuery) => Promise<ScriptTxPage>

  private constructor(
    private readonly base: string,
    description: Description
  ) {
    this.network = description.network
    this.networkId = description.networkId
    if (description.deployment !== undefined) this.deployment = description.deployment
    if (description.chainIndex) {
      this.scriptTransactions = (query) => this.call('scriptTransactions', [query as unknown as WireValue])
    }
  }

  /** Asks the chain at `url` who it is; throws ChainError 'Unavailable' when nothing answers there. */
  static async open(url: string): Promise<SharedChainProvider> {
    const base = url.replace(/\/+$/, '')
    const description = recordOf(await request(`${base}${DESCRIBE_PATH}`, { method: 'GET' }), 'describe')
    const { network, networkId, chainIndex } = description
    if (typeof network !== 'string' || (networkId !== 0 && networkId !== 1) || typeof chainIndex !== 'boolean') {
      throw new ChainError('BadResponse', `${url} is not a shared Marlowe Desk chain`)
    }
    return new SharedChainProvider(base, {
      network: network as NetworkName,
      networkId,
      chainIndex,
      ...(description.deployment === null || description.deployment === undefined
        ? {}
        : { deployment: description.deployment as unknown as MarloweDeployment })
    })
  }

  era(): Promise<string> {
    return this.call('era', [])
  }
  protocolParameters(): Promise<ProtocolParameters> {
    return this.call('protocolParameters', [])
  }
  eraSummaries(): Promise<readonly EraSummary[]> {
    return this.call('eraSummaries', [])
  }
  tip(): Promise<ChainTip> {
    return this.call('tip', [])
  }
  utxosAt(addresses: readonly string[]): Promise<Utxo[]> {
    return this.call('utxosAt', [addresses])
  }
  utxosByRef(refs: readonly TxOutRef[]): Promise<Utxo[]> {
    return this.call('utxosByRef', [refs as unknown as WireValue])
  }
  evaluate(tx: Uint8Array, additionalUtxos: readonly Utxo[] = []): Promise<RedeemerBudget[]> {
    return this.call('evaluate', [tx, additionalUtxos as unknown as WireValue])
  }
  submit(tx: Uint8Array): Promise<string> {
    return this.call('submit', [tx])
  }
  txStatus(txId: string): Promise<TxStatus> {
    return this.call('txStatus', [txId])
  }

  /** The answer's shape is the provider's own: the sharing process runs the same ChainProvider code. */
  private async call<T>(name: SharedChainCall, args: readonly WireValue[]): Promise<T> {
    const answer = recordOf(await request(`${this.base}/${name}`, { method: 'POST', body: encodeWire(args) }), name)
    const error = answer['error']
    if (error !== undefined) {
      const { kind, reason, details } = recordOf(error, name)
      throw new ChainError(
        KINDS.includes(kind as ChainErrorKind) ? (kind as ChainErrorKind) : 'BadResponse',
        typeof reason === 'string' ? reason : `${name} failed`,
        details === undefined || details === null ? {} : (recordOf(details, name) as Record<string, unknown>)
      )
    }
    return answer['result'] as T
  }
}
