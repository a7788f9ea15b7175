/**
 * A service over a real SQLite file (or a real PostgreSQL database, given its url) and a sandbox on a hand-moved
 * clock, with witness-set signing.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'vitest'
import { SandboxProvider } from '../../../src/chain/sandbox'
import { formatShelleyAddress } from '../../../src/core/cardano/address'
import { CSL, withCsl } from '../../../src/csl'
import { openService, type ContractView, type OpenService, type ServiceStoreOption } from '../../../src/engine/service'
import { openPostgresStore } from '../../../src/store/open-store'
import { usePostgres } from '../../support/postgres-server'
import { CLOSE, type Contract, type Input, type Party } from '../../../src/core/marlowe/types'
import type { RolesConfig } from '../../../src/engine/build'
import { validatorsFromEnv } from '../../chain/support/sandbox'
export { witnessEnvelope, witnessed } from './witnesses'
import { ManualClock, T0, testWallet, type TestWallet } from '../build/support'

export interface ServiceHarness extends OpenService {
  readonly sandbox: SandboxProvider
  readonly clock: ManualClock
  readonly databasePath: string
  /** The PostgreSQL database the service keeps its records in, instead of the file. */
  readonly storeUrl?: string
  /** Closes the service and opens a new one over the same store and sandbox (a restart). */
  restart(): Promise<ServiceHarness>
}

/** The store of a service under test: the PostgreSQL database at `storeUrl`, else the SQLite file `databasePath`. */
export async function storeOption(
  storeUrl: string | undefined,
  databasePath = ':memory:'
): Promise<ServiceStoreOption> {
  return storeUrl === undefined ? { databasePath } : { store: await openPostgresStore(storeUrl) }
}

export async function serviceHarness(
  options: { databasePath?: string; storeUrl?: string | undefined; sandbox?: SandboxProvider; clock?: ManualClock } = {}
): Promise<ServiceHarness> {
  const clock = options.clock ?? new ManualClock()
  const sandbox =
    options.sandbox ??
    SandboxProvider.open({ zeroTime: T0, clockTickMs: false, ...validatorsFromEnv(), now: clock.now })
  const databasePath =
    options.databasePath ?? join(mkdtempSync(join(tmpdir(), 'marlowe-desk-service-')), 'store.sqlite')
  const { storeUrl } = options
  const store = await storeOption(storeUrl, databasePath)
  const opened = await openService({ provider: sandbox, ...store, now: clock.now, followEveryMs: false })
  return {
    ...opened,
    sandbox,
    clock,
    databasePath,
    ...(storeUrl === undefined ? {} : { storeUrl }),
    async restart() {
      await opened.close()
      return serviceHarness({ databasePath, ...(storeUrl === undefined ? {} : { storeUrl }), sandbox, clock })
    }
  }
}

/** The roles escrow's tokens minted one each: Buyer to alice, Seller to bob, Mediator to carol. */
export function escrowRoles(): RolesConfig {
  const holders = [testWallet('alice'), testWallet('bob'), testWallet('carol')]
  return {
    type: 'Mint',
    roles: ['Buyer', 'Seller', 'Mediator'].map((name, i) => ({
      name,
      recipients: [{ destination: { address: holders[i]!.address }, quantity: 1n }]
    }))
  }
}

export const role = (name: string): Party => ({ type: 'Role', role: name })

export const choose = (name: string, owner: Party, chosen: bigint): Input => ({
  content: { type: 'IChoice', choice: { name, owner }, chosen }
})

/** A contract that waits for a notification (or ten days), then closes. */
export const NOTIFY_THEN_CLOSE: Contract = {
  type: 'When',
  cases: [{ type: 'Case', action: { type: 'Notify', observation: true }, then: CLOSE }],
  timeout: T0 + 864_000_000n,
  timeoutContinuation: CLOSE
}

/** A wallet of one fresh key: its address holds only what the test funds it with. */
export function oneKeyWallet(): TestWallet {
  return withCsl((s) => {
    const key = s.own(CSL.PrivateKey.generate_ed25519extended())
    const hash = s.own(s.own(key.to_public()).hash()).to_hex()
    return {
      name: 'dave',
      address: formatShelleyAddress({ mainnet: false, payment: { type: 'key', hash } }),
      paymentKeyHash: hash,
      key: key.as_bytes()
    }
  })
}

export interface StoreKind {
  readonly name: 'SQLite' | 'PostgreSQL'
  /** False where the database is not installed here (the tests then skip). */
  readonly available: boolean
  /** A fresh PostgreSQL database's url, or undefined for SQLite (a file of the test's own). */
  storeUrl(): Promise<string | undefined>
}

/** The two stores a service test runs on, for describe.each; call at the top of a test file. */
export function storeKinds(): StoreKind[] {
  const server = usePostgres()
  return [
    { name: 'SQLite', available: true, storeUrl: () => Promise.resolve(undefined) },
    { name: 'PostgreSQL', available: server.available, storeUrl: () => server.createDatabase() }
  ]
}

/**
 * Ours, having followed the chain, shows the contract another builder created as that builder does: confirmed in
 * the same block, from the same contract and state, with the same roles, funds and address, and its tags.
 */
export function expectSameContract(ours: ContractView, theirs: ContractView, contractId: string): void {
  expect(ours.status).toBe('confirmed')
  expect(ours.block).toEqual(theirs.block)
  expect(ours.initialContract).toEqual(theirs.initialContract)
  expect(ours.initialState).toEqual(theirs.initialState)
  expect(ours.rolesCurrency).toBe(theirs.rolesCurrency)
  expect(ours.current?.utxo).toBe(contractId)
  expect(ours.assets).toEqual(theirs.assets)
  expect(ours.marloweAddress).toBe(theirs.marloweAddress)
  expect(ours.tags).toEqual({ 'desk.test': 'from another builder' })
}
