/**
 * Builds the simple transactions the sandbox tests (and its benchmark) submit, with CSL as the engine will:
 * payments, outputs locked by datum hash, spends through a Plutus V2 reference script with the datum in the
 * witness set, mints and burns with a Plutus V2 policy (the engine's role-token policy: `policyScript`). Returns
 * unsigned transaction bytes; `evaluated` does the draft → evaluate → final two-pass build.
 */
import { CSL, withCsl, type CslScope } from '../../../src/csl'
import { hexToBytes } from '../../../src/core/bytes'
import type { ChainProvider, ExUnits, ProtocolParameters, RedeemerBudget, Utxo } from '../../../src/chain/provider'
import { txBuilderConfig } from '../../../src/chain/sandbox/csl-config'
import type { RoleTokenPolicy } from '../../../src/engine/build/role-token-policy/policy'

export const ADA = 1_000_000n
export const NO_UNITS: ExUnits = { mem: 0n, steps: 0n }

/** A Plutus V2 script with its hash: a sandbox stand-in validator, or a policy as `policyScript` gives it. */
export interface PlutusV2Script {
  readonly language: 'PlutusV2'
  /** CBOR byte string of the flat program. */
  readonly bytes: Uint8Array
  readonly hash: string
}

export function policyScript(policy: RoleTokenPolicy): PlutusV2Script {
  return { language: 'PlutusV2', bytes: policy.script, hash: policy.policyId }
}

export interface Pay {
  readonly address: string
  readonly lovelace: bigint
  /** Plutus Data CBOR: the output holds its hash and the datum goes into the witness set. */
  readonly datum?: Uint8Array
  readonly scriptRef?: PlutusV2Script
  readonly assets?: readonly { readonly policy: string; readonly name: string; readonly quantity: bigint }[]
}

export interface ScriptSpend {
  readonly utxo: Utxo
  /** The UTxO carrying the validator as its reference script. */
  readonly reference: Utxo
  readonly datum: Uint8Array
  readonly redeemer: Uint8Array
  readonly exUnits: ExUnits
}

export interface Mint {
  /** In the witness set, or (with `reference`) through a reference script. */
  readonly policy: PlutusV2Script
  readonly reference?: Utxo
  readonly assets: readonly { readonly name: string; readonly quantity: bigint }[]
  readonly redeemer: Uint8Array
  readonly exUnits: ExUnits
}

export interface TxSpec {
  readonly params: ProtocolParameters
  /** Key-locked inputs paying for everything. */
  readonly inputs: readonly Utxo[]
  readonly changeAddress: string
  readonly outputs?: readonly Pay[]
  readonly scriptSpend?: ScriptSpend
  readonly mint?: Mint
  readonly collateral?: Utxo
  /** Read, not spent. */
  readonly referenceInputs?: readonly Utxo[]
  readonly validFrom?: bigint
  readonly ttl?: bigint
  readonly metadata?: string
  /** Set instead of the computed one (the hole tests' bad hashes). */
  readonly scriptDataHash?: Uint8Array
}

const big = (s: CslScope, n: bigint): CSL.BigNum => s.own(CSL.BigNum.from_str(n.toString()))

function input(s: CslScope, u: Utxo): CSL.TransactionInput {
  return s.own(CSL.TransactionInput.new(s.own(CSL.TransactionHash.from_hex(u.ref.txId)), u.ref.index))
}

function value(s: CslScope, lovelace: bigint, assets: Pay['assets'] = []): CSL.Value {
  const v = s.own(CSL.Value.new(big(s, lovelace)))
  if (assets.length === 0) return v
  const multi = s.own(CSL.MultiAsset.new())
  for (const a of assets) {
    multi.set_asset(
      s.own(CSL.ScriptHash.from_hex(a.policy)),
      s.own(CSL.AssetName.new(hexToBytes(a.name))),
      big(s, a.quantity)
    )
  }
  v.set_multiasset(multi)
  return v
}

function utxoValue(s: CslScope, u: Utxo): CSL.Value {
  const assets = Object.entries(u.value.assets).flatMap(([policy, names]) =>
    Object.entries(names).map(([name, quantity]) => ({ policy, name, quantity }))
  )
  return value(s, u.value.lovelace, assets)
}

