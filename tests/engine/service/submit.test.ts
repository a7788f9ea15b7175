/**
 * Submits as Runtime's PUTs make them (src/server/submits.ts onto the service's submitBuild): what a PUT body may
 * be, which build it must match, and what happens when the node refuses, cannot be reached, or drops a tx —
 * nothing stored is lost, and a retry goes through.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import {
  ChainError,
  type ChainProvider,
  type ScriptTxPage,
  type ScriptTxQuery,
  type TxStatus
} from '../../../src/chain/provider'
import { SandboxProvider } from '../../../src/chain/sandbox'
import { GENESIS_ID } from '../../../src/chain/sandbox/genesis'
import { bytesToHex } from '../../../src/core/bytes'
import { splitTransaction, vkeyWitnessesOfWitnessSet, keyWitnessBytes } from '../../../src/core/cardano/witnesses'
import { concatBytes, hexToBytes } from '../../../src/core/bytes'
import { openService, type OpenService } from '../../../src/engine/service'
import type { TextEnvelopeBody } from '../../../src/server/requests'
import { submitByPath } from '../../../src/server/submits'
import { openPostgresStore, openSqliteStore } from '../../../src/store/open-store'
import { ManualClock, T0, sign, testWallet } from '../build/support'
import { validatorsFromEnv } from '../../chain/support/sandbox'
import { storeKinds, storeOption, witnessEnvelope } from './support'

const kinds = storeKinds()
const alice = testWallet('alice')
const bob = testWallet('bob')

type Fault = 'reject' | 'down' | undefined

/** The sandbox behind a switch that makes submits fail the way a node can, and can hide txs from the follower. */
function faultyProvider(sandbox: SandboxProvider) {
  const state: { fault: Fault; acceptButFail: boolean; hideStatus: boolean } = {
    fault: undefined,
    acceptButFail: false,
    hideStatus: false
  }
  const provider: ChainProvider = Object.assign(Object.create(sandbox) as SandboxProvider, {
    async submit(tx: Uint8Array): Promise<string> {
      if (state.fault === 'reject')
        throw new ChainError('Rejected', 'BadInputsUTxO: the inputs are spent', { code: 3117 })
      if (state.fault === 'down') throw new ChainError('Unavailable', 'connect ECONNREFUSED 127.0.0.1:1337')
      const id = await sandbox.submit(tx)
      // The node took it, but the answer never arrived (a crash or a dropped connection right after).
      if (state.acceptButFail) throw new ChainError('Unavailable', 'socket hang up')
      return id
    },
    async txStatus(txId: string): Promise<TxStatus> {
      return state.hideStatus ? { status: 'unknown' } : sandbox.txStatus(txId)
    },
    // A node that forgot a tx has no block with it: the index reads nothing new while statuses are hidden.
    async scriptTransactions(query: ScriptTxQuery): Promise<ScriptTxPage> {
      if (!state.hideStatus) return sandbox.scriptTransactions(query)
      return { kind: 'forward', txs: [], until: query.after ?? { slot: 0n, blockNo: 0n, blockHash: GENESIS_ID } }
    }
  })
  return { provider, state }
}

const dirs: string[] = []
const dbPath = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-submit-'))
  dirs.push(dir)
  return join(dir, 'store.sqlite')
}

let opened: OpenService[] = []
let sandboxes: SandboxProvider[] = []
afterEach(async () => {
  for (const o of opened) await o.close()
  for (const s of sandboxes) await s.close()
  opened = []
  sandboxes = []
})

/** Where a service keeps its records: a SQLite file, or the PostgreSQL database at `storeUrl`. */
interface StorePlace {
  readonly databasePath: string
  readonly storeUrl?: string | undefined
}

