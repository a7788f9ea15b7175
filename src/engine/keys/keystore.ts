/**
 * The keystore: a directory of encrypted wallet files, plus the wallets unlocked in this process.
 *
 * Nothing it returns is private key material. The one exception is by necessity: `create` returns the new
 * recovery phrase once, for the user to write down; it is not stored. Signers get witnesses through
 * `witness` (see `WitnessProvider`) and never see a key. Every file change is atomic and serialized, and a
 * failed read (wrong password, damaged, truncated or newer file) leaves the file exactly as it was.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { NetworkName } from '../../chain/provider'
import { stringifyTextEnvelope } from '../../core/cardano/envelope'
import { KEY_FILE_TYPES, keyEnvelope, type KeyFileType } from '../../core/cardano/key-envelopes'
import { encodeAccountXvk } from '../../core/cardano/keys-bech32'
import { EngineError } from '../errors'
import { ensurePrivateDir } from '../private-dir'
import { baseAddress, enterpriseAddress, rewardAddress } from './addresses'
import { removeFileDurably, removeStrayTempFiles, writeFileAtomic } from './atomic-file'
import {
  accountKeysFromEntropy,
  childKeyHashes,
  childPublicKey,
  keyHashOf,
  MAX_SOFT_INDEX,
  type KeyPath,
  type KeyRole
} from './derivation'
import { keystoreError, type KeystoreErrorCode } from './errors'
import { parseAccountKey, parseSigningKeyFile } from './key-import'
import { ownedKeyHashes, stakeKeyHash } from './key-scan'
import type {
  AccountKeyExport,
  AddressQuery,
  CreatedWallet,
  CreateWalletInput,
  DamagedWalletFile,
  HardwareWalletInput,
  KeystoreOptions,
  RestoreWalletInput,
  ScanOptions,
  SigningKeyInput,
  VerificationKeyQuery,
  WalletAddress,
  WalletListing,
  WatchOnlyInput,
  WitnessProvider,
  WitnessResult
} from './keystore-api'
import { generateMnemonic, mnemonicEntropy } from './mnemonic'
import {
  checkCount,
  checkIndex,
  checkName,
  checkPassword,
  checkWalletId,
  gapOf,
  invalid,
  MAX_ADDRESS_COUNT,
  normalizeKeyHashes
} from './request-checks'
import { DEFAULT_SCRYPT, seal, unseal, weakerThan, type ScryptParams } from './secret-box'
import { Sessions, systemClock, systemSchedule, type Clock } from './sessions'
import { vkeyWitnesses } from './signing'
import { UnlockThrottle } from './unlock-throttle'
import {
  decodeWalletFile,
  encodeWalletFile,
  secretBinding,
  WALLET_FILE_PATTERN,
  walletFileName,
  walletIdOf,
  type AccountKey,
  type HardwareVendor,
  type WalletRecord
} from './wallet-file'
import { walletInfoOf, type WalletInfo } from './wallet-info'
import { bindingOf, ownerOf, secretMatches, sessionOwner, sessionSecretOf, type SecretRecord } from './wallet-keys'

const DEFAULT_AUTO_LOCK_MS = 5 * 60 * 1000
const PAYMENT_KEY_FILES = {
  plain: KEY_FILE_TYPES.paymentVerification,
  extended: KEY_FILE_TYPES.paymentExtendedVerification
}
const VERIFICATION_KEY_FILES: Readonly<
  Record<KeyRole, { readonly plain: KeyFileType; readonly extended: KeyFileType }>
> = {
  payment: PAYMENT_KEY_FILES,
  change: PAYMENT_KEY_FILES,
  stake: { plain: KEY_FILE_TYPES.stakeVerification, extended: KEY_FILE_TYPES.stakeExtendedVerification }
}
const FILE_ERRORS: readonly KeystoreErrorCode[] = [
  'WalletFileCorrupt',
  'WalletFileTruncated',
  'WalletFileUnsupportedVersion'
]

export class Keystore implements WitnessProvider {
  /** Tail of the queue of file changes: one at a time, so checks and writes do not interleave. */
  private writes: Promise<unknown> = Promise.resolve()

  private constructor(
    private readonly dir: string,
    private readonly clock: Clock,
    private readonly scrypt: ScryptParams,
    private readonly sessions: Sessions,
    private readonly throttle: UnlockThrottle
  ) {}

  /**
   * Opens (creating if needed) a keystore directory, cleaning up what interrupted writes left there. The
   * directory must be its owner's alone (see `ensurePrivateDir`).
   */
  static async open(options: KeystoreOptions): Promise<Keystore> {
    ensurePrivateDir(options.dir)
    await removeStrayTempFiles(options.dir)
    const clock = options.clock ?? systemClock
    const sessions = new Sessions({
      clock,
      schedule: options.schedule ?? systemSchedule,
      idleMs: options.autoLockMs ?? DEFAULT_AUTO_LOCK_MS,
      ...(options.onAutoLock === undefined ? {} : { onAutoLock: options.onAutoLock })
    })
    const throttle = options.throttle ?? new UnlockThrottle()
    return new Keystore(options.dir, clock, options.scrypt ?? DEFAULT_SCRYPT, sessions, throttle)
  }

  async list(): Promise<WalletListing> {
    const files = (await readdir(this.dir)).filter((name) => WALLET_FILE_PATTERN.test(name)).sort()
    const wallets: WalletInfo[] = []
    const damaged: DamagedWalletFile[] = []
    for (const file of files) {
      try {
        wallets.push(walletInfoOf(await this.readFile(file)))
      } catch (e) {
        const code = fileErrorCode(e)
        if (code === undefined || !(e instanceof EngineError)) throw e
        damaged.push({ file, code, message: e.message })
      }
    }
    wallets.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.name.localeCompare(b.name))
    return { wallets, damaged }
  }

  async get(walletId: string): Promise<WalletInfo> {
    return walletInfoOf(await this.read(walletId))
  }

  /** A new HD wallet from a fresh recovery phrase (24 words unless told otherwise). */
  async create(input: CreateWalletInput): Promise<CreatedWallet> {
    const { words, ...rest } = input
    const mnemonic = generateMnemonic(words)
    const wallet = await this.restore({ ...rest, mnemonic })
    return { wallet, mnemonic }
  }

  /** An HD wallet from an existing recovery phrase of 12, 15 or 24 words. */
  async restore(input: RestoreWalletInput): Promise<WalletInfo> {
    const { name, password, accountIndex = 0 } = input
    checkName(name)
    checkPassword(password)
    checkIndex('accountIndex', accountIndex)
    const entropy = mnemonicEntropy(input.mnemonic)
    let keys
    try {
      keys = accountKeysFromEntropy(entropy, accountIndex)
    } finally {
      entropy.fill(0)
    }
    try {
      const id = walletIdOf(keys.xvk)
      await this.ensureAbsent(id)
      const secret = await seal(keys.xprv, password, this.scrypt, secretBinding('hd', id, keys.xvk))
      const account = { index: accountIndex, xvk: keys.xvk }
      return walletInfoOf(await this.add({ id, name, kind: 'hd', createdAt: this.now(), account, secret }))
    } finally {
      keys.xprv.fill(0)
    }
  }

  /** A wallet that derives addresses and key hashes from an account public key, and cannot sign. */
  async importWatchOnly(input: WatchOnlyInput): Promise<WalletInfo> {
    const { name, accountIndex = 0 } = input
    checkName(name)
    checkIndex('accountIndex', accountIndex)
    const xvk = parseAccountKey(input.accountKey)
    const id = walletIdOf(xvk)
    const account = { index: accountIndex, xvk }
    return walletInfoOf(await this.add({ id, name, kind: 'watch-only', createdAt: this.now(), account }))
  }

  /**
   * A hardware wallet: the account public key read from the device once, so addresses, balances and reviews
   * work without it; signing goes to the device.
   */
  async addHardware(input: HardwareWalletInput): Promise<WalletInfo> {
    const { name, vendor, accountIndex } = input
    checkName(name)
    checkIndex('accountIndex', accountIndex)
    if (input.accountXvk.length !== 64) {
      throw invalid(`an account public key is 64 bytes (key and chain code), got ${input.accountXvk.length}`)
    }
    const xvk = new Uint8Array(input.accountXvk)
    const id = walletIdOf(xvk)
    const account = { index: accountIndex, xvk }
    return walletInfoOf(await this.add({ id, name, kind: 'hardware', vendor, createdAt: this.now(), account }))
  }

  /** The vendor and account of a hardware wallet, for its device to sign with. */
  async hardwareAccount(walletId: string): Promise<{ vendor: HardwareVendor; account: AccountKey }> {
    const record = await this.read(walletId)
    if (record.kind !== 'hardware') throw invalid(`wallet "${record.name}" is not a hardware wallet`)
    return { vendor: record.vendor, account: record.account }
  }

  /**
   * The account of a wallet whose keys are held elsewhere (watch-only, hardware): what a sign request for the
   * signer that holds them (a Keystone) is built from.
   */
  async signerAccount(walletId: string): Promise<AccountKey> {
    const record = await this.read(walletId)
    if (record.kind !== 'watch-only' && record.kind !== 'hardware') {
      throw invalid(`wallet "${record.name}" signs with its own keys here, not on another device`)
    }
    return record.account
  }

  /** A single-key wallet (enterprise address) from a cardano-cli payment signing key file. */
  async importSigningKey(input: SigningKeyInput): Promise<WalletInfo> {
    checkName(input.name)
    checkPassword(input.password)
    const { signingKey, verificationKey } = parseSigningKeyFile(input.keyFile)
    try {
      const id = walletIdOf(verificationKey)
      await this.ensureAbsent(id)
      const binding = secretBinding('single-key', id, verificationKey)
      const secret = await seal(signingKey, input.password, this.scrypt, binding)
      const { name } = input
      const record: WalletRecord = { id, name, kind: 'single-key', createdAt: this.now(), verificationKey, secret }
      return walletInfoOf(await this.add(record))
    } finally {
      signingKey.fill(0)
    }
  }

  /**
   * Decrypts a wallet's secret into a session. Wrong passwords are throttled (see `UnlockThrottle`); a secret
   * sealed with weaker scrypt parameters than the keystore's is sealed again with them on the way.
   */
  async unlock(walletId: string, password: string): Promise<void> {
    checkWalletId(walletId)
    const { record, plaintext } = await this.throttle.attempt(walletId, this.clock, async () => {
      const record = await this.read(walletId)
      if (record.kind === 'watch-only') throw watchOnly(record, 'has nothing to unlock')
      if (record.kind === 'hardware') throw onDevice(record, 'nothing to unlock in Desk')
      return { record, plaintext: await this.openSecret(record, password) }
    })
    await this.strengthen(record, password, plaintext)
    this.sessions.start(walletId, sessionSecretOf(record, plaintext))
  }

  /** Locks a wallet, zeroing its secret; returns whether it was unlocked. */
  lock(walletId: string): boolean {
    return this.sessions.end(walletId)
  }

  lockAll(): void {
    this.sessions.endAll()
  }

  isUnlocked(walletId: string): boolean {
    return this.sessions.isOpen(walletId)
  }

  /** When an unlocked wallet locks itself unless used before (ms since the epoch, on the keystore's clock). */
  locksAt(walletId: string): number | undefined {
    return this.sessions.locksAt(walletId)
  }

  /** Re-encrypts a wallet's secret under a new password (and the current scrypt parameters), atomically. */
  async changePassword(walletId: string, oldPassword: string, newPassword: string): Promise<void> {
    checkPassword(newPassword)
    await this.exclusive(async () => {
      const record = await this.read(walletId)
      if (record.kind === 'watch-only') throw watchOnly(record, 'has no password')
      if (record.kind === 'hardware') throw onDevice(record, 'no password in Desk')
      const plaintext = await this.throttle.attempt(walletId, this.clock, () => this.openSecret(record, oldPassword))
      try {
        const secret = await seal(plaintext, newPassword, this.scrypt, bindingOf(record))
        await writeFileAtomic(this.pathOf(walletId), encodeWalletFile({ ...record, secret }))
      } finally {
        plaintext.fill(0)
      }
    })
  }

  /** Gives a wallet a new name; its keys, id and password stay as they are. */
  async rename(walletId: string, name: string): Promise<WalletInfo> {
    checkName(name)
    return this.exclusive(async () => {
      const record = { ...(await this.read(walletId)), name }
      await writeFileAtomic(this.pathOf(walletId), encodeWalletFile(record))
      return walletInfoOf(record)
    })
  }

  /** Deletes a wallet's file; `confirmName` must repeat the wallet's name exactly. */
  async delete(walletId: string, confirmName: string): Promise<void> {
    await this.exclusive(async () => {
      const record = await this.read(walletId)
      if (confirmName !== record.name) {
        throw keystoreError(
          'DeleteNotConfirmed',
          `to delete wallet "${record.name}", confirm with its name exactly; got "${confirmName}"`,
          { walletId }
        )
      }
      this.sessions.end(walletId)
      await removeFileDurably(this.pathOf(walletId))
    })
  }

  async addresses(walletId: string, network: NetworkName, query: AddressQuery = {}): Promise<WalletAddress[]> {
    const { role = 'payment', from = 0, count = 1 } = query
    checkIndex('from', from)
    checkCount('count', count, MAX_ADDRESS_COUNT)
    if (from + count - 1 > MAX_SOFT_INDEX) throw invalid(`indices run past ${MAX_SOFT_INDEX}`)
    const record = await this.read(walletId)
    if (record.kind === 'single-key') {
      if (role !== 'payment' || from > 0) return []
      const keyHash = keyHashOf(record.verificationKey)
      return [{ path: { kind: 'imported' }, keyHash, enterprise: enterpriseAddress(network, keyHash) }]
    }
    const { index: account, xvk } = record.account
    const stake = stakeKeyHash(xvk)
    return childKeyHashes(xvk, role, from, count).map((keyHash, i) => ({
      path: { kind: 'derived', account, role, index: from + i },
      keyHash,
      base: baseAddress(network, keyHash, stake),
      enterprise: enterpriseAddress(network, keyHash)
    }))
  }

  /** The stake (reward) address of the account's stake key; undefined for a single-key wallet. */
  async rewardAddress(walletId: string, network: NetworkName): Promise<string | undefined> {
    const record = await this.read(walletId)
    return record.kind === 'single-key' ? undefined : rewardAddress(network, stakeKeyHash(record.account.xvk))
  }

  /** Key hash (hex) → derivation path of every key the wallet owns within the gap, plus the stake key. */
  async ownedKeyHashes(walletId: string, options: ScanOptions = {}): Promise<ReadonlyMap<string, KeyPath>> {
    const gap = gapOf(options)
    return ownedKeyHashes(ownerOf(await this.read(walletId)), gap)
  }

  /**
   * Signs `txBodyHash` with each requested key the wallet owns; the others come back in `missing`. The
   * wallet must be unlocked; signing counts as activity for auto-lock.
   */
  async witness(
    walletId: string,
    txBodyHash: Uint8Array,
    keyHashes: readonly string[],
    options: ScanOptions = {}
  ): Promise<WitnessResult> {
    checkWalletId(walletId)
    if (txBodyHash.length !== 32) throw invalid(`a transaction body hash is 32 bytes, got ${txBodyHash.length}`)
    const requested = normalizeKeyHashes(keyHashes)
    const gap = gapOf(options)
    const secret = this.sessions.use(walletId)
    if (secret === undefined) throw await this.cannotSign(walletId)
    const owned = ownedKeyHashes(sessionOwner(secret), gap)
    const paths: KeyPath[] = []
    const missing: string[] = []
    for (const hash of requested) {
      const path = owned.get(hash)
      if (path === undefined) missing.push(hash)
      else paths.push(path)
    }
    return { witnesses: vkeyWitnesses(secret, txBodyHash, paths), missing }
  }

  /** A cardano-cli verification key file of one of the wallet's keys. */
  async exportVerificationKey(walletId: string, query: VerificationKeyQuery = {}): Promise<string> {
    const { role = 'payment', index = 0, extended = false } = query
    checkIndex('index', index)
    const record = await this.read(walletId)
    if (record.kind === 'single-key') {
      if (role !== 'payment' || index !== 0 || extended) {
        throw invalid('a single-key wallet has one key (payment, index 0), without a chain code')
      }
      return stringifyTextEnvelope(keyEnvelope(KEY_FILE_TYPES.paymentVerification, record.verificationKey))
    }
    const key = childPublicKey(record.account.xvk, role, index, extended)
    const type = VERIFICATION_KEY_FILES[role][extended ? 'extended' : 'plain']
    return stringifyTextEnvelope(keyEnvelope(type, key))
  }

  /** The account public key of an HD or watch-only wallet, as `acct_xvk…` and as a cardano-cli key file. */
  async exportAccountKey(walletId: string): Promise<AccountKeyExport> {
    const record = await this.read(walletId)
    if (record.kind === 'single-key') throw invalid('a single-key wallet has no account key')
    const { index, xvk } = record.account
    const description = `Account Extended Verification Key m/1852'/1815'/${index}'`
    const envelope = stringifyTextEnvelope(keyEnvelope(KEY_FILE_TYPES.accountExtendedVerification, xvk, description))
    return { bech32: encodeAccountXvk(xvk), envelope }
  }

  /** Why a wallet without a session cannot sign. */
  private async cannotSign(walletId: string): Promise<EngineError> {
    const record = await this.read(walletId)
    const reason = 'holds no signing keys: it can derive addresses but not sign'
    if (record.kind === 'watch-only') return watchOnly(record, reason)
    if (record.kind === 'hardware') return onDevice(record, 'signs on the device, not in Desk')
    return keystoreError('WalletLocked', `wallet "${record.name}" is locked: unlock it to sign`, { walletId })
  }

  /**
   * Moves a secret sealed with weaker scrypt parameters than the keystore's onto them, now that its password is
   * known to be right — unless the file changed since it was read (a new password, a deletion), which stands.
   */
  private async strengthen(record: SecretRecord, password: string, plaintext: Uint8Array): Promise<void> {
    if (!weakerThan(record.secret.scrypt, this.scrypt)) return
    try {
      await this.exclusive(async () => {
        const current = await this.read(record.id)
        if (encodeWalletFile(current) !== encodeWalletFile(record)) return
        const secret = await seal(plaintext, password, this.scrypt, bindingOf(record))
        await writeFileAtomic(this.pathOf(record.id), encodeWalletFile({ ...record, secret }))
      })
    } catch {
      // The unlock stands without it (a read-only keystore, a file deleted meanwhile); the next unlock tries again.
    }
  }

  private async openSecret(record: SecretRecord, password: string): Promise<Uint8Array> {
    const result = await unseal(record.secret, password, bindingOf(record))
    if (!result.ok) {
      if (result.reason === 'wrong-password') {
        throw keystoreError('WrongPassword', `wrong password for wallet "${record.name}"`, { walletId: record.id })
      }
      throw damaged(record, 'its encrypted key failed authentication')
    }
    const { plaintext } = result
    if (!secretMatches(record, plaintext)) {
      plaintext.fill(0)
      throw damaged(record, 'its decrypted key does not belong to its public key')
    }
    return plaintext
  }

  private async read(walletId: string): Promise<WalletRecord> {
    checkWalletId(walletId)
    const record = await this.readFile(walletFileName(walletId))
    if (record.id !== walletId) {
      const file = walletFileName(walletId)
      const message = `wallet file ${file} is damaged or was modified: it holds wallet ${record.id}`
      throw keystoreError('WalletFileCorrupt', message, { file })
    }
    return record
  }

  private async readFile(file: string): Promise<WalletRecord> {
    let text: string
    try {
      // Invalid UTF-8 decodes to U+FFFD, which the checksum then reports as damage.
      text = await readFile(join(this.dir, file), 'utf8')
    } catch (e) {
      if (isNodeError(e, 'ENOENT')) throw keystoreError('WalletNotFound', `no wallet ${file.split('.')[0]}`, { file })
      throw e
    }
    return decodeWalletFile(text, file)
  }

  private async ensureAbsent(walletId: string): Promise<void> {
    let existing: WalletRecord
    try {
      existing = await this.read(walletId)
    } catch (e) {
      if (e instanceof EngineError && e.code === 'WalletNotFound') return
      if (fileErrorCode(e) !== undefined) {
        const file = walletFileName(walletId)
        throw keystoreError('WalletExists', `a (damaged) wallet file for this key already exists: ${file}`, {
          walletId
        })
      }
      throw e
    }
    throw keystoreError('WalletExists', `this key's wallet already exists: "${existing.name}"`, { walletId })
  }

  private add(record: WalletRecord): Promise<WalletRecord> {
    return this.exclusive(async () => {
      await this.ensureAbsent(record.id)
      await writeFileAtomic(this.pathOf(record.id), encodeWalletFile(record))
      return record
    })
  }

  private exclusive<T>(change: () => Promise<T>): Promise<T> {
    const result = this.writes.then(change)
    this.writes = result.catch(() => undefined)
    return result
  }

  private pathOf(walletId: string): string {
    return join(this.dir, walletFileName(walletId))
  }

  private now(): string {
    return new Date(this.clock.now()).toISOString()
  }
}

function watchOnly(record: WalletRecord, what: string): EngineError {
  return keystoreError('WatchOnlyWallet', `wallet "${record.name}" is watch-only and ${what}`, { walletId: record.id })
}

function onDevice(record: Extract<WalletRecord, { kind: 'hardware' }>, what: string): EngineError {
  const vendor = record.vendor === 'ledger' ? 'Ledger' : 'Trezor'
  return keystoreError('HardwareWallet', `wallet "${record.name}" keeps its keys on a ${vendor}: ${what}`, {
    walletId: record.id,
    vendor: record.vendor
  })
}

function damaged(record: WalletRecord, problem: string): EngineError {
  const file = walletFileName(record.id)
  return keystoreError('WalletFileCorrupt', `wallet file ${file} is damaged or was modified: ${problem}`, { file })
}

/** The code of a wallet file error (damaged, truncated, newer version), or undefined for other errors. */
function fileErrorCode(e: unknown): KeystoreErrorCode | undefined {
  return e instanceof EngineError ? FILE_ERRORS.find((code) => code === e.code) : undefined
}

function isNodeError(e: unknown, code: string): boolean {
  return e instanceof Error && (e as NodeJS.ErrnoException).code === code
}
