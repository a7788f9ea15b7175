/**
 * Keeping the Marlowe validators on disk: fetched from a network's reference-script UTxOs (hashes checked, see
 * src/chain/marlowe-scripts.ts) and written as a validators directory of cardano-cli TextEnvelopes, each file
 * replaced atomically so a crash never leaves half a script.
 */
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { MarloweDeployment } from '../chain/deployments'
import {
  fetchMarloweScripts,
  MARLOWE_SCRIPT_ROLES,
  VALIDATOR_FILES,
  validatorEnvelopeText,
  type MarloweValidators
} from '../chain/marlowe-scripts'
import type { ChainProvider, NetworkName } from '../chain/provider'
import { writeFileAtomic } from './keys'

/** Where a network's fetched validators are kept in a data directory. */
export function validatorsDir(dataDir: string, network: NetworkName): string {
  return join(dataDir, 'validators', network)
}

/** Writes the three validators into `dir` (created if needed); returns the paths written. */
export async function writeValidators(dir: string, validators: MarloweValidators): Promise<string[]> {
  await mkdir(dir, { recursive: true })
  const paths: string[] = []
  for (const role of MARLOWE_SCRIPT_ROLES) {
    const path = join(dir, VALIDATOR_FILES[role])
    await writeFileAtomic(path, validatorEnvelopeText(validators[role]))
    paths.push(path)
  }
  return paths
}

/** Fetches the deployment's validators through `provider`, checks them, and writes them into `dir`. */
export async function fetchValidatorsInto(
  provider: ChainProvider,
  deployment: MarloweDeployment,
  dir: string
): Promise<{ readonly validators: MarloweValidators; readonly paths: readonly string[] }> {
  const validators = await fetchMarloweScripts(provider, deployment)
  return { validators, paths: await writeValidators(dir, validators) }
}
