/**
 * Ledger rules the emulator did not enforce (tooling notes §3.1, §3.4.5), checked before the ledger rules of
 * `rules.ts`. Each failure is a `ChainError('Rejected')` whose reason starts with the Conway ledger's name for it.
 *
 * - network: the body's network id and every output and collateral-return address are network 0;
 * - auxiliary data hash: present exactly when auxiliary data is, and equal to its hash;
 * - scripts and redeemers: every script-locked input and every minting policy has its script (in the witness
 *   set or as a reference script), every Plutus one has its redeemer — the emulator skipped this for reference
 *   scripts — a Plutus V1/V2 input holds a datum, and no spend/mint redeemer points at nothing;
 * - script data hash: recomputed as the ledger does, from the original bytes of the witness set's redeemers and
 *   datums and the language views of the cost models of the Plutus languages the transaction runs;
 * - signatures: a transaction with no vkey witness at all is refused here, naming the keys it needs.
 */
import { compareRefs, formatRef } from '../../core/cardano/refs'
import { blake2bPartsHex } from '../../core/blake2b'
import { hexToBytes } from '../../core/bytes'
import type { DecodedOutput, DecodedTx, ScriptLanguage, TxIn } from '../../core/cardano/tx'
import type { ProtocolParameters as BlazeParams } from '@blaze-cardano/core'
import { ChainError } from '../provider'
import { languageViews } from './params'

const SANDBOX_NETWORK_ID = 0

export interface LedgerLookup {
  readonly params: BlazeParams
  output(input: TxIn): DecodedOutput | undefined
}

const EMPTY_MAP = Uint8Array.of(0xa0)
/** Cost-model ids (the ledger's language ids) of the Plutus languages. */
const COST_MODEL_ID: Readonly<Record<Exclude<ScriptLanguage, 'Native'>, number>> = {
  PlutusV1: 0,
  PlutusV2: 1,
  PlutusV3: 2
}

class Checker {
  constructor(
    private readonly tx: DecodedTx,
    private readonly ledger: LedgerLookup
  ) {}

  private reject(reason: string): never {
    throw new ChainError('Rejected', reason, { txId: this.tx.id })
  }

  network(): void {
    const { body } = this.tx
    if (body.networkId !== undefined && body.networkId !== SANDBOX_NETWORK_ID) {
      this.reject(`WrongNetworkInTxBody: the body says network ${body.networkId}, the sandbox is network 0`)
    }
    const outputs: (readonly [string, DecodedOutput])[] = body.outputs.map((o, i) => [`output ${i}`, o])
    if (body.collateralReturn !== undefined) outputs.push(['the collateral return', body.collateralReturn])
    for (const [what, { address }] of outputs) {
      if (address.networkId !== SANDBOX_NETWORK_ID) {
        this.reject(`WrongNetwork: ${what} pays to ${address.text}, an address of network ${address.networkId}`)
      }
    }
  }

  auxiliaryDataHash(): void {
    const declared = this.tx.body.auxDataHash
    const actual = this.tx.auxData?.hash
    if (declared === undefined && actual !== undefined) {
      this.reject(
        `MissingTxBodyMetadataHash: the transaction has auxiliary data (hash ${actual}) but no hash of it in the body`
      )
    }
    if (declared !== undefined && actual === undefined) {
      this.reject(
        `MissingTxMetadata: the body has auxiliary data hash ${declared} but the transaction has no auxiliary data`
      )
    }
    if (declared !== actual)
      this.reject(`ConflictingMetadataHash: the body says ${declared}, the auxiliary data hashes to ${actual}`)
  }

  /** Languages of the scripts the transaction can run, by hash: its witness set's and its inputs' references. */
  private availableScripts(): Map<string, ScriptLanguage> {
    const { body, witnessSet } = this.tx
    const scripts = new Map<string, ScriptLanguage>()
    for (const input of [...body.inputs, ...body.referenceInputs]) {
      const script = this.ledger.output(input)?.scriptRef
      if (script !== undefined) scripts.set(script.hash, script.language)
    }
    for (const s of [...witnessSet.nativeScripts, ...witnessSet.plutusScripts]) scripts.set(s.hash, s.language)
    return scripts
  }

