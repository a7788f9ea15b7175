/** Where the CLI keeps wallets: --keystore, else $MARLOWE_DESK_HOME/keys, else ~/.marlowe-desk/keys. */
import { homedir } from 'node:os'
import { join } from 'node:path'
import { Keystore } from '../engine/keys'

export const keystoreOption = { keystore: { type: 'string' } } as const

export function keystoreDir(option: string | undefined): string {
  if (option !== undefined) return option
  const home = process.env['MARLOWE_DESK_HOME'] ?? join(homedir(), '.marlowe-desk')
  return join(home, 'keys')
}

export function openKeystore(option: string | undefined): Promise<Keystore> {
  return Keystore.open({ dir: keystoreDir(option) })
}
