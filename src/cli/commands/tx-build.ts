/**
 * `marlowe-desk tx build …`: the first step of the offline story. Builds an unsigned Marlowe transaction —
 * open a contract, apply inputs, withdraw payouts — through the build/submit service (the running `serve`, or one
 * this command opens on the same data directory), and writes it as a cardano-cli TextEnvelope for `tx bundle`.
 * The build is kept in the service's store, so that `serve` follows it to confirmation whatever route it takes
 * to the chain.
 */
import type { NetworkName } from '../../chain/provider'
import {
  isJsonObject,
  JsonSyntaxError,
  parseJson,
  stringifyJson,
  type JsonObject,
  type JsonValue
} from '../../core/json/lossless'
import { CHAIN_USAGE, chainOptions, desktopHome } from '../chain'
import { expectPositionals, parseOptions, type Command, type Output } from '../command'
import { CliError, usageError } from '../errors'
import { readTextFile, writeNew } from '../files'
import { findWallet, keystoreOption, openKeystore } from '../keystore'
import { withService, type ServiceClient } from '../service-client'

const VENDOR_TYPES = {
  create: 'application/vendor.iog.marlowe-runtime.contract-tx-json',
  apply: 'application/vendor.iog.marlowe-runtime.apply-inputs-tx-json',
  withdraw: 'application/vendor.iog.marlowe-runtime.withdraw-tx-json'
} as const

/** Addresses of a wallet offered to coin selection beside its first: as many as the desk offers. */
const WALLET_ADDRESSES = 20

const options = {
  ...chainOptions,
  ...keystoreOption,
  out: { type: 'string' },
  wallet: { type: 'string' },
  'change-address': { type: 'string' },
  role: { type: 'string', multiple: true },
  tag: { type: 'string', multiple: true },
  inputs: { type: 'string' }
} as const

type Values = ReturnType<typeof parseOptions<typeof options>>['values']

function readJson(path: string, what: string): JsonValue {
  try {
    return parseJson(readTextFile(path))
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw new CliError(`${path}: not ${what} in JSON: ${e.message}`)
    throw e
  }
}

/** `NAME=ADDRESS` per role token to mint and send. */
function rolesOf(given: readonly string[]): JsonObject | undefined {
  if (given.length === 0) return undefined
  const roles: Record<string, JsonValue> = {}
  for (const text of given) {
    const at = text.indexOf('=')
    if (at <= 0 || at === text.length - 1) throw usageError(`tx build: --role ${text}: write it as NAME=ADDRESS`)
    const name = text.slice(0, at)
    if (name in roles) throw usageError(`tx build: --role ${name} is given twice`)
    roles[name] = text.slice(at + 1)
  }
  return roles
}

/** `NAME` or `NAME=TEXT` per tag, as Runtime's tags object. */
function tagsOf(given: readonly string[]): JsonObject {
  return Object.fromEntries(
    given.map((text) => {
      const at = text.indexOf('=')
      return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 1)]
    })
  )
}

const networkOf = (values: Values): NetworkName => {
  const n = values.network ?? 'sandbox'
  return n === 'preview' || n === 'preprod' || n === 'mainnet' ? n : 'sandbox'
}

/** X-Change-Address (and X-Address): the address given, or the named wallet's first addresses. */
async function walletHeaders(values: Values): Promise<Record<string, string>> {
  if ((values.wallet === undefined) === (values['change-address'] === undefined)) {
    throw usageError('tx build: give exactly one of --wallet NAME|ID or --change-address ADDRESS')
  }
  if (values['change-address'] !== undefined) return { 'x-change-address': values['change-address'] }
  const keys = await openKeystore(values.keystore)
  const { id } = await findWallet(keys, values.wallet!)
  const network = networkOf(values)
  const [payment, change] = await Promise.all([
    keys.addresses(id, network, { role: 'payment', count: WALLET_ADDRESSES }),
    keys.addresses(id, network, { role: 'change', count: WALLET_ADDRESSES })
  ])
  const addresses = [...payment, ...change].map((a) => a.base ?? a.enterprise)
  const [first, ...others] = addresses
  if (first === undefined) throw new CliError(`tx build: wallet ${values.wallet} has no address`)
  return { 'x-change-address': first, ...(others.length === 0 ? {} : { 'x-address': others.join(',') }) }
}

type Kind = keyof typeof VENDOR_TYPES

