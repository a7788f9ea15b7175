// @vitest-environment happy-dom
/**
 * The wallet's unspent outputs under its balance: one row each, amounts exact, tokens named, datums marked; and
 * what of the balance is available, held by unsigned builds, and in submitted transactions.
 */
import { describe, expect, test } from 'vitest'
import type { WalletBalance } from '../../src/api/contract'
import BalanceList from '../../src/renderer/src/components/wallet/BalanceList.vue'
import { FakeDesk, mountWithDesk } from './support/desk'

const TX_A = 'a1'.repeat(32)
const TX_B = 'b2'.repeat(32)
const POLICY = 'cd'.repeat(28)
const ADDRESS = 'addr_test1vqg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygxrcya6'
const HUGE = 2n ** 64n + 1n

const GOLD = { policyId: POLICY, assetName: '476f6c64', displayName: 'Gold', quantity: HUGE }
const NONE = { count: 0, lovelace: 0n, assets: [] }

const balance: WalletBalance = {
  walletId: '11'.repeat(20),
  address: ADDRESS,
  lovelace: 2n ** 53n + 3n,
  assets: [{ policyId: POLICY, assetName: '476f6c64', displayName: 'Gold', quantity: HUGE }],
  utxoCount: 2,
  utxos: [
    { ref: `${TX_A}#0`, address: ADDRESS, lovelace: 2n ** 53n + 1n, assets: [], hasDatum: false },
    {
      ref: `${TX_B}#12`,
      address: ADDRESS,
      lovelace: 2n,
      assets: [{ policyId: POLICY, assetName: '476f6c64', displayName: 'Gold', quantity: HUGE }],
      hasDatum: true
    }
  ],
  available: { lovelace: 2n ** 53n + 3n, assets: [GOLD] },
  held: { unsigned: NONE, submitted: NONE }
}

describe('wallet UTxOs', () => {
  test('a compact table, one row per output, exact amounts', async () => {
    const { wrapper } = await mountWithDesk(BalanceList, new FakeDesk({}), { props: { balance } })
    const rows = wrapper.findAll('[data-testid=wallet-utxo-row]')
    expect(rows).toHaveLength(2)
    const cells = (i: number) => rows[i]!.findAll('td').map((td) => td.text())
    const ref = rows[0]!.get('[data-testid=utxo-ref]')
    const address = rows[0]!.get('[data-testid=utxo-address]')

    expect(ref.text()).toBe(`${TX_A.slice(0, 8)}…${TX_A.slice(-4)}#0`)
    expect(ref.attributes('title')).toBe(`${TX_A}#0`)
    expect(address.attributes('title')).toBe(ADDRESS)
    // Each whole, to the clipboard.
    expect(rows[0]!.findAll('button').map((b) => b.attributes('aria-label'))).toEqual([
      'Copy transaction id',
      'Copy address'
    ])
    expect(cells(0)[2]).toBe('9,007,199,254.740993 ada')
    expect(cells(0)[3]).toBe('—')
    expect(cells(0)[4]).toBe('no')

    expect(rows[1]!.get('[data-testid=utxo-ref]').text()).toMatch(/#12$/)
    expect(cells(1)[2]).toBe('0.000002 ada')
    expect(cells(1)[3]).toBe('18,446,744,073,709,551,617 Gold')
    expect(cells(1)[4]).toBe('yes')
  })

  test('all available while nothing is pending', async () => {
    const { wrapper } = await mountWithDesk(BalanceList, new FakeDesk({}), { props: { balance } })
    expect(wrapper.get('[data-testid=wallet-available]').text()).toBe(
      'Available9,007,199,254.740995 ada, 18,446,744,073,709,551,617 Gold'
    )
    expect(wrapper.find('[data-testid=wallet-held-unsigned]').exists()).toBe(false)
    expect(wrapper.find('[data-testid=wallet-held-submitted]').exists()).toBe(false)
  })

  test('what unsigned builds and submitted transactions hold, apart from what is available', async () => {
    const held: WalletBalance = {
      ...balance,
      available: { lovelace: 2n, assets: [GOLD] },
      held: {
        unsigned: { count: 2, lovelace: 2n ** 53n + 1n, assets: [] },
        submitted: { count: 1, lovelace: 1_500_000n, assets: [{ ...GOLD, quantity: 3n }] }
      }
    }
    const { wrapper } = await mountWithDesk(BalanceList, new FakeDesk({}), { props: { balance: held } })
    expect(wrapper.get('[data-testid=wallet-available]').text()).toContain('0.000002 ada')
    expect(wrapper.get('[data-testid=wallet-held-unsigned]').text()).toBe(
      'Held by 2 unsigned builds9,007,199,254.740993 ada'
    )
    expect(wrapper.get('[data-testid=wallet-held-submitted]').text()).toBe('In 1 submitted transaction1.5 ada, 3 Gold')
  })

  test('no table without outputs', async () => {
    const empty = (
      await mountWithDesk(BalanceList, new FakeDesk({}), {
        props: { balance: { ...balance, utxoCount: 0, utxos: [], assets: [] } }
      })
    ).wrapper
    expect(empty.findAll('[data-testid=wallet-utxo-row]')).toHaveLength(0)
    expect(empty.get('[data-testid=wallet-utxos]').text()).toContain('0 unspent outputs')
  })
})
