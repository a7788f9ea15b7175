/**
 * The engine as the desktop app runs it, all under the app's data directory: the settings file, the keystore,
 * the chain chosen in Settings (the sandbox by default) with its network's SQLite file, and the optional local
 * API. Keys and decrypted secrets live here, in main, and never reach the window.
 */
import type { DeskHandlers } from '../engine/desk'
import { DeskHost } from '../host/host'

export interface DeskEngine {
  readonly desk: DeskHandlers
  /** Stops the local API, locks every wallet, stops following the chain and closes the files. */
  close(): Promise<void>
}

export async function openDeskEngine(dataDir: string, version: string): Promise<DeskEngine> {
  const host = await DeskHost.open({ dataDir, version })
  return { desk: host.desk, close: () => host.close() }
}
