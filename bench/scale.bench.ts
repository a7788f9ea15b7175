/**
 * One contract's history as it grows: the same operations on a contract with SMALL applied inputs and on one with
 * LARGE, in one sandbox, one store and one HTTP server, measured in alternating rounds; each row's ratio is
 * cost(LARGE) / cost(SMALL), and flat costs keep it within 2×. The histories are driven through the service on
 * SQLite; where PostgreSQL is installed, a PostgreSQL copy of that store (bench/stores.ts) is measured after it the
 * same way, its service on the same sandbox, and its rows printed apart.
 *
 * The histories are real, as a long-running contract (a coupon bond, a subscription) makes them: both contracts
 * are a merkleized chain of Notify steps that each pay 2 ada to a role, created and moved one input per
 * transaction through the service on the in-memory sandbox (built, signed, submitted, confirmed by the follower),
 * their payouts withdrawn ten at a time and at the end. Merkleized, every datum and every transaction is the same
 * size whatever the step, and with the payouts withdrawn every answer is the same size too: the two contracts
 * differ only in how much history they have (a plain chain of 1,000 `When`s would not fit in a transaction, and its
 * datum would shrink with every step). Driving the 1,010 applications and 101 withdrawals takes one to a few minutes.
 *
 * Rows: GET /contracts/{id}/transactions (a page of 10: the whole history of the small contract, the newest page
 * and a page from the middle of the large one's), GET of one transaction, GET /contracts/{id}, and an apply build
 * (`service.applyInputs`) by a wallet of its own, whose UTxOs are the same for both contracts. The single-resource
 * GETs are measured after a store write each, so that the server's response cache never answers them.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { SandboxProvider } from '../src/chain/sandbox'
import type { TxOutRef } from '../src/chain/provider'
import { merkleHash } from '../src/core/marlowe/plutus/hash'
import { ADA, CLOSE, type Contract, type Input, type Party, type Value } from '../src/core/marlowe/types'
import { parseRef } from '../src/engine/build'
import { installNativeCodecs } from '../src/engine/native-codecs'
import { openService, type OpenService, type UnsignedTx } from '../src/engine/service'
import { createServer, listen } from '../src/server/app'
import { testWallet, type TestWallet } from '../tests/engine/build/support'
import { witnessed } from '../tests/engine/service/witnesses'
import { benchContractLists } from './contract-lists'
import { machineLoad, printRows, type Row } from './harness'
import { httpGet } from './http'
import { percentile } from './load'
import { benchStores, type BenchStores } from './stores'

const SMALL = 10
const LARGE = 1000
const PAGE = 10
/** Rounds alternate the two contracts, so that load that comes and goes falls on both alike. */
const ROUNDS = 6
const GETS_PER_ROUND = 6
const BUILDS_PER_ROUND = 3
const DAY_MS = 86_400_000n
const PAYMENT = 2_000_000n
const ROLE: Party & { type: 'Role' } = { type: 'Role', role: 'R' }
/** Payouts withdrawn together, in one transaction. */
const WITHDRAW_EVERY = 10

const driver = testWallet('alice')
const builder = testWallet('bob')

/**
 * A merkleized chain of `depth` steps, each a Notify that pays PAYMENT from the driver's account to role R:
 * `levels[k]` has k steps left, and `steps[k]` (the continuation its Notify reveals) names it by `hashes[k]`.
 */
function payingChain(depth: number, timeout: bigint): { levels: Contract[]; steps: Contract[]; hashes: string[] } {
  const account = { type: 'Address', address: driver.address } as const
  const pay = (value: Value, then: Contract): Contract => ({
    type: 'Pay',
    from: account,
    to: { type: 'Party', party: ROLE },
    token: ADA,
    value,
    then
  })
  // What is left goes to the role on timeout (and so the role is in the contract itself, not only its continuations).
  const timedOut = pay({ type: 'AvailableMoney', account, token: ADA }, CLOSE)
  const levels: Contract[] = [CLOSE]
  const steps: Contract[] = [CLOSE]
  const hashes = [merkleHash(CLOSE)]
  for (let k = 1; k <= depth; k += 1) {
    const step = pay(PAYMENT, levels[k - 1]!)
    const hash = merkleHash(step)
    levels.push({
      type: 'When',
      cases: [{ type: 'MerkleizedCase', action: { type: 'Notify', observation: true }, hash }],
      timeout,
      timeoutContinuation: timedOut
    })
    steps.push(step)
    hashes.push(hash)
  }
  return { levels, steps, hashes }
}

interface History {
  readonly contractId: string
  /** Applied transactions, oldest first. */
  readonly txIds: string[]
  /** Payouts not withdrawn yet. */
  readonly unclaimed: TxOutRef[]
  /** Steps left in the contract. */
  left: number
}

class Histories {
  private readonly chain: { levels: Contract[]; steps: Contract[]; hashes: string[] }

  constructor(
    private readonly opened: OpenService,
    private readonly depth: number
  ) {
    this.chain = payingChain(depth, BigInt(Date.now()) + 3650n * DAY_MS)
  }

