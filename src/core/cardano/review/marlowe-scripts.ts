/** The Marlowe validators a review recognises without being told: the current published set (marlowe-core.md §2.6). */
import type { MarloweScriptName } from './types'

export const PUBLISHED_MARLOWE_SCRIPTS: Readonly<Record<string, MarloweScriptName>> = {
  '377325ad84a55ba0282d844dff2d5f0f18c33fd4a28a0a9d73c6f60d': 'marlowe-semantics',
  fcb8885eb5e4f9a5cfca3c75e8c7280e482af32dcdf2d13e47d05d27: 'marlowe-payout',
  '2722e12a53dfb4fe3742b8a2c0534bd16b0b5ae492a3d76554bbe8a5': 'marlowe-open-role'
}
