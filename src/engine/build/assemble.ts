/**
 * One CSL pass: a plan plus the chosen wallet inputs, collateral and execution units → an unsigned Conway tx,
 * fee and change computed by CSL. Scripts are spent through reference inputs with the datum in the witness
 * set; output datums go by hash with the datum in the witness set.
 */
import type { ExUnits, ProtocolParameters, Utxo } from '../../chain/provider'
import { hexToBytes } from '../../core/bytes'
import { datumHash } from '../../core/marlowe/plutus/hash'
import { CSL, withCsl, type CslScope } from '../../csl'
import { EngineError } from '../errors'
import { engineFailure } from './build-errors'
import { auxiliaryData, bigNum, cslAddress, cslInput, cslValue } from './csl-convert'
import { runsScripts, sortedMints, type PlannedMint, type TxPlan } from './plan'
import { builderConfig, costModels } from './protocol'
import { compareRefs, formatRef } from '../../core/cardano/refs'

export interface AssembleInput {
  readonly pp: ProtocolParameters
  readonly plan: TxPlan
  /** Forced and selected wallet inputs. */
  readonly walletInputs: readonly Utxo[]
  readonly changeAddress: string
  readonly collateral?: { readonly utxo: Utxo; readonly total: bigint }
  /** Budgets by redeemer key (`spend:<index>`, `mint:<index>`). */
  readonly exUnits: ReadonlyMap<string, ExUnits>
}

export interface Assembled {
  readonly tx: Uint8Array
  readonly txId: string
  readonly fee: bigint
}

export const redeemerKey = (tag: 'spend' | 'mint', index: number): string => `${tag}:${index}`

/** Redeemer index of each input (`txid#ix`): the ledger indexes spends by the sorted position of the input. */
export function spendIndices(plan: TxPlan, walletInputs: readonly Utxo[]): Map<string, number> {
  const sorted = [...plan.scriptSpends.map((s) => s.utxo.ref), ...walletInputs.map((u) => u.ref)].sort(compareRefs)
  return new Map(sorted.map((ref, i) => [formatRef(ref), i]))
}

/** The whole per-tx budget shared out: a draft that never under-declares what the evaluator may use. */
export function placeholderUnits(
  pp: ProtocolParameters,
  plan: TxPlan,
  walletInputs: readonly Utxo[]
): Map<string, ExUnits> {
  const indices = spendIndices(plan, walletInputs)
  const keys = plan.scriptSpends.map((s) => redeemerKey('spend', indices.get(formatRef(s.utxo.ref)) ?? 0))
  sortedMints(plan).forEach((_, i) => keys.push(redeemerKey('mint', i)))
  const n = BigInt(Math.max(keys.length, 1))
  const share: ExUnits = { mem: pp.maxTxExUnits.mem / n, steps: pp.maxTxExUnits.steps / n }
  return new Map(keys.map((k) => [k, share]))
}

function cslExUnits(scope: CslScope, units: ExUnits | undefined): CSL.ExUnits {
  const u = units ?? { mem: 0n, steps: 0n }
  return scope.own(CSL.ExUnits.new(bigNum(scope, u.mem), bigNum(scope, u.steps)))
}

function plutusData(scope: CslScope, bytes: Uint8Array): CSL.PlutusData {
  return scope.own(CSL.PlutusData.from_bytes(bytes))
}

function redeemer(scope: CslScope, tag: CSL.RedeemerTag, index: number, data: Uint8Array, units?: ExUnits) {
  return scope.own(CSL.Redeemer.new(tag, bigNum(scope, index), plutusData(scope, data), cslExUnits(scope, units)))
}

/** Inputs: script spends through their reference scripts (datum in the witness set), then wallet inputs. */
function setInputs(scope: CslScope, tb: CSL.TransactionBuilder, input: AssembleInput): void {
  const inputs = scope.own(CSL.TxInputsBuilder.new())
  const indices = spendIndices(input.plan, input.walletInputs)
  const v2 = scope.own(CSL.Language.new_plutus_v2())
  const spend = scope.own(CSL.RedeemerTag.new_spend())
  for (const s of input.plan.scriptSpends) {
    const index = indices.get(formatRef(s.utxo.ref)) ?? 0
    const hash = scope.own(CSL.ScriptHash.from_hex(s.script.hash))
    const source = scope.own(
      CSL.PlutusScriptSource.new_ref_input(hash, cslInput(scope, s.script.ref), v2, s.script.size)
    )
    const units = input.exUnits.get(redeemerKey('spend', index))
    const datum = scope.own(CSL.DatumSource.new(plutusData(scope, s.datum)))
    const witness = scope.own(
      CSL.PlutusWitness.new_with_ref(source, datum, redeemer(scope, spend, index, s.redeemer, units))
    )
    inputs.add_plutus_script_input(witness, cslInput(scope, s.utxo.ref), cslValue(scope, s.utxo.value))
  }
  for (const u of input.walletInputs) {
    inputs.add_regular_input(cslAddress(scope, u.address), cslInput(scope, u.ref), cslValue(scope, u.value))
  }
  tb.set_inputs(inputs)
}

