/** Input reservations: concurrent builds for one wallet never share an input; reservations expire and release. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { swap } from '../../../src/core/marlowe/examples'
import { ADA as ADA_TOKEN, CLOSE, type Party } from '../../../src/core/marlowe/types'
import { MarloweTxBuilder, type CreateBuild, type InputReservations } from '../../../src/engine/build'
import { formatShelleyAddress } from '../../../src/core/cardano/address'
import { formatRef } from '../../../src/core/cardano/refs'
import { InMemoryInputReservations } from '../../../src/engine/build/reservations'
import { EngineError } from '../../../src/engine/errors'
import { openSqliteStore } from '../../../src/store/open-store'
import { rolesEscrow } from './flows'
import { ADA, T0, harness, testWallet, type Harness } from './support'

const alice = testWallet('alice')
const bob = testWallet('bob')
const address = (w: { address: string }): Party => ({ type: 'Address', address: w.address })

let h: Harness
/** A wallet of many equal coins and builds at once that need one each (as `replicas`' 50 concurrent builds). */
const COINS = 100
const BUILDS = 20
afterEach(async () => h.close())

function walletInputs(b: { spent: readonly { txId: string; index: number }[] }): string[] {
  return b.spent.map(formatRef)
}

describe('concurrent builds for one wallet', () => {
  test('creates built at once use disjoint inputs and are all accepted', async () => {
    h = harness()
    // alice's four genesis UTxOs: each build takes one.
    const builds = await Promise.all(
      [1, 2, 3, 4].map(() => h.builder.create({ changeAddress: alice.address }, { contract: CLOSE }))
    )
    const inputs = builds.flatMap(walletInputs)
    expect(new Set(inputs).size).toBe(inputs.length)
    expect(inputs.length).toBe(4)
    // A fifth finds nothing left to spend.
    const fifth = await h.builder.create({ changeAddress: alice.address }, { contract: CLOSE }).catch((e: unknown) => e)
    expect(fifth).toBeInstanceOf(EngineError)
    expect((fifth as EngineError).code).toBe('CoinSelectionFailed')
    for (const b of builds) await h.submit(b, [alice])
  })

  test('a build that spends its own collateral does not lend it to the next build as collateral', async () => {
    h = harness()
    // A wallet of two 5-ada UTxOs: a roles create needs both, and one of them is also its collateral.
    const wallet = formatShelleyAddress({ mainnet: false, payment: { type: 'key', hash: 'ab'.repeat(28) } })
    await h.sandbox.fund(wallet, 5n * ADA)
    await h.sandbox.fund(wallet, 5n * ADA)
    const rolesCreate = () =>
      h.builder.create(
        { changeAddress: wallet },
        {
          contract: rolesEscrow(),
          roles: {
            type: 'Mint',
            roles: ['Buyer', 'Seller', 'Mediator'].map((name) => ({
              name,
              recipients: [{ destination: { address: wallet }, quantity: 1n }]
            }))
          }
        }
      )
    const first = await rolesCreate()
    expect(first.collateral).toHaveLength(1)
    expect(walletInputs(first)).toContain(formatRef(first.collateral[0]!))
    // New funds arrive; the next script-running build takes them, and its collateral is not the first's.
    await h.sandbox.fund(wallet, 50n * ADA)
    const second = await rolesCreate()
    expect(walletInputs(second).some((r) => walletInputs(first).includes(r))).toBe(false)
    expect(walletInputs(first)).not.toContain(formatRef(second.collateral[0]!))
  })

  test('apply builds at once share no spent input; collateral may be shared, never spent', async () => {
    h = harness()
    const contracts: CreateBuild[] = []
    for (let i = 0; i < 3; i += 1) {
      const { contract } = swap({
        first: {
          party: address(alice),
          token: ADA_TOKEN,
          amount: BigInt(i + 2) * ADA,
          depositDeadline: T0 + 86_400_000n
        },
        second: { party: address(bob), token: ADA_TOKEN, amount: 1n * ADA, depositDeadline: T0 + 86_400_000n }
      })
      const c = await h.builder.create({ changeAddress: alice.address }, { contract })
      await h.submit(c, [alice])
      contracts.push(c)
    }
    const applies = await Promise.all(
      contracts.map((c, i) =>
        h.builder.applyInputs(
          { changeAddress: alice.address },
          {
            contractId: c.contractId,
            inputs: [
              {
                content: {
                  type: 'IDeposit',
                  account: address(alice),
                  party: address(alice),
                  token: ADA_TOKEN,
                  amount: BigInt(i + 2) * ADA
                }
              }
            ]
          }
        )
      )
    )
    const spent = applies.flatMap(walletInputs)
    expect(new Set(spent).size).toBe(spent.length)
    const collateral = new Set(applies.flatMap((a) => a.collateral.map(formatRef)))
    for (const c of collateral) expect(spent).not.toContain(c)
    for (const a of applies) await h.submit(a, [alice])
  })
})

