/**
 * The wallet file, version 1: one JSON document per wallet, `<id>.wallet.json`.
 *
 * Readable without the password: format, version, id, name, kind, createdAt and the public key (the
 * `account` {index, publicKey: acct_xvk} of HD, watch-only and hardware wallets, the `verificationKey` of a
 * single-key wallet); a hardware wallet's `vendor` too (its account key was read from the device once). Encrypted (`secret`, absent from watch-only wallets): the account extended private key (96 bytes)
 * of an HD wallet, or the signing key of a single-key wallet (32-byte seed or 64-byte extended key). The
 * mnemonic is never stored: it cannot be shown again, and the account key is all signing needs.
 *
 * `checksum` is the SHA-256 of the document without it (compact JSON, in file order), so damage anywhere,
 * including in public fields that have no other integrity check, is reported instead of silently deriving
 * wrong addresses. Format and version are checked first, so a newer file is named as such, not as damaged.
 */
import { createHash } from 'node:crypto'
import { blake2bHex } from '../../core/blake2b'
import { bytesToHex, hexToBytes } from '../../core/bytes'
import { decodeAccountXvk, encodeAccountXvk, KeyEncodingError } from '../../core/cardano/keys-bech32'
import { isJsonObject, JsonSyntaxError, parseJson, stringifyJson, type JsonObject } from '../../core/json/lossless'
import { keystoreError } from './errors'
import { CHECK_BYTES, NONCE_BYTES, SALT_BYTES, scryptParamsProblem, TAG_BYTES, type SealedSecret } from './secret-box'

const WALLET_FILE_FORMAT = 'marlowe-desk/wallet'
const WALLET_FILE_VERSION = 1
export const WALLET_FILE_PATTERN = /^[0-9a-f]{40}\.wallet\.json$/

export type WalletKind = 'hd' | 'watch-only' | 'single-key' | 'hardware'

/** Who made the device of a hardware wallet, whose keys never leave it. */
export type HardwareVendor = 'ledger' | 'trezor'
const HARDWARE_VENDORS: readonly string[] = ['ledger', 'trezor'] satisfies HardwareVendor[]

export interface AccountKey {
  readonly index: number
  /** Public key ‖ chain code, 64 bytes. */
  readonly xvk: Uint8Array
}

interface RecordBase {
  readonly id: string
  readonly name: string
  /** ISO 8601, UTC. */
  readonly createdAt: string
}

export type WalletRecord =
  | (RecordBase & { readonly kind: 'hd'; readonly account: AccountKey; readonly secret: SealedSecret })
  | (RecordBase & { readonly kind: 'watch-only'; readonly account: AccountKey })
  | (RecordBase & { readonly kind: 'hardware'; readonly vendor: HardwareVendor; readonly account: AccountKey })
  | (RecordBase & { readonly kind: 'single-key'; readonly verificationKey: Uint8Array; readonly secret: SealedSecret })

const MAX_NAME_LENGTH = 100
const MAX_ACCOUNT_INDEX = 0x7fffffff
const MAX_FILE_LENGTH = 64 * 1024
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u

export function walletFileName(id: string): string {
  return `${id}.wallet.json`
}

/** The id of a wallet: blake2b-160 of its public key, as cardano-wallet's wallet ids (hex, 40 characters). */
export function walletIdOf(publicKey: Uint8Array): string {
  return blake2bHex(publicKey, 20)
}

/** Why a wallet name is unacceptable, or undefined when it is fine. */
export function walletNameProblem(name: string): string | undefined {
  if (name === '') return 'a wallet name cannot be empty'
  if (name.trim() !== name) return 'a wallet name cannot start or end with spaces'
  if (name.length > MAX_NAME_LENGTH) return `a wallet name has at most ${MAX_NAME_LENGTH} characters`
  if (CONTROL.test(name)) return 'a wallet name cannot hold control characters'
  return undefined
}

/** Associated data of a wallet's ciphertext, so a secret cannot be moved into another wallet's file. */
export function secretBinding(kind: WalletKind, id: string, publicKey: Uint8Array): Uint8Array {
  return new TextEncoder().encode(`${WALLET_FILE_FORMAT} ${kind} ${id} ${bytesToHex(publicKey)}`)
}

