/**
 * `marlowe-desk validators fetch`: the Marlowe validators' bytes, read through a node from the network's
 * reference-script UTxOs (each hash checked against the deployments table) and kept as cardano-cli TextEnvelopes,
 * for running the real validators on the sandbox (`serve --validators DIR`).
 */
import { deploymentOf } from '../../chain/deployments'
import { MarloweScriptsError } from '../../chain/marlowe-scripts'
import { fetchValidatorsInto, validatorsDir } from '../../engine/validator-files'
import { expectPositionals, parseOptions, type Command } from '../command'
import { CHAIN_USAGE, chainOptions, desktopHome, openChain } from '../chain'
import { CliError } from '../errors'

const fetchCommand: Command = {
  name: 'validators fetch',
  summary: 'fetch the Marlowe validators from their reference scripts into a directory',
  help: `Usage: marlowe-desk validators fetch ${CHAIN_USAGE} [--out DIR] [--data DIR]

Reads the semantics, payout and open-role validators from the network's Marlowe reference-script UTxOs,
checks each script's hash against the deployment this program knows, and writes them as cardano-cli
TextEnvelopes (semantics.plutus, payout.plutus, open-role.plutus) into DIR (default
$MARLOWE_DESK_HOME/validators/NETWORK). "serve --validators DIR" runs them on the sandbox. --data names
the data directory whose sandbox to read them from (with --network sandbox).`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, { ...chainOptions, out: { type: 'string' } })
    expectPositionals(this.name, positionals, [])
    const chain = await openChain(this.name, values)
    try {
      const dir = values.out ?? validatorsDir(desktopHome(), chain.network)
      const { validators, paths } = await fetchValidatorsInto(chain.provider, deploymentOf(chain.provider), dir)
      io.out(`semantics  ${validators.semantics.hash}  ${paths[0]}`)
      io.out(`payout     ${validators.payout.hash}  ${paths[1]}`)
      io.out(`open-role  ${validators.openRole.hash}  ${paths[2]}`)
    } catch (e) {
      if (e instanceof MarloweScriptsError) throw new CliError(`${this.name}: ${e.message}`)
      throw e
    } finally {
      await chain.close()
    }
  }
}

export const validatorsCommands: readonly Command[] = [fetchCommand]
