/**
 * The sandbox as its ledger grows (issue 14): each row's cost on a large ledger against the same cost on a small
 * one (or against the code the sandbox replaced), measured in the same run.
 *
 * - UTxOs at one wallet's address with 100 and with 10,000 contracts' UTxOs on the ledger, and the scan of
 *   every UTxO the Blaze emulator made (the sandbox's query before issue 14) on the 10,000;
 * - state load (`SandboxProvider.open` of a saved ledger) at 100 and 10,000 contracts (wall time, and CPU time with
 *   the load average beside it: on a loaded machine the wall time is mostly waiting for a core), at one contract with
 *   10 and with 1,000 applied inputs, and the Blaze emulator's decoding of the 100-contract file (what the
 *   sandbox did before: its Plutus Data decoding makes the 10,000 take minutes);
 * - state load of a small ledger after 20,000 transactions against after 1,000 (its log is compacted, so loading
 *   reads a log of the same size: what grows is the list of transaction ids the ledger answers statuses from),
 *   with the log records read;
 * - a payment from the faucet (built, submitted, saved before it is reported) at 100 and 10,000 contracts;
 * - apply build p50 (two passes and an evaluation, as the build group) at 100 and 10,000 contracts;
 * - evaluation of a 16 KB Marlowe apply transaction (the review group's contract, built on the sandbox) against
 *   Blaze's `Transaction.fromCbor` of it, which the sandbox ran on every evaluation and submit before;
 * - reading a Marlowe datum out of the transaction carrying it (our transaction decoding, as the sandbox's
 *   evaluate and submit run it, then the datum as the service reads it), per KB, with a datum of 1 MB against one
 *   of 1 KB: linear costs keep it within 2×;
 * - RSS of a `serve` process (the CLI built from these sources) on the 10,000-contract ledger, read from outside
 *   once its follower has indexed every contract and a client has walked the list and read some (bench/serve-rss.ts),
 *   and its peak since it started, against the issue's 300 MiB.
 *
 * The ledgers are saved as the sandbox saves them (bench/sandbox-state.ts), then `TAIL` faucet payments are made
 * on each, so that a large one has changes to replay after its snapshot. The app's native codecs are installed,
 * as `serve` and the desktop app do.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import {
  Address,
  HexBlob,
  Transaction,
  TransactionInput,
  TransactionOutput,
  TransactionUnspentOutput,
  TxCBOR
} from '@blaze-cardano/core'
import { Emulator } from '@blaze-cardano/emulator'
import { SandboxProvider, sandboxWallet, signWithSandboxWallets } from '../src/chain/sandbox'
import { toUtxo as blazeToUtxo } from '../tests/chain/support/blaze-convert'
import { SandboxLedger } from '../src/chain/sandbox/ledger'
import { SANDBOX_BLAZE_PARAMS } from '../src/chain/sandbox/params'
import { LedgerStore, type LogRead } from '../src/chain/sandbox/ledger-store'
import type { Utxo } from '../src/chain/provider'
import { bytesToHex, concatBytes } from '../src/core/bytes'
import { onChoice, onDeposit, when } from '../src/core/marlowe/examples/dsl'
import { swap } from '../src/core/marlowe/examples'
import { decodeTransaction } from '../src/core/cardano/tx/decode'
import { encodeByteString, encodeHead } from '../src/core/cardano/cbor/writer'
import { decodePlutusData } from '../src/core/marlowe/plutus/data-decoder'
import { encodeMarloweData, marloweDataFromPlutusData } from '../src/core/marlowe/plutus/marlowe-data'
import { ADA, CLOSE, type Contract, type Input, type Party } from '../src/core/marlowe/types'
import { InMemoryInputReservations, MarloweTxBuilder } from '../src/engine/build'
import { installNativeCodecs } from '../src/engine/native-codecs'
import { RawEmulator } from '../tests/chain/support/raw-emulator'
import { adaUtxos, T0 } from '../tests/chain/support/sandbox'
import { buildTx } from '../tests/chain/support/txkit'
import { measureAlternating, printRows, type Row } from './harness'
import { percentile } from './load'
import { mib } from './memory'
import { buildCli } from './serve-process'
import { serveMemory, SERVE_READS } from './serve-rss'
import { writeSandboxState, type StateShape } from './sandbox-state'
import { array, map, NULL, TRUE, uint } from './synthetic-history'

const SMALL = 100
const LARGE = 10_000
const LOAD_ROUNDS = 5
const PAYMENTS = 21
const BUILD_WARMUP = 20
const BUILD_ROUNDS = 5
const BUILDS_PER_ROUND = 20
const APPLY_TARGET_MS = 15
/** Levels of choices that make the apply transaction about 16 KB (the ledger's limit is 16 KiB). */
const APPLY_LEVELS = 19
const TAIL = 100
const DATUM_SMALL = 1000
const DATUM_LARGE = 1_000_000
/** The bound on a serve process's RSS with 10,000 contracts. */
const RSS_BOUND_MIB = 300
const CHURN = 20_000
const CHURN_EARLY = 1_000
/** A small ledger's file takes all day to reach the default 4 MiB: a log from 64 KiB (some 700 transactions). */
const CHURN_LOG_FROM_BYTES = 64 * 1024
/** One ada: the faucet payments. */
const LOVELACE = 1_000_000n
const alice = sandboxWallet('alice')
const bob = sandboxWallet('bob')
const owner: Party = { type: 'Address', address: alice.address }

