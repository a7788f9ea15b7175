/** Wallet headers: Runtime's messages per header, the network check, comma lists, X-Stake-Address on create. */
import { describe, expect, test } from 'vitest'
import { decodeWalletHeaders, type HeaderInput, type WalletHeaderOptions } from '../../../src/server/requests'
import {
  engineError,
  MAINNET_ADDRESS,
  stakeAddress,
  TESTNET_ADDRESS,
  TESTNET_ADDRESS_2,
  TX,
  type Expected
} from './support'

const testnet: WalletHeaderOptions = { networkId: 0 }
const create: WalletHeaderOptions = { networkId: 0, stakeAddress: true }
const bad = (message: string | RegExp): Expected => ({ code: 'BadRequest', message })

describe('bad wallet headers', () => {
  const cases: Array<[string, HeaderInput, WalletHeaderOptions, Expected]> = [
    ['no change address', {}, testnet, bad('Invalid change address value: X-Change-Address: the header is required')],
    [
      'a blank change address',
      { 'x-change-address': '  ' },
      testnet,
      bad('Invalid change address value: X-Change-Address: the header is required')
    ],
    [
      'a change address that is not bech32',
      { 'x-change-address': 'hello' },
      testnet,
      bad('Invalid change address value: X-Change-Address: "hello": not a bech32 string')
    ],
    [
      'a mainnet change address on a testnet',
      { 'x-change-address': MAINNET_ADDRESS },
      testnet,
      bad(
        /^Invalid change address value: X-Change-Address: "addr1\w+": a mainnet address, but this service runs on a testnet$/
      )
    ],
    [
      'a testnet change address on mainnet',
      { 'x-change-address': TESTNET_ADDRESS },
      { networkId: 1 },
      bad(/: a testnet address, but this service runs on mainnet$/)
    ],
    [
      'a stake address as change address',
      { 'x-change-address': stakeAddress(false) },
      testnet,
      bad(/^Invalid change address value: X-Change-Address: "stake_test1\w+": reward \(stake\) addresses cannot/)
    ],
    [
      'a bad extra address',
      { 'x-change-address': TESTNET_ADDRESS, 'x-address': `${TESTNET_ADDRESS_2},addr_test1zz` },
      testnet,
      bad('Invalid addresses header value: X-Address: "addr_test1zz": not a bech32 string')
    ],
    [
      'an extra address of the other network',
      { 'x-change-address': TESTNET_ADDRESS, 'x-address': MAINNET_ADDRESS },
      testnet,
      bad(/^Invalid addresses header value: X-Address: "addr1\w+": a mainnet address/)
    ],
    [
      'an empty item in the address list',
      { 'x-change-address': TESTNET_ADDRESS, 'x-address': `${TESTNET_ADDRESS_2},,${TESTNET_ADDRESS}` },
      testnet,
      bad('Invalid addresses header value: X-Address: item 2 of the comma list is empty')
    ],
    [
      'collateral without an index',
      { 'x-change-address': TESTNET_ADDRESS, 'x-collateral-utxo': TX },
      testnet,
      bad(
        `Invalid collateral header UTxO value: X-Collateral-UTxO: "${TX}": Expected [a-fA-F0-9]{64}#[0-9]+ (hint: do you need to URL-encode the '#' as "%23"?)`
      )
    ],
    [
      'collateral that is not a reference',
      { 'x-change-address': TESTNET_ADDRESS, 'x-collateral-utxo': 'abc#1' },
      testnet,
      bad('Invalid collateral header UTxO value: X-Collateral-UTxO: "abc#1": Expected [a-fA-F0-9]{64}#[0-9]+')
    ],
    [
      'collateral with a trailing comma',
      { 'x-change-address': TESTNET_ADDRESS, 'x-collateral-utxo': `${TX}#0,` },
      testnet,
      bad('Invalid collateral header UTxO value: X-Collateral-UTxO: item 2 of the comma list is empty')
    ],
    [
      'a stake address that is not bech32',
      { 'x-change-address': TESTNET_ADDRESS, 'x-stake-address': 'stake' },
      create,
      bad('Invalid stake address value: X-Stake-Address: not a bech32 string')
    ],
    [
      'a mainnet stake address on a testnet',
      { 'x-change-address': TESTNET_ADDRESS, 'x-stake-address': stakeAddress(true) },
      create,
      bad('Invalid stake address value: X-Stake-Address: prefix stake does not match the network')
    ],
    [
      'a payment address as stake address',
      { 'x-change-address': TESTNET_ADDRESS, 'x-stake-address': TESTNET_ADDRESS },
      create,
      bad('Invalid stake address value: X-Stake-Address: prefix addr_test does not match the network')
    ]
  ]
  test.each(cases)('%s', (_name, headers, options, expected) => {
    const e = engineError(() => decodeWalletHeaders(headers, options), expected)
    expect(e.details.header).toMatch(/^X-/)
  })
})

