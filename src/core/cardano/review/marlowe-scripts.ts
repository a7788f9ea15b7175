/**
 * The Marlowe validators a review recognises without being told, on every network Desk knows: one table, so a
 * transaction built on one network is reviewed whole on a Desk set to another (the air-gapped one, say).
 *
 * mainnet, preprod, preview: Marlowe Runtime's current published set (marlowe-core.md §2.6; runtime-api.md §11).
 * sandbox: the hashes of its always-succeeding stand-ins (src/chain/sandbox/stand-ins.ts, whose test checks them).
 */
import type { MarloweScriptName } from './types'

export type MarloweValidatorRole = 'semantics' | 'payout' | 'openRole'
export type KnownNetwork = 'mainnet' | 'preprod' | 'preview' | 'sandbox'

const SCRIPT_NAMES: Readonly<Record<MarloweValidatorRole, MarloweScriptName>> = {
  semantics: 'marlowe-semantics',
  payout: 'marlowe-payout',
  openRole: 'marlowe-open-role'
}

const RUNTIME_HASHES = Object.freeze({
  semantics: '377325ad84a55ba0282d844dff2d5f0f18c33fd4a28a0a9d73c6f60d',
  payout: 'fcb8885eb5e4f9a5cfca3c75e8c7280e482af32dcdf2d13e47d05d27',
  openRole: '2722e12a53dfb4fe3742b8a2c0534bd16b0b5ae492a3d76554bbe8a5'
})

/** Script hash (28 bytes, lowercase hex) of each Marlowe validator, by network. */
export const MARLOWE_VALIDATOR_HASHES: Readonly<Record<KnownNetwork, Readonly<Record<MarloweValidatorRole, string>>>> =
  Object.freeze({
    mainnet: RUNTIME_HASHES,
    preprod: RUNTIME_HASHES,
    preview: RUNTIME_HASHES,
    sandbox: Object.freeze({
      semantics: 'ba6802305bc52c06c7c96485f7f1d31db2f45de1a5f76a74c3d6953b',
      payout: 'c255f2a13267d87fd3105b0577912ee7ffcb8e6c209f4db94fd6c324',
      openRole: '64b6e306dfebd78635f88976c4178a7f339d718455aabee97ec2a0d7'
    })
  })

const NETWORK_IDS: Readonly<Record<KnownNetwork, number>> = { mainnet: 1, preprod: 0, preview: 0, sandbox: 0 }

/**
 * Hash → validator of every known network on `networkId` (1 mainnet, 0 the test networks). The sandbox's
 * stand-ins enforce nothing, so they are never taken for Marlowe on mainnet, where anyone could deploy them.
 */
export function knownMarloweScripts(networkId: number): Readonly<Record<string, MarloweScriptName>> {
  const known: Record<string, MarloweScriptName> = {}
  for (const [network, hashes] of Object.entries(MARLOWE_VALIDATOR_HASHES) as [KnownNetwork, typeof RUNTIME_HASHES][]) {
    if (NETWORK_IDS[network] !== networkId) continue
    for (const role of Object.keys(SCRIPT_NAMES) as MarloweValidatorRole[]) known[hashes[role]] = SCRIPT_NAMES[role]
  }
  return known
}