async function stateDir(shape: StateShape): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-sandbox-scale-'))
  writeSandboxState(dir, T0, shape, owner)
  const sandbox = SandboxProvider.open({ dataDir: dir, clockTickMs: false })
  for (let i = 0; i < TAIL; i += 1) await sandbox.fund(bob.address, LOVELACE)
  await sandbox.close()
  return dir
}

/**
 * A small ledger (the genesis one) after `CHURN_EARLY` and after `CHURN` transactions, each alice paying herself
 * from her largest UTxO, so that the UTxOs stay as many: copies of its directory at both points.
 */
async function churnDirs(): Promise<{ early: string; late: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-sandbox-scale-'))
  const sandbox = SandboxProvider.open({ dataDir: dir, clockTickMs: false, logFromBytes: CHURN_LOG_FROM_BYTES })
  const params = await sandbox.protocolParameters()
  let early = ''
  try {
    for (let i = 1; i <= CHURN; i += 1) {
      const [largest] = (await adaUtxos(sandbox, alice.address)).sort((a, b) =>
        Number(b.value.lovelace - a.value.lovelace)
      )
      await sandbox.submit(
        signWithSandboxWallets(buildTx({ params, inputs: [largest!], changeAddress: alice.address }), [alice])
      )
      if (i === CHURN_EARLY) early = copy(dir)
    }
  } finally {
    await sandbox.close()
  }
  copies.push(dir)
  return { early, late: dir }
}

/** What loading the ledger saved in `dir` reads of its log. */
function logRead(dir: string): LogRead {
  const store = new LedgerStore(dir)
  try {
    return store.load({})!.logRead
  } finally {
    store.close()
  }
}

/** The ledger saved in `dir`, as a sandbox opening it has it. */
function savedLedger(dir: string): SandboxLedger {
  const store = new LedgerStore(dir)
  try {
    return store.load({})!.ledger
  } finally {
    store.close()
  }
}

/** This process's CPU time so far (every thread), in ms: beside wall time on a loaded machine. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

/** Median of `rounds` timings of each entry (by `clock`, wall time unless told), alternating round by round. */
async function alternateTimes<K extends string>(
  fns: Readonly<Record<K, () => unknown>>,
  rounds: number,
  clock: () => number = () => performance.now()
): Promise<Record<K, number>> {
  const names = Object.keys(fns) as K[]
  const times = new Map<K, number[]>(names.map((n) => [n, []]))
  for (let round = 0; round < rounds; round += 1) {
    for (const name of names) {
      const began = clock()
      await fns[name]()
      times.get(name)!.push(clock() - began)
    }
  }
  const result = {} as Record<K, number>
  for (const name of names)
    result[name] = percentile(
      [...times.get(name)!].sort((a, b) => a - b),
      50
    )
  return result
}

