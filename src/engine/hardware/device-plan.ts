/**
 * What a hardware wallet needs besides the body: the network it names, the BIP32 paths of the keys it must
 * sign with, and the rules both vendors share for rebuilding the body from a request. A device serialises
 * the body itself, canonically, and signs the hash of what it wrote; so a body it cannot write byte for byte
 * the same (non-canonical CBOR, mixed set tags, a field neither vendor's request has) is refused here, before
 * the user is asked to confirm anything on the device.
 */
import type { DecodedTx } from '../../core/cardano/tx'
import { NETWORK_MAGIC } from '../../chain/ogmios'
import type { NetworkName } from '../../chain/provider'
import { EngineError } from '../errors'
import { ROLE_INDEX, type KeyPath } from '../keys'
import type { HardwareVendor } from '../keys'

export const VENDOR_NAME: Readonly<Record<HardwareVendor, string>> = { ledger: 'Ledger', trezor: 'Trezor' }

export interface DeviceNetwork {
  readonly networkId: number
  readonly protocolMagic: number
}

/** What a device request needs besides the transaction. */
export interface DeviceRequestContext {
  readonly network: DeviceNetwork
  /** The BIP32 paths of the keys the device signs with. */
  readonly witnessPaths: readonly number[][]
}

/**
 * Only Byron addresses carry the protocol magic, and Desk builds none; a sandbox is a local devnet, whose
 * conventional magic (cardano-node's default for one) is 42.
 */
const SANDBOX_MAGIC = 42

export function deviceNetwork(network: NetworkName): DeviceNetwork {
  return { networkId: network === 'mainnet' ? 1 : 0, protocolMagic: NETWORK_MAGIC[network] ?? SANDBOX_MAGIC }
}

const HARDENED = 0x80000000
const PURPOSE = 1852
const COIN_TYPE = 1815

/** m/1852'/1815'/account'/role/index as the numbers both vendors' requests take. */
export function bip32Path(path: Extract<KeyPath, { kind: 'derived' }>): number[] {
  return [HARDENED + PURPOSE, HARDENED + COIN_TYPE, HARDENED + path.account, ROLE_INDEX[path.role], path.index]
}

/** m/1852'/1815'/account': the path of the account public key read from the device. */
export function accountPath(account: number): number[] {
  return [HARDENED + PURPOSE, HARDENED + COIN_TYPE, HARDENED + account]
}

/** A body the device cannot rebuild, named by the rule that stops it. */
export function deviceRuleError(vendor: HardwareVendor, rule: string, why: string): EngineError {
  return new EngineError(
    'BadRequest',
    'HardwareWalletCannotSign',
    `${VENDOR_NAME[vendor]} cannot sign this transaction (${rule}): ${why}. Nothing was sent to the device`,
    { vendor, rule }
  )
}

/** The paths of the keys the device must sign with, from the key hashes the transaction needs. */
export function witnessPaths(needed: readonly string[], owned: ReadonlyMap<string, KeyPath>): number[][] {
  const paths: number[][] = []
  for (const hash of needed) {
    const path = owned.get(hash)
    if (path?.kind === 'derived') paths.push(bip32Path(path))
  }
  return paths
}

/**
 * The rules both vendors share: the device writes canonical CBOR with every set tagged or none, and its
 * request has no update proposal, governance fields or body keys of a later era. Certificates are refused too:
 * Desk builds none, and mapping them would be code no Desk transaction exercises.
 */
export function checkRebuildable(vendor: HardwareVendor, tx: DecodedTx, context: DeviceRequestContext): void {
  const { body } = tx
  const fail = (rule: string, why: string): never => {
    throw deviceRuleError(vendor, rule, why)
  }
  if (body.networkId !== undefined && body.networkId !== context.network.networkId) {
    fail('network id', `the body names network ${body.networkId}, the wallet's network is ${context.network.networkId}`)
  }
  // The decoder records the first issues of each kind in order, and the body comes first: any in the body is there.
  const inBody = tx.issues.recorded.filter((i) => i.offset >= tx.bodyRange.start && i.offset < tx.bodyRange.end)
  if (inBody.length > 0) {
    fail(
      'canonical CBOR',
      `the device writes the body canonically, and this one has ${inBody.map((i) => `${i.kind} at byte ${i.offset}`).join(', ')}`
    )
  }
  if (tx.setTags.tagged > 0 && tx.setTags.untagged > 0) {
    fail(
      'set tags',
      `the device tags every set or none, and this body tags ${tx.setTags.tagged} of ${tx.setTags.tagged + tx.setTags.untagged}`
    )
  }
  if (body.hasUpdate) fail('no update proposal', 'the body carries a pre-Conway update proposal')
  if (body.unknownKeys.length > 0) fail('known body keys', `the body has keys ${body.unknownKeys.join(', ')}`)
  if (body.certificates.length > 0) fail('no certificates', 'Desk maps no certificates to a device request')
  if (body.proposals.length > 0) fail('no proposals', 'the body carries governance proposals')
  if (body.votingProcedures.length > 0) fail('no votes', 'Desk maps no voting procedures to a device request')
  if (body.currentTreasuryValue !== undefined || body.donation !== undefined) {
    fail('no treasury fields', 'the body names the treasury or donates to it')
  }
  const outputs = body.collateralReturn === undefined ? body.outputs : [...body.outputs, body.collateralReturn]
  if (outputs.some((o) => o.scriptRef !== undefined)) {
    fail('no reference scripts', 'an output carries a reference script, which Desk does not map')
  }
  // Both devices refuse an output to another network than the one they sign for (a safeguard against replay).
  outputs.forEach((o, i) => {
    if (o.address.kind !== 'byron' && o.address.networkId !== context.network.networkId) {
      const which = i < body.outputs.length ? `output ${i + 1}` : 'the collateral return'
      fail(
        'outputs on the network',
        `${which} pays an address of network ${o.address.networkId}, and the device signs for network ${context.network.networkId} only`
      )
    }
  })
}
