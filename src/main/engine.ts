/**
 * The engine as the desktop app runs it, all under the app's data directory: the sandbox ledger, the keystore
 * and the service's SQLite file. Keys and decrypted secrets live here, in main, and never reach the window.
 */
import { join } from 'node:path'
import { SandboxProvider } from '../chain/sandbox'
import { createDesk, type DeskHandlers } from '../engine/desk'
import { Keystore } from '../engine/keys'
import { openService } from '../engine/service'

export interface DeskEngine {
  readonly desk: DeskHandlers
  /** Locks every wallet, stops following the chain and closes the files. */
  close(): Promise<void>
}

export async function openDeskEngine(dataDir: string, version: string): Promise<DeskEngine> {
  const keystore = await Keystore.open({ dir: join(dataDir, 'keys') })
  const provider = SandboxProvider.open({ dataDir: join(dataDir, 'sandbox') })
  const opened = openService({ provider, databasePath: join(dataDir, 'service-sandbox.sqlite') })
  return {
    desk: createDesk({ service: opened.service, store: opened.store, keystore, version }),
    async close() {
      keystore.lockAll()
      await opened.close()
      await provider.close()
    }
  }
}