/** Opens the saved ledger (and closes it, releasing the directory for the next round). */
function load(dir: string): Promise<void> {
  return SandboxProvider.open({ dataDir: dir, clockTickMs: false }).close()
}

/** The Blaze emulator with the UTxOs of a state file, as the sandbox kept them before issue 14. */
function blazeEmulator(dir: string): Emulator {
  const emulator = new Emulator([], { params: SANDBOX_BLAZE_PARAMS })
  for (const [input, output] of savedLedger(dir).snapshot(0n).utxos) {
    emulator.addUtxo(
      new TransactionUnspentOutput(
        TransactionInput.fromCbor(HexBlob(bytesToHex(input))),
        TransactionOutput.fromCbor(HexBlob(bytesToHex(output)))
      )
    )
  }
  return emulator
}

/** The sandbox's `utxosAt` before issue 14: a scan of every UTxO of the emulator. */
function blazeUtxosAt(emulator: Emulator, address: string): Utxo[] {
  const wanted = Address.fromBech32(address).toBytes()
  return emulator
    .utxos()
    .filter((u) => u.output().address().toBytes() === wanted)
    .map((u) => blazeToUtxo(u.input(), u.output(), () => undefined))
}

interface ApplyBuilds {
  /** Times one apply build of the contract. */
  once(): Promise<number>
  readonly sandbox: SandboxProvider
}

/** A contract created on the ledger in `dir`, ready for apply builds (after a warm-up). */
async function applyBuilds(dir: string): Promise<ApplyBuilds> {
  const sandbox = SandboxProvider.open({ dataDir: dir, clockTickMs: false, recycleEvaluatorEvery: 50 })
  const builder = new MarloweTxBuilder({ provider: sandbox, reservations: new InMemoryInputReservations() })
  const party = (address: string): Party => ({ type: 'Address', address })
  const bob = sandboxWallet('bob')
  const deadline = sandbox.slotToTime((await sandbox.tip()).slot) + 86_400_000n
  const { contract } = swap({
    first: { party: party(alice.address), token: ADA, amount: 10_000_000n, depositDeadline: deadline },
    second: { party: party(bob.address), token: ADA, amount: 20_000_000n, depositDeadline: deadline }
  })
  const created = await builder.create({ changeAddress: alice.address }, { contract })
  await sandbox.submit(signWithSandboxWallets(created.tx, [alice]))
  await builder.release(created.reservation.key)
  const inputs: Input[] = [
    {
      content: {
        type: 'IDeposit',
        account: party(alice.address),
        party: party(alice.address),
        token: ADA,
        amount: 10_000_000n
      }
    }
  ]
  const once = async (): Promise<number> => {
    const began = performance.now()
    const built = await builder.applyInputs(
      { changeAddress: alice.address },
      { contractId: created.contractId, inputs }
    )
    const ms = performance.now() - began
    await builder.release(built.reservation.key)
    return ms
  }
  for (let i = 0; i < BUILD_WARMUP; i += 1) await once()
  return { once, sandbox }
}

/** Choices after a deposit, `levels` nested `When`s of three cases (the review group's contract, on sandbox wallets). */
export function largeContract(levels: number, start: bigint): Contract {
  const party = (name: 'alice' | 'bob' | 'carol'): Party => ({ type: 'Address', address: sandboxWallet(name).address })
  const day = 86_400_000n
  let next: Contract = CLOSE
  for (let i = levels; i > 0; i--) {
    next = when(
      [
        onChoice(`approve step ${i}`, party('bob'), 1n, next),
        onChoice(`reject step ${i}`, party('alice'), 0n, CLOSE),
        onChoice(`arbitrate step ${i}`, party('carol'), 2n, CLOSE)
      ],
      start + BigInt(i + 1) * day
    )
  }
  return when([onDeposit(party('alice'), party('alice'), ADA, 10_000_000n, next)], start + day)
}