describe('good wallet headers', () => {
  test('only the change address', () => {
    expect(decodeWalletHeaders({ 'x-change-address': TESTNET_ADDRESS }, testnet)).toEqual({
      wallet: { changeAddress: TESTNET_ADDRESS }
    })
  })

  test('lists are trimmed, deduplicated and lowercased; names match in any case', () => {
    const decoded = decodeWalletHeaders(
      {
        'X-CHANGE-ADDRESS': ` ${TESTNET_ADDRESS.toUpperCase()} `,
        'x-address': ` ${TESTNET_ADDRESS_2} , ${TESTNET_ADDRESS_2.toUpperCase()},${TESTNET_ADDRESS}`,
        'x-collateral-utxo': `${TX.toUpperCase()}#1, ${TX}#1 ,${TX}%232`
      },
      testnet
    )
    expect(decoded).toEqual({
      wallet: {
        changeAddress: TESTNET_ADDRESS,
        extraAddresses: [TESTNET_ADDRESS_2, TESTNET_ADDRESS],
        collateral: [
          { txId: TX, index: 1 },
          { txId: TX, index: 2 }
        ]
      }
    })
  })

  test('a repeated header arrives as an array and reads as one list', () => {
    const decoded = decodeWalletHeaders(
      { 'x-change-address': TESTNET_ADDRESS, 'x-address': [TESTNET_ADDRESS_2, TESTNET_ADDRESS] },
      testnet
    )
    expect(decoded.wallet.extraAddresses).toEqual([TESTNET_ADDRESS_2, TESTNET_ADDRESS])
  })

  test('blank optional headers are absent', () => {
    const decoded = decodeWalletHeaders(
      { 'x-change-address': TESTNET_ADDRESS, 'x-address': '', 'x-collateral-utxo': ' ', 'x-stake-address': '' },
      create
    )
    expect(decoded).toEqual({ wallet: { changeAddress: TESTNET_ADDRESS } })
  })

  test('X-Stake-Address is read on create only; other endpoints ignore it, even when bad', () => {
    const stake = stakeAddress(false)
    const headers = { 'x-change-address': TESTNET_ADDRESS, 'x-stake-address': stake }
    expect(decodeWalletHeaders(headers, create).stakeAddress).toBe(stake)
    expect(decodeWalletHeaders(headers, testnet)).toEqual({ wallet: { changeAddress: TESTNET_ADDRESS } })
    expect(decodeWalletHeaders({ ...headers, 'x-stake-address': 'junk' }, testnet).stakeAddress).toBeUndefined()
  })

  test('mainnet addresses on mainnet', () => {
    const decoded = decodeWalletHeaders(
      { 'x-change-address': MAINNET_ADDRESS, 'x-stake-address': stakeAddress(true) },
      { networkId: 1, stakeAddress: true }
    )
    expect(decoded).toEqual({ wallet: { changeAddress: MAINNET_ADDRESS }, stakeAddress: stakeAddress(true) })
  })
})
