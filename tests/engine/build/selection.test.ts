/** Coin selection (Runtime's greedy order), min-UTxO bounds, fees and slot conversion: the pure parts. */
import { describe, expect, test } from 'vitest'
import type { EraSummary, ProtocolParameters, Utxo } from '../../../src/chain/provider'
import { toProtocolParameters, SANDBOX_BLAZE_PARAMS } from '../../../src/chain/sandbox/params'
import { ADA, CLOSE, emptyState, type Contract, type Token } from '../../../src/core/marlowe/types'
import { minAdaUpperBound } from '../../../src/engine/build/min-utxo'
import { referenceScriptFee } from '../../../src/core/cardano/review/fees'
import { maxFee, requiredCollateral } from '../../../src/engine/build/protocol'
import { selectCoins } from '../../../src/engine/build/selection'
import { SlotClock } from '../../../src/engine/build/slots'
import { CSL, withCsl } from '../../../src/csl'
import { EngineError } from '../../../src/engine/errors'

const pp: ProtocolParameters = toProtocolParameters(SANDBOX_BLAZE_PARAMS)
const policy = 'ab'.repeat(28)
let n = 0
function utxo(lovelace: bigint, tokens: Record<string, bigint> = {}): Utxo {
  n += 1
  const assets = Object.keys(tokens).length === 0 ? {} : { [policy]: tokens }
  return {
    ref: { txId: n.toString(16).padStart(64, '0'), index: 0 },
    address: 'addr_test1',
    value: { lovelace, assets }
  }
}
const noChangeRule = (): bigint => 1_000_000n
/** Runtime's choice among equally good candidates: the first in the wallet's order. */
const first = (): number => 0

describe('coin selection', () => {
  test('takes the UTxO with the missing token first, then pure ada with enough lovelace', () => {
    const small = utxo(2_000_000n)
    const big = utxo(50_000_000n)
    const withToken = utxo(3_000_000n, { '41': 5n })
    const other = utxo(9_000_000n, { '42': 1n })
    const r = selectCoins({
      balance: { lovelace: -20_000_000n, assets: { [policy]: { '41': -2n } } },
      fee: 1_000_000n,
      candidates: [small, other, withToken, big],
      changeMinLovelace: noChangeRule,
      pick: first
    })
    expect(r.ok && r.selected).toEqual([withToken, big])
    expect(r.ok && r.change).toEqual({ lovelace: 32_000_000n, assets: { [policy]: { '41': 3n } } })
  })

  test('adds inputs until the change output can exist', () => {
    const a = utxo(10_500_000n)
    const b = utxo(2_000_000n)
    const r = selectCoins({
      balance: { lovelace: -10_000_000n, assets: {} },
      fee: 0n,
      candidates: [a, b],
      changeMinLovelace: noChangeRule,
      pick: first
    })
    expect(r.ok && r.selected).toEqual([a, b])
  })

  test('the pick chooses among the best candidates holding the same value as the first best one', () => {
    const tokens = utxo(20_000_000n, { '41': 1n })
    const alike = [utxo(20_000_000n), utxo(30_000_000n), utxo(20_000_000n)]
    const offered: number[] = []
    const r = selectCoins({
      balance: { lovelace: -10_000_000n, assets: {} },
      fee: 0n,
      candidates: [tokens, ...alike],
      changeMinLovelace: noChangeRule,
      pick: (count) => (offered.push(count), count - 1)
    })
    // Every pure-ada UTxO covers the need; the two of 20 ada make the same tx, the 30-ada one a larger change.
    expect(offered).toEqual([2])
    expect(r.ok && r.selected).toEqual([alike[2]])
  })

  test('short of the need: an alike candidate of another value is not offered (it could change the inputs)', () => {
    const [six, two, alsoSix] = [utxo(6_000_000n), utxo(2_000_000n), utxo(6_000_000n)]
    const offered: number[] = []
    const r = selectCoins({
      balance: { lovelace: -10_000_000n, assets: {} },
      fee: 0n,
      candidates: [six, two, alsoSix],
      changeMinLovelace: noChangeRule,
      pick: (count) => (offered.push(count), count - 1)
    })
    expect(offered).toEqual([2, 1])
    expect(r.ok && r.selected).toEqual([alsoSix, six])
  })

  test('failures: missing tokens, then missing lovelace with what is available', () => {
    const tokens = selectCoins({
      balance: { lovelace: 0n, assets: { [policy]: { '41': -7n } } },
      fee: 0n,
      candidates: [utxo(5_000_000n, { '41': 2n })],
      changeMinLovelace: noChangeRule,
      pick: first
    })
    expect(tokens).toEqual({
      ok: false,
      failure: { tag: 'InsufficientTokens', tokens: { lovelace: 0n, assets: { [policy]: { '41': 5n } } } }
    })
    const lovelace = selectCoins({
      balance: { lovelace: -9_000_000n, assets: {} },
      fee: 500_000n,
      candidates: [utxo(4_000_000n)],
      changeMinLovelace: noChangeRule,
      pick: first
    })
    expect(lovelace).toEqual({
      ok: false,
      failure: { tag: 'InsufficientLovelace', required: 9_500_000n, available: 4_000_000n }
    })
  })
})

