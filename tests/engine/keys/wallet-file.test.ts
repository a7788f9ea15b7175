import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { isJsonObject, parseJson, stringifyJson, type JsonObject } from '../../../src/core/json/lossless'
import { accountKeysFromEntropy } from '../../../src/engine/keys/derivation'
import { mnemonicEntropy } from '../../../src/engine/keys/mnemonic'
import { seal } from '../../../src/engine/keys/secret-box'
import {
  decodeWalletFile,
  encodeWalletFile,
  secretBinding,
  walletIdOf,
  type WalletRecord
} from '../../../src/engine/keys/wallet-file'
import { CSL_VECTORS, FAST_SCRYPT, PASSWORD, thrown } from './support'

const FILE = 'wallet.json'
const CREATED = '2026-11-22T12:00:00.000Z'

async function hdRecord(): Promise<Extract<WalletRecord, { kind: 'hd' }>> {
  const { xprv, xvk } = accountKeysFromEntropy(mnemonicEntropy(CSL_VECTORS[0].mnemonic), 0)
  const id = walletIdOf(xvk)
  const secret = await seal(xprv, PASSWORD, FAST_SCRYPT, secretBinding('hd', id, xvk))
  return { id, name: 'Main', kind: 'hd', createdAt: CREATED, account: { index: 0, xvk }, secret }
}

/** Rewrites a field and recomputes the checksum as the format defines it, to reach the field checks. */
function rewritten(text: string, edit: (doc: JsonObject) => void): string {
  const doc = parseJson(text)
  if (!isJsonObject(doc)) throw new Error('not an object')
  edit(doc)
  delete doc['checksum']
  doc['checksum'] = createHash('sha256').update(stringifyJson(doc)).digest('hex')
  return stringifyJson(doc, { indent: 2 })
}

function decodeError(text: string): { code: string; message: string } {
  const { code, message } = thrown(() => decodeWalletFile(text, FILE))
  return { code, message }
}

