import * as CSL from '@emurgo/cardano-serialization-lib-nodejs'
import { describe, expect, it } from 'vitest'
import { reviewTransaction } from '../../../../src/core/cardano/review'
import { OWN, SPEND_DATUM, SPEND_REDEEMER, TX_A } from '../tx/fixtures'

type Language = 'PlutusV1' | 'PlutusV2' | 'PlutusV3'

const SCRIPTS: Record<Language, () => CSL.PlutusScript> = {
  PlutusV1: () =>
    CSL.PlutusScript.new(Uint8Array.from([0x4d, 0x01, 0, 0, 0x33, 0x22, 0x22, 0x20, 0x05, 0x12, 0, 0x12, 0, 0x11])),
  PlutusV2: () =>
    CSL.PlutusScript.new_v2(
      Uint8Array.from([0x4e, 0x4d, 0x01, 0, 0, 0x33, 0x22, 0x22, 0x20, 0x05, 0x12, 0, 0x12, 0, 0x11])
    ),
  PlutusV3: () => CSL.PlutusScript.new_v3(Uint8Array.from([0x46, 0x45, 0x01, 0x01, 0, 0x24, 0x99]))
}
const LANGUAGE: Record<Language, () => CSL.Language> = {
  PlutusV1: () => CSL.Language.new_plutus_v1(),
  PlutusV2: () => CSL.Language.new_plutus_v2(),
  PlutusV3: () => CSL.Language.new_plutus_v3()
}
/** Distinct models per language, with negative and large values to exercise the integer encoding. */
const MODELS: Record<Language, bigint[]> = {
  PlutusV1: Array.from({ length: 30 }, (_, i) => BigInt(i * 977 - 40)),
  PlutusV2: Array.from({ length: 40 }, (_, i) => BigInt(i) * 123_456_789n),
  PlutusV3: Array.from({ length: 25 }, (_, i) => BigInt(-i) * 70_000n)
}

/**
 * A transaction hashing the cost models of `languages` (CSL's own script data hash), with the scripts of
 * `carried` in its witness set (the others would come from reference inputs).
 */
function tx(languages: readonly Language[], withDatum: boolean, carried: readonly Language[] = languages): Uint8Array {
  const big = (n: number): CSL.BigNum => CSL.BigNum.from_str(String(n))
  const inputs = CSL.TransactionInputs.new()
  inputs.add(CSL.TransactionInput.new(CSL.TransactionHash.from_hex(TX_A), 0))
  const outputs = CSL.TransactionOutputs.new()
  outputs.add(CSL.TransactionOutput.new(CSL.Address.from_bech32(OWN.enterprise), CSL.Value.new(big(1_000_000))))
  const body = CSL.TransactionBody.new_tx_body(inputs, outputs, big(200_000))
  const scripts = CSL.PlutusScripts.new()
  const models = CSL.Costmdls.new()
  for (const l of carried) scripts.add(SCRIPTS[l]())
  for (const l of languages) {
    const model = CSL.CostModel.new()
    MODELS[l].forEach((v, i) => model.set(i, CSL.Int.from_str(String(v))))
    models.insert(LANGUAGE[l](), model)
  }
  const redeemers = CSL.Redeemers.new()
  redeemers.add(
    CSL.Redeemer.new(
      CSL.RedeemerTag.new_spend(),
      big(0),
      CSL.PlutusData.from_bytes(SPEND_REDEEMER),
      CSL.ExUnits.new(big(1), big(2))
    )
  )
  const datums = (): CSL.PlutusList => {
    const list = CSL.PlutusList.new()
    list.add(CSL.PlutusData.from_bytes(SPEND_DATUM))
    return list
  }
  const ws = CSL.TransactionWitnessSet.new()
  ws.set_plutus_scripts(scripts)
  ws.set_redeemers(redeemers)
  if (withDatum) ws.set_plutus_data(datums())
  body.set_script_data_hash(CSL.hash_script_data(redeemers, models, withDatum ? datums() : undefined))
  return CSL.Transaction.new(body, ws).to_bytes()
}

describe('script data hash: language views as the ledger (and CSL) encode them', () => {
  it.each<[string, Language[], boolean]>([
    ['PlutusV1 (bytes-wrapped indefinite list, key 41 00)', ['PlutusV1'], true],
    ['PlutusV2', ['PlutusV2'], true],
    ['PlutusV3 without datums', ['PlutusV3'], false],
    ['all three, in canonical key order', ['PlutusV1', 'PlutusV2', 'PlutusV3'], true]
  ])('%s', (_, languages, withDatum) => {
    const review = reviewTransaction(tx(languages, withDatum), { protocolParameters: { costModels: MODELS } })
    expect(review.scriptDataHash.status).toBe('match')
    expect(review.scriptDataHash.languages).toEqual(languages)
    expect(review.scriptDataHash.computed).toBe(review.scriptDataHash.declared)
  })

  it('finds the languages of reference scripts when the inputs are not resolved', () => {
    // Only the V2 script is in the witness set; the V1 one would come from a reference input.
    const bytes = tx(['PlutusV1', 'PlutusV2'], true, ['PlutusV2'])
    const offline = reviewTransaction(bytes, { protocolParameters: { costModels: MODELS } })
    expect(offline.scriptDataHash).toMatchObject({ status: 'match', languages: ['PlutusV1', 'PlutusV2'] })
    // Resolved, with no reference script in reach, the V1 view cannot be justified.
    const resolved = reviewTransaction(bytes, {
      protocolParameters: { costModels: MODELS },
      resolvedInputs: [{ ref: { txId: TX_A, index: 0 }, address: OWN.enterprise, value: { lovelace: 1n, assets: {} } }]
    })
    expect(resolved.scriptDataHash).toMatchObject({ status: 'mismatch', languages: ['PlutusV2'] })
    expect(resolved.scriptDataHash.reason).toBeUndefined()
  })

  it('reports a mismatch when a cost model differs', () => {
    const changed = { ...MODELS, PlutusV2: MODELS.PlutusV2.map((v, i) => (i === 3 ? v + 1n : v)) }
    const review = reviewTransaction(tx(['PlutusV2'], true), { protocolParameters: { costModels: changed } })
    expect(review.scriptDataHash.status).toBe('mismatch')
    expect(review.scriptDataHash.reason).toBe('unresolved inputs may carry reference scripts in other languages')
  })
})
