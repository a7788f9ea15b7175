/** `marlowe-desk keys …`: wallets in the local keystore. Secrets come from files or a terminal prompt. */
import { writeFileSync } from 'node:fs'
import { stringifyJson, type JsonValue } from '../../core/json/lossless'
import { isNetworkName, NETWORK_NAMES, type NetworkName } from '../../chain/provider'
import type { Keystore, WalletInfo } from '../../engine/keys'
import { expectPositionals, parseOptions, type Command, type Output } from '../command'
import { usageError } from '../errors'
import { readTextFile } from '../files'
import { findWallet, keystoreOption, openKeystore } from '../keystore'
import { mnemonic, newPassword } from '../secrets'

/** The sandbox unless told otherwise, as in every other command. */
function network(command: string, text: string | undefined): NetworkName {
  const n = text ?? 'sandbox'
  if (!isNetworkName(n)) throw usageError(`${command}: --network must be one of ${NETWORK_NAMES.join(', ')}`)
  return n
}

const networkOption = { network: { type: 'string' } } as const
const NETWORK_USAGE = '[--network sandbox|preview|preprod|mainnet]'

function describeWallet(w: WalletInfo): string {
  return `${w.id}  ${w.kind.padEnd(11)}  ${w.name}`
}

function walletJson(w: WalletInfo): JsonValue {
  return w.kind === 'single-key'
    ? { id: w.id, name: w.name, kind: w.kind, createdAt: w.createdAt, keyHash: w.keyHash }
    : { id: w.id, name: w.name, kind: w.kind, createdAt: w.createdAt, accountPublicKey: w.account.publicKey }
}

async function firstAddress(io: Output, keys: Keystore, id: string, on: NetworkName): Promise<void> {
  const [a] = await keys.addresses(id, on, { count: 1 })
  if (a !== undefined) io.out(`first address (${on}): ${a.base ?? a.enterprise}`)
}

const create: Command = {
  name: 'keys create',
  summary: 'create a wallet (BIP39 recovery phrase, CIP-1852 keys), encrypted with a password',
  help: `Usage: marlowe-desk keys create --name NAME [--words 24|15|12] [--password-file FILE] ${NETWORK_USAGE}
                          [--keystore DIR]

Creates a new wallet and prints its recovery phrase ONCE: write it down; it is not stored. The keys are
encrypted at rest with the password (typed twice without echo, or the first line of --password-file).
Then prints the wallet's first address on --network (default the sandbox).`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, {
      ...keystoreOption,
      ...networkOption,
      name: { type: 'string' },
      words: { type: 'string' },
      'password-file': { type: 'string' }
    })
    expectPositionals(this.name, positionals, [])
    if (values.name === undefined) throw usageError(`${this.name}: --name is required`)
    const words = values.words === undefined ? 24 : Number(values.words)
    if (words !== 12 && words !== 15 && words !== 24) throw usageError(`${this.name}: --words must be 12, 15 or 24`)
    const on = network(this.name, values.network)
    const keys = await openKeystore(values.keystore)
    const pw = await newPassword(values['password-file'])
    const { wallet, mnemonic: phrase } = await keys.create({ name: values.name, password: pw, words })
    io.out(`created wallet ${wallet.id} (${wallet.name})`)
    io.out(`recovery phrase — write it down now, it is not shown again:\n\n  ${phrase.join(' ')}\n`)
    await firstAddress(io, keys, wallet.id, on)
  }
}

const restore: Command = {
  name: 'keys restore',
  summary: 'restore a wallet from its 12, 15 or 24 word recovery phrase',
  help: `Usage: marlowe-desk keys restore --name NAME [--mnemonic-file FILE] [--password-file FILE] ${NETWORK_USAGE}
                           [--keystore DIR]

Restores the wallet of a recovery phrase, typed without echo or read from --mnemonic-file, and encrypts its
keys at rest with the password (typed twice without echo, or the first line of --password-file). Then prints
the wallet's first address on --network (default the sandbox).`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, {
      ...keystoreOption,
      ...networkOption,
      name: { type: 'string' },
      'mnemonic-file': { type: 'string' },
      'password-file': { type: 'string' }
    })
    expectPositionals(this.name, positionals, [])
    if (values.name === undefined) throw usageError(`${this.name}: --name is required`)
    const on = network(this.name, values.network)
    const keys = await openKeystore(values.keystore)
    const phrase = await mnemonic(values['mnemonic-file'])
    const pw = await newPassword(values['password-file'])
    const wallet = await keys.restore({ name: values.name, password: pw, mnemonic: phrase })
    io.out(`restored wallet ${wallet.id} (${wallet.name})`)
    await firstAddress(io, keys, wallet.id, on)
  }
}

const list: Command = {
  name: 'keys list',
  summary: 'list the wallets in the keystore',
  help: `Usage: marlowe-desk keys list [--json] [--keystore DIR]

Lists the wallets in the keystore: id, kind (hd, watch-only or single-key) and name; --json adds when each
was made and its public key. Wallet files that cannot be read are listed as damaged; they are never modified.`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, { ...keystoreOption, json: { type: 'boolean' } })
    expectPositionals(this.name, positionals, [])
    const { wallets, damaged } = await (await openKeystore(values.keystore)).list()
    if (values.json === true) {
      io.out(
        stringifyJson({ wallets: wallets.map(walletJson), damaged: damaged.map((d) => ({ ...d })) }, { indent: 2 })
      )
      return
    }
    if (wallets.length === 0) io.out('no wallets')
    for (const w of wallets) io.out(describeWallet(w))
    for (const d of damaged) io.err(`damaged: ${d.file}: ${d.message}`)
  }
}