async function setup(
  place: StorePlace = { databasePath: dbPath() },
  existing?: { sandbox: SandboxProvider; clock: ManualClock }
) {
  const clock = existing?.clock ?? new ManualClock()
  const sandbox =
    existing?.sandbox ??
    SandboxProvider.open({ zeroTime: T0, clockTickMs: false, ...validatorsFromEnv(), now: clock.now })
  if (existing === undefined) sandboxes.push(sandbox)
  const faulty = faultyProvider(sandbox)
  const o = await openService({
    provider: faulty.provider,
    ...(await storeOption(place.storeUrl, place.databasePath)),
    now: clock.now,
    followEveryMs: false,
    dropAfterMs: 60_000
  })
  opened.push(o)
  return { ...o, ...faulty, sandbox, clock, place }
}

async function createClose(s: Awaited<ReturnType<typeof setup>>) {
  return s.service.createContract(
    { changeAddress: alice.address },
    { contract: { type: 'Close' }, tags: {}, metadata: {} }
  )
}

const target = (contractId: string) => ({ kind: 'create' as const, contractId })

describe('submit bodies', () => {
  test('a full signed Tx of the same era is submitted as given', async () => {
    const s = await setup()
    const c = await createClose(s)
    const signed = sign(c.unsigned.tx, [alice])
    await submitByPath(s.service, target(c.contractId), {
      type: 'Tx ConwayEra',
      description: '',
      cborHex: bytesToHex(signed)
    })
    await s.follower.sync()
    expect((await s.service.getContract(c.contractId)).status).toBe('confirmed')
  })

  test('a cardano-cli key witness (TxWitness ConwayEra) is merged too', async () => {
    const s = await setup()
    const c = await createClose(s)
    const set = witnessEnvelope(c.unsigned.tx, [alice])
    const [w] = vkeyWitnessesOfWitnessSet(hexToBytes(set.cborHex))
    await submitByPath(s.service, target(c.contractId), {
      type: 'TxWitness ConwayEra',
      description: 'Key Witness ShelleyEra',
      cborHex: bytesToHex(keyWitnessBytes(w!))
    })
    expect((await s.service.getContract(c.contractId)).status).toBe('submitted')
  })

  const cases: ReadonlyArray<[string, (tx: Uint8Array) => TextEnvelopeBody, string, RegExp]> = [
    [
      'an unknown type',
      () => ({ type: 'Nonsense', description: '', cborHex: '80' }),
      'BadRequest',
      /Unknown envelope type/
    ],
    [
      'a Babbage Tx for a Conway build',
      (tx) => ({ type: 'Tx BabbageEra', description: '', cborHex: bytesToHex(sign(tx, [alice])) }),
      'BadRequest',
      /"Tx ConwayEra", "ShelleyTxWitness ConwayEra"/
    ],
    [
      'odd hex',
      () => ({ type: 'ShelleyTxWitness ConwayEra', description: '', cborHex: 'abc' }),
      'BadRequest',
      /Invalid text envelope cbor value/
    ],
    [
      'not hex',
      () => ({ type: 'ShelleyTxWitness ConwayEra', description: '', cborHex: 'zz' }),
      'BadRequest',
      /Invalid text envelope cbor value/
    ],
    [
      'empty cbor',
      () => ({ type: 'ShelleyTxWitness ConwayEra', description: '', cborHex: '' }),
      'BadRequest',
      /Invalid text envelope cbor value/
    ],
    [
      'truncated CBOR',
      () => ({ type: 'ShelleyTxWitness ConwayEra', description: '', cborHex: 'a10081' }),
      'BadRequest',
      /Invalid text envelope cbor value/
    ],
    [
      'a witness set without keys',
      () => ({ type: 'ShelleyTxWitness ConwayEra', description: '', cborHex: 'a0' }),
      'MissingSignatures',
      /no signatures/
    ],
    [
      'a body alone',
      (tx) => ({ type: 'TxBodyConway', description: '', cborHex: bytesToHex(tx) }),
      'MissingSignatures',
      /without signatures/
    ],
    [
      'an unsigned Tx',
      (tx) => ({ type: 'Tx ConwayEra', description: '', cborHex: bytesToHex(tx) }),
      'MissingSignatures',
      /no signatures/
    ]
  ]
  test.each(cases)('refuses %s, and the tx stays unsigned and submittable', async (_name, body, code, message) => {
    const s = await setup()
    const c = await createClose(s)
    const error = await submitByPath(s.service, target(c.contractId), body(c.unsigned.tx)).then(
      () => undefined,
      (e: unknown) => e
    )
    expect(error).toMatchObject({ kind: 'BadRequest', code })
    expect((error as Error).message).toMatch(message)
    expect((await s.service.getContract(c.contractId)).status).toBe('unsigned')
    await submitByPath(s.service, target(c.contractId), witnessEnvelope(c.unsigned.tx, [alice]))
    expect((await s.service.getContract(c.contractId)).status).toBe('submitted')
  })

  test('a witness made for another build is refused', async () => {
    const s = await setup()
    const first = await createClose(s)
    const second = await s.service.createContract(
      { changeAddress: bob.address },
      { contract: { type: 'Close' }, tags: {}, metadata: {} }
    )
    await expect(
      submitByPath(s.service, target(first.contractId), witnessEnvelope(second.unsigned.tx, [bob]))
    ).rejects.toMatchObject({ kind: 'BadRequest', code: 'InvalidWitness' })
    expect((await s.service.getContract(first.contractId)).status).toBe('unsigned')
  })

  test('a signature by a key the tx does not need is a 400 before the node sees it', async () => {
    const s = await setup()
    const c = await createClose(s)
    const both = witnessEnvelope(c.unsigned.tx, [alice, bob])
    await expect(submitByPath(s.service, target(c.contractId), both)).rejects.toMatchObject({
      kind: 'BadRequest',
      code: 'UnneededSignature',
      details: { keyHashes: [bob.paymentKeyHash] }
    })
    expect((await s.service.getContract(c.contractId)).status).toBe('unsigned')
    await submitByPath(s.service, target(c.contractId), witnessEnvelope(c.unsigned.tx, [alice]))
    expect((await s.service.getContract(c.contractId)).status).toBe('submitted')
  })

  test('9,000 copies of one signature are one signature', async () => {
    const s = await setup()
    const c = await createClose(s)
    const [one] = vkeyWitnessesOfWitnessSet(hexToBytes(witnessEnvelope(c.unsigned.tx, [alice]).cborHex))
    // A witness set {0: [w, w, …]} written by hand: CSL would keep one copy.
    const copies = 9_000
    const set = concatBytes([
      Uint8Array.of(0xa1, 0x00, 0x99, copies >> 8, copies & 0xff),
      ...Array(copies).fill(one!.cbor)
    ])
    await submitByPath(s.service, target(c.contractId), {
      type: 'ShelleyTxWitness ConwayEra',
      description: '',
      cborHex: bytesToHex(set)
    })
    await s.follower.sync()
    expect((await s.service.getContract(c.contractId)).status).toBe('confirmed')
    const onChain = (await s.store.tx(c.contractId.slice(0, 64)))?.signedTx
    const parts = splitTransaction(onChain!)
    expect(vkeyWitnessesOfWitnessSet(onChain!.slice(parts.witnessSet.start, parts.witnessSet.end))).toHaveLength(1)
  })

  test('a signed tx of another build is refused with both ids', async () => {
    const s = await setup()
    const first = await createClose(s)
    const second = await s.service.createContract(
      { changeAddress: bob.address },
      { contract: { type: 'Close' }, tags: {}, metadata: {} }
    )
    const other = bytesToHex(sign(second.unsigned.tx, [bob]))
    await expect(
      submitByPath(s.service, target(first.contractId), { type: 'Tx ConwayEra', description: '', cborHex: other })
    ).rejects.toMatchObject({ code: 'TxBodyMismatch', details: { expected: first.contractId.slice(0, 64) } })
  })

  test('unknown ids are 404s; an apply tx id under the wrong contract is not found', async () => {
    const s = await setup()
    const w: TextEnvelopeBody = { type: 'ShelleyTxWitness ConwayEra', description: '', cborHex: 'a0' }
    await expect(submitByPath(s.service, target(`${'ab'.repeat(32)}#1`), w)).rejects.toMatchObject({ kind: 'NotFound' })
    await expect(submitByPath(s.service, { kind: 'withdraw', withdrawalId: 'cd'.repeat(32) }, w)).rejects.toMatchObject(
      {
        kind: 'NotFound',
        message: 'Withdrawal not found'
      }
    )
    const c = await createClose(s)
    await expect(
      submitByPath(s.service, { kind: 'withdraw', withdrawalId: c.contractId.slice(0, 64) }, w)
    ).rejects.toMatchObject({ kind: 'BadRequest', code: 'WrongSubmitOperation' })
    await expect(
      submitByPath(s.service, { kind: 'apply', contractId: c.contractId, transactionId: c.contractId.slice(0, 64) }, w)
    ).rejects.toMatchObject({ kind: 'BadRequest', code: 'WrongSubmitOperation' })
  })

  test('ids are matched without regard to hex case', async () => {
    const s = await setup()
    const c = await createClose(s)
    await submitByPath(s.service, target(c.contractId.toUpperCase()), witnessEnvelope(c.unsigned.tx, [alice]))
    expect((await s.service.getContract(c.contractId.toUpperCase())).status).toBe('submitted')
  })

  test('two concurrent submits of one tx: one 202, one 409', async () => {
    const s = await setup()
    const c = await createClose(s)
    const w = witnessEnvelope(c.unsigned.tx, [alice])
    const results = await Promise.allSettled([
      submitByPath(s.service, target(c.contractId), w),
      submitByPath(s.service, target(c.contractId), w)
    ])
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { kind: 'Conflict' } })
  })
})

