/**
 * `marlowe-desk tx …`: review, sign and assemble transactions — all offline — and, online, build a Marlowe
 * transaction (./tx-build), bundle a transaction with what an offline review needs, and submit it; the online ones
 * through the build/submit service (../service-client).
 */
import { readFileSync } from 'node:fs'
import { bytesToHex, utf8Encode } from '../../core/bytes'
import { stringifyBundle, type ReviewBundle } from '../../core/cardano/bundle'
import { stringifyTextEnvelope } from '../../core/cardano/envelope'
import { reviewTransaction, TxDecodeError } from '../../core/cardano/review'
import type { OwnWallet, ReviewContext } from '../../core/cardano/review'
import { keyWitnessEnvelopeType, txEnvelopeType, witnessSetEnvelopeType } from '../../core/cardano/tx-envelope'
import { keyWitnessBytes, witnessSetBytes, type VkeyWitness } from '../../core/cardano/witnesses'
import { isJsonObject, stringifyJson, type JsonObject, type JsonValue } from '../../core/json/lossless'
import { toJsonValue } from '../../core/json/plain'
import { EngineError } from '../../engine/errors'
import type { Keystore } from '../../engine/keys'
import {
  bundleFacts,
  bundleNetworkId,
  isReviewBundle,
  ownWallet,
  readBundle,
  readLoaded,
  reviewContext,
  type LoadedTx
} from '../../engine/offline-tx'
import { assembleTransaction, readTransaction, readWitnessFile, signTransaction } from '../../engine/sign'
import { expectPositionals, parseOptions, type Command, type Output } from '../command'
import { CliError, usageError } from '../errors'
import { findWallet, keystoreOption, openKeystore, signingWallet } from '../keystore'
import { renderReview } from '../render/review'
import { password } from '../secrets'
import { CHAIN_USAGE, chainOptions } from '../chain'
import { writeNew } from '../files'
import { withService } from '../service-client'
import { TX_ID } from '../../server/requests'
import { buildCommand } from './tx-build'
import { qrCommands } from './tx-qr'

const MAX_FILE_BYTES = 64 * 1024 * 1024

function readBytes(path: string): Uint8Array {
  try {
    const bytes = readFileSync(path)
    if (bytes.length > MAX_FILE_BYTES) throw new CliError(`${path}: file is larger than ${MAX_FILE_BYTES} bytes`)
    return new Uint8Array(bytes)
  } catch (e) {
    if (e instanceof CliError) throw e
    const code = (e as NodeJS.ErrnoException).code
    throw new CliError(code === 'ENOENT' ? `${path}: no such file` : `${path}: cannot read (${code ?? String(e)})`)
  }
}

const isBundleText = (bytes: Uint8Array): boolean => isReviewBundle(new TextDecoder().decode(bytes))

/** A file's invalid bundle is named by its path. */
function named<T>(path: string, read: () => T): T {
  try {
    return read()
  } catch (e) {
    if (e instanceof EngineError && e.code === 'InvalidBundle') throw new CliError(`${path}: ${e.message}`)
    throw e
  }
}

function parseBundleBytes(path: string, bytes: Uint8Array): ReviewBundle {
  return named(path, () => readBundle(new TextDecoder().decode(bytes)))
}

/** A transaction file or a review bundle; `--bundle` adds a bundle's context to a plain transaction file. */
function load(path: string, bundlePath: string | undefined): LoadedTx {
  const loaded = named(path, () => readLoaded(readBytes(path)))
  if (loaded.bundle !== undefined || bundlePath === undefined) return loaded
  const bundle = parseBundleBytes(bundlePath, readBytes(bundlePath))
  const bundled = readTransaction(bundle.tx).txId
  if (bundled !== loaded.txId) {
    throw new CliError(`${bundlePath}: the bundle is for transaction ${bundled}, not ${loaded.txId}`)
  }
  return { ...loaded, bundle }
}

/** A transaction file where a review bundle would be the wrong thing: says which file to give instead. */
function transactionOnly(path: string, bytes: Uint8Array, instead: string): LoadedTx {
  if (isBundleText(bytes)) throw new CliError(`${path} is a review bundle, not a transaction: ${instead}`)
  return readTransaction(bytes)
}

