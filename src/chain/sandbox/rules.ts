/**
 * The Conway ledger rules the sandbox applies after `checks.ts`, on our own decoding of the transaction: the
 * rules of @blaze-cardano/emulator 0.4.5's `submitTransaction`, in its order and with its words, so that
 * every transaction is accepted or refused as the emulator did — without its decoding of the transaction into
 * Blaze objects, which costs seconds on a Marlowe-sized datum (tooling notes §9b).
 *
 * - every vkey witness signs the transaction id; every key the inputs, collateral and required signers name has
 *   signed; every script an input or a policy names is available; no witness (key, script, datum) is extraneous;
 * - inputs, reference inputs and collateral exist; inputs are not empty and disjoint from reference inputs;
 *   collateral is key-locked, at most `maxCollateralInputs`, and covers `collateralPercentage` of the fee;
 * - the current slot is inside the validity interval; every output holds its min-ADA and a value within
 *   `maxValueSize`; the transaction is within `maxTxSize`;
 * - the scripts run (phase 2), no redeemer's budget is below what its script used, the fee covers size,
 *   execution and reference scripts, and value is conserved.
 *
 * Where the emulator erred, the ledger's rule is applied instead: a reference script is native or Plutus by its
 * language (the emulator took every Plutus reference script for a native one, and the reverse), and mint
 * redeemers count policies in the ledger's sorted order.
 */
import { compareRefs, formatRef } from '../../core/cardano/refs'
import { createPublicKey, verify } from 'node:crypto'
import type { ProtocolParameters as BlazeParams } from '@blaze-cardano/core'
import { hexToBytes } from '../../core/bytes'
import type { Credential } from '../../core/cardano/address'
import type { DecodedTx, DecodedValue, PolicyAssets, RedeemerTag, TxIn } from '../../core/cardano/tx'
import { ChainError, type RedeemerBudget } from '../provider'
import type { PlutusOutcome, SpentOutput } from './evaluator'
import { encodeTxIn, valueSize } from './outputs'
import type { StoredUtxo } from './utxo-set'

export interface RuleContext {
  readonly params: BlazeParams
  readonly slot: bigint
  output(input: TxIn): StoredUtxo | undefined
  /** Phase 2: the budgets the scripts used, or the evaluator's words when one fails. */
  evaluate(tx: Uint8Array, spent: readonly SpentOutput[]): Promise<PlutusOutcome>
}

/** Ed25519 public keys as DER SubjectPublicKeyInfo: this prefix, then the 32 raw bytes. */
const ED25519_SPKI_PREFIX = hexToBytes('302a300506032b6570032100')
/** Bytes every output is charged for beyond its own (the ledger's constant overhead). */
const OUTPUT_OVERHEAD_BYTES = 160n
/** The emulator's names of redeemer purposes (cardano-js-sdk's). */
const PURPOSES: Readonly<Record<RedeemerTag, string>> = {
  spend: 'spend',
  mint: 'mint',
  cert: 'certificate',
  reward: 'withdrawal',
  vote: 'vote',
  propose: 'propose'
}

function signatureValid(vkey: string, signature: string, message: Uint8Array): boolean {
  try {
    const key = createPublicKey({
      key: Buffer.concat([ED25519_SPKI_PREFIX, hexToBytes(vkey)]),
      format: 'der',
      type: 'spki'
    })
    return verify(null, message, key, hexToBytes(signature))
  } catch {
    return false
  }
}

/** Ada and assets (policy id + asset name), zero entries dropped as they occur, in order of first appearance. */
class NetValue {
  coin = 0n
  readonly assets = new Map<string, bigint>()

  add(coin: bigint, assets: readonly PolicyAssets[], sign: 1n | -1n): void {
    this.coin += sign * coin
    for (const { policyId, assets: names } of assets) {
      for (const { assetName, quantity } of names) {
        const id = policyId + assetName
        const total = (this.assets.get(id) ?? 0n) + sign * quantity
        if (total === 0n) this.assets.delete(id)
        else this.assets.set(id, total)
      }
    }
  }

