import { describe, expect, it } from 'vitest'
import { bech32, bech32m } from '@scure/base'
import { AddressError, formatShelleyAddress, parseShelleyAddress } from '../../../src/core/cardano/address'

// CIP-19 test vectors (its payment key hash, stake key hash and script hash).
const KEY = '9493315cd92eb5d8c4304e67b7e16ae36d61d34502694657811a2c8e'
const STAKE_KEY = '337b62cfff6403a06a3acbc34f8c46003c69fe79a3628cefa9c47251'
const SCRIPT = 'c37b1b5dc0669f1d3c61a6fddb2e8fde96be87b881c60bce8e8d542f'

const CIP19 = {
  keyKey: 'addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3x',
  scriptKey: 'addr1z8phkx6acpnf78fuvxn0mkew3l0fd058hzquvz7w36x4gten0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgs9yc0hh',
  keyScript: 'addr1yx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzerkr0vd4msrxnuwnccdxlhdjar77j6lg0wypcc9uar5d2shs2z78ve',
  scriptScript:
    'addr1x8phkx6acpnf78fuvxn0mkew3l0fd058hzquvz7w36x4gt7r0vd4msrxnuwnccdxlhdjar77j6lg0wypcc9uar5d2shskhj42g',
  pointerKey: 'addr1gx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer5pnz75xxcrzqf96k',
  pointerScript: 'addr128phkx6acpnf78fuvxn0mkew3l0fd058hzquvz7w36x4gtupnz75xxcrtw79hu',
  enterpriseKey: 'addr1vx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzers66hrl8',
  enterpriseScript: 'addr1w8phkx6acpnf78fuvxn0mkew3l0fd058hzquvz7w36x4gtcyjy7wx',
  rewardKey: 'stake1uyehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gh6ffgw',
  testnetKeyKey:
    'addr_test1qz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgs68faae',
  testnetEnterpriseKey: 'addr_test1vz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzerspjrlsz',
  byronIcarus: 'Ae2tdPwUPEZFRbyhz3cpfC2CumGzNkFBN2L42rcUc2yjQpEkxDbkPodpMAi'
}

/** A bech32 string with an arbitrary prefix and payload, for the malformed cases the vectors lack. */
function encode(prefix: string, header: number, bodyBytes: number): string {
  const payload = new Uint8Array(1 + bodyBytes).fill(0x11)
  payload[0] = header
  return bech32.encode(prefix, bech32.toWords(payload), 1023)
}

function rejection(text: string): string {
  try {
    parseShelleyAddress(text)
  } catch (error) {
    expect(error).toBeInstanceOf(AddressError)
    return (error as AddressError).message
  }
  throw new Error(`${text} was accepted`)
}