/** Witness files; a review bundle given as one is named for what it is (`readWitnessFile` names the rest). */
function readWitnesses(paths: readonly string[]): VkeyWitness[] {
  return paths.flatMap((p) => {
    const bytes = readBytes(p)
    if (isBundleText(bytes)) {
      throw new CliError(`${p} is a review bundle, not a witness: give the witness files that "tx sign" wrote`)
    }
    return readWitnessFile(bytes, p)
  })
}

/** The named wallets, each called by its name in the review. */
async function ownWallets(keys: Keystore | undefined, names: readonly string[], network: string): Promise<OwnWallet[]> {
  if (keys === undefined) return []
  const net = network === 'mainnet' || network === 'preview' || network === 'preprod' ? network : 'sandbox'
  return Promise.all(
    names.map(async (name) => {
      const { id } = await findWallet(keys, name)
      const [wallet, info] = await Promise.all([ownWallet(keys, id, net), keys.get(id)])
      return { ...wallet, id: info.name }
    })
  )
}

function offlineContext(loaded: LoadedTx, wallets: OwnWallet[]): ReviewContext {
  const b = loaded.bundle
  const base = { now: BigInt(Date.now()), wallets, ...(b === undefined ? {} : { networkId: bundleNetworkId(b) }) }
  return reviewContext(base, b === undefined ? undefined : bundleFacts(b))
}

const review: Command = {
  name: 'tx review',
  summary: 'show what a transaction really does, decoded from its own bytes (offline)',
  help: `Usage: marlowe-desk tx review (TX | BUNDLE) [--bundle BUNDLE] [--wallet WALLET]... [--json] [--keystore DIR]

Decodes the transaction from its bytes: inputs, outputs, mint, validity as UTC time, scripts, datums and
redeemers decoded as Marlowe, what the Marlowe contract will do, the net effect on --wallet, and warnings.
TX is a TextEnvelope (Tx/TxBody of any era), hex or raw CBOR. A review bundle (tx bundle) adds the spent
outputs, times and protocol parameters, so the review is complete on a machine with no network.
WALLET is a wallet's id or its name (as "keys list" shows them).`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, {
      ...keystoreOption,
      bundle: { type: 'string' },
      wallet: { type: 'string', multiple: true },
      json: { type: 'boolean' }
    })
    const [file] = expectPositionals(this.name, positionals, ['tx'])
    const loaded = load(file!, values.bundle)
    const walletNames = values.wallet ?? []
    const keys = walletNames.length === 0 ? undefined : await openKeystore(values.keystore)
    const wallets = await ownWallets(keys, walletNames, loaded.bundle?.network ?? 'sandbox')
    let result
    try {
      result = reviewTransaction(loaded.tx, offlineContext(loaded, wallets))
    } catch (e) {
      if (e instanceof TxDecodeError) throw new CliError(`${file}: ${e.message}`)
      throw e
    }
    io.out(values.json === true ? stringifyJson(toJsonValue(result), { indent: 2 }) : renderReview(result))
  }
}

function witnessPaths(out: string, count: number): string[] {
  if (count === 1) return [out]
  const stem = out.replace(/\.[^./]*$/, '')
  return Array.from({ length: count }, (_, i) => `${stem}-${i + 1}.witness`)
}

