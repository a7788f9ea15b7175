/**
 * Replays every transaction of the Haskell reference paths and compares the complete output JSON —
 * payments, warnings, state (insertion-ordered maps) and contract — order included.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { asArray, asObject, field } from '../../../src/core/marlowe/json/reader'
import { isJsonObject, parseJson, stringifyJson, type JsonValue } from '../../../src/core/json/lossless'
import { decodeContract, decodeState, decodeTransactionInput } from '../../../src/core/marlowe/json/decode'
import {
  encodeContract,
  encodePayment,
  encodeState,
  encodeTransactionOutput,
  encodeWarning
} from '../../../src/core/marlowe/json/encode'
import { computeTransaction, playTraceFrom } from '../../../src/core/marlowe/semantics'
import type { Contract, State, TransactionInput } from '../../../src/core/marlowe/types'
import { haveVectors, missingVectorsMessage, vectorsDir } from '../../support/vectors'

const referenceDir = join(vectorsDir, 'reference')
const pathFiles = haveVectors
  ? readdirSync(referenceDir)
      .filter((f) => f.endsWith('.paths'))
      .sort()
  : []

interface Replay {
  paths: number
  transactions: number
  matched: number
}

function replayFile(file: string): Replay {
  const paths = asArray(parseJson(readFileSync(join(referenceDir, file), 'utf8')), file)
  const replay: Replay = { paths: 0, transactions: 0, matched: 0 }
  paths.forEach((p, pi) => {
    const path = asObject(p, `${file}[${pi}]`, 'a path')
    let contract: Contract = decodeContract(field(path, 'contract', file))
    let state: State = decodeState(field(path, 'state', file))
    // The model must reproduce the path's own starting point exactly.
    expect(stringifyJson(encodeContract(contract))).toBe(stringifyJson(field(path, 'contract', file)))
    expect(stringifyJson(encodeState(state))).toBe(stringifyJson(field(path, 'state', file)))
    const initial = { state, contract }
    const inputs: TransactionInput[] = []
    const payments: JsonValue[] = []
    const warnings: JsonValue[] = []
    asArray(field(path, 'transactions', file), file).forEach((t, ti) => {
      const where = `${file} path ${pi} transaction ${ti}`
      const tx = asObject(t, where, 'a transaction')
      const input = decodeTransactionInput(field(tx, 'input', where))
      inputs.push(input)
      const expected: JsonValue = field(tx, 'output', where)
      const output = computeTransaction(input, state, contract)
      replay.transactions += 1
      expect(stringifyJson(encodeTransactionOutput(output)), where).toBe(stringifyJson(expected))
      replay.matched += 1
      if (output.type === 'Success') {
        const out = asObject(expected, where, 'an output')
        payments.push(...asArray(field(out, 'payments', where), where))
        warnings.push(...asArray(field(out, 'warnings', where), where))
        state = output.state
        contract = output.contract
      } else if (!isJsonObject(expected)) {
        throw new Error(`${where}: unexpected error output`)
      }
    })
    // The whole path at once: payments and warnings accumulate in order, ending where the steps ended.
    const trace = playTraceFrom(initial.state, initial.contract, inputs)
    if (trace.type !== 'Success') throw new Error(`${file} path ${pi}: playTrace failed`)
    expect(stringifyJson(trace.payments.map(encodePayment))).toBe(stringifyJson(payments))
    expect(stringifyJson(trace.warnings.map(encodeWarning))).toBe(stringifyJson(warnings))
    expect(stringifyJson(encodeState(trace.state))).toBe(stringifyJson(encodeState(state)))
    replay.paths += 1
  })
  return replay
}

describe.skipIf(!haveVectors)(`reference paths (${haveVectors ? referenceDir : missingVectorsMessage})`, () => {
  const totals: Replay = { paths: 0, transactions: 0, matched: 0 }

  it.each(pathFiles)('%s', (file) => {
    const r = replayFile(file)
    totals.paths += r.paths
    totals.transactions += r.transactions
    totals.matched += r.matched
    expect(r.matched).toBe(r.transactions)
  })

  it('covers all 493 transactions of the 142 paths in 24 files', () => {
    expect(pathFiles.length).toBe(24)
    expect(totals).toEqual({ paths: 142, transactions: 493, matched: 493 })
  })
})
