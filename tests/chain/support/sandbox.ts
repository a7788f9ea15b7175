/** A sandbox on a hand-moved clock (no timer), in memory or in a fresh temporary directory. */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SandboxProvider, type SandboxOptions } from '../../../src/chain/sandbox'
import type { Utxo } from '../../../src/chain/provider'

/** 2025-01-01T00:00:00Z: slot 0 of every test sandbox. */
export const T0 = 1_735_689_600_000n

export class ManualClock {
  constructor(public ms: bigint = T0 + 1_000n) {}
  readonly now = (): number => Number(this.ms)
  tick(seconds: bigint): void {
    this.ms += seconds * 1000n
  }
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'marlowe-desk-sandbox-'))
}

/**
 * The Marlowe lifecycle tests' validator mode: with `MARLOWE_VALIDATORS_DIR` naming a directory of Marlowe
 * validators (TextEnvelopes, as `validators fetch` writes), the engine's harnesses open sandboxes deploying those
 * instead of the stand-ins. `openSandbox` does not: the ledger tests using it check the stand-in genesis itself.
 */
export function validatorsFromEnv(): { readonly validators?: string } {
  const dir = process.env['MARLOWE_VALIDATORS_DIR']
  return dir === undefined || dir === '' ? {} : { validators: dir }
}

export function openSandbox(
  clock = new ManualClock(),
  options: Omit<SandboxOptions, 'now' | 'clockTickMs'> = {}
): { sandbox: SandboxProvider; clock: ManualClock } {
  const sandbox = SandboxProvider.open({ zeroTime: T0, clockTickMs: false, ...options, now: clock.now })
  return { sandbox, clock }
}

/** The wallet's pure-ada UTxOs, largest first. */
export async function adaUtxos(sandbox: SandboxProvider, address: string): Promise<Utxo[]> {
  const utxos = await sandbox.utxosAt([address])
  return utxos
    .filter((u) => Object.keys(u.value.assets).length === 0 && u.scriptRef === undefined && u.datumHash === undefined)
    .sort((a, b) => (a.value.lovelace > b.value.lovelace ? -1 : a.value.lovelace < b.value.lovelace ? 1 : 0))
}