  /** The Notify that moves a contract with `left` steps on, with its revealed continuation. */
  input(left: number): Input {
    return {
      content: { type: 'INotify' },
      merkleized: { hash: this.chain.hashes[left]!, continuation: this.chain.steps[left]! }
    }
  }

  /** A contract with every step's payment in the driver's account, and role R's token in the driver's wallet. */
  async create(): Promise<History> {
    const { service, follower } = this.opened
    const created = await service.createContract(
      { changeAddress: driver.address },
      {
        contract: this.chain.levels[this.depth]!,
        // With initial accounts, Runtime refuses any safety finding: every continuation is given, none is missing.
        continuations: new Map(this.chain.hashes.map((hash, k) => [hash, this.chain.steps[k]!])),
        roles: {
          type: 'Mint',
          roles: [{ name: ROLE.role, recipients: [{ destination: { address: driver.address }, quantity: 1n }] }]
        },
        accounts: [
          { party: { type: 'Address', address: driver.address }, token: ADA, amount: PAYMENT * BigInt(this.depth) }
        ],
        tags: {},
        metadata: {}
      }
    )
    await service.submitBuild(created.contractId.slice(0, 64), witnessed(created.unsigned.tx, [driver]))
    await follower.sync()
    return { contractId: created.contractId, txIds: [], unclaimed: [], left: this.depth }
  }

  /**
   * Applies `count` Notify inputs, each built, signed, submitted and confirmed before the next, and withdraws their
   * payouts WITHDRAW_EVERY at a time and at the end: the contract's history grows, its unclaimed payouts do not.
   */
  async apply(history: History, count: number): Promise<void> {
    const { service } = this.opened
    for (let i = 0; i < count; i += 1) {
      const built = await service.applyInputs(
        history.contractId,
        { changeAddress: driver.address },
        { inputs: [this.input(history.left)], tags: {}, metadata: {} }
      )
      await this.confirm(built.transactionId, built)
      history.txIds.push(built.transactionId)
      history.left -= 1
      for (const p of (await service.getTransaction(history.contractId, built.transactionId)).payouts) {
        history.unclaimed.push(parseRef(p.payoutId)!)
      }
      if (history.unclaimed.length >= WITHDRAW_EVERY || i === count - 1) {
        const withdrawn = await service.withdraw({ changeAddress: driver.address }, { payouts: history.unclaimed })
        await this.confirm(withdrawn.withdrawalId, withdrawn)
        history.unclaimed.splice(0)
      }
    }
  }

  private async confirm(txId: string, built: { readonly unsigned: UnsignedTx }): Promise<void> {
    await this.opened.service.submitBuild(txId, witnessed(built.unsigned.tx, [driver]))
    const round = await this.opened.follower.sync()
    if (round.confirmed.length !== 1) throw new Error(`transaction ${txId} was not confirmed`)
  }
}

/** Gives `wallet` `count` UTxOs of `lovelace`, one faucet payment each. */
async function fund(sandbox: SandboxProvider, wallet: TestWallet, count: number, lovelace: bigint): Promise<void> {
  for (let i = 0; i < count; i += 1) await sandbox.fund(wallet.address, lovelace)
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await run()
  return performance.now() - start
}

const median = (samples: number[]): number =>
  percentile(
    samples.sort((a, b) => a - b),
    50
  )

async function get(url: string, headers: Record<string, string> = {}): Promise<void> {
  const answer = await httpGet(url, headers)
  if (answer.status !== 200 && answer.status !== 206) throw new Error(`GET ${url}: ${answer.status}`)
}

export async function benchScale(): Promise<void> {
  await installNativeCodecs()
  const stores = await benchStores()
  try {
    if (stores.skipped !== undefined) console.log(`\nThe PostgreSQL store is not measured: ${stores.skipped}`)
    await benchContractLists(stores)
    await benchHistories(stores)
  } finally {
    stores.close()
  }
}