const sign: Command = {
  name: 'tx sign',
  summary: 'sign a transaction with a wallet’s keys (offline; the body is never re-encoded)',
  help: `Usage: marlowe-desk tx sign (TX | BUNDLE) --wallet WALLET --out FILE [--bundle BUNDLE] [--witness-only | --cli-witness]
                          [--password-file FILE] [--keystore DIR]

Signs with exactly the wallet keys the transaction needs: the inputs and collateral it owns (known from a
review bundle), required signers, withdrawals and stake certificates. The tx id does not change.
Writes the signed "Tx <Era>" file, or with --witness-only a "ShelleyTxWitness <Era>" witness set (what
Marlowe Runtime's PUT accepts), or with --cli-witness cardano-cli "TxWitness <Era>" files (one per key).
WALLET is the wallet's id or its name (as "keys list" shows them).`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, {
      ...keystoreOption,
      bundle: { type: 'string' },
      wallet: { type: 'string' },
      out: { type: 'string' },
      'witness-only': { type: 'boolean' },
      'cli-witness': { type: 'boolean' },
      'password-file': { type: 'string' }
    })
    const [file] = expectPositionals(this.name, positionals, ['tx'])
    if (values.wallet === undefined) throw usageError(`${this.name}: --wallet is required`)
    if (values.out === undefined) throw usageError(`${this.name}: --out is required`)
    if (values['witness-only'] === true && values['cli-witness'] === true) {
      throw usageError(`${this.name}: choose one of --witness-only and --cli-witness`)
    }
    const loaded = load(file!, values.bundle)
    const keys = await openKeystore(values.keystore)
    const { id: walletId } = await signingWallet(keys, values.wallet)
    await keys.unlock(walletId, await password(values['password-file']))
    const resolved = loaded.bundle?.resolvedInputs ?? []
    const result = await signTransaction({ tx: loaded.tx, walletId, keys, resolved })
    keys.lock(walletId)
    if (result.witnesses.length === 0)
      throw new CliError(`the wallet holds none of the keys transaction ${result.txId} needs`)
    if (values['cli-witness'] === true) {
      const paths = witnessPaths(values.out, result.witnesses.length)
      result.witnesses.forEach((w, i) =>
        writeNew(
          paths[i]!,
          stringifyTextEnvelope({
            type: keyWitnessEnvelopeType(loaded.era),
            description: 'Key Witness ShelleyEra',
            cbor: keyWitnessBytes(w)
          })
        )
      )
      io.out(`wrote ${paths.join(', ')}`)
    } else if (values['witness-only'] === true) {
      writeNew(
        values.out,
        stringifyTextEnvelope({
          type: witnessSetEnvelopeType(loaded.era),
          description: '',
          cbor: witnessSetBytes(result.witnesses)
        })
      )
      io.out(`wrote ${values.out}`)
    } else {
      writeNew(
        values.out,
        stringifyTextEnvelope({ type: txEnvelopeType(loaded.era), description: 'Ledger Cddl Format', cbor: result.tx })
      )
      io.out(`wrote ${values.out}`)
    }
    io.out(`signed ${result.txId} with ${result.witnesses.length} key(s)`)
    reportGaps(io, result.missing, result.unresolved.length)
  }
}

function reportGaps(io: Output, missing: ReadonlyMap<string, readonly string[]>, unresolved: number): void {
  for (const [key, why] of missing)
    io.err(`still needs a signature from ${key} (${why.join(', ')}) that this wallet cannot make`)
  if (unresolved > 0) {
    io.err(
      `${unresolved} input(s) were not resolved, so their owners' signatures were not worked out: sign with a review bundle`
    )
  }
}

const assemble: Command = {
  name: 'tx assemble',
  summary: 'add witness files to a transaction (offline), checking each signature first',
  help: `Usage: marlowe-desk tx assemble (TX | BUNDLE) WITNESS... --out FILE

Writes the transaction with the witnesses added, as a signed "Tx <Era>" file for "tx submit". TX is the
transaction file, or the review bundle it was signed from (its transaction is taken). WITNESS files are
"ShelleyTxWitness <Era>" witness sets or cardano-cli "TxWitness <Era>" key witnesses. A witness made for
another transaction is refused.`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, { out: { type: 'string' } })
    if (positionals.length < 2) throw usageError(`${this.name}: expected TX and at least one WITNESS file (see --help)`)
    if (values.out === undefined) throw usageError(`${this.name}: --out is required`)
    const [txPath, ...witnessPaths] = positionals as [string, ...string[]]
    const file = load(txPath, undefined)
    const { tx, added } = assembleTransaction(file.tx, readWitnesses(witnessPaths))
    writeNew(
      values.out,
      stringifyTextEnvelope({ type: txEnvelopeType(file.era), description: 'Ledger Cddl Format', cbor: tx })
    )
    io.out(`wrote ${values.out}: ${file.txId} with ${added} new witness(es)`)
  }
}

/** What the service's transfer routes take: the transaction as a TextEnvelope. */
function envelopeJson(loaded: LoadedTx): JsonObject {
  return { type: txEnvelopeType(loaded.era), description: '', cborHex: bytesToHex(loaded.tx) }
}

const ONLINE_RULE = `While "marlowe-desk serve" runs on the same data directory (--data, default $MARLOWE_DESK_HOME or
~/.marlowe-desk) and network, this goes through it; otherwise this command opens the chain itself.`