describe.each(kinds)('reservations ($name)', ({ available, storeUrl }) => {
  const place = async (): Promise<StorePlace> => ({ databasePath: dbPath(), storeUrl: await storeUrl() })
  test.skipIf(!available)('a submitted tx keeps its inputs reserved until it is confirmed', async () => {
    const s = await setup(await place())
    const c = await createClose(s)
    // Read through a store of its own, as another process would.
    const other =
      s.place.storeUrl === undefined ? openSqliteStore(s.place.databasePath) : await openPostgresStore(s.place.storeUrl)
    try {
      const held = async () => [...(await other.reservations.reserved(Number(s.clock.ms))).spent]
      const before = await held()
      expect(before.length).toBeGreaterThan(0)
      await submitByPath(s.service, target(c.contractId), witnessEnvelope(c.unsigned.tx, [alice]))
      expect(await held()).toEqual(before)
      await s.follower.sync()
      expect(await held()).toEqual([])
    } finally {
      await other.close()
    }
  })

  test.skipIf(!available)(
    'rebuilding an abandoned build after its reservation lapsed gives the stored tx again',
    async () => {
      const clock = new ManualClock()
      const sandbox = SandboxProvider.open({ zeroTime: T0, clockTickMs: false, ...validatorsFromEnv(), now: clock.now })
      sandboxes.push(sandbox)
      const o = await openService({
        provider: sandbox,
        ...(await storeOption(await storeUrl(), dbPath())),
        now: clock.now,
        followEveryMs: false,
        builder: { reservationTtlMs: 1000 }
      })
      opened.push(o)
      const request = { contract: { type: 'Close' } as const, tags: {}, metadata: {} }
      const first = await o.service.createContract({ changeAddress: alice.address }, request)
      clock.ms += 2000n
      const second = await o.service.createContract({ changeAddress: alice.address }, request)
      expect(second.contractId).toBe(first.contractId)
      await submitByPath(o.service, target(second.contractId), witnessEnvelope(second.unsigned.tx, [alice]))
      await o.follower.sync()
      expect((await o.service.getContract(first.contractId)).status).toBe('confirmed')
    }
  )
})

