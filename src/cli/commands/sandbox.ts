/**
 * `marlowe-desk sandbox …`: the embedded sandbox ledger — its prefunded test wallets, balances, a faucet,
 * and moving its clock forward so contract deadlines can be reached.
 */
import { formatRef } from '../../core/cardano/refs'
import { SANDBOX_WALLETS, SandboxProvider } from '../../chain/sandbox'
import { AddressError, parseShelleyAddress, type ShelleyAddress } from '../../core/cardano/address'
import { expectPositionals, parseOptions, type Command } from '../command'
import { usageError } from '../errors'
import { formatAda } from '../render/review'
import { openChain, portOf, sandboxOptions } from '../chain'
import { shareChain } from '../../chain/shared'
import { untilSignal } from '../signals'

const SHARE_PORT = 3781

/** Checked here, so that a mistyped address is said to be one rather than reported as the ledger's refusal. */
function checkPayee(command: string, address: string): void {
  let parsed: ShelleyAddress
  try {
    parsed = parseShelleyAddress(address)
  } catch (e) {
    if (e instanceof AddressError) throw usageError(`${command}: "${address}" is not a sandbox address (addr_test1…)`)
    throw e
  }
  if (parsed.mainnet) {
    throw usageError(`${command}: ${address} is a mainnet address; the sandbox is a test network (addr_test1…)`)
  }
}

function sandboxOf(provider: unknown): SandboxProvider {
  if (!(provider instanceof SandboxProvider)) throw usageError('this command works on the sandbox only')
  return provider
}

const status: Command = {
  name: 'sandbox status',
  summary: 'show the sandbox: its tip, clock and the test wallets’ balances',
  help: `Usage: marlowe-desk sandbox status [--data DIR] [--validators DIR]

Prints the sandbox's tip and clock, and the balance and address of each of its test wallets.

The sandbox is an in-process Cardano ledger (real ledger rules and Plutus execution) kept in DIR/sandbox, DIR
being the data directory (default $MARLOWE_DESK_HOME or ~/.marlowe-desk, as for serve); it is created on first
use. One process at a time holds it: stop "serve" on the same DIR before these commands. It runs
stand-ins for the Marlowe validators, or the validators in --validators DIR (see "validators fetch");
a sandbox made with one set of scripts is refused with another. Every sandbox command takes --validators.`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, sandboxOptions)
    expectPositionals(this.name, positionals, [])
    const chain = await openChain(this.name, values)
    try {
      const sandbox = sandboxOf(chain.provider)
      const tip = await sandbox.tip()
      io.out(
        `sandbox tip: slot ${tip.slot}, block ${tip.blockNo}, ${new Date(Number(sandbox.slotToTime(tip.slot))).toISOString()}`
      )
      for (const w of SANDBOX_WALLETS) {
        const utxos = await sandbox.utxosAt([w.address])
        const lovelace = utxos.reduce((n, u) => n + u.value.lovelace, 0n)
        io.out(`${w.name.padEnd(6)} ${formatAda(lovelace).padStart(22)}  ${w.address}`)
      }
    } finally {
      await chain.close()
    }
  }
}

const wallets: Command = {
  name: 'sandbox wallets',
  summary: 'list the sandbox test wallets with their public test recovery phrases',
  help: `Usage: marlowe-desk sandbox wallets

Lists the sandbox's test wallets: each one's name, address and recovery phrase. These phrases are public
test data for the sandbox only: restore one with "keys restore" to sign sandbox transactions. Never send real
funds to their addresses.`,
  async run(args, io) {
    const { positionals } = parseOptions(this.name, args, {})
    expectPositionals(this.name, positionals, [])
    for (const w of SANDBOX_WALLETS) io.out(`${w.name}\n  address: ${w.address}\n  phrase:  ${w.mnemonic}`)
  }
}

