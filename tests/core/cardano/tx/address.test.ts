import { bech32 } from '@scure/base'
import { describe, expect, it } from 'vitest'
import { AddressError } from '../../../../src/core/cardano/address'
import { decodeAddress, parseAddressText } from '../../../../src/core/cardano/tx'
import { unhex } from '../cbor/encode'

// CIP-19 test vectors (payment key hash, stake key hash, script hash).
const KEY = '9493315cd92eb5d8c4304e67b7e16ae36d61d34502694657811a2c8e'
const STAKE = '337b62cfff6403a06a3acbc34f8c46003c69fe79a3628cefa9c47251'
const SCRIPT = 'c37b1b5dc0669f1d3c61a6fddb2e8fde96be87b881c60bce8e8d542f'

describe('parseAddressText / decodeAddress: every kind of CIP-19', () => {
  it.each([
    [
      'addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3x',
      { kind: 'base', networkId: 1, payment: { type: 'key', hash: KEY }, stake: { type: 'key', hash: STAKE } }
    ],
    [
      'addr1x8phkx6acpnf78fuvxn0mkew3l0fd058hzquvz7w36x4gt7r0vd4msrxnuwnccdxlhdjar77j6lg0wypcc9uar5d2shskhj42g',
      { kind: 'base', payment: { type: 'script', hash: SCRIPT }, stake: { type: 'script', hash: SCRIPT } }
    ],
    [
      'addr1gx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer5pnz75xxcrzqf96k',
      { kind: 'pointer', payment: { type: 'key', hash: KEY }, pointer: { slot: 2498243n, txIndex: 27n, certIndex: 3n } }
    ],
    [
      'addr1w8phkx6acpnf78fuvxn0mkew3l0fd058hzquvz7w36x4gtcyjy7wx',
      { kind: 'enterprise', payment: { type: 'script', hash: SCRIPT } }
    ],
    [
      'stake1uyehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gh6ffgw',
      { kind: 'reward', networkId: 1, stake: { type: 'key', hash: STAKE } }
    ],
    [
      'stake178phkx6acpnf78fuvxn0mkew3l0fd058hzquvz7w36x4gtcccycj5',
      { kind: 'reward', stake: { type: 'script', hash: SCRIPT } }
    ],
    ['addr_test1vz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzerspjrlsz', { kind: 'enterprise', networkId: 0 }],
    ['Ae2tdPwUPEZFRbyhz3cpfC2CumGzNkFBN2L42rcUc2yjQpEkxDbkPodpMAi', { kind: 'byron', networkId: 1 }],
    [
      '37btjrVyb4KDXBNC4haBVPCrro8AQPHwvCMp3RFhhSVWwfFmZ6wwzSK6JK1hY6wHNmtrpTf1kdbva8TCneM2YsiXT7mrzT21EacHnPpz5YyUdj64na',
      { kind: 'byron', networkId: 0, byronProtocolMagic: 1097911063n }
    ]
  ])('%s', (text, expected) => {
    const address = parseAddressText(text)
    expect(address).toMatchObject({ ...expected, text })
    expect(decodeAddress(unhex(address.hex))).toEqual(address)
  })

  it.each([
    ['', 'address is empty'],
    ['addr1qqqqqq', 'not a bech32 or base58 address'],
    ['0OIl', 'not a bech32 or base58 address'],
    [
      bech32.encode('stake_test', bech32.toWords(unhex(`e1${STAKE}`))),
      'prefix stake_test does not match the address header'
    ]
  ])('rejects %s', (text, message) => {
    expect(() => parseAddressText(text)).toThrow(AddressError)
    expect(() => parseAddressText(text)).toThrow(message)
  })

  it.each([
    ['', 'address is empty'],
    [`90${KEY}`, 'address header type 0x9 is not a known address kind'],
    [`e0${KEY}00`, 'a reward address must be 29 bytes, got 30'],
    [`40${KEY}81`, 'a pointer address ends inside a pointer field'],
    [`40${KEY}01020300`, '1 unexpected bytes after the pointer'],
    [`40${KEY}${'ff'.repeat(11)}00`, 'a pointer field is too long'],
    [
      '82d818582183581cba970ad36654d8dd8f74274b733452ddeab9a62a397746be3c42ccdda0001a9026da5c',
      'Byron address checksum does not match'
    ],
    ['8200', 'malformed Byron address: Byron address: array declares 2 items but only 1 bytes remain at byte 0'],
    [`82${'00'.repeat(600)}`, 'a Byron address longer than 512 bytes']
  ])('rejects bytes %s', (h, message) => {
    expect(() => decodeAddress(unhex(h))).toThrow(message)
  })
})
