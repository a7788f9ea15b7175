/**
 * The execution cost and size of a contract's costliest future transactions (runtime-api.md §10: too costly or too
 * large transactions are `TransactionValidationError`s). The simulation keeps the transactions paying the most
 * parties and those spending the largest datums (./simulate.ts); each is built as the apply builder builds it —
 * the Marlowe input with the simulated datum, the deployed semantics script by reference, the redeemer, the
 * payouts, a wallet input, collateral and signers — and run by the chain's own evaluator on the deployed scripts,
 * the Marlowe input and the wallet passed as additional UTxOs. A transaction over the per-transaction execution
 * budget or size can never be submitted: the contract would be stuck there with its funds, so it is fatal.
 *
 * Where the chain runs stand-in scripts their cost says nothing of the real validator's, so only the size is checked
 * (a referenced script adds nothing to it) and a non-fatal `TransactionCostNotChecked` says so. Runtime has no such entry; clients read `safetyErrors` as
 * a list of unknown items (the TS SDK decodes it as `unknown[]`), and the funded-create refusal ignores it.
 *
 * The chain can only evaluate a transaction whose validity interval it can convert to time, so within its
 * horizon: a transaction due later (or earlier than the chain) is moved in time with its whole contract — every
 * timeout and the state's minimum time shifted alike — and recomputed there, checked to take the same step; only
 * the datum's time constants differ.
 *
 * The transactions are built where the simulation runs, on the engine's worker, in the same task
 * (`buildCostCandidates`): one message per check rather than one per transaction. At most
 * `2 × COSTLIEST_PER_MEASURE` evaluations per check (./simulate.ts), run at once on this side.
 */
import type { MarloweDeployment } from '../../chain/deployments'
import { ChainError, type EraSummary, type ExUnits, type ProtocolParameters, type Utxo } from '../../chain/provider'
import { utf8Encode } from '../../core/bytes'
import { parseShelleyAddress } from '../../core/cardano/address'
import { blake2b256Hex } from '../../core/cardano/tx'
import type { Value } from '../../core/cardano/value'
import type { JsonValue } from '../../core/json/lossless'
import { datumHash } from '../../core/marlowe/plutus/hash'
import { encodeMarloweData, encodeRedeemer } from '../../core/marlowe/plutus/marlowe-data'
import { computeTransaction } from '../../core/marlowe/semantics'
import { ValueTooLargeError } from '../../core/marlowe/limits'
import type {
  Contract,
  MarloweData,
  State,
  TimeInterval,
  TransactionOutput,
  TransactionSuccess
} from '../../core/marlowe/types'
import { EngineError } from '../errors'
import { assemble, placeholderUnits, type AssembleInput } from './assemble'
import type { BuildContext } from './context'
import { feeAllowance } from './inputs'
import { payoutOutputs } from './payout-outputs'
import type { PlannedOutput, TxPlan } from './plan'
import { requiredCollateral } from './protocol'
import type { SafetyError } from './safety'
import type { RefScript } from './scripts'
import { transactionJson, type SimulatedTx } from './simulate'
import { SlotClock } from './slots'
import { actingParties, depositedValue, payoutsByParty, stateValue } from './validator-rules'
import { sumValues, tokenValue } from './values'

export const COST_NOT_CHECKED = 'TransactionCostNotChecked'

/** A note that some cost was not checked: never a reason to refuse a create. */
export const isCostNotChecked = (e: SafetyError): boolean => e.error === COST_NOT_CHECKED

/** The simulation's errors and the cost check's, Runtime's `SafetyAnalysisTimeout` (if any) staying last. */
export function withCostErrors(simulated: readonly SafetyError[], costs: readonly SafetyError[]): SafetyError[] {
  const last = simulated.at(-1)
  return last?.error === 'SafetyAnalysisTimeout'
    ? [...simulated.slice(0, -1), ...costs, last]
    : [...simulated, ...costs]
}

/** The made-up transaction the simulated UTxOs come from (no such transaction is on any chain). */
const SIMULATED_TX_ID = blake2b256Hex(utf8Encode('marlowe-desk: cost check of a simulated transaction')!)
/** Ample for any fee, payout top-up and deposit a simulated transaction needs from its wallet. */
const WALLET_LOVELACE = 1_000_000_000_000_000n
/** A signed transaction adds one vkey witness (`[vkey, signature]`, 101 bytes of CBOR) per signer... */
const VKEY_WITNESS_BYTES = 101
/** ...and the witness set's key and array header for them. */
const VKEY_WITNESSES_OVERHEAD = 3
/** CSL refuses to build past the size limit; the check builds first and compares itself, to say by how much. */
const UNLIMITED_TX_SIZE = 0x7fffffff
/** The same cost models object, whose serialisation ./protocol.ts keeps. */
const sizeUnlimited = (pp: ProtocolParameters): ProtocolParameters => ({ ...pp, maxTxSize: UNLIMITED_TX_SIZE })