const data = (s: CslScope, bytes: Uint8Array): CSL.PlutusData => s.own(CSL.PlutusData.from_bytes(bytes))
const exUnits = (s: CslScope, e: ExUnits): CSL.ExUnits => s.own(CSL.ExUnits.new(big(s, e.mem), big(s, e.steps)))
const v2 = (s: CslScope): CSL.Language => s.own(CSL.Language.new_plutus_v2())

/** The Plutus V2 cost model, the one language these transactions use. */
export function costModels(s: CslScope, p: ProtocolParameters): CSL.Costmdls {
  const models = s.own(CSL.Costmdls.new())
  const model = s.own(CSL.CostModel.new())
  ;(p.costModels.PlutusV2 ?? []).forEach((c, i) => model.set(i, s.own(CSL.Int.from_str(c.toString()))))
  models.insert(v2(s), model)
  return models
}

function output(s: CslScope, o: Pay, tb: CSL.TransactionBuilder): CSL.TransactionOutput {
  const out = s.own(
    CSL.TransactionOutput.new(s.own(CSL.Address.from_bech32(o.address)), value(s, o.lovelace, o.assets))
  )
  if (o.datum !== undefined) {
    out.set_data_hash(s.own(CSL.hash_plutus_data(data(s, o.datum))))
    tb.add_extra_witness_datum(data(s, o.datum))
  }
  if (o.scriptRef !== undefined) {
    out.set_script_ref(s.own(CSL.ScriptRef.new_plutus_script(s.own(CSL.PlutusScript.new_v2(o.scriptRef.bytes)))))
  }
  return out
}

function scriptSource(s: CslScope, script: PlutusV2Script, reference?: Utxo): CSL.PlutusScriptSource {
  if (reference === undefined) return s.own(CSL.PlutusScriptSource.new(s.own(CSL.PlutusScript.new_v2(script.bytes))))
  const hash = s.own(CSL.ScriptHash.from_hex(script.hash))
  return s.own(CSL.PlutusScriptSource.new_ref_input(hash, input(s, reference), v2(s), script.bytes.length))
}

export function buildTx(spec: TxSpec): Uint8Array {
  return withCsl((s) => {
    const tb = s.own(CSL.TransactionBuilder.new(txBuilderConfig(s, spec.params)))
    const inputs = s.own(CSL.TxInputsBuilder.new())
    const sp = spec.scriptSpend
    if (sp !== undefined) {
      const validator = sp.reference.scriptRef
      if (validator === undefined) throw new Error('the reference UTxO holds no script')
      const hash = s.own(s.own(CSL.PlutusScript.new_v2(validator.bytes)).hash())
      const source = s.own(
        CSL.PlutusScriptSource.new_ref_input(hash, input(s, sp.reference), v2(s), validator.bytes.length)
      )
      const redeemer = s.own(
        CSL.Redeemer.new(s.own(CSL.RedeemerTag.new_spend()), big(s, 0n), data(s, sp.redeemer), exUnits(s, sp.exUnits))
      )
      const witness = s.own(
        CSL.PlutusWitness.new_with_ref(source, s.own(CSL.DatumSource.new(data(s, sp.datum))), redeemer)
      )
      inputs.add_plutus_script_input(witness, input(s, sp.utxo), utxoValue(s, sp.utxo))
    }
    for (const u of spec.inputs) {
      inputs.add_regular_input(s.own(CSL.Address.from_bech32(u.address)), input(s, u), utxoValue(s, u))
    }
    tb.set_inputs(inputs)
    for (const u of spec.referenceInputs ?? []) tb.add_reference_input(input(s, u))
    for (const o of spec.outputs ?? []) tb.add_output(output(s, o, tb))
    const mint = spec.mint
    if (mint !== undefined) {
      const mb = s.own(CSL.MintBuilder.new())
      for (const a of mint.assets) {
        const redeemer = s.own(
          CSL.Redeemer.new(
            s.own(CSL.RedeemerTag.new_mint()),
            big(s, 0n),
            data(s, mint.redeemer),
            exUnits(s, mint.exUnits)
          )
        )
        const witness = s.own(CSL.MintWitness.new_plutus_script(scriptSource(s, mint.policy, mint.reference), redeemer))
        mb.add_asset(
          witness,
          s.own(CSL.AssetName.new(hexToBytes(a.name))),
          s.own(CSL.Int.from_str(a.quantity.toString()))
        )
      }
      tb.set_mint_builder(mb)
    }
    if (spec.collateral !== undefined) {
      const c = s.own(CSL.TxInputsBuilder.new())
      const address = s.own(CSL.Address.from_bech32(spec.collateral.address))
      c.add_regular_input(address, input(s, spec.collateral), utxoValue(s, spec.collateral))
      tb.set_collateral(c)
      tb.set_total_collateral_and_return(big(s, 2n * ADA), address)
    }
    if (spec.validFrom !== undefined) tb.set_validity_start_interval_bignum(big(s, spec.validFrom))
    if (spec.ttl !== undefined) tb.set_ttl_bignum(big(s, spec.ttl))
    if (spec.metadata !== undefined) {
      tb.add_metadatum(big(s, 674n), s.own(CSL.TransactionMetadatum.new_text(spec.metadata)))
    }
    const plutus = sp !== undefined || mint !== undefined || (spec.outputs ?? []).some((o) => o.datum !== undefined)
    if (spec.scriptDataHash !== undefined)
      tb.set_script_data_hash(s.own(CSL.ScriptDataHash.from_bytes(spec.scriptDataHash)))
    else if (plutus) tb.calc_script_data_hash(costModels(s, spec.params))
    tb.add_change_if_needed(s.own(CSL.Address.from_bech32(spec.changeAddress)))
    return s.own(tb.build_tx()).to_bytes()
  })
}