describe('concurrent builds of one wallet on one store', () => {
  test('mostly win the race for their inputs at the first try: equally good coins are picked at random', async () => {
    h = harness()
    const dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-races-'))
    const store = openSqliteStore(join(dir, 'desk.sqlite'))
    try {
      const wallet = formatShelleyAddress({ mainnet: false, payment: { type: 'key', hash: 'cd'.repeat(28) } })
      for (let i = 0; i < COINS; i += 1) await h.sandbox.fund(wallet, 10n * ADA)
      let lost = 0
      const reservations: InputReservations = {
        reserved: (now) => store.reservations.reserved(now),
        tryReserve: async (reservation, now) => {
          const outcome = await store.reservations.tryReserve(reservation, now)
          if (!outcome.ok) lost += 1
          return outcome
        },
        release: (key) => store.reservations.release(key)
      }
      const builder = new MarloweTxBuilder({ provider: h.sandbox, reservations, now: h.clock.now })
      const builds = await Promise.all(
        Array.from({ length: BUILDS }, () => builder.create({ changeAddress: wallet }, { contract: CLOSE }))
      )
      const inputs = builds.flatMap(walletInputs)
      expect(new Set(inputs).size).toBe(inputs.length)
      // The first coin of the wallet's list for every build would lose BUILDS - 1 races in the first round alone.
      expect(lost).toBeLessThan(BUILDS / 2)
    } finally {
      await store.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('reservations', () => {
  test('an unsubmitted build holds its inputs until released or expired', async () => {
    h = harness({ reservationTtlMs: 60_000 })
    const first = await h.builder.create({ changeAddress: bob.address }, { contract: CLOSE })
    const second = await h.builder.create({ changeAddress: bob.address }, { contract: CLOSE })
    expect(walletInputs(second)).not.toEqual(walletInputs(first))
    expect(first.reservation.expiresAt).toBe(h.clock.now() + 60_000)
    await h.builder.release(first.reservation.key)
    const third = await h.builder.create({ changeAddress: bob.address }, { contract: CLOSE })
    expect(walletInputs(third)).toEqual(walletInputs(first))
    // Past the TTL every reservation lapses: the same inputs come back.
    h.clock.ms += 61_000n
    const fourth = await h.builder.create({ changeAddress: bob.address }, { contract: CLOSE })
    expect(walletInputs(fourth)).toEqual(walletInputs(first))
  })

  test('an apply build holds its inputs no longer than its validity interval', async () => {
    h = harness({ reservationTtlMs: 10 * 86_400_000 })
    const { contract } = swap({
      first: { party: address(alice), token: ADA_TOKEN, amount: 2n * ADA, depositDeadline: T0 + 3_600_000n },
      second: { party: address(bob), token: ADA_TOKEN, amount: 1n * ADA, depositDeadline: T0 + 7_200_000n }
    })
    const c = await h.builder.create({ changeAddress: alice.address }, { contract })
    await h.submit(c, [alice])
    const a = await h.builder.applyInputs(
      { changeAddress: alice.address },
      {
        contractId: c.contractId,
        inputs: [
          {
            content: {
              type: 'IDeposit',
              account: address(alice),
              party: address(alice),
              token: ADA_TOKEN,
              amount: 2n * ADA
            }
          }
        ]
      }
    )
    expect(a.reservation.expiresAt).toBe(Number(T0 + 3_600_000n))
  })

  test('the in-memory store: spends are exclusive, collateral is shared but never spent', async () => {
    const r = new InMemoryInputReservations()
    const x = { txId: 'aa'.repeat(32), index: 0 }
    const y = { txId: 'aa'.repeat(32), index: 1 }
    expect(await r.tryReserve({ key: 'a', spend: [x], collateral: [y], expiresAt: 100 }, 0)).toEqual({ ok: true })
    expect(await r.tryReserve({ key: 'b', spend: [x], collateral: [], expiresAt: 100 }, 0)).toEqual({
      ok: false,
      conflicts: [formatRef(x)]
    })
    expect(await r.tryReserve({ key: 'c', spend: [y], collateral: [], expiresAt: 100 }, 0)).toEqual({
      ok: false,
      conflicts: [formatRef(y)]
    })
    expect(await r.tryReserve({ key: 'd', spend: [], collateral: [y], expiresAt: 100 }, 0)).toEqual({ ok: true })
    expect(await r.tryReserve({ key: 'e', spend: [], collateral: [x], expiresAt: 100 }, 0)).toEqual({
      ok: false,
      conflicts: [formatRef(x)]
    })
    const held = await r.reserved(50)
    expect([...held.spent]).toEqual([formatRef(x)])
    expect([...held.collateral]).toEqual([formatRef(y)])
    expect(await r.reserved(100)).toEqual({ spent: new Set(), collateral: new Set() })
    expect(await r.tryReserve({ key: 'f', spend: [x, y], collateral: [], expiresAt: 200 }, 100)).toEqual({ ok: true })
    await r.release('f')
    expect((await r.reserved(150)).spent.size).toBe(0)
  })
})