  addValue(value: DecodedValue, sign: 1n | -1n): void {
    this.add(value.coin, value.multiAsset, sign)
  }

  isEmpty(): boolean {
    return this.coin === 0n && this.assets.size === 0
  }

  describe(): string {
    return `${this.coin}, ${[...this.assets].map(([id, quantity]) => `${id},${quantity}`).join(',')}`
  }
}

/** The Conway tiered reference-script fee, computed as the emulator does (in floating point, then rounded up). */
function referenceScriptFee(bytes: number, params: BlazeParams): bigint {
  const tiers = params.minFeeReferenceScripts
  if (tiers === undefined) return 0n
  let left = bytes
  let price = tiers.base
  let fee = 0
  while (left > 0) {
    fee += Math.min(tiers.range, left) * price
    left -= tiers.range
    price *= tiers.multiplier
  }
  return BigInt(Math.ceil(fee))
}

class Rules {
  private readonly consumed = new Set<string>()
  private readonly vkeyHashes = new Set<string>()
  private readonly nativeHashes: Set<string>
  private readonly plutusHashes: Set<string>
  private readonly net = new NetValue()
  /** Inputs and reference inputs with their outputs, as the evaluator takes them. */
  private readonly spent: SpentOutput[] = []
  private readonly referenceScriptBytes: number[] = []

  constructor(
    private readonly tx: DecodedTx,
    private readonly bytes: Uint8Array,
    private readonly ctx: RuleContext
  ) {
    const { witnessSet } = tx
    this.nativeHashes = new Set(witnessSet.nativeScripts.map((s) => s.hash))
    this.plutusHashes = new Set(witnessSet.plutusScripts.map((s) => s.hash))
  }

  private reject(reason: string): never {
    throw new ChainError('Rejected', reason, { txId: this.tx.id })
  }

  private consumeVkey(hash: string): void {
    if (!this.vkeyHashes.has(hash)) this.reject(`Vkey (hash ${hash}) not found in witness set.`)
    this.consumed.add(hash)
  }

  private consumeScript(hash: string, tag: RedeemerTag, index: number): void {
    if (this.nativeHashes.has(hash)) {
      this.consumed.add(hash)
    } else if (this.plutusHashes.has(hash)) {
      if (!this.tx.witnessSet.redeemers.some((r) => r.tag === tag && r.index === index)) {
        this.reject(`Script (hash ${hash}) was found but without a redeemer.`)
      }
      this.consumed.add(hash)
    } else {
      this.reject(`Script (hash ${hash}) not found in witness set.`)
    }
  }

  private consumeCredential(credential: Credential, tag: RedeemerTag, index: number): void {
    if (credential.type === 'key') this.consumeVkey(credential.hash)
    else this.consumeScript(credential.hash, tag, index)
  }

  /** Runs every rule in the emulator's order; throws `ChainError('Rejected')` at the first one broken. */
  async check(): Promise<void> {
    this.witnesses()
    const collateral = this.collateral()
    this.inputs()
    this.collateralCovers(collateral)
    this.mint()
    for (const signer of this.tx.body.requiredSigners) this.consumeVkey(signer)
    this.validity()
    this.outputs()
    this.noExtraneousWitnesses()
    const { maxTxSize } = this.ctx.params
    if (this.bytes.length > maxTxSize) {
      this.reject(`Transaction size exceeds the maximum allowed. Supplied: ${this.bytes.length}, Maximum: ${maxTxSize}`)
    }
    this.feeAndValue(await this.scripts())
  }

  private witnesses(): void {
    const txId = hexToBytes(this.tx.id)
    for (const w of this.tx.witnessSet.vkeys) {
      if (!signatureValid(w.vkey, w.signature, txId)) this.reject(`Invalid vkey in witness set with hash ${w.keyHash}`)
      this.vkeyHashes.add(w.keyHash)
    }
  }

