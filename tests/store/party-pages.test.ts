/**
 * A party's list of stored contracts in pages (`storedContractPage` with a party query), on a real SQLite file:
 * newest build first, only the contracts naming one of the parties, a page starting at any stored contract (one
 * the party is not in too, where a wallet's page after its draft starts), and undefined for an unknown start — on
 * both stores (SQLite's file and a real PostgreSQL server).
 */
import { describe, expect, test } from 'vitest'
import { addressPartyKey, rolePartyKey, type ServiceStore } from '../../src/store/service-store'
import { storeBackends } from './backends'

const id = (n: number): string => n.toString(16).padStart(64, '0')
const contractOf = (n: number): string => `${id(n)}#0`
const ALICE = addressPartyKey('addr_test1alice')
const BOB_ROLE = rolePartyKey('cc', 'Bob')

/** Contract n built at time n, naming `parties`. */
async function built(store: ServiceStore, n: number, parties: readonly string[]): Promise<void> {
  await store.insertBuilt({
    txId: id(n),
    kind: 'create',
    contractId: contractOf(n),
    rolesCurrency: 'cc',
    era: 'Conway',
    unsignedTx: Uint8Array.of(0),
    reservationKey: `k${n}`,
    createdAt: n,
    details: '{}',
    columns: { tags: '{}', metadata: '{}' },
    parties
  })
}

describe.each(storeBackends())('$name', ({ available, fresh }) => {
  test.skipIf(!available)(
    "a party's stored contracts come a page at a time, newest build first, from any stored contract",
    async () => {
      const store = (await (await fresh()).open()).records
      // Contracts 1..30: alice in those divisible by 3, bob's role in those divisible by 5, nobody else's in the rest.
      for (let n = 1; n <= 30; n += 1) {
        await built(store, n, [...(n % 3 === 0 ? [ALICE] : []), ...(n % 5 === 0 ? [BOB_ROLE] : [])])
      }
      const query = { parties: [ALICE, BOB_ROLE] }
      const theirs = [30, 27, 25, 24, 21, 20, 18, 15, 12, 10, 9, 6, 5, 3].map(contractOf)
      const page = async (limit: number, start?: number): Promise<string[] | undefined> =>
        (
          await store.storedContractPage(
            { ...(start === undefined ? {} : { start: contractOf(start) }), order: 'desc', offset: 0, limit },
            query
          )
        )?.map((row) => row.contractId)

      expect(await page(100)).toEqual(theirs)
      expect(await page(4)).toEqual(theirs.slice(0, 4))
      // From one of theirs, included; from one that names neither, the next of theirs.
      expect(await page(3, 24)).toEqual(theirs.slice(3, 6))
      expect(await page(3, 23)).toEqual(theirs.slice(4, 7))
      expect(await page(100, 2)).toEqual([])
      // Oldest first, and alice's alone.
      expect(
        (await store.storedContractPage({ order: 'asc', offset: 0, limit: 3 }, { parties: [ALICE] }))?.map(
          (row) => row.contractId
        )
      ).toEqual([3, 6, 9].map(contractOf))
      // Not stored: no page.
      expect(await page(3, 99)).toBeUndefined()
      // No query: every stored contract.
      expect((await store.storedContractPage({ order: 'desc', offset: 0, limit: 100 }))?.length).toBe(30)
    }
  )
})
