/**
 * A process killed between reserving a build's inputs and storing the build leaves a reservation that no build
 * holds: the service frees it when it opens the store again, and keeps every reservation a stored build holds.
 */
import { describe, expect, test } from 'vitest'
import { openDatabase } from '../../../src/store/database'
import { SqliteGate } from '../../../src/store/sqlite-gate'
import { SqliteInputReservations } from '../../../src/store/reservations'
import { rolesEscrow } from '../build/flows'
import { testWallet } from '../build/support'
import { storeDump } from '../../server/support'
import { escrowRoles, serviceHarness } from './support'

describe('reservations after a kill', () => {
  test('one no build holds is freed on reopening; a stored build keeps its own', async () => {
    const h = await serviceHarness()
    const built = await h.service.createContract(
      { changeAddress: testWallet('carol').address },
      { contract: rolesEscrow(), roles: escrowRoles(), tags: {}, metadata: {} }
    )
    // What the killed process left: its reservation committed, its build never stored.
    const other = openDatabase(h.databasePath)
    const orphan = { txId: 'ab'.repeat(32), index: 0 }
    expect(
      await new SqliteInputReservations(new SqliteGate(other)).tryReserve(
        { key: 'killed-build', spend: [orphan], collateral: [], expiresAt: Date.now() + 3_600_000 },
        0
      )
    ).toEqual({ ok: true })
    other.close()
    const keys = () => storeDump(h.databasePath).reservations!.map((r) => (r as { key: string }).key)
    expect(keys()).toContain('killed-build')

    const again = await h.restart()
    try {
      const [stored] = storeDump(again.databasePath).txs as { tx_id: string; reservation_key: string }[]
      expect(stored?.tx_id).toBe(built.contractId.slice(0, 64))
      expect(keys()).toEqual([stored!.reservation_key])
    } finally {
      await again.close()
      await again.sandbox.close()
    }
  })
})