  /** Each collateral input exists and is key-locked (its key consumed); returns the ada they hold. */
  private collateral(): bigint {
    const { collateral } = this.tx.body
    let amount = 0n
    for (const input of collateral) {
      const utxo = this.ctx.output(input)
      if (utxo === undefined) this.reject(`Collateral input ${formatRef(input)} not found in the ledger.`)
      const payment = utxo.output.address.payment
      if (payment?.type !== 'key') this.reject(`Collateral input ${formatRef(input)} must contain a vkey.`)
      this.consumeVkey(payment.hash)
      amount += utxo.output.value.coin
    }
    const { maxCollateralInputs } = this.ctx.params
    if (collateral.length > maxCollateralInputs) {
      this.reject(
        `Collateral inputs exceed the maximum allowed. Provided: ${collateral.length}, Maximum: ${maxCollateralInputs}`
      )
    }
    return amount
  }

  private inputs(): void {
    const { inputs, referenceInputs } = this.tx.body
    for (const input of [...inputs, ...referenceInputs]) {
      const utxo = this.ctx.output(input)
      if (utxo === undefined) {
        // The emulator's words, the input as its JSON: callers match them.
        this.reject(`Input ${JSON.stringify({ index: input.index, txId: input.txId })} not found in the ledger.`)
      }
      this.spent.push({ ref: encodeTxIn(input), output: utxo.bytes })
      const { datum, scriptRef } = utxo.output
      if (datum?.kind === 'hash') this.consumed.add(datum.hash)
      if (scriptRef !== undefined) {
        const available = scriptRef.language === 'Native' ? this.nativeHashes : this.plutusHashes
        available.add(scriptRef.hash)
        this.referenceScriptBytes.push(scriptRef.bytes.length)
      }
    }
    ;[...inputs].sort(compareRefs).forEach((input, index) => {
      const { output } = this.ctx.output(input)!
      const payment = output.address.payment
      if (payment === undefined)
        this.reject(`Input ${formatRef(input)} is at a Byron address, which the sandbox cannot spend.`)
      this.consumeCredential(payment, 'spend', index)
      this.net.addValue(output.value, 1n)
    })
    if (inputs.length === 0) this.reject('Inputs must not be an empty set.')
    const references = new Set(referenceInputs.map(formatRef))
    if (inputs.some((input) => references.has(formatRef(input)))) {
      this.reject('Inputs and reference inputs must be disjoint.')
    }
  }

  private collateralCovers(collateral: bigint): void {
    const { body, witnessSet, isValid } = this.tx
    if (witnessSet.redeemersBytes === undefined) return
    const minimum = BigInt(Math.ceil((this.ctx.params.collateralPercentage / 100) * Number(body.fee)))
    if (collateral - (body.collateralReturn?.value.coin ?? 0n) < minimum)
      this.reject('Collateral inputs are insufficient.')
    if (!isValid) this.reject("Transaction 'isValid' field must be true.")
  }

  private mint(): void {
    const { mint } = this.tx.body
    const policies = [...new Set(mint.map((p) => p.policyId))].sort()
    policies.forEach((policy, index) => this.consumeScript(policy, 'mint', index))
    this.net.add(0n, mint, 1n)
  }

  private validity(): void {
    const { validityStart, ttl } = this.tx.body
    const { slot } = this.ctx
    if ((validityStart !== undefined && slot < validityStart) || (ttl !== undefined && slot >= ttl)) {
      this.reject(
        `Validity interval (${validityStart ?? '-Infinity'} to ${ttl ?? 'Infinity'}) is outside the slot range (${slot}).`
      )
    }
    if (validityStart !== undefined && ttl !== undefined && validityStart >= ttl) {
      this.reject('Validity interval is invalid.')
    }
  }

