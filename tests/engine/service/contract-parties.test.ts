/**
 * Contracts by party: the store keeps each contract's parties for the party filters; a store written before it
 * kept them gets them when the service opens it, and a creation that does not read back has none instead of
 * stopping the service.
 */
import Database from 'better-sqlite3'
import { afterEach, expect, test } from 'vitest'
import { rolesEscrow } from '../build/flows'
import { testWallet } from '../build/support'
import { escrowRoles, serviceHarness, witnessed, type ServiceHarness } from './support'

const alice = testWallet('alice')
const carol = testWallet('carol')

let h: ServiceHarness
afterEach(async () => {
  await h.close()
  await h.sandbox.close()
})

test('parties forgotten by an older store are found again when the service opens it', async () => {
  h = await serviceHarness()
  const created = await h.service.createContract(
    { changeAddress: carol.address },
    { contract: rolesEscrow(), roles: escrowRoles(), tags: {}, metadata: {} }
  )
  await h.service.submitBuild(created.contractId.slice(0, 64), witnessed(created.unsigned.tx, [carol]))
  await h.follower.sync()
  const rolesCurrency = (await h.service.getContract(created.contractId)).rolesCurrency
  const byRole = { partyRoles: [{ policyId: rolesCurrency, role: 'Buyer' }] }
  expect((await h.service.listContracts(byRole)).map((c) => c.contractId)).toEqual([created.contractId])
  expect(await h.service.listContracts({ partyRoles: [{ policyId: rolesCurrency, role: 'Nobody' }] })).toEqual([])
  expect(await h.service.listContracts({ partyAddresses: [alice.address] })).toEqual([])

  // As a store written before parties were kept: none recorded. A second contract's creation is damaged.
  const other = await h.service.createContract(
    { changeAddress: alice.address },
    { contract: { type: 'Close' }, tags: {}, metadata: {} }
  )
  await h.close()
  const raw = new Database(h.databasePath)
  raw.exec('DELETE FROM contract_parties; UPDATE contracts SET parties_known = 0')
  raw.prepare('UPDATE txs SET details = \'{"kind":"create"}\' WHERE tx_id = ?').run(other.contractId.slice(0, 64))
  raw.close()

  h = await h.restart()
  expect((await h.service.listContracts(byRole)).map((c) => c.contractId)).toEqual([created.contractId])
  const check = new Database(h.databasePath, { readonly: true })
  expect(check.prepare('SELECT COUNT(*) AS n FROM contracts WHERE parties_known = 0').get()).toEqual({ n: 0 })
  check.close()
})