export function encodeWalletFile(record: WalletRecord): string {
  const doc: JsonObject = {
    format: WALLET_FILE_FORMAT,
    version: BigInt(WALLET_FILE_VERSION),
    id: record.id,
    name: record.name,
    kind: record.kind,
    createdAt: record.createdAt
  }
  if (record.kind === 'hardware') doc['vendor'] = record.vendor
  if (record.kind === 'single-key') doc['verificationKey'] = bytesToHex(record.verificationKey)
  else doc['account'] = { index: BigInt(record.account.index), publicKey: encodeAccountXvk(record.account.xvk) }
  if (record.kind === 'hd' || record.kind === 'single-key') doc['secret'] = encodeSecret(record.secret)
  doc['checksum'] = checksumOf(doc)
  return stringifyJson(doc, { indent: 2 }) + '\n'
}

function encodeSecret(secret: SealedSecret): JsonObject {
  const { N, r, p } = secret.scrypt
  return {
    kdf: { name: 'scrypt', N: BigInt(N), r: BigInt(r), p: BigInt(p), salt: bytesToHex(secret.salt) },
    cipher: { name: 'aes-256-gcm', nonce: bytesToHex(secret.nonce), tag: bytesToHex(secret.tag) },
    passwordCheck: bytesToHex(secret.passwordCheck),
    ciphertext: bytesToHex(secret.ciphertext)
  }
}

/** Reads a wallet file's text; `file` names it in errors. Throws the keystore's file errors, never repairs. */
export function decodeWalletFile(text: string, file: string): WalletRecord {
  const doc = parseDocument(text, file)
  const damaged = (problem: string): never => {
    throw keystoreError('WalletFileCorrupt', `wallet file ${file} is damaged: ${problem}`, { file })
  }
  if (doc['format'] !== WALLET_FILE_FORMAT) {
    throw keystoreError('WalletFileCorrupt', `${file} is not a Marlowe Desk wallet file`, { file })
  }
  const version = doc['version']
  if (typeof version !== 'bigint') return damaged('"version" must be an integer')
  if (version !== BigInt(WALLET_FILE_VERSION)) {
    throw keystoreError(
      'WalletFileUnsupportedVersion',
      `wallet file ${file} has format version ${version}, but this Marlowe Desk reads version ${WALLET_FILE_VERSION}; it may come from a newer release`,
      { file, version: version.toString() }
    )
  }
  if (doc['checksum'] !== checksumOf(doc)) {
    throw keystoreError(
      'WalletFileCorrupt',
      `wallet file ${file} is damaged or was modified: its checksum does not match`,
      {
        file
      }
    )
  }
  return readRecord(new Fields(doc, '', damaged))
}

function parseDocument(text: string, file: string): JsonObject {
  let doc
  try {
    doc = parseJson(text, { maxLength: MAX_FILE_LENGTH, maxDepth: 4 })
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e
    if (e.offset >= text.length) {
      throw keystoreError(
        'WalletFileTruncated',
        `wallet file ${file} is truncated: it ends after ${text.length} characters, inside its JSON document`,
        { file }
      )
    }
    throw keystoreError('WalletFileCorrupt', `wallet file ${file} is damaged: ${e.message}`, { file })
  }
  if (!isJsonObject(doc)) {
    throw keystoreError('WalletFileCorrupt', `wallet file ${file} is damaged: it is not a JSON object`, { file })
  }
  return doc
}

function checksumOf(doc: JsonObject): string {
  const rest: JsonObject = {}
  for (const key of Object.keys(doc)) if (key !== 'checksum') rest[key] = doc[key]!
  return createHash('sha256').update(stringifyJson(rest)).digest('hex')
}

const COMMON_FIELDS = ['format', 'version', 'id', 'name', 'kind', 'createdAt', 'checksum']

function readRecord(fields: Fields): WalletRecord {
  const id = fields.string('id')
  if (!/^[0-9a-f]{40}$/.test(id)) fields.fail('"id" must be 40 lowercase hex characters')
  const name = fields.string('name')
  const nameProblem = walletNameProblem(name)
  if (nameProblem !== undefined) fields.fail(`"name": ${nameProblem}`)
  const createdAt = fields.string('createdAt')
  if (!ISO_UTC.test(createdAt) || Number.isNaN(Date.parse(createdAt)))
    fields.fail('"createdAt" must be an ISO 8601 UTC time')
  const kind = fields.string('kind')
  const base = { id, name, createdAt }
  let record: WalletRecord
  let publicKey: Uint8Array
  if (kind === 'single-key') {
    fields.only([...COMMON_FIELDS, 'verificationKey', 'secret'])
    const verificationKey = fields.hex('verificationKey', 32)
    publicKey = verificationKey
    record = { ...base, kind, verificationKey, secret: readSecret(fields.object('secret')) }
  } else if (kind === 'hd' || kind === 'watch-only') {
    fields.only([...COMMON_FIELDS, 'account', ...(kind === 'hd' ? ['secret'] : [])])
    const account = readAccount(fields.object('account'))
    publicKey = account.xvk
    record =
      kind === 'hd'
        ? { ...base, kind, account, secret: readSecret(fields.object('secret')) }
        : { ...base, kind, account }
  } else if (kind === 'hardware') {
    fields.only([...COMMON_FIELDS, 'vendor', 'account'])
    const vendor = fields.string('vendor')
    if (!isHardwareVendor(vendor)) return fields.fail(`"vendor" must be "ledger" or "trezor", got "${vendor}"`)
    const account = readAccount(fields.object('account'))
    publicKey = account.xvk
    record = { ...base, kind, vendor, account }
  } else {
    return fields.fail(`"kind" must be "hd", "watch-only", "single-key" or "hardware", got "${kind}"`)
  }
  if (walletIdOf(publicKey) !== id) fields.fail('"id" does not match the public key')
  return record
}

