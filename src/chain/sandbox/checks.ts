/**
 * Ledger rules the emulator does not enforce (tooling notes §3.1, §3.4.5), checked before a transaction reaches
 * it. Each failure is a `ChainError('Rejected')` whose reason starts with the Conway ledger's name for it.
 *
 * - network: the body's network id and every output, collateral-return and withdrawal address are network 0;
 * - auxiliary data hash: present exactly when auxiliary data is, and equal to its hash;
 * - scripts and redeemers: every script-locked input and every minting policy has its script (in the witness
 *   set or as a reference script), every Plutus one has its redeemer — the emulator skips this for reference
 *   scripts — a Plutus V1/V2 input holds a datum, and no spend/mint redeemer points at nothing;
 * - script data hash: recomputed as the ledger does, from the original bytes of the witness set's redeemers and
 *   datums and the language views of the cost models of the Plutus languages the transaction runs;
 * - signatures: a transaction with no vkey witness at all is refused here (the emulator would crash on it).
 */
import { blake2bHex } from '../../core/blake2b'
import {
  Address,
  AssetId,
  CredentialType,
  RedeemerTag,
  type ProtocolParameters as BlazeParams,
  type Transaction,
  type TransactionBody,
  type TransactionInput,
  type TransactionOutput,
  type TransactionWitnessSet
} from '@blaze-cardano/core'
import { hexToBytes } from '../../core/bytes'
import { ChainError } from '../provider'
import { languageViews } from './params'

const SANDBOX_NETWORK_ID = 0

export interface LedgerLookup {
  readonly params: BlazeParams
  output(input: TransactionInput): TransactionOutput | undefined
}

/** The parts of a transaction the checks read, decoded once (Blaze decodes again on every accessor call). */
interface TxView {
  readonly id: string
  readonly body: TransactionBody
  readonly ws: TransactionWitnessSet
  /** The auxiliary data's original bytes. */
  readonly aux: string | undefined
}

const EMPTY_MAP = 'a0'
const NATIVE = 0
const PLUTUS_V3 = 3

function blake2b256Hex(hex: string): string {
  return blake2bHex(hexToBytes(hex), 32)
}

function inputName(input: TransactionInput): string {
  return `${input.transactionId()}#${input.index()}`
}

function networkOf(bech32: string): number | undefined {
  try {
    return Address.fromBech32(bech32).getNetworkId()
  } catch {
    return undefined
  }
}

function compareInputs(a: TransactionInput, b: TransactionInput): number {
  const byId = a.transactionId() < b.transactionId() ? -1 : a.transactionId() > b.transactionId() ? 1 : 0
  return byId !== 0 ? byId : Number(a.index() - b.index())
}

class Checker {
  constructor(
    private readonly tx: TxView,
    private readonly ledger: LedgerLookup
  ) {}

  private reject(reason: string): never {
    throw new ChainError('Rejected', reason, { txId: this.tx.id })
  }

  network(): void {
    const { body } = this.tx
    const bodyNetwork = body.networkId()
    if (bodyNetwork !== undefined && bodyNetwork !== SANDBOX_NETWORK_ID) {
      this.reject(`WrongNetworkInTxBody: the body says network ${bodyNetwork}, the sandbox is network 0`)
    }
    const outputs: (readonly [string, TransactionOutput])[] = body.outputs().map((o, i) => [`output ${i}`, o])
    const collateralReturn = body.collateralReturn()
    if (collateralReturn !== undefined) outputs.push(['the collateral return', collateralReturn])
    for (const [what, output] of outputs) {
      const network = output.address().getNetworkId()
      if (network !== SANDBOX_NETWORK_ID) {
        this.reject(`WrongNetwork: ${what} pays to ${output.address().toBech32()}, an address of network ${network}`)
      }
    }
    for (const account of body.withdrawals()?.keys() ?? []) {
      if (networkOf(account) !== SANDBOX_NETWORK_ID) {
        this.reject(`WrongNetworkWithdrawal: withdrawal from ${account} is not from a network 0 reward account`)
      }
    }
  }