/**
 * A Marlowe apply transaction of about 16 KB (the spent and the continuing datum in its witness set), built on
 * an in-memory sandbox where its contract was created, with the sandbox that evaluates it.
 */
async function largeApply(levels: number): Promise<{ tx: Uint8Array; sandbox: SandboxProvider }> {
  const sandbox = SandboxProvider.open({ clockTickMs: false })
  const builder = new MarloweTxBuilder({ provider: sandbox, reservations: new InMemoryInputReservations() })
  const contract = largeContract(levels, sandbox.slotToTime((await sandbox.tip()).slot))
  const created = await builder.create({ changeAddress: alice.address }, { contract })
  await sandbox.submit(signWithSandboxWallets(created.tx, [alice]))
  const built = await builder.applyInputs(
    { changeAddress: alice.address },
    {
      contractId: created.contractId,
      inputs: [{ content: { type: 'IDeposit', account: owner, party: owner, token: ADA, amount: 10_000_000n } }]
    }
  )
  return { tx: built.tx, sandbox }
}

/**
 * A transaction whose witness set carries a Marlowe datum of at least `bytes`: a contract's state with as many
 * recorded choices as that takes (a long-running contract's), in a body spending one input.
 */
export function datumTx(bytes: number): { tx: Uint8Array; datumBytes: number } {
  const choices: [{ name: string; owner: Party }, bigint][] = []
  let datum: Uint8Array = new Uint8Array()
  // Each choice adds some 110 bytes: grow in steps, then check (the decoder takes transactions up to 1 MiB).
  while (datum.length < bytes) {
    const more = Math.max(1, Math.ceil((bytes - datum.length) / 110))
    for (let i = 0; i < more; i += 1)
      choices.push([{ name: `choice ${choices.length}`, owner }, BigInt(choices.length)])
    datum = encodeMarloweData({
      params: { rolesCurrency: '' },
      state: { accounts: [[{ account: owner, token: ADA }, 2_000_000n]], choices, boundValues: [], minTime: 0n },
      contract: CLOSE
    })
  }
  const body = map([
    [0, array([array([encodeByteString(new Uint8Array(32)), uint(0)])])],
    [1, array([])],
    [2, uint(200_000n)]
  ])
  const tx = concatBytes([encodeHead(4, 4), body, map([[4, array([datum])]]), TRUE, NULL])
  return { tx, datumBytes: datum.length }
}

/** The Marlowe state of the datum `tx` carries, read as the sandbox and the service read it. */
export function readDatum(tx: Uint8Array): void {
  const [datum] = decodeTransaction(tx).witnessSet.datums
  if (datum === undefined) throw new Error('the transaction carries no datum')
  marloweDataFromPlutusData(decodePlutusData(datum.bytes))
}