export function isHardwareVendor(vendor: string): vendor is HardwareVendor {
  return HARDWARE_VENDORS.includes(vendor)
}

function readAccount(fields: Fields): AccountKey {
  fields.only(['index', 'publicKey'])
  const index = fields.integer('index', 0, MAX_ACCOUNT_INDEX)
  const text = fields.string('publicKey')
  try {
    return { index, xvk: decodeAccountXvk(text) }
  } catch (e) {
    if (e instanceof KeyEncodingError) return fields.fail(`"publicKey": ${e.message}`)
    throw e
  }
}

function readSecret(fields: Fields): SealedSecret {
  fields.only(['kdf', 'cipher', 'passwordCheck', 'ciphertext'])
  const kdf = fields.object('kdf')
  kdf.only(['name', 'N', 'r', 'p', 'salt'])
  if (kdf.string('name') !== 'scrypt') kdf.fail('"name" must be "scrypt"')
  const scrypt = { N: kdf.integer('N', 1, 2 ** 30), r: kdf.integer('r', 1, 1024), p: kdf.integer('p', 1, 1024) }
  const problem = scryptParamsProblem(scrypt)
  if (problem !== undefined) kdf.fail(problem)
  const cipher = fields.object('cipher')
  cipher.only(['name', 'nonce', 'tag'])
  if (cipher.string('name') !== 'aes-256-gcm') cipher.fail('"name" must be "aes-256-gcm"')
  return {
    scrypt,
    salt: kdf.hex('salt', SALT_BYTES),
    nonce: cipher.hex('nonce', NONCE_BYTES),
    tag: cipher.hex('tag', TAG_BYTES),
    passwordCheck: fields.hex('passwordCheck', CHECK_BYTES),
    ciphertext: fields.hex('ciphertext')
  }
}

/** Typed reads of one JSON object's fields, with errors naming the field's path. */
class Fields {
  constructor(
    private readonly obj: JsonObject,
    private readonly path: string,
    private readonly damaged: (problem: string) => never
  ) {}

  fail(problem: string): never {
    return this.damaged(this.path === '' ? problem : `${this.path}: ${problem}`)
  }

  only(keys: readonly string[]): void {
    const extra = Object.keys(this.obj).find((key) => !keys.includes(key))
    if (extra !== undefined) this.fail(`unexpected field "${extra}"`)
  }

  string(key: string): string {
    const value = this.obj[key]
    return typeof value === 'string' ? value : this.fail(`"${key}" must be a string`)
  }

  integer(key: string, min: number, max: number): number {
    const value = this.obj[key]
    if (typeof value !== 'bigint' || value < BigInt(min) || value > BigInt(max)) {
      return this.fail(`"${key}" must be an integer from ${min} to ${max}`)
    }
    return Number(value)
  }

  /** Lowercase hex only: the writer never writes uppercase, so an uppercase digit means damage. */
  hex(key: string, bytes?: number): Uint8Array {
    const value = this.string(key)
    const shape = bytes === undefined ? /^(?:[0-9a-f]{2})+$/ : new RegExp(`^[0-9a-f]{${2 * bytes}}$`)
    if (!shape.test(value)) {
      return this.fail(`"${key}" must be ${bytes === undefined ? 'non-empty' : `${bytes} bytes of`} lowercase hex`)
    }
    return hexToBytes(value)
  }

  object(key: string): Fields {
    const value = this.obj[key]
    if (value === undefined || !isJsonObject(value)) return this.fail(`"${key}" must be an object`)
    return new Fields(value, this.path === '' ? key : `${this.path}.${key}`, this.damaged)
  }
}