/** Builds with zero budgets, asks the provider for the real ones, builds again with them. */
export async function evaluated(
  provider: ChainProvider,
  build: (budget: (tag: RedeemerBudget['tag']) => ExUnits) => Uint8Array
): Promise<Uint8Array> {
  const draft = build(() => NO_UNITS)
  const budgets = await provider.evaluate(draft)
  return build((tag) => budgets.find((b) => b.tag === tag)?.exUnits ?? NO_UNITS)
}

export interface TxParts {
  readonly body: CSL.TransactionBody
  readonly witnesses: CSL.TransactionWitnessSet
  readonly aux: CSL.AuxiliaryData | undefined
}

/** The transaction reassembled from changed parts (a changed body changes its id: sign after this). */
export function recompose(tx: Uint8Array, change: (s: CslScope, parts: TxParts) => TxParts): Uint8Array {
  return withCsl((s) => {
    const t = s.own(CSL.Transaction.from_bytes(tx))
    const aux = t.auxiliary_data()
    const parts = change(s, { body: s.own(t.body()), witnesses: s.own(t.witness_set()), aux: aux && s.own(aux) })
    // Transaction.new takes the auxiliary data over (frees it), so it gets a copy the scope does not own.
    const auxCopy = parts.aux && CSL.AuxiliaryData.from_bytes(parts.aux.to_bytes())
    return s.own(CSL.Transaction.new(parts.body, parts.witnesses, auxCopy)).to_bytes()
  })
}

export function txId(tx: Uint8Array): string {
  return withCsl((s) => s.own(s.own(CSL.FixedTransaction.from_bytes(tx)).transaction_hash()).to_hex())
}

/** Constr 0 [I n] as CBOR. */
export function intDatum(n: bigint): Uint8Array {
  return withCsl((s) => {
    const fields = s.own(CSL.PlutusList.new())
    fields.add(s.own(CSL.PlutusData.new_integer(s.own(CSL.BigInt.from_str(n.toString())))))
    return s.own(CSL.PlutusData.new_constr_plutus_data(s.own(CSL.ConstrPlutusData.new(big(s, 0n), fields)))).to_bytes()
  })
}

export function datumHash(datum: Uint8Array): string {
  return withCsl((s) => s.own(CSL.hash_plutus_data(s.own(CSL.PlutusData.from_bytes(datum)))).to_hex())
}