/** What building the check's transactions takes, read from the chain beforehand: plain data, for the worker. */
export interface CostSetup {
  readonly pp: ProtocolParameters
  readonly mainnet: boolean
  /** The scripts the contract runs. */
  readonly scripts: MarloweDeployment
  readonly semantics: RefScript
  /** The contract's address: where its continuing outputs go. */
  readonly marloweAddress: string
  readonly rolesCurrency: string
  /** The wallet that would build the transactions: it pays the fee, deposits, and holds the role tokens. */
  readonly walletAddress: string
  readonly eras: readonly EraSummary[]
  readonly tipSlot: bigint
  readonly safeZoneSlots: bigint
}

/** The setup, or the note saying why no cost can be checked. */
export type CostPreparation = { readonly setup: CostSetup } | { readonly unreadable: SafetyError }

/** A costliest transaction as the check built it, or why it could not. */
export type CostCandidate =
  | { readonly tx: SimulatedTx; readonly unplaced: true }
  | { readonly tx: SimulatedTx; readonly unbuilt: string }
  | { readonly tx: SimulatedTx; readonly built: Simulated }
  /** Not built: on stand-in scripts, a bound on its size (`sizeBound`) within the limit is the whole check. */
  | { readonly tx: SimulatedTx; readonly fitsWithin: number }

const note = (detail: string, extra: Record<string, JsonValue> = {}): SafetyError =>
  ({ error: COST_NOT_CHECKED, detail, ...extra, fatal: false }) as SafetyError

const STAND_IN_NOTE = note(
  "The execution cost of the contract's transactions was not checked, only their size: this chain runs stand-in " +
    'Marlowe scripts, not the Marlowe validators.'
)

function notChecked(tx: SimulatedTx, message: string): SafetyError {
  return note('The execution cost and size of this transaction could not be checked.', {
    transaction: transactionJson(tx.state, tx.contract, tx.input, tx.output),
    message
  })
}

function overLimit(tx: SimulatedTx, message: string): SafetyError {
  return {
    error: 'TransactionValidationError',
    detail: 'This transaction fails to validate on the ledger.',
    transaction: transactionJson(tx.state, tx.contract, tx.input, tx.output),
    message,
    fatal: true
  } as SafetyError
}

/** The contract with every timeout moved by `delta` ms; shared subcontracts stay shared. */
function shiftContract(contract: Contract, delta: bigint, done: Map<Contract, Contract>): Contract {
  const known = done.get(contract)
  if (known !== undefined) return known
  const shift = (c: Contract): Contract => shiftContract(c, delta, done)
  let moved: Contract
  switch (contract.type) {
    case 'Close':
      moved = contract
      break
    case 'Pay':
    case 'Let':
    case 'Assert':
      moved = { ...contract, then: shift(contract.then) }
      break
    case 'If':
      moved = { ...contract, then: shift(contract.then), else: shift(contract.else) }
      break
    case 'When':
      moved = {
        ...contract,
        cases: contract.cases.map((c) => (c.type === 'Case' ? { ...c, then: shift(c.then) } : c)),
        timeout: contract.timeout + delta,
        timeoutContinuation: shift(contract.timeoutContinuation)
      }
      break
  }
  done.set(contract, moved)
  return moved
}

/** A simulated transaction at slots the chain can evaluate, recomputed there as the validator will compute it. */
interface Placed {
  readonly state: State
  readonly contract: Contract
  readonly output: TransactionSuccess
  readonly invalidBefore: bigint
  readonly invalidHereafter: bigint
}

/** The step at another interval; undefined when it computes a value beyond the core's limit there. */
function recompute(
  tx: SimulatedTx,
  interval: TimeInterval,
  state: State,
  contract: Contract
): TransactionOutput | undefined {
  try {
    return computeTransaction({ interval, inputs: tx.input.inputs }, state, contract)
  } catch (e) {
    if (e instanceof ValueTooLargeError) return undefined
    throw e
  }
}

/** The first slot starting at or after `time`, if the chain can evaluate a transaction valid from there. */
function slotFrom(clock: SlotClock, time: bigint): bigint | undefined {
  const slot = clock.slotContaining(time)
  if (slot === undefined) return undefined
  return clock.slotToTime(slot) < time ? slot + 1n : slot
}

