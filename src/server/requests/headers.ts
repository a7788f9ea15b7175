/**
 * Wallet headers of the build endpoints → `WalletRequest` (runtime-api.md §9.6): X-Change-Address
 * (required), X-Address and X-Collateral-UTxO (comma lists), and X-Stake-Address on POST /contracts only.
 */
import type { TxOutRef } from '../../chain/provider'
import { parseStakeAddress } from '../../engine/build'
import { formatRef } from '../../core/cardano/refs'
import type { WalletRequest } from '../../engine/build'
import { EngineError } from '../../engine/errors'
import { parseAddress, type NetworkId } from './addresses'
import { engineErrorsOnly, invalidHeader } from './errors'
import { parseTxOutRef } from './ids'
import { parseWith, quote } from './problems'
import { createWalletHeaders, walletHeaders } from './schemas'

/** Node's `IncomingHttpHeaders`: lowercase names; a repeated header may come as an array. */
export type HeaderInput = Readonly<Record<string, string | readonly string[] | undefined>>

export interface WalletHeaderOptions {
  readonly networkId: NetworkId
  /** Read X-Stake-Address (POST /contracts); other endpoints ignore it, as Runtime does. */
  readonly stakeAddress?: boolean
}

export interface DecodedWalletHeaders {
  readonly wallet: WalletRequest
  /** bech32, lowercase */
  readonly stakeAddress?: string
}

const CHANGE = 'X-Change-Address'
const ADDRESSES = 'X-Address'
const COLLATERAL = 'X-Collateral-UTxO'
const STAKE = 'X-Stake-Address'

/** Runtime's message for each header (`W/Contract/Server.hs: postCreateTxBody`). */
const MESSAGES: Readonly<Record<string, string>> = {
  [CHANGE]: 'Invalid change address value',
  [ADDRESSES]: 'Invalid addresses header value',
  [COLLATERAL]: 'Invalid collateral header UTxO value',
  [STAKE]: 'Invalid stake address value'
}

/** The wallet headers by their canonical names; repeated ones joined as one comma list, blank ones absent. */
function canonical(headers: HeaderInput): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of Object.keys(MESSAGES)) {
    const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase())
    const raw = key === undefined ? undefined : headers[key]
    const value = typeof raw === 'string' ? raw : raw?.join(',')
    if (value !== undefined && value.trim() !== '') out[name] = value.trim()
  }
  return out
}

function commaList(value: string | undefined, header: string): string[] {
  if (value === undefined) return []
  return value.split(',').map((item, i) => {
    const trimmed = item.trim()
    if (trimmed === '') throw invalidHeader(MESSAGES[header]!, header, `item ${i + 1} of the comma list is empty`)
    return trimmed
  })
}

function stakeAddress(text: string, networkId: NetworkId): string {
  try {
    parseStakeAddress(text, networkId === 1)
  } catch (e) {
    if (!(e instanceof EngineError)) throw e
    throw invalidHeader(MESSAGES[STAKE]!, STAKE, e.message.replace(/^Invalid stake address value: /, ''))
  }
  return text.toLowerCase()
}

export function decodeWalletHeaders(headers: HeaderInput, options: WalletHeaderOptions): DecodedWalletHeaders {
  return engineErrorsOnly(() => {
    const input = canonical(headers)
    const parsed = parseWith(options.stakeAddress === true ? createWalletHeaders : walletHeaders, input)
    if (!parsed.ok) {
      const header = parsed.problem.missingKey ?? String(parsed.problem.path[0] ?? CHANGE)
      const reason = parsed.problem.missingKey === undefined ? parsed.problem.reason : 'the header is required'
      throw invalidHeader(MESSAGES[header] ?? MESSAGES[CHANGE]!, header, reason)
    }
    const h = parsed.value
    const { networkId } = options
    const address = (header: string) => (text: string) =>
      parseAddress(text, networkId, (reason) => invalidHeader(MESSAGES[header]!, header, `${quote(text)}: ${reason}`))
    const changeAddress = address(CHANGE)(h['X-Change-Address'])
    const extraAddresses = [...new Set(commaList(h['X-Address'], ADDRESSES).map(address(ADDRESSES)))]
    const collateral = new Map<string, TxOutRef>()
    for (const item of commaList(h['X-Collateral-UTxO'], COLLATERAL)) {
      const ref = parseTxOutRef(item, true)
      if (typeof ref === 'string') throw invalidHeader(MESSAGES[COLLATERAL]!, COLLATERAL, `${quote(item)}: ${ref}`)
      collateral.set(formatRef(ref), ref)
    }
    const stakeText = options.stakeAddress === true ? input[STAKE] : undefined
    const stake = stakeText === undefined ? undefined : stakeAddress(stakeText, networkId)
    return {
      wallet: {
        changeAddress,
        ...(extraAddresses.length > 0 ? { extraAddresses } : {}),
        ...(collateral.size > 0 ? { collateral: [...collateral.values()] } : {})
      },
      ...(stake === undefined ? {} : { stakeAddress: stake })
    }
  })
}