  auxiliaryDataHash(): void {
    const declared = this.tx.body.auxiliaryDataHash()
    const actual = this.tx.aux === undefined ? undefined : blake2b256Hex(this.tx.aux)
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

  /**
   * Languages (0 native, 1–3 Plutus V1–V3) of the scripts the transaction can run, by hash: its witness set's
   * and the reference scripts of its inputs and reference inputs.
   */
  private availableScripts(): Map<string, number> {
    const { body, ws } = this.tx
    const scripts = new Map<string, number>()
    for (const input of [...body.inputs().values(), ...(body.referenceInputs()?.values() ?? [])]) {
      const script = this.ledger.output(input)?.scriptRef()
      if (script !== undefined) scripts.set(script.hash(), script.language())
    }
    for (const s of ws.nativeScripts()?.values() ?? []) scripts.set(s.hash(), NATIVE)
    for (const s of ws.plutusV1Scripts()?.values() ?? []) scripts.set(s.hash(), 1)
    for (const s of ws.plutusV2Scripts()?.values() ?? []) scripts.set(s.hash(), 2)
    for (const s of ws.plutusV3Scripts()?.values() ?? []) scripts.set(s.hash(), PLUTUS_V3)
    return scripts
  }

  /** Checks scripts and redeemers; returns the Plutus languages (cost-model ids) the transaction runs. */
  scriptsAndRedeemers(): Set<number> {
    const { body, ws } = this.tx
    const scripts = this.availableScripts()
    const redeemers = ws.redeemers()?.values() ?? []
    const has = (tag: RedeemerTag, index: number): boolean =>
      redeemers.some((r) => r.tag() === tag && r.index() === BigInt(index))
    const languages = new Set<number>()
    const plutusSpends = new Set<number>()
    const plutusMints = new Set<number>()
    const languageOf = (hash: string, what: string): number => {
      const language = scripts.get(hash)
      if (language === undefined) {
        this.reject(
          `MissingScriptWitnessesUTXOW: script ${hash} for ${what} is neither in the witness set nor a reference script`
        )
      }
      return language
    }

    const inputs = [...body.inputs().values()].sort(compareInputs)
    inputs.forEach((input, index) => {
      const output = this.ledger.output(input)
      const payment = output?.address().getProps().paymentPart
      if (output === undefined || payment?.type !== CredentialType.ScriptHash) return
      const what = `input ${inputName(input)}`
      const language = languageOf(payment.hash, what)
      if (language === NATIVE) return
      languages.add(language - 1)
      plutusSpends.add(index)
      if (!has(RedeemerTag.Spend, index)) {
        this.reject(
          `MissingRedeemers: ${what} (spend index ${index}) is locked by Plutus script ${payment.hash} but has no redeemer`
        )
      }
      if (language < PLUTUS_V3 && output.datum() === undefined) {
        this.reject(
          `UnspendableUTxONoDatumHash: ${what} is locked by Plutus V${language} script ${payment.hash} but holds no datum`
        )
      }
    })

    const policies = [...new Set([...(body.mint()?.keys() ?? [])].map((a) => AssetId.getPolicyId(a)))].sort()
    policies.forEach((policy, index) => {
      const what = `minting policy ${policy}`
      const language = languageOf(policy, what)
      if (language === NATIVE) return
      languages.add(language - 1)
      plutusMints.add(index)
      if (!has(RedeemerTag.Mint, index)) {
        this.reject(`MissingRedeemers: ${what} (mint index ${index}) is a Plutus script but has no redeemer`)
      }
    })

    for (const r of redeemers) {
      const index = Number(r.index())
      if (r.tag() === RedeemerTag.Spend && !plutusSpends.has(index)) {
        this.reject(`ExtraRedeemers: the spend redeemer at index ${index} points to no Plutus-locked input`)
      }
      if (r.tag() === RedeemerTag.Mint && !plutusMints.has(index)) {
        this.reject(`ExtraRedeemers: the mint redeemer at index ${index} points to no Plutus minting policy`)
      }
    }
    // Plutus scripts attached for other purposes (certificates, withdrawals) also bring their language.
    if ((ws.plutusV1Scripts()?.size() ?? 0) > 0) languages.add(0)
    if ((ws.plutusV2Scripts()?.size() ?? 0) > 0) languages.add(1)
    if ((ws.plutusV3Scripts()?.size() ?? 0) > 0) languages.add(2)
    return languages
  }

  scriptDataHash(languages: ReadonlySet<number>): void {
    const declared = this.tx.body.scriptDataHash()
    const expected = expectedScriptDataHash(this.tx.ws, this.ledger.params, languages)
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

  /** The emulator crashes (a TypeError) on a transaction without any vkey witness: say which keys must sign. */
  signed(): void {
    const { body, ws } = this.tx
    if ((ws.vkeys()?.size() ?? 0) > 0) return
    const needed = new Set<string>()
    for (const input of [...body.inputs().values(), ...(body.collateral()?.values() ?? [])]) {
      const payment = this.ledger.output(input)?.address().getProps().paymentPart
      if (payment?.type === CredentialType.KeyHash) needed.add(payment.hash)
    }
    for (const signer of body.requiredSigners()?.values() ?? []) needed.add(signer.value())
    if (needed.size > 0) {
      this.reject(
        `MissingVKeyWitnessesUTXOW: the transaction is not signed; it needs signatures of the keys ${[...needed].join(', ')}`
      )
    }
  }
}

/** The script integrity hash the ledger expects (`undefined` when the body must not have one). */
function expectedScriptDataHash(
  ws: TransactionWitnessSet,
  params: BlazeParams,
  languages: ReadonlySet<number>
): string | undefined {
  const redeemers = ws.redeemers()
  const datums = ws.plutusData()
  const hasRedeemers = (redeemers?.values().length ?? 0) > 0
  const datumsHex = datums !== undefined && datums.size() > 0 ? datums.toCbor() : ''
  if (!hasRedeemers && datumsHex === '') return undefined
  // Conway: with datums but no redeemers the hashed bytes are [ A0 | datums | A0 ].
  if (!hasRedeemers) return blake2b256Hex(EMPTY_MAP + datumsHex + EMPTY_MAP)
  return blake2b256Hex((redeemers?.toCbor() ?? '') + datumsHex + languageViews(params, languages))
}

/** Throws `ChainError('Rejected')` for the first rule the transaction breaks. */
export function checkBeforeSubmit(tx: Transaction, ledger: LedgerLookup): void {
  const checker = new Checker(
    { id: tx.getId(), body: tx.body(), ws: tx.witnessSet(), aux: tx.auxiliaryData()?.toCbor() },
    ledger
  )
  checker.network()
  checker.auxiliaryDataHash()
  checker.scriptDataHash(checker.scriptsAndRedeemers())
  checker.signed()
}
