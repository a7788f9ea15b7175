/**
 * Several `serve` processes on one PostgreSQL database and one sandbox (held by `sandbox share`) behave as one
 * service: the published Runtime client's calls alternate between two replicas, 50 concurrent builds from one
 * wallet over three replicas never spend one input twice, and a replica killed with -9 in the middle of a submit
 * loses nothing — another replica takes over following the chain and the transaction is found or re-submitted.
 * Real processes (the built CLI), a real PostgreSQL server started here, real HTTP on 127.0.0.1.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ChildProcess } from 'node:child_process'
import { Client } from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Contract, Party } from '@marlowe.io/language-core-v1'
import { Deposit } from '@marlowe.io/language-core-v1/next'
import { mkRestClient, type RestClient } from '@marlowe.io/runtime-rest-client'
import { addressBech32, transactionWitnessSetTextEnvelope, type ContractId } from '@marlowe.io/runtime-core'
import { SandboxProvider } from '../../src/chain/sandbox'
import { SharedChainProvider } from '../../src/chain/shared'
import { hexToBytes } from '../../src/core/bytes'
import { stringifyJson, type JsonValue } from '../../src/core/json/lossless'
import { decodeTransaction } from '../../src/core/cardano/tx/decode'
import { ADA, testWallet, type TestWallet } from '../engine/build/support'
import { witnessEnvelope } from '../engine/service/support'
import { usePostgres } from '../support/postgres-server'
import { runCli } from './run-cli'
import { exitOf, startServe, startSharedSandbox, type ServeProcess } from './serve-process'

const pg = usePostgres()
const alice = testWallet('alice')
const bob = testWallet('bob')
const carol = testWallet('carol')
const TOKEN = 'replicas-share-one-token-0123456789abcdef'
const DAY = 86_400_000n
const ada = { currency_symbol: '', token_name: '' }
/** Bob's wallet gets this many outputs of 100 ada before the chain is shared, for the concurrent builds. */
const BOB_OUTPUTS = 60

const dirs: string[] = []
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'marlowe-replicas-'))
  dirs.push(dir)
  return dir
}

/** A contract where `who` deposits 10 ada by address within a day, then it closes (paying it back). */
function depositBy(who: TestWallet): Contract {
  const party: Party = { address: who.address }
  return {
    when: [{ case: { party, deposits: 10n * ADA, of_token: ada, into_account: party }, then: 'close' }],
    timeout: BigInt(Date.now()) + DAY,
    timeout_continuation: 'close'
  }
}

/** POST /contracts' body for `depositBy(who)`, its amounts and deadline as exact JSON integers. */
const createBody = (who: TestWallet): string =>
  stringifyJson({ version: 'v1', contract: depositBy(who) as unknown as JsonValue, tags: {}, metadata: {} })

/** What CIP-30 `signTx(tx, true)` returns for the unsigned tx a build answered with. */
const witnessSet = (cborHex: string, signers: readonly TestWallet[]): string =>
  witnessEnvelope(hexToBytes(cborHex), signers).cborHex

