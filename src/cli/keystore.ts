/** Where the CLI keeps wallets: --keystore, else $MARLOWE_DESK_HOME/keys, else ~/.marlowe-desk/keys. */
import { join } from 'node:path'
import { Keystore } from '../engine/keys'
import { desktopHome } from './chain'

export const keystoreOption = { keystore: { type: 'string' } } as const

export function keystoreDir(option: string | undefined): string {
  if (option !== undefined) return option
  return join(desktopHome(), 'keys')
}

export function openKeystore(option: string | undefined): Promise<Keystore> {
  return Keystore.open({ dir: keystoreDir(option) })
}