  private outputs(): void {
    const { coinsPerUtxoByte, maxValueSize } = this.ctx.params
    this.tx.body.outputs.forEach((output, index) => {
      if (output.datum?.kind === 'hash') this.consumed.add(output.datum.hash)
      const bytes = this.bytes.subarray(output.start, output.end)
      const minAda = BigInt(coinsPerUtxoByte) * (BigInt(bytes.length) + OUTPUT_OVERHEAD_BYTES)
      if (output.value.coin < minAda) {
        this.reject(
          `Output ${index} does not meet the minADA requirement. Output: ${output.value.coin}, MinADA: ${minAda}`
        )
      }
      const size = valueSize(bytes)
      if (size > maxValueSize) {
        this.reject(
          `Output ${index}'s value exceeds the maximum allowed size. Output: ${size} bytes, Maximum: ${maxValueSize} bytes`
        )
      }
      this.net.addValue(output.value, -1n)
    })
  }

  private noExtraneousWitnesses(): void {
    const { witnessSet } = this.tx
    const kinds: [string, readonly string[]][] = [
      ['VKey', [...this.vkeyHashes]],
      ['Native', witnessSet.nativeScripts.map((s) => s.hash)],
      ['Plutus', witnessSet.plutusScripts.map((s) => s.hash)],
      ['Datum', witnessSet.datums.map((d) => d.hash)]
    ]
    for (const [kind, hashes] of kinds) {
      const extra = hashes.find((hash) => !this.consumed.has(hash))
      if (extra !== undefined) this.reject(`Extraneous ${kind} witness. ${extra} has not been consumed.`)
    }
  }

  /** Phase 2; the budgets the scripts used, each checked against its redeemer's. */
  private async scripts(): Promise<RedeemerBudget[]> {
    const outcome = await this.ctx.evaluate(this.bytes, this.spent)
    if (outcome.type === 'failed') this.reject(outcome.words)
    const used = outcome.budgets
    for (const budget of used) {
      const provided = this.tx.witnessSet.redeemers.find((r) => r.tag === budget.tag && r.index === budget.index)
      const purpose = PURPOSES[budget.tag]
      if (provided === undefined) this.reject(`Missing redeemer: Purpose ${purpose}, Index ${budget.index})`)
      const { mem, steps } = budget.exUnits
      if (provided.exUnits.mem < mem || provided.exUnits.steps < steps) {
        this.reject(
          `Underestimated budget (${purpose} ${budget.index}): ${provided.exUnits.mem - mem} Memory, ${provided.exUnits.steps - steps} Steps`
        )
      }
    }
    return used
  }

  private feeAndValue(used: readonly RedeemerBudget[]): void {
    const { params } = this.ctx
    const { body } = this.tx
    // Floating point, in the emulator's order of operations, so that the rounding is the same.
    const execution = used.reduce(
      (acc, b) => acc + params.prices.memory * Number(b.exUnits.mem) + params.prices.steps * Number(b.exUnits.steps),
      0
    )
    let required =
      BigInt(Math.ceil(execution)) +
      BigInt(Math.ceil(params.minFeeConstant + this.bytes.length * params.minFeeCoefficient))
    // As the emulator: reference-script bytes are charged when the transaction has reference inputs.
    if (body.referenceInputs.length > 0 && params.minFeeRefScriptCostPerByte) {
      required += referenceScriptFee(
        this.referenceScriptBytes.reduce((a, b) => a + b, 0),
        params
      )
    }
    if (required > body.fee) this.reject(`Insufficient transaction fee. Supplied: ${body.fee}, Required: ${required}`)
    this.net.add(body.fee + (body.donation ?? 0n), [], -1n)
    if (!this.net.isEmpty()) this.reject(`Value not conserved. Leftover Value: ${this.net.describe()}`)
  }
}

/** Throws `ChainError('Rejected')` for the first ledger rule the transaction breaks; runs its scripts. */
export function checkLedgerRules(tx: DecodedTx, bytes: Uint8Array, ctx: RuleContext): Promise<void> {
  return new Rules(tx, bytes, ctx).check()
}