  /** Checks scripts and redeemers; returns the Plutus languages (cost-model ids) the transaction runs. */
  scriptsAndRedeemers(): Set<number> {
    const { body, witnessSet } = this.tx
    const scripts = this.availableScripts()
    const { redeemers } = witnessSet
    const has = (tag: 'spend' | 'mint', index: number): boolean =>
      redeemers.some((r) => r.tag === tag && r.index === index)
    const languages = new Set<number>()
    const plutusSpends = new Set<number>()
    const plutusMints = new Set<number>()
    const languageOf = (hash: string, what: string): ScriptLanguage => {
      const language = scripts.get(hash)
      if (language === undefined) {
        this.reject(
          `MissingScriptWitnessesUTXOW: script ${hash} for ${what} is neither in the witness set nor a reference script`
        )
      }
      return language
    }

    const inputs = [...body.inputs].sort(compareRefs)
    inputs.forEach((input, index) => {
      const output = this.ledger.output(input)
      const payment = output?.address.payment
      if (output === undefined || payment?.type !== 'script') return
      const what = `input ${formatRef(input)}`
      const language = languageOf(payment.hash, what)
      if (language === 'Native') return
      languages.add(COST_MODEL_ID[language])
      plutusSpends.add(index)
      if (!has('spend', index)) {
        this.reject(
          `MissingRedeemers: ${what} (spend index ${index}) is locked by Plutus script ${payment.hash} but has no redeemer`
        )
      }
      if (language !== 'PlutusV3' && output.datum === undefined) {
        this.reject(
          `UnspendableUTxONoDatumHash: ${what} is locked by Plutus ${language.slice('Plutus'.length)} script ${payment.hash} but holds no datum`
        )
      }
    })

    const policies = [...new Set(body.mint.map((p) => p.policyId))].sort()
    policies.forEach((policy, index) => {
      const what = `minting policy ${policy}`
      const language = languageOf(policy, what)
      if (language === 'Native') return
      languages.add(COST_MODEL_ID[language])
      plutusMints.add(index)
      if (!has('mint', index)) {
        this.reject(`MissingRedeemers: ${what} (mint index ${index}) is a Plutus script but has no redeemer`)
      }
    })

    for (const r of redeemers) {
      if (r.tag === 'spend' && !plutusSpends.has(r.index)) {
        this.reject(`ExtraRedeemers: the spend redeemer at index ${r.index} points to no Plutus-locked input`)
      }
      if (r.tag === 'mint' && !plutusMints.has(r.index)) {
        this.reject(`ExtraRedeemers: the mint redeemer at index ${r.index} points to no Plutus minting policy`)
      }
    }
    // Plutus scripts attached for other purposes also bring their language.
    for (const s of witnessSet.plutusScripts) if (s.language !== 'Native') languages.add(COST_MODEL_ID[s.language])
    return languages
  }

  scriptDataHash(languages: ReadonlySet<number>): void {
    const declared = this.tx.body.scriptDataHash
    const expected = expectedScriptDataHash(this.tx, this.ledger.params, languages)
    if (declared === expected) return
    const names = [...languages].sort().map((l) => `PlutusV${l + 1}`)
    const basis = `the redeemers, datums and cost models (${names.length === 0 ? 'none' : names.join(', ')})`
    if (expected === undefined) {
      this.reject(
        `PPViewHashesDontMatch: the body has script data hash ${declared} but the transaction has no redeemers or datums`
      )
    }
    if (declared === undefined)
      this.reject(`PPViewHashesDontMatch: the body has no script data hash; ${basis} hash to ${expected}`)
    this.reject(`PPViewHashesDontMatch: the body says script data hash ${declared}, ${basis} hash to ${expected}`)
  }

  /** Without any vkey witness, say which keys must sign (the emulator crashed on such a transaction). */
  signed(): void {
    const { body, witnessSet } = this.tx
    if (witnessSet.vkeys.length > 0) return
    const needed = new Set<string>()
    for (const input of [...body.inputs, ...body.collateral]) {
      const payment = this.ledger.output(input)?.address.payment
      if (payment?.type === 'key') needed.add(payment.hash)
    }
    for (const signer of body.requiredSigners) needed.add(signer)
    if (needed.size > 0) {
      this.reject(
        `MissingVKeyWitnessesUTXOW: the transaction is not signed; it needs signatures of the keys ${[...needed].join(', ')}`
      )
    }
  }
}

/** The script integrity hash the ledger expects (`undefined` when the body must not have one). */
function expectedScriptDataHash(
  tx: DecodedTx,
  params: BlazeParams,
  languages: ReadonlySet<number>
): string | undefined {
  const { redeemers, redeemersBytes, datums, datumsBytes } = tx.witnessSet
  const datumParts = datums.length > 0 && datumsBytes !== undefined ? [datumsBytes] : []
  if (redeemers.length === 0) {
    // Conway: with datums but no redeemers the hashed bytes are [ A0 | datums | A0 ].
    return datumParts.length === 0 ? undefined : blake2bPartsHex([EMPTY_MAP, ...datumParts, EMPTY_MAP], 32)
  }
  const views = hexToBytes(languageViews(params, languages))
  return blake2bPartsHex([redeemersBytes ?? new Uint8Array(0), ...datumParts, views], 32)
}

/** Throws `ChainError('Rejected')` for the first rule the transaction breaks. */
export function checkBeforeSubmit(tx: DecodedTx, ledger: LedgerLookup): void {
  const checker = new Checker(tx, ledger)
  checker.network()
  checker.auxiliaryDataHash()
  checker.scriptDataHash(checker.scriptsAndRedeemers())
  checker.signed()
}