/**
 * The transaction one slot long from its own time, or else moved with its contract to start at `nowSlot`; undefined
 * when neither takes the same step (a second timeout within that slot, a value depending on the time).
 */
function place(tx: SimulatedTx, clock: SlotClock, nowSlot: bigint): Placed | undefined {
  const time = tx.input.interval.from
  const own = slotFrom(clock, time)
  const tries = [...new Set([...(own === undefined ? [] : [own]), nowSlot])].filter((s) => s < clock.maxSafeSlot)
  for (const slot of tries) {
    const delta = slot === own ? 0n : clock.slotToTime(slot) - time
    const contract = delta === 0n ? tx.contract : shiftContract(tx.contract, delta, new Map())
    const state = delta === 0n ? tx.state : { ...tx.state, minTime: tx.state.minTime + delta }
    const interval = { from: clock.slotToTime(slot), to: clock.slotToTime(slot + 1n) - 1n }
    const output = recompute(tx, interval, state, contract)
    const sameStep =
      output?.type === 'Success' &&
      payoutsByParty(output.payments).length === tx.payouts &&
      (output.contract.type === 'Close') === (tx.output.contract.type === 'Close')
    if (sameStep) return { state, contract, output, invalidBefore: slot, invalidHereafter: slot + 1n }
  }
  return undefined
}

function syntheticUtxo(index: number, address: string, value: Value, datum?: Uint8Array): Utxo {
  const ref = { txId: SIMULATED_TX_ID, index }
  return datum === undefined ? { ref, address, value } : { ref, address, value, datumHash: datumHash(datum), datum }
}

export interface Simulated {
  readonly tx: Uint8Array
  /** Its size once signed. */
  readonly bytes: number
  readonly utxos: readonly Utxo[]
}

interface SimulatedPlan {
  readonly assembly: AssembleInput
  /** Its size once signed, beyond the unsigned transaction's. */
  readonly witnessBytes: number
  readonly utxos: readonly Utxo[]
}

/** The transaction the apply builder would build for the placed step, and the UTxOs it spends. */
function planSimulated(input: CostSetup, placed: Placed, tx: SimulatedTx): SimulatedPlan {
  const { pp, rolesCurrency, walletAddress } = input
  const datum: MarloweData = { params: { rolesCurrency }, state: placed.state, contract: placed.contract }
  const datumBytes = encodeMarloweData(datum)
  const marlowe = syntheticUtxo(0, input.marloweAddress, stateValue(placed.state), datumBytes)
  const inputs = tx.input.inputs
  const parties = actingParties(inputs)
  const roleTokens = parties.flatMap((p) =>
    p.type === 'Role' ? [tokenValue({ currencySymbol: rolesCurrency, tokenName: p.role }, 1n)] : []
  )
  const wallet = syntheticUtxo(
    1,
    walletAddress,
    sumValues([{ lovelace: WALLET_LOVELACE, assets: {} }, depositedValue(inputs), ...roleTokens])
  )
  const collateral = syntheticUtxo(2, walletAddress, { lovelace: WALLET_LOVELACE, assets: {} })
  const out = placed.output
  const continuing: PlannedOutput[] =
    out.contract.type === 'Close'
      ? []
      : [
          {
            address: input.marloweAddress,
            value: stateValue(out.state),
            datum: encodeMarloweData({ params: { rolesCurrency }, state: out.state, contract: out.contract })
          }
        ]
  const requiredSigners = parties.flatMap((p) => {
    if (p.type !== 'Address') return []
    const payment = parseShelleyAddress(p.address).payment
    return payment.type === 'key' ? [payment.hash] : []
  })
  const plan: TxPlan = {
    scriptSpends: [{ utxo: marlowe, script: input.semantics, datum: datumBytes, redeemer: encodeRedeemer(inputs) }],
    walletSpends: [wallet],
    outputs: [...continuing, ...payoutOutputs(input, input.scripts, rolesCurrency, out).map((p) => p.output)],
    requiredSigners,
    metadata: new Map(),
    validity: { invalidBefore: placed.invalidBefore, invalidHereafter: placed.invalidHereafter }
  }
  const assembly: AssembleInput = {
    pp: sizeUnlimited(pp),
    plan,
    walletInputs: [wallet],
    changeAddress: walletAddress,
    collateral: { utxo: collateral, total: requiredCollateral(pp, feeAllowance(pp, plan)) },
    exUnits: placeholderUnits(pp, plan, [wallet])
  }
  const walletKey = parseShelleyAddress(walletAddress).payment
  const signers = new Set([...(walletKey.type === 'key' ? [walletKey.hash] : []), ...requiredSigners])
  const witnessBytes = VKEY_WITNESSES_OVERHEAD + VKEY_WITNESS_BYTES * Math.max(signers.size, 1)
  return { assembly, witnessBytes, utxos: [marlowe, wallet, collateral] }
}