const bundle: Command = {
  name: 'tx bundle',
  summary: 'bundle a transaction with the chain data an offline review needs (online)',
  help: `Usage: marlowe-desk tx bundle TX --out FILE ${CHAIN_USAGE} [--data DIR]

Looks up the outputs the transaction spends and references, the slot ↔ time mapping and the protocol
parameters, and writes a review bundle for "tx review" and "tx sign" on an air-gapped machine.

${ONLINE_RULE}`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, { ...chainOptions, out: { type: 'string' } })
    const [file] = expectPositionals(this.name, positionals, ['tx'])
    if (values.out === undefined) throw usageError(`${this.name}: --out is required`)
    const out = values.out
    const loaded = transactionOnly(file!, readBytes(file!), 'it already holds what an offline review needs')
    const { text, missing } = await withService(this.name, values, async (client) => {
      const answer = await client.request('POST', 'desk/bundles', { body: envelopeJson(loaded) })
      return { text: answer.text, missing: (answer.headers.get('x-missing-outputs') ?? '').split(',').filter(Boolean) }
    })
    const doc = parseBundleBytes("the service's bundle", utf8Encode(text)!)
    writeNew(out, stringifyBundle(doc))
    io.out(`wrote ${out}: ${loaded.txId} with ${doc.resolvedInputs.length} resolved output(s)`)
    if (missing.length > 0) io.err(`not found on chain: ${missing.join(', ')}`)
  }
}

/** What a submission answered, in words: sent now, or already there (nothing sent again). */
function submissionText(answer: JsonValue | undefined): string {
  const txId = isJsonObject(answer) && typeof answer.txId === 'string' ? answer.txId : undefined
  if (txId === undefined || !isJsonObject(answer)) throw new CliError('tx submit: the service answered without the id')
  const already = isJsonObject(answer.already) ? answer.already : undefined
  const block = isJsonObject(already?.block) ? already.block : undefined
  switch (already?.status) {
    case undefined:
      return `submitted ${txId}`
    case 'confirmed':
      return `already on chain: ${txId} was confirmed in block ${String(block?.blockNo)} (slot ${String(block?.slot)}); nothing was sent again`
    case 'pending':
      return `already submitted: ${txId} is waiting in the node's mempool for a block; nothing was sent again`
    default:
      return `already submitted: ${txId} was submitted before; nothing was sent again`
  }
}

const submit: Command = {
  name: 'tx submit',
  summary: 'submit a signed transaction (online)',
  help: `Usage: marlowe-desk tx submit TX ${CHAIN_USAGE} [--data DIR]

Answers once the node accepted the transaction (it is not yet in a block). A transaction the chain already
has (confirmed, or waiting in the node's mempool) is not sent again: that is said, and the exit code is 0.
A rejection prints the ledger's reason and exits 1. A transaction "tx build" made is checked against its
build first, and serve follows it to confirmation.

${ONLINE_RULE}`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, chainOptions)
    const [file] = expectPositionals(this.name, positionals, ['tx'])
    const loaded = transactionOnly(
      file!,
      readBytes(file!),
      'submit the signed transaction that "tx sign" or "tx assemble" wrote'
    )
    const answer = await withService(this.name, values, async (client) => {
      return (await client.request('POST', 'desk/submissions', { body: envelopeJson(loaded) })).json
    })
    io.out(submissionText(answer))
  }
}

const discard: Command = {
  name: 'tx discard',
  summary: 'give up an unsigned build, freeing the funds it holds (online)',
  help: `Usage: marlowe-desk tx discard TXID ${CHAIN_USAGE} [--data DIR]

Gives up a transaction "tx build" (or the service) built and nobody submitted: the wallet outputs it reserved
are free for other builds at once, and submitting it is refused from then on (BuildDiscarded). Discarding it
again changes nothing; a transaction already submitted cannot be discarded.

${ONLINE_RULE}`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, chainOptions)
    const [txId] = expectPositionals(this.name, positionals, ['txid'])
    if (!TX_ID.test(txId!)) throw usageError(`${this.name}: ${txId!} is not a transaction id (64 hex digits)`)
    const answer = await withService(this.name, values, async (client) => {
      return (await client.request('POST', 'desk/discards', { body: { txId: txId! } })).json
    })
    const at = isJsonObject(answer) && typeof answer.discardedAt === 'string' ? answer.discardedAt : undefined
    if (at === undefined) throw new CliError(`${this.name}: the service answered without the time of the discard`)
    io.out(`discarded ${txId!.toLowerCase()} (at ${at}): the funds it held are free, and it can no longer be submitted`)
  }
}

export const txCommands: readonly Command[] = [
  buildCommand,
  review,
  sign,
  assemble,
  bundle,
  submit,
  discard,
  ...qrCommands
]