describe('wallet file format', () => {
  it('round-trips each kind of wallet', async () => {
    const hd = await hdRecord()
    const watch: WalletRecord = {
      id: hd.id,
      name: 'Watch',
      kind: 'watch-only',
      createdAt: CREATED,
      account: hd.account
    }
    const verificationKey = hd.account.xvk.slice(0, 32)
    const single: WalletRecord = {
      id: walletIdOf(verificationKey),
      name: 'Key ünïcode',
      kind: 'single-key',
      createdAt: CREATED,
      verificationKey,
      secret: hd.secret
    }
    for (const record of [hd, watch, single]) {
      const text = encodeWalletFile(record)
      const decoded = decodeWalletFile(text, FILE)
      expect(decoded).toMatchObject({ id: record.id, name: record.name, kind: record.kind, createdAt: CREATED })
      expect(encodeWalletFile(decoded)).toBe(text)
    }
  })

  it('keeps public metadata readable and the secret out of the file', async () => {
    const record = await hdRecord()
    const text = encodeWalletFile(record)
    const doc = parseJson(text) as JsonObject
    expect(Object.keys(doc)).toEqual([
      'format',
      'version',
      'id',
      'name',
      'kind',
      'createdAt',
      'account',
      'secret',
      'checksum'
    ])
    expect(doc['account']).toEqual({ index: 0n, publicKey: expect.stringMatching(/^acct_xvk1/) })
    const { xprv } = accountKeysFromEntropy(mnemonicEntropy(CSL_VECTORS[0].mnemonic), 0)
    expect(text).not.toContain(Buffer.from(xprv).toString('hex').slice(0, 32))
  })

  it('reports any flipped bit, anywhere in the file, as damage, a newer version or truncation', async () => {
    const bytes = Buffer.from(encodeWalletFile(await hdRecord()), 'utf8')
    const codes = new Set<string>()
    for (let i = 0; i < bytes.length; i += 1) {
      for (let bit = 0; bit < 8; bit += 1) {
        const flipped = Buffer.from(bytes)
        flipped[i] = flipped[i]! ^ (1 << bit)
        codes.add(decodeError(flipped.toString('utf8')).code)
      }
    }
    expect([...codes].sort()).toEqual(['WalletFileCorrupt', 'WalletFileUnsupportedVersion'])
  })

  it('reports every truncation as such, short of losing only the final newline', async () => {
    const text = encodeWalletFile(await hdRecord())
    for (let length = 0; length < text.length - 1; length += 1) {
      expect(decodeError(text.slice(0, length))).toEqual({
        code: 'WalletFileTruncated',
        message: `wallet file ${FILE} is truncated: it ends after ${length} characters, inside its JSON document`
      })
    }
    expect(decodeWalletFile(text.slice(0, -1), FILE).name).toBe('Main')
  })

  it('names a newer format version as such, before checking anything else', async () => {
    const text = encodeWalletFile(await hdRecord()).replace('"version": 1', '"version": 2')
    expect(decodeError(text)).toEqual({
      code: 'WalletFileUnsupportedVersion',
      message: `wallet file ${FILE} has format version 2, but this Marlowe Desk reads version 1; it may come from a newer release`
    })
  })

  it('reports a changed value as a checksum mismatch', async () => {
    const text = encodeWalletFile(await hdRecord()).replace('"Main"', '"Mainz"')
    expect(decodeError(text)).toEqual({
      code: 'WalletFileCorrupt',
      message: `wallet file ${FILE} is damaged or was modified: its checksum does not match`
    })
  })

  it.each([
    [
      'not JSON',
      () => 'x{',
      'wallet file wallet.json is damaged: invalid JSON at line 1, column 1: unexpected character "x", expected a value'
    ],
    ['not an object', () => '[1]', 'wallet file wallet.json is damaged: it is not a JSON object'],
    [
      'another format',
      (t: string) => t.replace('marlowe-desk/wallet', 'other/wallet'),
      'wallet.json is not a Marlowe Desk wallet file'
    ],
    [
      'a string version',
      (t: string) => t.replace('"version": 1', '"version": "1"'),
      'wallet file wallet.json is damaged: "version" must be an integer'
    ]
  ])('rejects %s', async (_what, edit, message) => {
    expect(decodeError(edit(encodeWalletFile(await hdRecord())))).toEqual({ code: 'WalletFileCorrupt', message })
  })

  it.each([
    ['an unknown field', (d: JsonObject) => void (d['extra'] = true), 'unexpected field "extra"'],
    [
      'an unknown kind',
      (d: JsonObject) => void (d['kind'] = 'paper'),
      '"kind" must be "hd", "watch-only", "single-key" or "hardware", got "paper"'
    ],
    ['another wallet id', (d: JsonObject) => void (d['id'] = '0'.repeat(40)), '"id" does not match the public key'],
    [
      'an uppercase id',
      (d: JsonObject) => void (d['id'] = (d['id'] as string).toUpperCase()),
      '"id" must be 40 lowercase hex characters'
    ],
    ['an empty name', (d: JsonObject) => void (d['name'] = ''), '"name": a wallet name cannot be empty'],
    [
      'a local time',
      (d: JsonObject) => void (d['createdAt'] = '2026-11-22 12:00'),
      '"createdAt" must be an ISO 8601 UTC time'
    ],
    ['no account', (d: JsonObject) => void delete d['account'], '"account" must be an object'],
    [
      'a negative account',
      (d: JsonObject) => void ((d['account'] as JsonObject)['index'] = -1n),
      'account: "index" must be an integer from 0 to 2147483647'
    ],
    [
      'a bad account key',
      (d: JsonObject) => void ((d['account'] as JsonObject)['publicKey'] = 'acct_xvk1qqqq'),
      'account: "publicKey": not a bech32 string'
    ],
    [
      'a watch-only wallet with a secret',
      (d: JsonObject) => void (d['kind'] = 'watch-only'),
      'unexpected field "secret"'
    ],
    [
      'a huge scrypt N',
      (d: JsonObject) => void (kdf(d)['N'] = 2n ** 30n),
      'secret.kdf: scrypt N must be a power of two from 2^10 to 2^20, got 1073741824'
    ],
    ['another KDF', (d: JsonObject) => void (kdf(d)['name'] = 'pbkdf2'), 'secret.kdf: "name" must be "scrypt"'],
    [
      'another cipher',
      (d: JsonObject) => void ((secretOf(d)['cipher'] as JsonObject)['name'] = 'aes-128-cbc'),
      'secret.cipher: "name" must be "aes-256-gcm"'
    ],
    [
      'a short salt',
      (d: JsonObject) => void (kdf(d)['salt'] = 'abcd'),
      'secret.kdf: "salt" must be 32 bytes of lowercase hex'
    ],
    [
      'uppercase hex',
      (d: JsonObject) => void (secretOf(d)['ciphertext'] = (secretOf(d)['ciphertext'] as string).toUpperCase()),
      'secret: "ciphertext" must be non-empty lowercase hex'
    ]
  ])('rejects %s, even with a matching checksum', async (_what, edit, problem) => {
    expect(decodeError(rewritten(encodeWalletFile(await hdRecord()), edit))).toEqual({
      code: 'WalletFileCorrupt',
      message: `wallet file ${FILE} is damaged: ${problem}`
    })
  })
})

function secretOf(doc: JsonObject): JsonObject {
  return doc['secret'] as JsonObject
}

function kdf(doc: JsonObject): JsonObject {
  return secretOf(doc)['kdf'] as JsonObject
}