const addresses: Command = {
  name: 'keys addresses',
  summary: 'show a wallet’s addresses on a network',
  help: `Usage: marlowe-desk keys addresses WALLET ${NETWORK_USAGE} [--count N] [--keystore DIR]

Prints the first N (default 5) payment addresses of the wallet on --network (default the sandbox): base
addresses with the wallet's stake key, or enterprise addresses for a single-key wallet. WALLET is the wallet's
id or its name.`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, {
      ...keystoreOption,
      network: { type: 'string' },
      count: { type: 'string' }
    })
    const [id] = expectPositionals(this.name, positionals, ['wallet'])
    const count = values.count === undefined ? 5 : Number(values.count)
    if (!Number.isInteger(count) || count < 1 || count > 1000) throw usageError(`${this.name}: --count must be 1..1000`)
    const on = network(this.name, values.network)
    const keys = await openKeystore(values.keystore)
    const wallet = await findWallet(keys, id!)
    for (const a of await keys.addresses(wallet.id, on, { count })) {
      io.out(`${a.base ?? a.enterprise}`)
    }
  }
}

const exportPublic: Command = {
  name: 'keys export-public',
  summary: 'export a wallet’s account public key (acct_xvk and cardano-cli file) or a verification key',
  help: `Usage: marlowe-desk keys export-public WALLET [--out FILE] [--keystore DIR]

Prints the account public key (acct_xvk…, for a watch-only wallet: "keys watch") and writes it to --out as
an AccountExtendedVerificationKeyShelley_ed25519_bip32 TextEnvelope. cardano-cli has no type for an account
key; under its payment key type, cardano-cli would take the file for a payment key and build addresses that
no wallet watches. A single-key wallet exports its cardano-cli PaymentVerificationKeyShelley_ed25519 file.
WALLET is the wallet's id or its name. Never exports private keys.`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, { ...keystoreOption, out: { type: 'string' } })
    const [id] = expectPositionals(this.name, positionals, ['wallet'])
    const keys = await openKeystore(values.keystore)
    const wallet = await findWallet(keys, id!)
    const envelope =
      wallet.kind === 'single-key'
        ? await keys.exportVerificationKey(wallet.id)
        : (await keys.exportAccountKey(wallet.id)).envelope
    if (wallet.kind !== 'single-key') io.out(wallet.account.publicKey)
    if (values.out !== undefined) {
      writeFileSync(values.out, envelope, { flag: 'wx' })
      io.out(`wrote ${values.out}`)
    } else if (wallet.kind === 'single-key') {
      io.out(envelope)
    }
  }
}

const importSkey: Command = {
  name: 'keys import-skey',
  summary: 'import a cardano-cli payment signing key file as a single-key wallet',
  help: `Usage: marlowe-desk keys import-skey KEY.skey --name NAME [--password-file FILE] ${NETWORK_USAGE}
                              [--keystore DIR]

Accepts PaymentSigningKeyShelley_ed25519 and PaymentExtendedSigningKeyShelley_ed25519_bip32 files.
The key is stored encrypted with the password; the file itself is not changed. Then prints the wallet's
address on --network (default the sandbox).`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, {
      ...keystoreOption,
      ...networkOption,
      name: { type: 'string' },
      'password-file': { type: 'string' }
    })
    const [file] = expectPositionals(this.name, positionals, ['key.skey'])
    if (values.name === undefined) throw usageError(`${this.name}: --name is required`)
    const on = network(this.name, values.network)
    const keyFile = readTextFile(file!)
    const keys = await openKeystore(values.keystore)
    const pw = await newPassword(values['password-file'])
    const wallet = await keys.importSigningKey({ name: values.name, password: pw, keyFile })
    io.out(`imported ${wallet.id} (${wallet.name})`)
    await firstAddress(io, keys, wallet.id, on)
  }
}

const watch: Command = {
  name: 'keys watch',
  summary: 'add a watch-only wallet from an account public key (it can review, not sign)',
  help: `Usage: marlowe-desk keys watch (acct_xvk1… | KEY.vkey) --name NAME ${NETWORK_USAGE} [--keystore DIR]

Adds a watch-only wallet from an account public key: the acct_xvk1… that "keys export-public" prints, or the
file it writes (older versions wrote it as a PaymentExtendedVerificationKeyShelley_ed25519_bip32 file, which is
taken too). The wallet derives addresses and reviews transactions, but holds no key to sign with. Then prints
its first address on --network (default the sandbox).`,
  async run(args, io) {
    const { values, positionals } = parseOptions(this.name, args, {
      ...keystoreOption,
      ...networkOption,
      name: { type: 'string' }
    })
    const [key] = expectPositionals(this.name, positionals, ['account key'])
    if (values.name === undefined) throw usageError(`${this.name}: --name is required`)
    const on = network(this.name, values.network)
    const accountKey = key!.startsWith('acct_xvk') ? key! : readTextFile(key!)
    const keys = await openKeystore(values.keystore)
    const wallet = await keys.importWatchOnly({ name: values.name, accountKey })
    io.out(`watching ${wallet.id} (${wallet.name})`)
    await firstAddress(io, keys, wallet.id, on)
  }
}

export const keysCommands: readonly Command[] = [create, restore, list, addresses, exportPublic, importSkey, watch]
