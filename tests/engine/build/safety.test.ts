/** Runtime's static safety checks, in its order and JSON form. */
import { describe, expect, test } from 'vitest'
import { formatShelleyAddress } from '../../../src/core/cardano/address'
import {
  ADA,
  CLOSE,
  emptyState,
  type Contract,
  type Party,
  type State,
  type Token
} from '../../../src/core/marlowe/types'
import { checkContract, type RolesCheck } from '../../../src/engine/build/safety'

const testnet = formatShelleyAddress({ mainnet: false, payment: { type: 'key', hash: '11'.repeat(28) } })
const mainnet = 'addr1vx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzers66hrl8'
const address = (a: string): Party => ({ type: 'Address', address: a })
const role = (r: string): Party => ({ type: 'Role', role: r })

function pay(from: Party, to: Party, token: Token, then: Contract = CLOSE): Contract {
  return { type: 'Pay', from, to: { type: 'Party', party: to }, token, value: 1n, then }
}

function check(
  contract: Contract,
  options: { roles?: RolesCheck; rolesCurrency?: string; state?: State; mainnet?: boolean } = {}
) {
  return checkContract({
    mainnet: options.mainnet ?? false,
    rolesCurrency: options.rolesCurrency ?? '',
    state: options.state ?? emptyState(0n),
    contract,
    ...(options.roles === undefined ? {} : { roles: options.roles })
  }).map((e) => {
    const { detail: _detail, ...rest } = e
    return rest
  })
}

describe('roles', () => {
  test('roles without a currency, and a currency without roles', () => {
    expect(check(pay(role('A'), role('B'), ADA), { roles: { type: 'None' } })).toEqual([
      { error: 'MissingRolesCurrency', fatal: true }
    ])
    expect(check(CLOSE, { roles: { type: 'Mint', roles: ['A'] }, rolesCurrency: 'ab'.repeat(28) })).toEqual([
      { error: 'ContractHasNoRoles', fatal: false }
    ])
  })

  test('minted versus used roles, sorted by bytes; role names over 32 bytes', () => {
    const long = 'L'.repeat(33)
    const contract = pay(role('b'), role(long), ADA, pay(role('a'), role('b'), ADA))
    expect(check(contract, { roles: { type: 'Mint', roles: ['b', 'z'] }, rolesCurrency: 'ab'.repeat(28) })).toEqual([
      { error: 'MissingRoleToken', 'role-name': long, fatal: true },
      { error: 'MissingRoleToken', 'role-name': 'a', fatal: true },
      { error: 'ExtraRoleToken', 'role-name': 'z', fatal: false },
      { error: 'RoleNameTooLong', 'role-name': long, fatal: true }
    ])
    expect(
      check(pay(role('a'), role('a'), ADA), {
        roles: { type: 'UsePolicy', distributed: ['a', 'x'] },
        rolesCurrency: 'ab'.repeat(28)
      })
    ).toEqual([{ error: 'ExtraRoleToken', 'role-name': 'x', fatal: false }])
  })
})

describe('tokens', () => {
  test('a named ada token, a short currency symbol, a long token name', () => {
    const contract = pay(
      address(testnet),
      address(testnet),
      { currencySymbol: '', tokenName: 'x' },
      pay(
        address(testnet),
        address(testnet),
        { currencySymbol: 'abcd', tokenName: 't' },
        pay(address(testnet), address(testnet), { currencySymbol: 'ab'.repeat(28), tokenName: 'n'.repeat(33) })
      )
    )
    expect(check(contract)).toEqual([
      { error: 'InvalidToken', token: { currency_symbol: '', token_name: 'x' }, fatal: true },
      // Tokens in byte order of their currency symbols: ab…ab before abcd.
      { error: 'TokenNameTooLong', 'token-name': 'n'.repeat(33), fatal: true },
      { error: 'InvalidCurrencySymbol', 'currency-symbol': 'abcd', fatal: true }
    ])
  })
})

describe('networks and continuations', () => {
  test('wrong and mixed networks, in the state too', () => {
    expect(check(pay(address(mainnet), address(mainnet), ADA))).toEqual([{ error: 'WrongNetwork', fatal: true }])
    const state: State = { ...emptyState(0n), accounts: [[{ account: address(testnet), token: ADA }, 1n]] }
    expect(check(pay(address(mainnet), address(mainnet), ADA), { state })).toEqual([
      { error: 'WrongNetwork', fatal: true },
      { error: 'InconsistentNetworks', fatal: true }
    ])
    expect(check(pay(address(mainnet), address(mainnet), ADA), { mainnet: true })).toEqual([])
  })

  test('an address that does not round-trip through bech32 is illegal', () => {
    const broken = testnet.slice(0, -1) + (testnet.endsWith('q') ? 'p' : 'q')
    expect(check(pay(address(broken), address(testnet), ADA))).toEqual([
      { error: 'IllegalAddress', address: broken, fatal: true }
    ])
  })

  test('merkleized continuations that are not known are reported once each', () => {
    const hash = 'cd'.repeat(32)
    const contract: Contract = {
      type: 'When',
      cases: [
        { type: 'MerkleizedCase', action: { type: 'Notify', observation: true }, hash },
        { type: 'MerkleizedCase', action: { type: 'Notify', observation: false }, hash }
      ],
      timeout: 1n,
      timeoutContinuation: CLOSE
    }
    expect(check(contract)).toEqual([{ error: 'MissingContinuation', hash, fatal: false }])
  })
})
