/**
 * The apply-inputs transaction (runtime-api.md §9.4): spend the Marlowe UTxO through the semantics reference
 * script with the inputs as redeemer over Runtime's default validity interval, continue with the new datum
 * (by hash, datum in the witness set) unless the contract closes, pay parties (roles through the payout
 * validator), spend and return role tokens, require address parties' signatures. Everything the validator
 * would reject is refused first, with Runtime's error codes.
 */
import type { MarloweDeployment } from '../../chain/deployments'
import type { Utxo } from '../../chain/provider'
import { parseShelleyAddress } from '../../core/cardano/address'
import type { Value } from '../../core/cardano/value'
import { encodePlutusData } from '../../core/marlowe/plutus/data'
import { datumHash } from '../../core/marlowe/plutus/hash'
import { contractToPlutusData, encodeMarloweData, encodeRedeemer } from '../../core/marlowe/plutus/marlowe-data'
import { encodeTransactionError } from '../../core/marlowe/json'
import { ValueTooLargeError } from '../../core/marlowe/limits'
import { merkleizeInputs } from '../../core/marlowe/merkle'
import { computeTransaction } from '../../core/marlowe/semantics'
import type { MarloweData, Party, TimeInterval, TransactionSuccess } from '../../core/marlowe/types'
import { simulateOffThread } from '../worker'
import { balanceAndBuild, builtTxFields } from './balance'
import { badRequest, computeTransactionFailed, engineFailure, evaluating, roleTokenNotFound } from './build-errors'
import type { BuildContext } from './context'
import { checkTransactionCosts, prepareCostCheck, withCostErrors } from './cost-check'
import { loadMarloweOutput, type Loaded } from './marlowe-input'
import { marloweTagsMetadatum, MARLOWE_LABEL, transactionMetadataFromJson } from './metadata'
import { requiredLovelace, withMinLovelace } from './min-utxo'
import { openRoleSpends } from './open-roles'
import { payoutOutputs } from './payout-outputs'
import type { PlannedOutput, ScriptSpend, TxPlan } from './plan'
import { checkContract, valueTooLargeError, type SafetyError } from './safety'
import type { ApplyBuild, ApplyRequest, WalletRequest } from './types'
import { validity } from './validity'
import { actingParties, depositedValue, merkleizedMismatch, payoutsByParty, stateValue } from './validator-rules'
import { addValues, assetNameHex, holdsAsset, subtractValues, sumValues, valuesEqual, ZERO } from './values'
import { loadWallet } from './wallet'

function signerOf(party: Party & { type: 'Address' }): string {
  const payment = parseShelleyAddress(party.address).payment
  if (payment.type !== 'key') {
    throw badRequest(`${party.address} has a script payment credential: the validator can never authorise it`, {
      address: party.address
    })
  }
  return payment.hash
}

interface Continuation {
  readonly datum: MarloweData
  readonly bytes: Uint8Array
  readonly value: Value
}

/** The continuing output, checked as the validator checks it: exact value, and the ledger's min-UTxO. */
function continuation(
  ctx: BuildContext,
  loaded: Loaded,
  inputs: ApplyRequest['inputs'],
  out: TransactionSuccess
): Continuation | undefined {
  if (out.contract.type === 'Close') return undefined
  const datum: MarloweData = { params: loaded.datum.params, state: out.state, contract: out.contract }
  const value = stateValue(out.state)
  const paid = sumValues(payoutsByParty(out.payments).map((p) => p.value))
  if (!valuesEqual(value, subtractValues(addValues(loaded.utxo.value, depositedValue(inputs)), paid))) {
    throw engineFailure('BadRequest', 'InvalidMarloweState', 'The continuing value would not balance the inputs', {
      tag: 'InvalidMarloweState'
    })
  }
  const bytes = encodeMarloweData(datum)
  const shape = { address: loaded.utxo.address, value, datumHash: datumHash(bytes) }
  const needed = requiredLovelace(ctx.pp, shape)
  if (needed > value.lovelace) {
    throw engineFailure(
      'BadRequest',
      'CalculateMinUtxoFailed',
      `The contract would keep ${value.lovelace} lovelace, below the ${needed} its output needs`,
      { tag: 'CalculateMinUtxoFailed', msg: 'Marlowe output below the min-UTxO' }
    )
  }
  return { datum, bytes, value }
}