/** Asks until `check` holds (the follower of whichever replica leads moves statuses on, about once a second). */
async function eventually<T>(what: string, read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  let last: T | undefined
  for (let i = 0; i < 120; i += 1) {
    last = await read()
    if (check(last)) return last
    await new Promise((done) => setTimeout(done, 500))
  }
  throw new Error(`${what}: still ${JSON.stringify(last, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}` : v))}`)
}

const authorized = (s: ServeProcess): Record<string, string> => ({ authorization: `Bearer ${s.token}` })

describe('serve: --store and --chain refuse what they cannot use, clearly', () => {
  test('a --store that is not a PostgreSQL URL is a usage error', async () => {
    const r = await runCli(['serve', '--data', tempDir(), '--port', '0', '--store', 'mysql://127.0.0.1/db'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--store takes a PostgreSQL URL \(postgres:\/\/user@host:5432\/database\)/)
  })

  test('an unreachable PostgreSQL server: exit 1, what failed and where, no stack, no password', async () => {
    const r = await runCli([
      'serve',
      '--data',
      tempDir(),
      '--port',
      '0',
      '--store',
      'postgres://desk:s3cret@127.0.0.1:1/desk'
    ])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(
      /^marlowe-desk serve: cannot open the store postgres:\/\/desk:\*\*\*@127\.0\.0\.1:1\/desk: /m
    )
    expect(r.stderr).not.toContain('s3cret')
    expect(r.stderr).not.toMatch(/^\s+at /m)
  })

  test('a --chain that is not a local URL, or where nothing answers', async () => {
    const remote = await runCli(['serve', '--data', tempDir(), '--chain', 'http://example.com:3781/'])
    expect(remote.code).toBe(2)
    expect(remote.stderr).toContain('is not a local http://127.0.0.1:PORT/ URL')
    const absent = await runCli(['serve', '--data', tempDir(), '--port', '0', '--chain', 'http://127.0.0.1:1/'])
    expect(absent.code).toBe(1)
    expect(absent.stderr).toMatch(/the shared chain at http:\/\/127\.0\.0\.1:1\/describe cannot be reached/)
    expect(absent.stderr).not.toMatch(/^\s+at /m)
  })
})

describe.skipIf(!pg.available)('three serve replicas on one PostgreSQL store and one shared sandbox', () => {
  let chain: { child: ChildProcess; url: string }
  const replicas: ServeProcess[] = []
  let firstLeader: number | undefined

  const startReplica = async (): Promise<ServeProcess> => {
    const data = tempDir()
    // One API token for the whole service, as replicas behind one address have.
    writeFileSync(join(data, 'api-token'), `${TOKEN}\n`, { mode: 0o600 })
    const replica = await startServe(data, ['--chain', chain.url, '--store', pg.url()])
    replicas.push(replica)
    return replica
  }

  /** The database sessions holding the follower's lead (a session advisory lock): one replica's. */
  const leaders = async (): Promise<number[]> => {
    const client = new Client({ connectionString: pg.url() })
    await client.connect()
    try {
      const r = await client.query<{ pid: number }>(
        "SELECT l.pid FROM pg_locks l JOIN pg_database d ON d.oid = l.database WHERE l.locktype = 'advisory' AND l.granted AND d.datname = current_database()"
      )
      return r.rows.map((row) => row.pid)
    } finally {
      await client.end()
    }
  }

  beforeAll(async () => {
    const sandboxHome = tempDir()
    const sandbox = SandboxProvider.open({ dataDir: join(sandboxHome, 'sandbox'), clockTickMs: false })
    for (let i = 0; i < BOB_OUTPUTS; i += 1) await sandbox.fund(bob.address, 100n * ADA)
    await sandbox.close()
    chain = await startSharedSandbox(sandboxHome)
    // The first replica leads the follower before the others start, so that the kill below kills the leader.
    await startReplica()
    firstLeader = (await eventually('the first replica leads', leaders, (l) => l.length === 1))[0]
    await startReplica()
    await startReplica()
  }, 180_000)

  afterAll(async () => {
    for (const r of replicas) r.child.kill('SIGKILL')
    chain?.child.kill('SIGTERM')
    await Promise.all([...replicas.map((r) => r.exited()), chain === undefined ? 0 : exitOf(chain.child)])
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  test('the published Runtime client: build on one replica, submit on the other, read on either', async () => {
    const [one, two] = [replicas[0]!, replicas[1]!].map((r) => mkRestClient(`${r.base}/t/${TOKEN}`, true)) as [
      RestClient,
      RestClient
    ]
    const built = await one.buildCreateContractTx({
      version: 'v1',
      contract: depositBy(alice),
      changeAddress: addressBech32(alice.address),
      accounts: {},
      tags: { 'desk.replicas': 1 }
    })
    const contractId: ContractId = built.contractId
    expect((await two.getContractById({ contractId })).status).toBe('unsigned')
    await two.submitContract({
      contractId,
      txEnvelope: transactionWitnessSetTextEnvelope(witnessSet(built.tx.cborHex, [alice]))
    })
    await eventually(
      'the creation confirmed, seen from both',
      async () => [
        (await one.getContractById({ contractId })).status,
        (await two.getContractById({ contractId })).status
      ],
      (s) => s.every((x) => x === 'confirmed')
    )

    const next = await two.getNextStepsForContract({
      contractId,
      validityStart: BigInt(Date.now()),
      validityEnd: BigInt(Date.now()) + 600_000n,
      parties: [{ address: alice.address }]
    })
    const deposit = next.applicable_inputs.deposits[0]
    if (deposit === undefined) throw new Error('no deposit is applicable')
    const applied = await two.applyInputsToContract({
      contractId,
      changeAddress: addressBech32(alice.address),
      inputs: [Deposit.toInput(deposit)]
    })
    await one.submitContractTransaction({
      contractId,
      transactionId: applied.transactionId,
      hexTransactionWitnessSet: witnessSet(applied.tx.cborHex, [alice])
    })
    const closed = await eventually(
      'the deposit confirmed and the contract closed, on both',
      () => Promise.all([one, two].map((c) => c.getContractById({ contractId }))),
      (views) => views.every((v) => v.currentContract === undefined && v.status === 'confirmed')
    )
    expect(closed[0]).toEqual(closed[1])
    const txs = await one.getTransactionsForContract({ contractId })
    expect(txs.transactions.map((t) => [t.transactionId, t.status])).toEqual([[applied.transactionId, 'confirmed']])
    expect((await two.getContracts({ tags: ['desk.replicas'] })).contracts.map((c) => c.contractId)).toEqual([
      contractId
    ])
  })

  // The 50 builds queue on three processes: on a loaded machine the last answers come long after vitest's default
  // minute; each is answered however late (the server's idle deadline does not cut an admitted request).
  test('50 concurrent builds from one wallet over three replicas: each built or refused cleanly, no input spent twice', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const replica = replicas[i % 3]!
        return fetch(`${replica.base}/contracts`, {
          method: 'POST',
          headers: { ...authorized(replica), 'content-type': 'application/json', 'x-change-address': bob.address },
          body: createBody(bob)
        }).then(async (response) => ({
          status: response.status,
          body: (await response.json()) as Record<string, unknown>
        }))
      })
    )
    const built = answers.filter((a) => a.status === 201)
    // Refused: a 4xx saying why, or 503 when concurrent builds kept taking the inputs it chose (try again).
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expect(refused.status === 503 || (refused.status >= 400 && refused.status < 500)).toBe(true)
      expect(refused.body).toMatchObject({ message: expect.any(String), errorCode: expect.any(String) })
    }
    expect(built.length).toBeGreaterThan(0)
    // Bob has 61 outputs: no build needs another's, so none is superseded and no input is in two builds.
    const inputs = built.flatMap((a) => {
      const resource = a.body['resource'] as { tx: { cborHex: string } }
      return decodeTransaction(hexToBytes(resource.tx.cborHex)).body.inputs.map((i) => `${i.txId}#${i.index}`)
    })
    expect(new Set(inputs).size).toBe(inputs.length)
  }, 600_000)

  test('a replica killed with -9 in the middle of a submit: the transaction is found or submitted again', async () => {
    const [doomed, survivor] = [replicas[0]!, replicas[2]!]
    const create = await fetch(`${survivor.base}/contracts`, {
      method: 'POST',
      headers: { ...authorized(survivor), 'content-type': 'application/json', 'x-change-address': carol.address },
      body: createBody(carol)
    })
    expect(create.status).toBe(201)
    const resource = ((await create.json()) as { resource: { contractId: string; tx: { cborHex: string } } }).resource
    const put = (replica: ServeProcess): Promise<Response> =>
      fetch(`${replica.base}/contracts/${encodeURIComponent(resource.contractId)}`, {
        method: 'PUT',
        headers: { ...authorized(replica), 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 'ShelleyTxWitness ConwayEra',
          description: '',
          cborHex: witnessSet(resource.tx.cborHex, [carol])
        })
      })
    // The leader dies while its PUT is under way: before, during or after it reached the chain.
    const dying = put(doomed).catch((e: unknown) => e)
    await new Promise((done) => setTimeout(done, 30))
    doomed.child.kill('SIGKILL')
    expect(await doomed.exited()).toBe('SIGKILL')
    await dying
    // Another replica takes over following the chain once the leader's connection is gone.
    await eventually('another replica leads', leaders, (l) => l.length === 1 && l[0] !== firstLeader)
    const get = async (): Promise<string> => {
      const r = await fetch(`${survivor.base}/contracts/${encodeURIComponent(resource.contractId)}`, {
        headers: authorized(survivor)
      })
      return ((await r.json()) as { resource: { status: string } }).resource.status
    }
    // The doomed replica cannot touch the chain any more: what the chain says now is final. Submitted, the
    // replica that leads now records it; not submitted, it is still unsigned here and another replica submits it.
    const txId = resource.contractId.split('#')[0]!
    const onChain = await (await SharedChainProvider.open(chain.url)).txStatus(txId)
    if (onChain.status === 'unknown') {
      expect(await get()).toBe('unsigned')
      expect((await put(survivor)).status).toBe(202)
    }
    expect(await eventually('the creation confirmed', get, (s) => s === 'confirmed')).toBe('confirmed')
  })
})