function buildSimulated(planned: SimulatedPlan): Simulated {
  const built = assemble(planned.assembly)
  return { tx: built.tx, bytes: built.tx.length + planned.witnessBytes, utxos: planned.utxos }
}

/**
 * CBOR bytes no item of the kind can exceed: an input (id, index), an output (header, a 57-byte base address,
 * lovelace, a datum hash), one asset of a value (as if each had its own policy: id, map header, 32-byte name,
 * quantity), a redeemer beside its data (tag, index, two units), a required signer, and all that a transaction
 * has once (array and map headers, fee, validity, script data hash, total collateral, validity flag).
 */
const BOUND = { input: 48, output: 128, asset: 80, redeemer: 32, signer: 32, datum: 6, once: 256 } as const

const assetCount = (v: Value): number => Object.values(v.assets).reduce((n, names) => n + Object.keys(names).length, 0)

/**
 * Bytes the signed transaction cannot exceed, counted from its plan without building it: its inputs, reference
 * and collateral inputs; its outputs, the change and the collateral return, which hold at most the assets the
 * wallet and collateral inputs bring; datums and redeemers.
 */
function sizeBound({ assembly, witnessBytes }: SimulatedPlan): number {
  const { plan, walletInputs, collateral } = assembly
  const spent = [...plan.scriptSpends.map((s) => s.utxo), ...walletInputs, ...(collateral ? [collateral.utxo] : [])]
  const outputs = [...plan.outputs.map((o) => o.value), ...spent.map((u) => u.value)]
  let bytes = BOUND.once + witnessBytes + BOUND.signer * plan.requiredSigners.length
  bytes += BOUND.input * (2 * plan.scriptSpends.length + walletInputs.length + 1)
  bytes += outputs.reduce((n, v) => n + BOUND.output + BOUND.asset * assetCount(v), 0)
  for (const s of plan.scriptSpends) bytes += BOUND.datum + s.datum.length + BOUND.redeemer + s.redeemer.length
  for (const o of plan.outputs) bytes += o.datum === undefined ? 0 : BOUND.datum + o.datum.length
  return bytes
}

/** How evaluators say a script ran past the budget: Plutus' "overspending the budget", uplc's "went over budget". */
const OUT_OF_BUDGET = /budget|OutOfExError/i

/** Whether the evaluation failed for its budget, in the evaluator's words or in the structure it gave with them. */
export function outOfBudget(e: ChainError): boolean {
  const texts = [e.reason]
  const collect = (v: unknown, depth: number): void => {
    if (typeof v === 'string') texts.push(v)
    else if (depth > 0 && typeof v === 'object' && v !== null) for (const x of Object.values(v)) collect(x, depth - 1)
  }
  // Blockfrost's answers keep Plutus' own words a few levels down, beside a generic reason.
  collect(e.details, 8)
  return texts.some((t) => OUT_OF_BUDGET.test(t))
}

type Cost = { readonly units: ExUnits } | { readonly outOfBudget: string } | { readonly failed: string }

async function evaluate(ctx: BuildContext, simulated: Simulated): Promise<Cost> {
  try {
    const budgets = await ctx.provider.evaluate(simulated.tx, simulated.utxos)
    const units = budgets.reduce((a, b) => ({ mem: a.mem + b.exUnits.mem, steps: a.steps + b.exUnits.steps }), {
      mem: 0n,
      steps: 0n
    })
    return { units }
  } catch (e) {
    if (!(e instanceof ChainError) || e.kind !== 'EvaluationFailed') throw e
    return outOfBudget(e) ? { outOfBudget: e.reason } : { failed: e.reason }
  }
}

const over = (used: bigint, limit: bigint, what: string): string[] =>
  used > limit ? [`${what} ${used} of at most ${limit} (${used - limit} over)`] : []

/**
 * Reads what building the check's transactions takes: the validator's reference script, the tip and the eras. An
 * unreadable reference script is a note, not a failure: the build goes on without the check.
 */