describe('min-UTxO deposit bound (Runtime minAdaUpperBound)', () => {
  test('a contract that mentions ada: the worst output holds 2^63 lovelace', () => {
    // [address(57 B), coin(9 B), datum hash(32 B)] = 103 bytes; (160 + 103) × 4310.
    const contract: Contract = {
      type: 'Pay',
      from: { type: 'Role', role: 'a' },
      to: { type: 'Party', party: { type: 'Role', role: 'a' } },
      token: ADA,
      value: 1n,
      then: CLOSE
    }
    expect(minAdaUpperBound(pp, emptyState(0n), contract)).toBe((160n + 103n) * 4310n)
  })

  test('every token the contract mentions raises the bound', () => {
    const token = (name: string): Token => ({ currencySymbol: policy, tokenName: name })
    const pays = (t: Token, then: Contract): Contract => ({
      type: 'Pay',
      from: { type: 'Role', role: 'a' },
      to: { type: 'Party', party: { type: 'Role', role: 'a' } },
      token: t,
      value: 1n,
      then
    })
    const one = minAdaUpperBound(pp, emptyState(0n), pays(token('x'), CLOSE))!
    const two = minAdaUpperBound(pp, emptyState(0n), pays(token('x'), pays(token('y'), CLOSE)))!
    expect(two).toBeGreaterThan(one)
    expect(minAdaUpperBound(pp, emptyState(0n), CLOSE)).toBeLessThan(one)
  })
})

describe('fees', () => {
  test('the tiered reference-script fee agrees with CSL', () => {
    for (const size of [0, 1, 25_600, 30_000, 60_000, 200_000]) {
      const csl = withCsl((s) =>
        BigInt(
          s
            .own(
              CSL.min_ref_script_fee(
                size,
                s.own(CSL.UnitInterval.new(s.own(CSL.BigNum.from_str('15')), s.own(CSL.BigNum.from_str('1'))))
              )
            )
            .to_str()
        )
      )
      expect(referenceScriptFee(BigInt(size), pp.minFeeRefScriptCostPerByte)).toBe(csl)
    }
  })

  test('the fee allowance bounds any tx; collateral is a percentage of a fee', () => {
    expect(maxFee(pp, false, 0)).toBe(44n * 16_384n + 155_381n)
    expect(maxFee(pp, true, 0)).toBe(44n * 16_384n + 155_381n + 807_800n + 721_000n)
    expect(requiredCollateral(pp, 200_001n)).toBe(300_002n)
  })
})

describe('slots', () => {
  const eras: EraSummary[] = [
    { start: { slot: 0n, time: 1_000_000n }, end: { slot: 100n, time: 1_000_000n + 2_000_000n }, slotLength: 20_000n },
    { start: { slot: 100n, time: 3_000_000n }, slotLength: 1_000n }
  ]

  test('slots and times convert across eras; a time maps to the slot containing it', () => {
    const clock = new SlotClock(eras, 200n, 1_000n)
    expect(clock.slotToTime(50n)).toBe(2_000_000n)
    expect(clock.slotToTime(150n)).toBe(3_050_000n)
    expect(clock.timeToSlot(3_050_999n)).toBe(150n)
    expect(clock.timeToSlot(1_019_999n)).toBe(0n)
    expect(clock.maxSafeSlot).toBe(1_200n)
  })

  test('beyond the safe horizon: SlotConversionFailed', () => {
    const clock = new SlotClock(eras, 200n, 1_000n)
    const e = (() => {
      try {
        clock.timeToSlot(3_000_000n + 1_101n * 1_000n)
      } catch (err) {
        return err
      }
    })()
    expect(e).toBeInstanceOf(EngineError)
    expect((e as EngineError).code).toBe('SlotConversionFailed')
  })
})