function merkleizedContinuationOutputs(ctx: BuildContext, address: string, inputs: ApplyRequest['inputs']) {
  return inputs.flatMap((i): PlannedOutput[] => {
    if (i.merkleized === undefined) return []
    const datum = encodePlutusData(contractToPlutusData(i.merkleized.continuation))
    const value = withMinLovelace(ctx.pp, { address, value: ZERO, datumHash: datumHash(datum) })
    return [{ address, value, datum }]
  })
}

function metadataOf(request: ApplyRequest) {
  const metadata = transactionMetadataFromJson(request.metadata ?? {})
  const tags = marloweTagsMetadatum(request.tags ?? {})
  if (tags !== undefined) metadata.set(MARLOWE_LABEL, tags)
  return metadata
}

/**
 * The simulation of what may follow, and the cost of its costliest transactions. A value beyond the limit there is
 * reported, not refused: these inputs are fine, and refusing them could leave the contract's funds where nothing
 * else can move them.
 */
async function continuationSafety(
  ctx: BuildContext,
  scripts: MarloweDeployment,
  datum: MarloweData,
  marloweAddress: string,
  walletAddress: string
): Promise<SafetyError[]> {
  const preparation = await prepareCostCheck(ctx, scripts, marloweAddress, datum.params.rolesCurrency, walletAddress)
  const costs = 'setup' in preparation ? preparation.setup : undefined
  let analysis
  try {
    analysis = await simulateOffThread({ pp: ctx.pp, datum, marloweAddress, ...(costs === undefined ? {} : { costs }) })
  } catch (e) {
    if (e instanceof ValueTooLargeError) return [valueTooLargeError(e)]
    throw e
  }
  const { simulation, candidates } = analysis
  const found = await checkTransactionCosts(ctx, preparation, simulation.costliest, candidates)
  return withCostErrors(simulation.errors, found)
}

/**
 * The request with the continuations of the merkleized cases its inputs take revealed from the contract store
 * (Runtime's `merkleizeInputs`), when the caller has one; 404 `ContractContinuationNotFound` when a case's
 * continuation is not in it.
 */
function revealContinuations(request: ApplyRequest, interval: TimeInterval, datum: MarloweData): ApplyRequest {
  if (request.continuation === undefined) return request
  const revealed = merkleizeInputs(interval, datum.state, datum.contract, request.inputs, request.continuation)
  if (revealed.type === 'ContinuationNotFound') {
    throw engineFailure(
      'NotFound',
      'ContractContinuationNotFound',
      `The continuation ${revealed.hash} of the merkleized case the inputs take is not in the contract store: upload its source (POST /contracts/sources) first`
    )
  }
  return { ...request, inputs: revealed.inputs }
}