export async function prepareCostCheck(
  ctx: BuildContext,
  scripts: MarloweDeployment,
  marloweAddress: string,
  rolesCurrency: string,
  walletAddress: string
): Promise<CostPreparation> {
  let semantics: RefScript
  try {
    semantics = await ctx.refScripts.get(scripts.semantics, 'MarloweScriptNotPublished')
  } catch (e) {
    if (!(e instanceof EngineError)) throw e
    return {
      unreadable: note(
        "The execution cost and size of the contract's transactions were not checked: the Marlowe validator's " +
          `reference script could not be read (${e.message}).`
      )
    }
  }
  const [tip, eras] = await Promise.all([ctx.provider.tip(), ctx.provider.eraSummaries()])
  const { pp, mainnet, safeZoneSlots } = ctx
  return {
    setup: {
      pp,
      mainnet,
      scripts,
      semantics,
      marloweAddress,
      rolesCurrency,
      walletAddress,
      eras,
      tipSlot: tip.slot,
      safeZoneSlots
    }
  }
}

/** The simulation's costliest transactions placed in time and built as the apply builder builds them. */
export function buildCostCandidates(setup: CostSetup, transactions: readonly SimulatedTx[]): CostCandidate[] {
  const clock = new SlotClock(setup.eras, setup.tipSlot, setup.safeZoneSlots)
  return transactions.map((tx): CostCandidate => {
    const placed = place(tx, clock, setup.tipSlot)
    if (placed === undefined) return { tx, unplaced: true }
    try {
      const planned = planSimulated(setup, placed, tx)
      // Stand-in scripts leave only the size to check: a bound within the limit settles it without CSL.
      const bound = setup.scripts.standIn ? sizeBound(planned) : undefined
      if (bound !== undefined && bound <= setup.pp.maxTxSize) return { tx, fitsWithin: bound }
      return { tx, built: buildSimulated(planned) }
    } catch (e) {
      if (e instanceof EngineError) return { tx, unbuilt: e.message }
      throw e
    }
  })
}

/**
 * One transaction's check. `runScripts` false (stand-in scripts): its size alone, which the scripts do not change
 * (they are referenced, not carried), and a silent pass where it could not be built.
 */
async function checkOne(ctx: BuildContext, candidate: CostCandidate, runScripts: boolean): Promise<SafetyError[]> {
  const { tx } = candidate
  if ('unplaced' in candidate) {
    return runScripts ? [notChecked(tx, 'It takes a different step at every time the chain can evaluate.')] : []
  }
  if ('unbuilt' in candidate) return runScripts ? [notChecked(tx, `It could not be built: ${candidate.unbuilt}`)] : []
  if ('fitsWithin' in candidate) return []
  const simulated = candidate.built
  const { pp } = ctx
  const size = over(BigInt(simulated.bytes), BigInt(pp.maxTxSize), 'Transaction size in bytes:')
  if (!runScripts) {
    return size.length === 0 ? [] : [overLimit(tx, `Over the protocol's per-transaction limits. ${size.join('; ')}.`)]
  }
  const cost = await evaluate(ctx, simulated)
  const max = pp.maxTxExUnits
  if ('failed' in cost) return [notChecked(tx, `The scripts failed on it: ${cost.failed}`)]
  const problems = [
    ...('outOfBudget' in cost
      ? [
          `The scripts run out of the per-transaction budget (memory ${max.mem}, steps ${max.steps}): ${cost.outOfBudget}`
        ]
      : [
          ...over(cost.units.mem, max.mem, 'Execution memory units:'),
          ...over(cost.units.steps, max.steps, 'Execution steps:')
        ]),
    ...size
  ]
  return problems.length === 0
    ? []
    : [overLimit(tx, `Over the protocol's per-transaction limits. ${problems.join('; ')}.`)]
}

/**
 * The cost check of the simulation's costliest transactions, built beforehand (`buildCostCandidates`): fatal
 * errors for those over a limit, notes for those not checked (or one note for all, on stand-in scripts); empty
 * when every one fits. One evaluation each.
 */
export async function checkTransactionCosts(
  ctx: BuildContext,
  preparation: CostPreparation,
  transactions: readonly SimulatedTx[],
  candidates: readonly CostCandidate[]
): Promise<SafetyError[]> {
  if (transactions.length === 0) return []
  if ('unreadable' in preparation) return [preparation.unreadable]
  const runScripts = !preparation.setup.scripts.standIn
  const found = await Promise.all(candidates.map((c) => checkOne(ctx, c, runScripts)))
  return runScripts ? found.flat() : [...found.flat(), STAND_IN_NOTE]
}
