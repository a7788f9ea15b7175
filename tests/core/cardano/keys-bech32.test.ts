import { describe, expect, it } from 'vitest'
import { bech32 } from '@scure/base'
import {
  decodeAccountXvk,
  decodeBech32Key,
  encodeAccountXvk,
  encodeBech32Key,
  KeyEncodingError
} from '../../../src/core/cardano/keys-bech32'

// CIP-19's payment verification key, and a 64-byte account key of a published wallet (watch-only tests).
const ADDR_VK = 'addr_vk1w0l2sr2zgfm26ztc6nl9xy8ghsk5sh6ldwemlpmp9xylzy4dtf7st80zhd'
const ACCT_XVK =
  'acct_xvk1xfehjaqtvn0vdjqrrfwlgvfk8qedv4fus04thny96lj6rhc2tphsx0wlcdaehpjzjfyj7uref4uqlacrtft55u9ll6eal4h4ac75yzqdnqwtf'

describe('bech32 keys (CIP-5)', () => {
  it('round-trips an account key and a verification key', () => {
    const xvk = decodeAccountXvk(ACCT_XVK)
    expect(xvk).toHaveLength(64)
    expect(encodeAccountXvk(xvk)).toBe(ACCT_XVK)
    const vk = decodeBech32Key(ADDR_VK, 'addr_vk', 32)
    expect(encodeBech32Key('addr_vk', vk)).toBe(ADDR_VK)
  })

  it('accepts all-uppercase text', () => {
    expect(decodeAccountXvk(ACCT_XVK.toUpperCase())).toEqual(decodeAccountXvk(ACCT_XVK))
  })

  it.each([
    ['mixed case', ACCT_XVK.replace('acct', 'ACCT'), 'not a bech32 string: it mixes upper and lower case'],
    ['no separator', 'acctxvk', 'not a bech32 string'],
    ['a changed character', ACCT_XVK.replace('xfeh', 'xfen'), 'bech32 checksum is invalid'],
    ['another prefix', ADDR_VK, 'expected a key with the prefix acct_xvk, got addr_vk'],
    ['a short key', encodeBech32Key('acct_xvk', new Uint8Array(32)), 'acct_xvk keys are 64 bytes, got 32'],
    [
      'bad padding',
      bech32.encode('acct_xvk', [31, 31, 31], 1023),
      'not a bech32 string: the data part has invalid padding'
    ]
  ])('rejects %s', (_what, text, message) => {
    expect(() => decodeAccountXvk(text)).toThrow(KeyEncodingError)
    expect(() => decodeAccountXvk(text)).toThrow(message)
  })

  it('refuses to encode an account key of the wrong length', () => {
    expect(() => encodeAccountXvk(new Uint8Array(32))).toThrow('acct_xvk keys are 64 bytes, got 32')
  })
})