async function requestOf(
  kind: Kind,
  args: readonly string[],
  values: Values
): Promise<{ readonly path: string; readonly body: JsonObject }> {
  const tags = tagsOf(values.tag ?? [])
  switch (kind) {
    case 'create': {
      const [file] = expectPositionals('tx build create', args, ['contract'])
      const roles = rolesOf(values.role ?? [])
      return {
        path: 'contracts',
        body: {
          version: 'v1',
          contract: readJson(file!, 'a Marlowe contract'),
          tags,
          metadata: {},
          ...(roles === undefined ? {} : { roles })
        }
      }
    }
    case 'apply': {
      const [contractId] = expectPositionals('tx build apply', args, ['contract-id'])
      const inputs = values.inputs === undefined ? [] : readJson(values.inputs, 'Marlowe inputs')
      return {
        path: `contracts/${encodeURIComponent(contractId!)}/transactions`,
        body: { version: 'v1', inputs, tags, metadata: {} }
      }
    }
    case 'withdraw': {
      if (args.length === 0) throw usageError('tx build withdraw: name the payouts to withdraw (PAYOUT_ID ...)')
      return { path: 'withdrawals', body: { payouts: [...args] } }
    }
  }
}

function resourceOf(json: JsonValue | undefined): { readonly resource: JsonObject; readonly tx: JsonObject } {
  const resource = isJsonObject(json) ? json.resource : undefined
  const tx = isJsonObject(resource) ? resource.tx : undefined
  if (!isJsonObject(resource) || !isJsonObject(tx)) {
    throw new CliError('tx build: the service answered without the transaction')
  }
  return { resource, tx }
}

function report(kind: Kind, resource: JsonObject, out: string, via: string, io: Output): void {
  const what =
    kind === 'create'
      ? `contract ${String(resource.contractId)}`
      : kind === 'apply'
        ? `transaction ${String(resource.transactionId)} of contract ${String(resource.contractId)}`
        : `withdrawal ${String(resource.withdrawalId)}`
  io.out(`wrote ${out}: the unsigned ${what} (built by ${via})`)
  const warnings = Array.isArray(resource.safetyErrors) ? resource.safetyErrors : []
  for (const w of warnings) {
    if (isJsonObject(w)) io.err(`safety: ${String(w.detail ?? w.error)}`)
  }
  io.out(`next: marlowe-desk tx bundle ${out} --out bundle.json (for a review and signature offline)`)
}

export const buildCommand: Command = {
  name: 'tx build',
  summary: 'build an unsigned Marlowe transaction: open a contract, apply inputs, withdraw payouts (online)',
  help: `Usage: marlowe-desk tx build create CONTRACT.json --out FILE WALLET [--role NAME=ADDRESS]... [--tag TAG[=TEXT]]...
       marlowe-desk tx build apply CONTRACT_ID [--inputs INPUTS.json] --out FILE WALLET [--tag TAG[=TEXT]]...
       marlowe-desk tx build withdraw PAYOUT_ID... --out FILE WALLET
where WALLET is --wallet NAME|ID [--keystore DIR] or --change-address ADDRESS, and the chain is
       ${CHAIN_USAGE} [--data DIR]

Builds the transaction as Marlowe Runtime would (POST /contracts, /contracts/{id}/transactions, /withdrawals)
and writes it unsigned, as a cardano-cli TextEnvelope, for "tx bundle" and "tx sign". The wallet pays the fee
and deposit and takes the change; --role mints a role token for NAME and sends it to ADDRESS; --inputs is a
JSON array of Marlowe inputs (none: apply a timeout or close).

While "marlowe-desk serve" runs on the same data directory (--data, default $MARLOWE_DESK_HOME or
~/.marlowe-desk), the build goes through it; otherwise this command opens the chain and that directory's store
itself. Either way the build is kept there, and serve follows it once it is submitted.`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, options)
    const [kind, ...rest] = positionals
    if (kind !== 'create' && kind !== 'apply' && kind !== 'withdraw') {
      throw usageError(`tx build: say what to build: create, apply or withdraw (see --help)`)
    }
    const out = values.out
    if (out === undefined) throw usageError('tx build: --out is required')
    const request = await requestOf(kind, rest, values)
    const headers = { ...(await walletHeaders(values)), accept: VENDOR_TYPES[kind] }
    const choice = { ...values, data: values.data ?? desktopHome() }
    const { resource, tx, via } = await withService(this.name, choice, async (client: ServiceClient) => {
      const answer = await client.request('POST', request.path, { body: request.body, headers })
      return { ...resourceOf(answer.json), via: client.via }
    })
    writeNew(out, `${stringifyJson(tx, { indent: 4 })}\n`)
    report(kind, resource, out, via, io)
  }
}