describe('parseShelleyAddress / formatShelleyAddress', () => {
  it.each([
    ['keyKey', { mainnet: true, payment: { type: 'key', hash: KEY }, stake: { type: 'key', hash: STAKE_KEY } }],
    [
      'scriptKey',
      { mainnet: true, payment: { type: 'script', hash: SCRIPT }, stake: { type: 'key', hash: STAKE_KEY } }
    ],
    ['keyScript', { mainnet: true, payment: { type: 'key', hash: KEY }, stake: { type: 'script', hash: SCRIPT } }],
    [
      'scriptScript',
      { mainnet: true, payment: { type: 'script', hash: SCRIPT }, stake: { type: 'script', hash: SCRIPT } }
    ],
    ['enterpriseKey', { mainnet: true, payment: { type: 'key', hash: KEY } }],
    ['enterpriseScript', { mainnet: true, payment: { type: 'script', hash: SCRIPT } }],
    ['testnetKeyKey', { mainnet: false, payment: { type: 'key', hash: KEY }, stake: { type: 'key', hash: STAKE_KEY } }],
    ['testnetEnterpriseKey', { mainnet: false, payment: { type: 'key', hash: KEY } }]
  ] as const)('%s parses and formats back', (name, expected) => {
    const text = CIP19[name]
    expect(parseShelleyAddress(text)).toEqual(expected)
    expect(formatShelleyAddress(expected)).toBe(text)
  })

  it('round-trips testnet script/script and script/key base addresses', () => {
    for (const stake of [
      { type: 'script', hash: SCRIPT },
      { type: 'key', hash: STAKE_KEY }
    ] as const) {
      const address = { mainnet: false, payment: { type: 'script', hash: SCRIPT }, stake } as const
      const text = formatShelleyAddress(address)
      expect(text.startsWith('addr_test1')).toBe(true)
      expect(parseShelleyAddress(text)).toEqual(address)
    }
  })

  it('accepts an all-uppercase address and formats it lowercase', () => {
    const parsed = parseShelleyAddress(CIP19.keyKey.toUpperCase())
    expect(formatShelleyAddress(parsed)).toBe(CIP19.keyKey)
  })

  it('formats uppercase hashes as lowercase bech32', () => {
    expect(formatShelleyAddress({ mainnet: true, payment: { type: 'key', hash: KEY.toUpperCase() } })).toBe(
      CIP19.enterpriseKey
    )
  })

  it.each([
    ['pointer (key)', CIP19.pointerKey, 'pointer addresses cannot be Marlowe parties'],
    ['pointer (script)', CIP19.pointerScript, 'pointer addresses cannot be Marlowe parties'],
    ['reward', CIP19.rewardKey, 'reward (stake) addresses cannot be Marlowe parties'],
    ['reward header under addr', encode('addr', 0xe1, 28), 'reward (stake) addresses cannot be Marlowe parties'],
    [
      'Byron base58',
      CIP19.byronIcarus,
      'not a bech32 string: it looks like a base58 Byron address, which cannot be a Marlowe party'
    ],
    ['Byron header', encode('addr', 0x81, 28), 'Byron addresses cannot be Marlowe parties'],
    ['unknown header', encode('addr', 0x91, 28), 'address header type 0x9 is not a Shelley payment address'],
    ['wrong prefix', encode('foo', 0x61, 28), 'unknown address prefix foo (expected addr or addr_test)'],
    ['testnet nibble on mainnet', encode('addr', 0x60, 28), 'network nibble 0 does not match prefix addr'],
    ['mainnet nibble on testnet', encode('addr_test', 0x61, 28), 'network nibble 1 does not match prefix addr_test'],
    ['other network nibble', encode('addr_test', 0x62, 28), 'network nibble 2 does not match prefix addr_test'],
    ['enterprise too long', encode('addr', 0x61, 29), 'an enterprise address must be 29 bytes, got 30'],
    ['base too short', encode('addr', 0x01, 28), 'a base address must be 57 bytes, got 29'],
    ['base too long', encode('addr', 0x01, 57), 'a base address must be 57 bytes, got 58'],
    ['empty payload', bech32.encode('addr', []), 'address payload is empty'],
    ['bad checksum', `${CIP19.keyKey.slice(0, -1)}y`, 'bech32 checksum is invalid'],
    [
      'bech32m checksum',
      bech32m.encode('addr', bech32.toWords(new Uint8Array(29).fill(0x61)), 1023),
      'bech32 checksum is invalid'
    ],
    ['mixed case', `A${CIP19.keyKey.slice(1)}`, 'not a bech32 string: it mixes upper and lower case'],
    ['no separator', 'addrqqqqqqqq', 'not a bech32 string'],
    ['invalid character', `${CIP19.keyKey.slice(0, 10)}b${CIP19.keyKey.slice(11)}`, 'not a bech32 string'],
    ['empty string', '', 'not a bech32 string'],
    ['too long', `addr1${'q'.repeat(1100)}`, 'not a bech32 string']
  ])('rejects %s', (_, text, message) => {
    expect(rejection(text)).toBe(message)
  })

  it('rejects a data part with non-zero padding bits', () => {
    // 9 five-bit words carry 45 bits: 5 bytes and 5 left-over bits, more padding than bech32 allows.
    const text = bech32.encode('addr', [12, 0, 0, 0, 0, 0, 0, 0, 31])
    expect(rejection(text)).toBe('not a bech32 string: the data part has invalid padding')
  })

  it('refuses to format a hash that is not 28 bytes of hex', () => {
    expect(() => formatShelleyAddress({ mainnet: true, payment: { type: 'key', hash: 'abcd' } })).toThrow(
      new AddressError('key hash must be 28 bytes of hex, got "abcd"')
    )
  })
})