describe.each(kinds)('node faults ($name)', ({ available, storeUrl }) => {
  const place = async (): Promise<StorePlace> => ({ databasePath: dbPath(), storeUrl: await storeUrl() })
  test.skipIf(!available)(
    'a rejection is a 403 SubmissionError with the node’s reason; the tx stays unsigned',
    async () => {
      const s = await setup(await place())
      const c = await createClose(s)
      s.state.fault = 'reject'
      await expect(
        submitByPath(s.service, target(c.contractId), witnessEnvelope(c.unsigned.tx, [alice]))
      ).rejects.toMatchObject({
        kind: 'Forbidden',
        code: 'SubmissionError',
        details: { reason: 'BadInputsUTxO: the inputs are spent' }
      })
      expect((await s.service.getContract(c.contractId)).status).toBe('unsigned')
    }
  )

  test.skipIf(!available)('an unreachable node is a 503; the tx is kept and a retry succeeds', async () => {
    const s = await setup(await place())
    const c = await createClose(s)
    s.state.fault = 'down'
    await expect(
      submitByPath(s.service, target(c.contractId), witnessEnvelope(c.unsigned.tx, [alice]))
    ).rejects.toMatchObject({
      kind: 'Unavailable',
      code: 'NodeUnavailable'
    })
    expect((await s.service.getContract(c.contractId)).status).toBe('unsigned')
    s.state.fault = undefined
    await submitByPath(s.service, target(c.contractId), witnessEnvelope(c.unsigned.tx, [alice]))
    await s.follower.sync()
    expect((await s.service.getContract(c.contractId)).status).toBe('confirmed')
  })

  test.skipIf(!available)(
    'a tx the node took although the answer was lost is found by the follower, even after a restart',
    async () => {
      const s = await setup(await place())
      const c = await createClose(s)
      s.state.acceptButFail = true
      await expect(
        submitByPath(s.service, target(c.contractId), witnessEnvelope(c.unsigned.tx, [alice]))
      ).rejects.toMatchObject({
        kind: 'Unavailable'
      })
      expect((await s.service.getContract(c.contractId)).status).toBe('unsigned')
      await s.close()
      const again = await setup(s.place, s)
      expect((await again.follower.sync()).confirmed).toEqual([c.contractId.slice(0, 64)])
      expect((await again.service.getContract(c.contractId)).status).toBe('confirmed')
    }
  )

  test.skipIf(!available)(
    'a submitted tx the node forgot goes back to unsigned after the grace period, and can be sent again',
    async () => {
      const s = await setup(await place())
      const c = await createClose(s)
      s.state.hideStatus = true
      await submitByPath(s.service, target(c.contractId), witnessEnvelope(c.unsigned.tx, [alice]))
      expect((await s.follower.sync()).dropped).toEqual([])
      s.clock.ms += 61_000n
      expect((await s.follower.sync()).dropped).toEqual([c.contractId.slice(0, 64)])
      expect((await s.service.getContract(c.contractId)).status).toBe('unsigned')
      // Sent again: the node refuses the duplicate but has the tx, so it counts as submitted, then confirmed.
      s.state.hideStatus = false
      await submitByPath(s.service, target(c.contractId), witnessEnvelope(c.unsigned.tx, [alice]))
      expect((await s.service.getContract(c.contractId)).status).toBe('submitted')
      await s.follower.sync()
      expect((await s.service.getContract(c.contractId)).status).toBe('confirmed')
    }
  )

  test.skipIf(!available)('an unsigned build survives a restart and is submitted afterwards', async () => {
    const s = await setup(await place())
    const c = await createClose(s)
    await s.close()
    const again = await setup(s.place, s)
    expect((await again.service.getContract(c.contractId)).unsigned?.tx).toEqual(c.unsigned.tx)
    await submitByPath(again.service, target(c.contractId), witnessEnvelope(c.unsigned.tx, [alice]))
    await again.follower.sync()
    expect((await again.service.getContract(c.contractId)).status).toBe('confirmed')
  })
})