/** Outputs with datums by hash, and every datum the witness set needs exactly once. Returns how many. */
function setOutputsAndDatums(scope: CslScope, tb: CSL.TransactionBuilder, plan: TxPlan): number {
  const witnessed = new Set(plan.scriptSpends.map((s) => datumHash(s.datum)))
  const addDatum = (bytes: Uint8Array): string => {
    const hash = datumHash(bytes)
    if (!witnessed.has(hash)) tb.add_extra_witness_datum(plutusData(scope, bytes))
    witnessed.add(hash)
    return hash
  }
  for (const o of plan.outputs) {
    const out = scope.own(CSL.TransactionOutput.new(cslAddress(scope, o.address), cslValue(scope, o.value)))
    if (o.datum !== undefined) out.set_data_hash(scope.own(CSL.DataHash.from_hex(addDatum(o.datum))))
    tb.add_output(out)
  }
  return witnessed.size
}

/** Each policy's script in the witness set, one redeemer for all its tokens, indexed in policy-id order. */
function setMints(
  scope: CslScope,
  tb: CSL.TransactionBuilder,
  mints: readonly PlannedMint[],
  input: AssembleInput
): void {
  const mb = scope.own(CSL.MintBuilder.new())
  const tag = scope.own(CSL.RedeemerTag.new_mint())
  mints.forEach((mint, index) => {
    const units = input.exUnits.get(redeemerKey('mint', index))
    const source = scope.own(CSL.PlutusScriptSource.new(scope.own(CSL.PlutusScript.new_v2(mint.script))))
    const witness = scope.own(
      CSL.MintWitness.new_plutus_script(source, redeemer(scope, tag, index, mint.redeemer, units))
    )
    for (const a of mint.assets) {
      const name = scope.own(CSL.AssetName.new(hexToBytes(a.assetName)))
      const quantity =
        a.quantity < 0n ? CSL.Int.new_negative(bigNum(scope, -a.quantity)) : CSL.Int.new(bigNum(scope, a.quantity))
      mb.add_asset(witness, name, scope.own(quantity))
    }
  })
  tb.set_mint_builder(mb)
}

function build(scope: CslScope, input: AssembleInput): Assembled {
  const { pp, plan } = input
  const tb = scope.own(CSL.TransactionBuilder.new(builderConfig(scope, pp)))
  setInputs(scope, tb, input)
  const datums = setOutputsAndDatums(scope, tb, plan)
  const mints = sortedMints(plan)
  if (mints.length > 0) setMints(scope, tb, mints, input)
  for (const pkh of plan.requiredSigners) tb.add_required_signer(scope.own(CSL.Ed25519KeyHash.from_hex(pkh)))
  if (plan.metadata.size > 0) tb.set_auxiliary_data(auxiliaryData(scope, plan.metadata))
  if (plan.validity !== undefined) {
    tb.set_validity_start_interval_bignum(bigNum(scope, plan.validity.invalidBefore))
    tb.set_ttl_bignum(bigNum(scope, plan.validity.invalidHereafter))
  }
  // Collateral, script data hash and the rest must be set before change is computed (tooling-notes §1.3).
  if (input.collateral !== undefined) {
    const { utxo, total } = input.collateral
    const collateral = scope.own(CSL.TxInputsBuilder.new())
    collateral.add_regular_input(
      cslAddress(scope, utxo.address),
      cslInput(scope, utxo.ref),
      cslValue(scope, utxo.value)
    )
    tb.set_collateral(collateral)
    tb.set_total_collateral_and_return(bigNum(scope, total), cslAddress(scope, input.changeAddress))
  }
  // Datums in the witness set need a script data hash even when no script runs.
  if (runsScripts(plan) || datums > 0) tb.calc_script_data_hash(costModels(scope, pp))
  tb.add_change_if_needed(cslAddress(scope, input.changeAddress))

  const tx = scope.own(tb.build_tx())
  const bytes = tx.to_bytes()
  const fee = BigInt(scope.own(scope.own(tx.body()).fee()).to_str())
  const txId = scope.own(scope.own(CSL.FixedTransaction.from_bytes(bytes)).transaction_hash()).to_hex()
  return { tx: bytes, txId, fee }
}

/** CSL reports failures (insufficient funds, oversize tx, …) as plain strings or Errors: one typed error. */
export function assemble(input: AssembleInput): Assembled {
  try {
    return withCsl((scope) => build(scope, input))
  } catch (e) {
    if (e instanceof EngineError) throw e
    const msg = e instanceof Error ? e.message : String(e)
    throw balancingFailure(msg)
  }
}

/** A failure the caller's request causes (too big a contract, amounts past 64 bits) is theirs: a 400. */
function balancingFailure(msg: string): EngineError {
  const size = /Maximum transaction size of (\d+) exceeded/.exec(msg)
  if (size !== null) {
    return engineFailure(
      'BadRequest',
      'BalancingError',
      `The transaction would exceed the ledger's maximum size of ${size[1]} bytes: make the contract smaller (e.g. merkleize it)`,
      { tag: 'BalancingError', msg }
    )
  }
  if (/overflow/i.test(msg)) {
    return engineFailure(
      'BadRequest',
      'BalancingError',
      'An amount is larger than the ledger can hold (quantities are 64-bit)',
      { tag: 'BalancingError', msg }
    )
  }
  return engineFailure('Internal', 'BalancingError', `Balancing failed: ${msg}`, { tag: 'BalancingError', msg })
}