const fund: Command = {
  name: 'sandbox fund',
  summary: 'pay test ada from the sandbox faucet to an address',
  help: `Usage: marlowe-desk sandbox fund ADDRESS [--ada N] [--data DIR]

Pays N ada (default 1000) from the faucet wallet in a real sandbox transaction.`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, { ...sandboxOptions, ada: { type: 'string' } })
    const [address] = expectPositionals(this.name, positionals, ['address'])
    const ada = values.ada ?? '1000'
    if (!/^[1-9]\d{0,8}$/.test(ada))
      throw usageError(`${this.name}: --ada must be a whole number of ada from 1 to 999999999`)
    checkPayee(this.name, address!)
    const chain = await openChain(this.name, values)
    try {
      const ref = await sandboxOf(chain.provider).fund(address!, BigInt(ada) * 1_000_000n)
      io.out(`sent ${ada} ada to ${address} in ${formatRef(ref)}`)
    } finally {
      await chain.close()
    }
  }
}

const advance: Command = {
  name: 'sandbox advance',
  summary: 'move the sandbox clock forward (to reach contract deadlines)',
  help: `Usage: marlowe-desk sandbox advance (--to POSIX_MS | --slots N) [--data DIR]

Moves the sandbox clock forward, to the POSIX time --to (milliseconds) or by N slots of one second, so that
contract deadlines and validity intervals can be reached without waiting. The clock never moves back.`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, {
      ...sandboxOptions,
      to: { type: 'string' },
      slots: { type: 'string' }
    })
    expectPositionals(this.name, positionals, [])
    if ((values.to === undefined) === (values.slots === undefined))
      throw usageError(`${this.name}: give exactly one of --to and --slots`)
    const number = values.to ?? values.slots ?? ''
    if (!/^\d{1,16}$/.test(number))
      throw usageError(`${this.name}: expected a whole number, got ${JSON.stringify(number)}`)
    const chain = await openChain(this.name, values)
    try {
      const sandbox = sandboxOf(chain.provider)
      const now = sandbox.slotToTime((await sandbox.tip()).slot)
      if (values.to !== undefined && BigInt(number) <= now) {
        throw usageError(`${this.name}: the sandbox clock is already at ${now}; it only moves forward`)
      }
      const tip =
        values.to !== undefined ? await sandbox.advanceTo(BigInt(number)) : await sandbox.advanceSlots(BigInt(number))
      io.out(`sandbox now at slot ${tip.slot}, ${new Date(Number(sandbox.slotToTime(tip.slot))).toISOString()}`)
    } finally {
      await chain.close()
    }
  }
}

const share: Command = {
  name: 'sandbox share',
  summary: 'hold the sandbox and share its chain with several serve processes on this machine',
  help: `Usage: marlowe-desk sandbox share [--port N] [--data DIR] [--validators DIR]

One process at a time holds the sandbox ledger. This one holds it and serves its chain on
http://127.0.0.1:N/ (default ${SHARE_PORT}), so that several "serve --chain http://127.0.0.1:N/ --store postgres://…"
replicas build on, submit to and follow one ledger, as replicas on a real network share one node. Its clock
follows the wall clock. Runs until SIGINT/SIGTERM.

Any program on this machine can submit to it and read it: it is a test ledger with public test wallets.`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, { ...sandboxOptions, port: { type: 'string' } })
    expectPositionals(this.name, positionals, [])
    const port = portOf(this.name, values.port, SHARE_PORT)
    const chain = await openChain(this.name, values, { follow: true })
    try {
      const shared = await shareChain(chain.provider, port)
      io.out(`sandbox chain shared on http://127.0.0.1:${shared.port}/`)
      io.out(`listening ${shared.port}`)
      const signal = await untilSignal()
      io.out(`${signal}: stopping`)
      await shared.close()
    } finally {
      await chain.close()
    }
  }
}

export const sandboxCommands: readonly Command[] = [status, wallets, fund, advance, share]