export async function buildApplyInputs(
  ctx: BuildContext,
  walletRequest: WalletRequest,
  asked: ApplyRequest
): Promise<ApplyBuild> {
  const [wallet, loaded] = await Promise.all([loadWallet(ctx.provider, walletRequest), loadMarloweOutput(ctx, asked)])
  const { utxo, datum, scripts } = loaded
  const mismatch = merkleizedMismatch(asked.inputs)
  if (mismatch !== undefined) {
    throw engineFailure(
      'BadRequest',
      'MarloweComputeTransactionFailed',
      `Input ${mismatch.index}: its merkleized continuation hashes to ${mismatch.actual}, not to ${mismatch.named} as it says: the validator would not find it`,
      {
        tag: 'MarloweComputeTransactionFailed',
        transactionError: encodeTransactionError({ type: 'TEHashMismatch' }),
        input: BigInt(mismatch.index)
      }
    )
  }
  const times = await validity(ctx, asked, datum)
  const request = revealContinuations(asked, times.interval, datum)
  const out = evaluating(() =>
    computeTransaction({ interval: times.interval, inputs: request.inputs }, datum.state, datum.contract)
  )
  if (out.type === 'Error') throw computeTransactionFailed(out.error)

  const rolesCurrency = datum.params.rolesCurrency
  const parties = actingParties(request.inputs)
  const requiredSigners = parties.flatMap((p) => (p.type === 'Address' ? [signerOf(p)] : []))
  const roleNames = parties.flatMap((p) => (p.type === 'Role' ? [p.role] : []))
  const semantics = await ctx.refScripts.get(scripts.semantics, 'MarloweScriptNotPublished')
  const next = continuation(ctx, loaded, request.inputs, out)
  const payouts = payoutOutputs(ctx, scripts, rolesCurrency, out)
  const outputs = [
    ...(next === undefined ? [] : [{ address: utxo.address, value: next.value, datum: next.bytes }]),
    ...payouts.map((p) => p.output)
  ]
  // The validator reads a merkleized continuation from the datums; the ledger only admits a witness datum that
  // some output names, so (as Runtime does) each continuation gets an output to the change address.
  const continuationOutputs = merkleizedContinuationOutputs(ctx, wallet.changeAddress, request.inputs)
  const metadata = metadataOf(request)
  const redeemer = encodeRedeemer(request.inputs)

  const notInWallet = roleNames.filter(
    (r) => !wallet.utxos.some((u) => holdsAsset(u.value, rolesCurrency, assetNameHex(r) ?? ''))
  )
  const openRoles = await openRoleSpends(ctx, scripts, utxo, rolesCurrency, notInWallet)
  if (openRoles.size > 0 && payouts.length > 0) {
    // The semantics validator refuses payouts next to any other script input (double satisfaction).
    throw badRequest('A transaction that releases an open role cannot also make payouts')
  }

  // Runtime checks the output contract; a closed contract has nothing left to check. Checked before any input
  // is reserved, since it may ask the chain to evaluate.
  const safetyErrors =
    next === undefined
      ? []
      : [
          ...checkContract({
            mainnet: ctx.mainnet,
            rolesCurrency,
            state: next.datum.state,
            contract: next.datum.contract
          }),
          ...(await continuationSafety(ctx, scripts, next.datum, utxo.address, wallet.changeAddress))
        ]

  const plan = (available: readonly Utxo[]) => {
    const roleUtxos: Utxo[] = []
    const openSpends: ScriptSpend[] = []
    for (const role of roleNames) {
      const name = assetNameHex(role) ?? ''
      if (roleUtxos.some((u) => holdsAsset(u.value, rolesCurrency, name))) continue
      const holder = available.find((u) => holdsAsset(u.value, rolesCurrency, name))
      const open = openRoles.get(role)
      if (holder !== undefined) roleUtxos.push(holder)
      else if (open !== undefined) openSpends.push(open)
      else throw roleTokenNotFound(rolesCurrency, role, !notInWallet.includes(role))
    }
    const txPlan: TxPlan = {
      scriptSpends: [{ utxo, script: semantics, datum: loaded.datumBytes, redeemer }, ...openSpends],
      walletSpends: roleUtxos,
      outputs: [...outputs, ...continuationOutputs, ...roleUtxos.map((u) => ({ address: u.address, value: u.value }))],
      requiredSigners,
      metadata,
      validity: { invalidBefore: times.invalidBefore, invalidHereafter: times.invalidHereafter }
    }
    return { plan: txPlan, info: undefined }
  }

  const built = await balanceAndBuild(ctx.balance, wallet, plan, Number(times.clock.slotToTime(times.invalidHereafter)))
  const firstPayout = next === undefined ? 0 : 1
  return {
    ...builtTxFields(built),
    invalidBefore: { slot: times.invalidBefore, time: times.interval.from },
    invalidHereafter: { slot: times.invalidHereafter, time: times.interval.to + 1n },
    contractId: request.contractId,
    input: utxo.ref,
    inputs: request.inputs,
    interval: times.interval,
    ...(next === undefined
      ? {}
      : {
          output: { ref: { txId: built.txId, index: 0 }, datum: next.datum, datumBytes: next.bytes, assets: next.value }
        }),
    payouts: payouts.flatMap((p, i) =>
      p.role === undefined
        ? []
        : [{ ref: { txId: built.txId, index: firstPayout + i }, rolesCurrency, role: p.role, assets: p.output.value }]
    ),
    payments: out.payments,
    warnings: out.warnings,
    safetyErrors
  }
}
