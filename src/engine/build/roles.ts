/**
 * A create's roles configuration, checked and normalised (Runtime's `RolesConfig` → `RoleTokensConfig`):
 * which policy, which tokens to mint, where each goes, and whether a thread token is needed (only when some
 * role goes to the open-role validator).
 */
import type { ProtocolParameters } from '../../chain/provider'
import { utf8Encode } from '../../core/bytes'
import { encodePlutusData } from '../../core/marlowe/plutus/data'
import { datumHash } from '../../core/marlowe/plutus/hash'
import { badRequest } from './build-errors'
import type { RoleTokenMetadata } from './metadata'
import { withMinLovelace } from './min-utxo'
import type { PlannedOutput } from './plan'
import type { RolesCheck } from './safety'
import type { RolesConfig } from './types'
import { assetNameHex, tokenValue } from './values'
import { checkAddress } from './wallet'

export interface Distribution {
  readonly role: string
  /** bech32, or the open-role validator. */
  readonly to: string | 'OpenRole'
  readonly quantity: bigint
}

export interface RolesSetup {
  readonly check: RolesCheck
  /** The existing policy; undefined when minting (the policy depends on the seed UTxO) or without roles. */
  readonly policyId?: string
  /** Token name → quantity to mint, thread token included. */
  readonly mint?: ReadonlyMap<string, bigint>
  readonly distribution: readonly Distribution[]
  readonly metadata: ReadonlyArray<{ readonly nameHex: string; readonly metadata: RoleTokenMetadata }>
  /** Present when a role goes to the open-role validator. */
  readonly threadTokenName?: string
}

const POLICY = /^[0-9a-f]{56}$/
const MAX_NAME_BYTES = 32

function roleName(name: string, field: string): string {
  const bytes = utf8Encode(name)
  if (bytes === undefined || bytes.length > MAX_NAME_BYTES) {
    throw badRequest(`Invalid ${field} value: "${name}" is not a name of at most 32 UTF-8 bytes`, { field, name })
  }
  return name
}

export function setupRoles(config: RolesConfig | undefined, threadTokenName: string, mainnet: boolean): RolesSetup {
  roleName(threadTokenName, 'thread token name')
  if (config === undefined) return { check: { type: 'None' }, distribution: [], metadata: [] }
  if (config.type === 'UsePolicy') {
    const policyId = config.policyId.toLowerCase()
    if (!POLICY.test(policyId)) throw badRequest('Invalid roles value: the policy id must be 28 bytes of hex')
    const open = [...new Set(config.openRoles ?? [])].map((r) => roleName(r, 'roles'))
    return {
      check: { type: 'UsePolicy', distributed: open },
      policyId,
      distribution: open.map((role) => ({ role, to: 'OpenRole', quantity: 1n })),
      metadata: [],
      ...(open.length > 0 ? { threadTokenName } : {})
    }
  }
  const distribution: Distribution[] = []
  const minted = new Map<string, bigint>()
  const metadata: { nameHex: string; metadata: RoleTokenMetadata }[] = []
  for (const r of config.roles) {
    const name = roleName(r.name, 'roles')
    if (minted.has(name)) throw badRequest(`Invalid roles value: role "${name}" is listed twice`)
    let total = 0n
    for (const { destination, quantity } of r.recipients) {
      if (quantity < 0n) throw badRequest(`Invalid roles value: negative quantity for role "${name}"`)
      if (quantity === 0n) continue
      const to = 'openRole' in destination ? 'OpenRole' : destination.address
      if (to !== 'OpenRole') checkAddress(to, mainnet, 'roles')
      distribution.push({ role: name, to, quantity })
      total += quantity
    }
    if (total === 0n) continue
    minted.set(name, total)
    if (r.metadata !== undefined) metadata.push({ nameHex: assetNameHex(name)!, metadata: r.metadata })
  }
  if (minted.size === 0) return { check: { type: 'None' }, distribution: [], metadata: [] }
  const open = distribution.some((d) => d.to === 'OpenRole')
  if (open) minted.set(threadTokenName, (minted.get(threadTokenName) ?? 0n) + 1n)
  return {
    check: { type: 'Mint', roles: config.roles.filter((r) => minted.has(r.name)).map((r) => r.name) },
    mint: minted,
    distribution,
    metadata,
    ...(open ? { threadTokenName } : {})
  }
}

/**
 * One output per (role, recipient) holding only that token plus its min-UTxO; open roles go to the open-role
 * validator with datum `B threadTokenName` (by hash, datum in the witness set).
 */
export function distributionOutputs(
  pp: ProtocolParameters,
  roles: RolesSetup,
  rolesCurrency: string,
  openRoleAddress: string
): PlannedOutput[] {
  const threadDatum = encodePlutusData(utf8Encode(roles.threadTokenName ?? '') ?? new Uint8Array())
  return roles.distribution.map((d) => {
    const token = tokenValue({ currencySymbol: rolesCurrency, tokenName: d.role }, d.quantity)
    if (d.to !== 'OpenRole') return { address: d.to, value: withMinLovelace(pp, { address: d.to, value: token }) }
    const shape = { address: openRoleAddress, value: token, datumHash: datumHash(threadDatum) }
    return { address: openRoleAddress, value: withMinLovelace(pp, shape), datum: threadDatum }
  })
}