export async function benchSandboxScale(): Promise<void> {
  await installNativeCodecs()
  const dirs = {
    small: await stateDir({ contracts: SMALL, applies: 0 }),
    large: await stateDir({ contracts: LARGE, applies: 0 }),
    short: await stateDir({ contracts: 1, applies: 10 }),
    long: await stateDir({ contracts: 1, applies: 1000 })
  }
  const churn = await churnDirs()
  const rows: Row[] = []
  try {
    const atAddress = measureAlternating(
      (() => {
        const small = savedLedger(dirs.small)
        const large = savedLedger(dirs.large)
        const blaze = blazeEmulator(dirs.large)
        return {
          small: () => void small.utxosAt([alice.address]),
          large: () => void large.utxosAt([alice.address]),
          blaze: () => void blazeUtxosAt(blaze, alice.address)
        }
      })(),
      5,
      200
    )
    const perCall = (m: { opsPerSecond: number }): number => 1_000_000 / m.opsPerSecond
    rows.push(
      {
        what: `UTxOs at one wallet address, ${LARGE.toLocaleString('en-US')} contracts' UTxOs on the ledger`,
        unit: 'µs',
        ours: perCall(atAddress.large),
        peerName: `same, ${SMALL} contracts`,
        peer: perCall(atAddress.small)
      },
      {
        what: `UTxOs at one wallet address, ${LARGE.toLocaleString('en-US')} contracts`,
        unit: 'µs',
        ours: perCall(atAddress.large),
        peerName: 'scan of the Blaze emulator (before)',
        peer: perCall(atAddress.blaze)
      }
    )

    const loads = await alternateTimes(
      {
        small: () => load(dirs.small),
        large: () => load(dirs.large),
        short: () => load(dirs.short),
        long: () => load(dirs.long),
        early: () => load(churn.early),
        late: () => load(churn.late)
      },
      LOAD_ROUNDS
    )
    const loadCpu = await alternateTimes(
      { small: () => load(dirs.small), large: () => load(dirs.large) },
      LOAD_ROUNDS,
      cpuMs
    )
    const [loadAverage] = loadavg()
    const blazeLoad = (await alternateTimes({ blaze: () => RawEmulator.fromStateFile(dirs.small) }, 1)).blaze
    rows.push(
      {
        what: `state load, ${LARGE.toLocaleString('en-US')} contracts`,
        unit: 'ms',
        ours: loads.large,
        peerName: `same, ${SMALL} contracts`,
        peer: loads.small
      },
      {
        what: `state load CPU time, ${LARGE.toLocaleString('en-US')} contracts (load average ${loadAverage!.toFixed(1)}, ${availableParallelism()} cores)`,
        unit: 'ms',
        ours: loadCpu.large,
        peerName: `same, ${SMALL} contracts`,
        peer: loadCpu.small
      },
      {
        what: 'state load, one contract with 1,000 applied inputs',
        unit: 'ms',
        ours: loads.long,
        peerName: 'same, 10 applied inputs',
        peer: loads.short
      },
      {
        what: `state load, small ledger after ${CHURN.toLocaleString('en-US')} transactions`,
        unit: 'ms',
        ours: loads.late,
        peerName: `same, after ${CHURN_EARLY.toLocaleString('en-US')}`,
        peer: loads.early
      },
      {
        what: `log records read by that load, after ${CHURN.toLocaleString('en-US')} transactions`,
        unit: 'records',
        ours: logRead(churn.late).records,
        peerName: `same, after ${CHURN_EARLY.toLocaleString('en-US')}`,
        peer: logRead(churn.early).records
      },
      {
        what: `state load, ${SMALL} contracts`,
        unit: 'ms',
        ours: loads.small,
        peerName: 'Blaze decoding of the same file (before)',
        peer: blazeLoad
      }
    )

    const payments = await (async () => {
      const small = SandboxProvider.open({ dataDir: copy(dirs.small), clockTickMs: false })
      const large = SandboxProvider.open({ dataDir: copy(dirs.large), clockTickMs: false })
      const times = await alternateTimes(
        { small: () => small.fund(bob.address, LOVELACE), large: () => large.fund(bob.address, LOVELACE) },
        PAYMENTS
      )
      await Promise.all([small.close(), large.close()])
      return times
    })()
    rows.push({
      what: `faucet payment (built, submitted, saved) p50, ${LARGE.toLocaleString('en-US')} contracts`,
      unit: 'ms',
      ours: payments.large,
      peerName: `same, ${SMALL} contracts`,
      peer: payments.small
    })

    const smallBuilds = await applyBuilds(copy(dirs.small))
    const largeBuilds = await applyBuilds(copy(dirs.large))
    const samples = { small: [] as number[], large: [] as number[] }
    for (let round = 0; round < BUILD_ROUNDS; round += 1) {
      for (let i = 0; i < BUILDS_PER_ROUND; i += 1) samples.small.push(await smallBuilds.once())
      for (let i = 0; i < BUILDS_PER_ROUND; i += 1) samples.large.push(await largeBuilds.once())
    }
    await Promise.all([smallBuilds.sandbox.close(), largeBuilds.sandbox.close()])
    const p50 = (s: number[]): number =>
      percentile(
        [...s].sort((a, b) => a - b),
        50
      )
    rows.push(
      {
        what: `apply build p50, ${LARGE.toLocaleString('en-US')} contracts on the ledger`,
        unit: 'ms',
        ours: p50(samples.large),
        peerName: `same, ${SMALL} contracts`,
        peer: p50(samples.small)
      },
      {
        what: `apply build p50, ${LARGE.toLocaleString('en-US')} contracts on the ledger`,
        unit: 'ms',
        ours: p50(samples.large),
        peerName: 'target',
        peer: APPLY_TARGET_MS
      }
    )

    const { tx, sandbox } = await largeApply(APPLY_LEVELS)
    const evaluations: number[] = []
    for (let i = 0; i < 50; i += 1) {
      const began = performance.now()
      await sandbox.evaluate(tx)
      evaluations.push(performance.now() - began)
    }
    await sandbox.close()
    const fromCbor = (await alternateTimes({ blaze: () => Transaction.fromCbor(TxCBOR(bytesToHex(tx))) }, 2)).blaze
    rows.push({
      what: `evaluation of a ${(tx.length / 1024).toFixed(1)} KB Marlowe apply transaction (sandbox evaluate)`,
      unit: 'ms',
      ours: p50(evaluations),
      peerName: "Blaze's Transaction.fromCbor of it (before)",
      peer: fromCbor
    })

    const small = datumTx(DATUM_SMALL)
    const large = datumTx(DATUM_LARGE)
    const reads = measureAlternating({ small: () => readDatum(small.tx), large: () => readDatum(large.tx) }, 5, 300)
    const perKb = (m: { opsPerSecond: number }, bytes: number): number => 1_000_000 / m.opsPerSecond / (bytes / 1024)
    rows.push({
      what: `reading a ${(large.datumBytes / 1024).toFixed(0)} KB Marlowe datum from its transaction, per KB`,
      unit: 'µs',
      ours: perKb(reads.large, large.datumBytes),
      peerName: `same, a ${(small.datumBytes / 1024).toFixed(1)} KB datum`,
      peer: perKb(reads.small, small.datumBytes)
    })

    buildCli()
    const served = await serveMemory(dirs.large, LARGE)
    const servedWhat = `${LARGE.toLocaleString('en-US')} contracts indexed, every page of GET /contracts walked, ${SERVE_READS} read`
    rows.push(
      {
        what: `RSS of a serve process on the sandbox, ${servedWhat}`,
        unit: 'MiB',
        ours: mib(served.rss),
        peerName: 'the bound',
        peer: RSS_BOUND_MIB
      },
      {
        what: `peak RSS of that serve process since it started (VmHWM)`,
        unit: 'MiB',
        ours: mib(served.peak),
        peerName: 'the bound',
        peer: RSS_BOUND_MIB
      }
    )
  } finally {
    for (const dir of Object.values(dirs)) rmSync(dir, { recursive: true, force: true })
    for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true })
  }
  printRows('Sandbox at scale: cost on a large ledger against a small one (ratio near 1 is flat)', rows)
}

const copies: string[] = []

/** A copy of a state directory, for a sandbox that will write to it. */
function copy(dir: string): string {
  const to = mkdtempSync(join(tmpdir(), 'marlowe-desk-sandbox-scale-'))
  cpSync(dir, to, { recursive: true })
  copies.push(to)
  return to
}