async function benchHistories(stores: BenchStores): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-bench-scale-'))
  const sqlitePath = join(dir, 'store.sqlite')
  const sandbox = SandboxProvider.open({ clockTickMs: false })
  const opened = await openService({ provider: sandbox, databasePath: sqlitePath, followEveryMs: false })
  let copy: OpenService | undefined
  try {
    const histories = new Histories(opened, LARGE + 1)
    await fund(sandbox, builder, 2 * ROUNDS * BUILDS_PER_ROUND + 4, 20_000_000n)
    await fund(sandbox, driver, 4, 2n * PAYMENT * BigInt(LARGE))
    const driveStart = performance.now()
    const small = await histories.create()
    const large = await histories.create()
    await histories.apply(small, SMALL)
    await histories.apply(large, LARGE)
    const driveSeconds = (performance.now() - driveStart) / 1000
    for (const h of [small, large]) {
      const view = opened.service.getContract(h.contractId)
      if ((await view).unclaimedPayouts.length > 0) throw new Error(`${h.contractId} has payouts left unclaimed`)
    }
    const driven = `driven through the service on the sandbox in ${driveSeconds.toFixed(0)} s`
    if (stores.postgres !== undefined) {
      // Copied before any measured build reserves the builder's outputs in the SQLite store; the copy's service
      // builds on the same sandbox.
      const copyStart = performance.now()
      copy = await openService({
        provider: sandbox,
        store: await stores.postgres.copyOf(sqlitePath),
        followEveryMs: false
      })
      const copied = `copied from the SQLite store in ${((performance.now() - copyStart) / 1000).toFixed(0)} s`
      await measureHistories('SQLite', driven, opened, histories, [small, large])
      await measureHistories('PostgreSQL', copied, copy, histories, [small, large])
    } else {
      await measureHistories('SQLite', driven, opened, histories, [small, large])
    }
  } finally {
    await copy?.close()
    await opened.close()
    await sandbox.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Measures and prints the rows of the two histories on `opened`'s store, filled as `filled` says. */
async function measureHistories(
  storeName: string,
  filled: string,
  opened: OpenService,
  histories: Histories,
  [small, large]: readonly [History, History]
): Promise<void> {
  const app = createServer({ service: opened.service, logLevel: 'warn' })
  try {
    const base = `http://127.0.0.1:${await listen(app, 0)}`
    const contractUrl = (h: History) => `${base}/contracts/${encodeURIComponent(h.contractId)}`
    // A write between samples: the response cache keeps answers only while the store is unchanged.
    const uncached = async (): Promise<void> => opened.store.setChainCursor((await opened.store.chainCursor())!)
    const ops = {
      page: (h: History) => get(`${contractUrl(h)}/transactions`, { range: `transactionId;limit ${PAGE}` }),
      middlePage: (h: History) =>
        get(`${contractUrl(h)}/transactions`, {
          range: `transactionId ${h.txIds[Math.floor(h.txIds.length / 2)]!};limit ${PAGE}`
        }),
      tx: (h: History) => get(`${contractUrl(h)}/transactions/${h.txIds[Math.floor(h.txIds.length / 2)]!}`),
      contract: (h: History) => get(contractUrl(h))
    }
    type Op = keyof typeof ops
    type Measure = Op | 'build' | 'buildCpu'
    const samples = (): Record<Measure, number[]> => ({
      page: [],
      middlePage: [],
      tx: [],
      contract: [],
      build: [],
      buildCpu: []
    })
    const measured = new Map<History, Record<Measure, number[]>>([
      [small, samples()],
      [large, samples()]
    ])
    for (const h of [small, large]) for (const op of Object.keys(ops) as Op[]) await ops[op](h)
    for (let round = 0; round < ROUNDS; round += 1) {
      // Which goes first alternates too: neither always follows the other's builds.
      for (const h of round % 2 === 0 ? [small, large] : [large, small]) {
        const into = measured.get(h)!
        for (const op of Object.keys(ops) as Op[]) {
          for (let i = 0; i < GETS_PER_ROUND; i += 1) {
            await uncached()
            into[op].push(await timed(() => ops[op](h)))
          }
        }
        for (let i = 0; i < BUILDS_PER_ROUND; i += 1) {
          const cpu = process.cpuUsage()
          into.build.push(
            await timed(() =>
              opened.service.applyInputs(
                h.contractId,
                { changeAddress: builder.address },
                { inputs: [histories.input(h.left)], tags: {}, metadata: {} }
              )
            )
          )
          const used = process.cpuUsage(cpu)
          into.buildCpu.push((used.user + used.system) / 1000)
        }
      }
    }

    const at = (h: History, op: Measure): number => median(measured.get(h)![op])
    const peerName = `the same at ${SMALL} applied inputs`
    const row = (what: string, op: Measure, peerOp: Measure = op): Row => ({
      what: `${what}, ${LARGE.toLocaleString('en-US')} applied inputs`,
      unit: 'ms',
      ours: at(large, op),
      peerName,
      peer: at(small, peerOp)
    })
    printRows(
      `Scale: one contract's history on ${storeName} (${SMALL} vs ${LARGE.toLocaleString('en-US')} applied inputs, ${filled}; ${machineLoad()}; p50; ratio = ${LARGE.toLocaleString('en-US')} / ${SMALL})`,
      [
        row(`GET /contracts/{id}/transactions, newest page of ${PAGE}`, 'page'),
        row(`GET /contracts/{id}/transactions, a page of ${PAGE} from the middle (Range start)`, 'middlePage', 'page'),
        row('GET /contracts/{id}/transactions/{tx} (the middle one)', 'tx'),
        row('GET /contracts/{id}', 'contract'),
        row('apply build (service.applyInputs, Notify)', 'build'),
        // On a loaded machine the wall time mostly waits for a core; the CPU time (every thread's) does not.
        row('apply build, CPU time of the process (all threads) per build', 'buildCpu')
      ]
    )
  } finally {
    await app.close()
  }
}
