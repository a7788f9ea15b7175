/**
 * Marlowe core throughput against named peers, on the same inputs in the same run:
 * - semantics vs @marlowe.io/language-core-v1 0.4.0-beta on the 493 reference transactions and 142 paths;
 * - JSON parse + validate of the largest reference contract vs the SDK's MarloweJSON.parse + io-ts guard;
 * - Plutus Data encode/decode of the 50 validator-capture datums vs CSL's PlutusData.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as CSL from '@emurgo/cardano-serialization-lib-nodejs'
import { MarloweJSON } from '@marlowe.io/adapter/codec'
import * as SdkGuards from '@marlowe.io/language-core-v1/guards'
import * as Sdk from '@marlowe.io/language-core-v1/semantics'
import { parseJson, type JsonValue } from '../src/core/json/lossless'
import { parseContract } from '../src/core/marlowe/json'
import { asArray, asObject, field } from '../src/core/marlowe/json/reader'
import { decodeContract, decodeState, decodeTransactionInput } from '../src/core/marlowe/json/decode'
import { decodePlutusData, encodePlutusData } from '../src/core/marlowe/plutus/data'
import { decodeMarloweData, encodeMarloweData } from '../src/core/marlowe/plutus/marlowe-data'
import { computeTransaction, playTraceFrom } from '../src/core/marlowe/semantics'
import type { Contract, State, TransactionInput } from '../src/core/marlowe/types'
import { measure, printRows, type Row } from './harness'
import { vectorsDir } from './vectors'

interface Step {
  readonly ours: { tx: TransactionInput; state: State; contract: Contract }
  readonly sdk: { tx: JsonValue; state: JsonValue; contract: JsonValue }
}

interface Path {
  readonly ours: { state: State; contract: Contract; txs: TransactionInput[] }
  readonly sdk: { state: JsonValue; contract: JsonValue; txs: JsonValue[] }
}

function loadReference(): { steps: Step[]; paths: Path[] } {
  const dir = join(vectorsDir, 'reference')
  const steps: Step[] = []
  const paths: Path[] = []
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.paths'))) {
    for (const p of asArray(parseJson(readFileSync(join(dir, file), 'utf8')), file)) {
      const path = asObject(p, file, 'a path')
      let state: JsonValue = field(path, 'state', file)
      let contract: JsonValue = field(path, 'contract', file)
      const txs = asArray(field(path, 'transactions', file), file).map((t) => asObject(t, file, 'a transaction'))
      paths.push({
        ours: {
          state: decodeState(state),
          contract: decodeContract(contract),
          txs: txs.map((t) => decodeTransactionInput(field(t, 'input', file)))
        },
        sdk: { state, contract, txs: txs.map((t) => field(t, 'input', file)) }
      })
      for (const t of txs) {
        const input = field(t, 'input', file)
        steps.push({
          ours: { tx: decodeTransactionInput(input), state: decodeState(state), contract: decodeContract(contract) },
          sdk: { tx: input, state, contract }
        })
        const output = asObject(field(t, 'output', file), file, 'an output')
        state = field(output, 'state', file)
        contract = field(output, 'contract', file)
      }
    }
  }
  return { steps, paths }
}

type SdkArgs<F extends (...args: never[]) => unknown> = Parameters<F>

/** The SDK takes the same JSON shapes with bigint numbers, which is what the lossless parser produces. */
function sdkArgs<F extends (...args: never[]) => unknown>(...args: JsonValue[]): SdkArgs<F> {
  return args as unknown as SdkArgs<F>
}

export function benchMarloweCore(): void {
  const { steps, paths } = loadReference()
  const rows: Row[] = []

  const sdkSteps = steps.map((s) => sdkArgs<typeof Sdk.computeTransaction>(s.sdk.tx, s.sdk.state, s.sdk.contract))
  const oursTx = measure(() => {
    for (const s of steps) computeTransaction(s.ours.tx, s.ours.state, s.ours.contract)
  }, steps.length)
  const sdkTx = measure(() => {
    for (const args of sdkSteps) Sdk.computeTransaction(...args)
  }, steps.length)
  rows.push({
    what: `computeTransaction, ${steps.length} reference transactions`,
    unit: 'tx/s',
    ours: oursTx.opsPerSecond,
    peerName: '@marlowe.io/language-core-v1',
    peer: sdkTx.opsPerSecond
  })

  const sdkPaths = paths.map((p) => sdkArgs<typeof Sdk.playTrace>(p.sdk.state, p.sdk.contract, p.sdk.txs))
  const oursTrace = measure(() => {
    for (const p of paths) playTraceFrom(p.ours.state, p.ours.contract, p.ours.txs)
  }, paths.length)
  const sdkTrace = measure(() => {
    for (const args of sdkPaths) Sdk.playTrace(...args)
  }, paths.length)
  rows.push({
    what: `playTrace, ${paths.length} reference paths`,
    unit: 'traces/s',
    ours: oursTrace.opsPerSecond,
    peerName: '@marlowe.io/language-core-v1',
    peer: sdkTrace.opsPerSecond
  })

  const dir = join(vectorsDir, 'reference')
  const largest =
    readdirSync(dir)
      .filter((f) => f.endsWith('.contract'))
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .sort((a, b) => b.length - a.length)[0] ?? ''
  const mb = largest.length / 1e6
  const oursJson = measure(() => parseContract(largest))
  const sdkJson = measure(() => {
    if (!SdkGuards.Contract.is(MarloweJSON.parse(largest))) throw new Error('SDK rejected the contract')
  })
  rows.push({
    what: `JSON parse + validate, largest reference contract (${largest.length} B)`,
    unit: 'MB/s',
    ours: oursJson.opsPerSecond * mb,
    peerName: 'SDK MarloweJSON.parse + io-ts guard',
    peer: sdkJson.opsPerSecond * mb
  })

  const capturesDir = join(vectorsDir, 'semantics-captures')
  const datums = readdirSync(capturesDir)
    .filter((f) => f.endsWith('.benchmark'))
    .map((f) => {
      const capture = decodePlutusData(new Uint8Array(readFileSync(join(capturesDir, f))))
      if (typeof capture !== 'object' || !('constr' in capture) || capture.fields[0] === undefined)
        throw new Error(`${f}: not a capture`)
      return encodePlutusData(capture.fields[0])
    })
  const datumMb = datums.reduce((n, d) => n + d.length, 0) / 1e6
  const models = datums.map((d) => decodeMarloweData(d))
  const cslDatums = datums.map((d) => CSL.PlutusData.from_bytes(d))
  const oursDecode = measure(() => {
    for (const d of datums) decodeMarloweData(d)
  })
  const cslDecode = measure(() => {
    for (const d of datums) CSL.PlutusData.from_bytes(d).free()
  })
  rows.push({
    what: `Plutus Data decode, 50 capture datums (${Math.round(datumMb * 1e6)} B) into the Marlowe model`,
    unit: 'MB/s',
    ours: oursDecode.opsPerSecond * datumMb,
    peerName: 'CSL PlutusData.from_bytes (generic)',
    peer: cslDecode.opsPerSecond * datumMb
  })
  const oursEncode = measure(() => {
    for (const m of models) encodeMarloweData(m)
  })
  const cslEncode = measure(() => {
    for (const d of cslDatums) d.to_bytes()
  })
  rows.push({
    what: 'Plutus Data encode, the same datums from the Marlowe model',
    unit: 'MB/s',
    ours: oursEncode.opsPerSecond * datumMb,
    peerName: 'CSL PlutusData.to_bytes (re-emits the bytes it decoded: no encoding work)',
    peer: cslEncode.opsPerSecond * datumMb
  })
  for (const d of cslDatums) d.free()

  printRows('Marlowe core', rows)
}
