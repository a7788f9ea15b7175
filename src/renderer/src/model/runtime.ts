/**
 * Runtime's resource JSON (contract headers and states, transactions, payouts, next steps) read into typed
 * views with the core's Marlowe decoders. Malformed JSON throws a `MarloweJsonError` naming the path.
 */
import type { AwaitedAction, ContractDetail, ContractListItem } from '../../../api/contract'
import type { JsonObject, JsonValue } from '../../../core/json/lossless'
import {
  decodeBound,
  decodeChoiceId,
  decodeContract,
  decodeInput,
  decodeParty,
  decodePayee,
  decodeState,
  decodeToken,
  asArray,
  asInteger,
  asObject,
  asString,
  child,
  field,
  index
} from '../../../core/marlowe/json'
import { choiceIdEquals } from '../../../core/marlowe/equality'
import type { CanChoose, CanDeposit, CanNotify } from '../../../core/marlowe/next'
import type { Contract, Input, Payment, State } from '../../../core/marlowe/types'
import { toJson } from '../format/json'

export interface BlockInfo {
  readonly slot: bigint
  readonly blockNo: bigint
}

export interface TokenAmount {
  readonly policyId: string
  /** As Runtime writes it: the name's text. */
  readonly name: string
  readonly quantity: bigint
}

export interface AssetsView {
  readonly lovelace: bigint
  readonly tokens: readonly TokenAmount[]
}

export interface PayoutItem {
  readonly payoutId: string
  readonly contractId?: string
  readonly role: string
  readonly rolesCurrency?: string
  readonly status?: string
  readonly assets: AssetsView
}

export interface ContractHeaderView {
  readonly contractId: string
  readonly rolesCurrency: string
  /** unsigned, submitted or confirmed: the creating transaction's status. */
  readonly status: string
  readonly tags: readonly string[]
  readonly block?: BlockInfo
}

export interface ContractSummary extends ContractHeaderView {
  readonly closed: boolean
  readonly nextTimeout?: bigint
  /** Listed for a wallet: what the contract waits for from it. */
  readonly awaiting?: readonly AwaitedAction[]
  /** Listed for a wallet: the parties it is in the contract (`role:<name>` or an address). */
  readonly parties?: readonly string[]
  /** POSIX ms. */
  readonly createdAt?: bigint
}

export interface ContractStateView extends ContractHeaderView {
  readonly initialContract: Contract
  /** Absent once the contract has closed. */
  readonly currentContract?: Contract
  readonly state?: State
  readonly assets: AssetsView
  readonly unclaimedPayouts: readonly PayoutItem[]
  readonly nextTimeout?: bigint
}

export interface ContractTxView {
  readonly transactionId: string
  readonly status: string
  readonly block?: BlockInfo
  readonly inputs: readonly Input[]
  /** ISO-8601 validity bounds. */
  readonly invalidBefore?: string
  readonly invalidHereafter?: string
  readonly closes: boolean
  readonly payouts: readonly PayoutItem[]
}

export interface NextStepsView {
  readonly canReduce: boolean
  readonly deposits: readonly CanDeposit[]
  readonly choices: readonly CanChoose[]
  readonly notify?: CanNotify
}

const optional = <T>(v: JsonValue | undefined, read: (v: JsonValue) => T): T | undefined =>
  v === undefined || v === null ? undefined : read(v)

function readBlock(v: JsonValue | undefined, path: string): BlockInfo | undefined {
  return optional(v, (b) => {
    const o = asObject(b, path, 'a block')
    return {
      slot: asInteger(field(o, 'slotNo', path), child(path, 'slotNo')),
      blockNo: asInteger(field(o, 'blockNo', path), child(path, 'blockNo'))
    }
  })
}

/** Runtime's `{lovelace, tokens: {policy: {name: quantity}}}`. */
function readAssets(v: JsonValue | undefined, path: string): AssetsView {
  const o = asObject(v, path, 'assets')
  const tokensPath = child(path, 'tokens')
  const tokens: TokenAmount[] = []
  for (const [policyId, names] of Object.entries(asObject(field(o, 'tokens', path), tokensPath, 'tokens'))) {
    const byName = asObject(names, child(tokensPath, policyId), 'tokens of a policy')
    for (const [name, q] of Object.entries(byName)) {
      tokens.push({ policyId, name, quantity: asInteger(q, child(child(tokensPath, policyId), name)) })
    }
  }
  return { lovelace: asInteger(field(o, 'lovelace', path), child(path, 'lovelace')), tokens }
}

/** A payout: `role` is the name (in a contract's unclaimed payouts) or `{policyId, assetName}` (PayoutState). */
export function readPayout(raw: unknown, path = 'payout'): PayoutItem {
  const o = asObject(toJson(raw), path, 'a payout')
  const roleValue = field(o, 'role', path)
  const role = typeof roleValue === 'string' ? { name: roleValue } : readRoleToken(roleValue, child(path, 'role'))
  const contractId = optional(o.contractId, (v) => asString(v, child(path, 'contractId')))
  const status = optional(o.status, (v) => asString(v, child(path, 'status')))
  return {
    payoutId: asString(field(o, 'payoutId', path), child(path, 'payoutId')),
    role: role.name,
    assets: readAssets(field(o, 'assets', path), child(path, 'assets')),
    ...(contractId === undefined ? {} : { contractId }),
    ...(role.policyId === undefined ? {} : { rolesCurrency: role.policyId }),
    ...(status === undefined ? {} : { status })
  }
}

function readRoleToken(v: JsonValue, path: string): { name: string; policyId?: string } {
  const o = asObject(v, path, 'a role token ({policyId, assetName})')
  return {
    name: asString(field(o, 'assetName', path), child(path, 'assetName')),
    policyId: asString(field(o, 'policyId', path), child(path, 'policyId'))
  }
}

function readHeader(o: JsonObject, path: string): ContractHeaderView {
  const tags = optional(o.tags, (t) => Object.keys(asObject(t, child(path, 'tags'), 'tags'))) ?? []
  const block = readBlock(o.block, child(path, 'block'))
  return {
    contractId: asString(field(o, 'contractId', path), child(path, 'contractId')),
    rolesCurrency: asString(field(o, 'roleTokenMintingPolicyId', path), child(path, 'roleTokenMintingPolicyId')),
    status: asString(field(o, 'status', path), child(path, 'status')),
    tags,
    ...(block === undefined ? {} : { block })
  }
}

export function readContractSummary(item: ContractListItem): ContractSummary {
  const header = readHeader(asObject(toJson(item.header), 'header', 'a contract header'), 'header')
  return {
    ...header,
    closed: item.closed,
    ...(item.nextTimeout === undefined ? {} : { nextTimeout: item.nextTimeout }),
    ...(item.awaiting === undefined ? {} : { awaiting: item.awaiting }),
    ...(item.parties === undefined ? {} : { parties: item.parties }),
    ...(item.createdAt === undefined ? {} : { createdAt: item.createdAt })
  }
}

export function readContractState(detail: ContractDetail): ContractStateView {
  const path = 'contract'
  const o = asObject(toJson(detail.state), path, 'a contract state')
  const current = optional(o.currentContract, (c) => decodeContract(c, child(path, 'currentContract')))
  const state = optional(o.state, (s) => decodeState(s, child(path, 'state')))
  const payoutsPath = child(path, 'unclaimedPayouts')
  return {
    ...readHeader(o, path),
    initialContract: decodeContract(field(o, 'initialContract', path), child(path, 'initialContract')),
    assets: readAssets(field(o, 'assets', path), child(path, 'assets')),
    unclaimedPayouts: (optional(o.unclaimedPayouts, (v) => asArray(v, payoutsPath)) ?? []).map((p, i) =>
      readPayout(p, index(payoutsPath, i))
    ),
    ...(current === undefined ? {} : { currentContract: current }),
    ...(state === undefined ? {} : { state }),
    ...(detail.nextTimeout === undefined ? {} : { nextTimeout: detail.nextTimeout })
  }
}

export function readContractTx(raw: unknown, path = 'transaction'): ContractTxView {
  const o = asObject(toJson(raw), path, 'a transaction')
  const inputsPath = child(path, 'inputs')
  const payoutsPath = child(path, 'payouts')
  const block = readBlock(o.block, child(path, 'block'))
  const invalidBefore = optional(o.invalidBefore, (v) => asString(v, child(path, 'invalidBefore')))
  const invalidHereafter = optional(o.invalidHereafter, (v) => asString(v, child(path, 'invalidHereafter')))
  return {
    transactionId: asString(field(o, 'transactionId', path), child(path, 'transactionId')),
    status: asString(field(o, 'status', path), child(path, 'status')),
    inputs: asArray(field(o, 'inputs', path), inputsPath).map((x, i) => decodeInput(x, index(inputsPath, i))),
    closes: o.outputContract === null,
    payouts: (optional(o.payouts, (v) => asArray(v, payoutsPath)) ?? []).map((p, i) =>
      readPayout(p, index(payoutsPath, i))
    ),
    ...(block === undefined ? {} : { block }),
    ...(invalidBefore === undefined ? {} : { invalidBefore }),
    ...(invalidHereafter === undefined ? {} : { invalidHereafter })
  }
}

/** Runtime's `GET /contracts/{id}/next` body. */
export function readNextSteps(raw: unknown, path = 'next'): NextStepsView {
  const o = asObject(toJson(raw), path, 'next steps')
  const inputsPath = child(path, 'applicable_inputs')
  const inputs = asObject(field(o, 'applicable_inputs', path), inputsPath, 'applicable inputs')
  const flag = (x: JsonObject, p: string): boolean => field(x, 'is_merkleized_continuation', p) === true
  const caseIndex = (x: JsonObject, p: string): number =>
    Number(asInteger(field(x, 'case_index', p), child(p, 'case_index')))
  const depositsPath = child(inputsPath, 'deposits')
  const deposits = asArray(field(inputs, 'deposits', inputsPath), depositsPath).map((d, i): CanDeposit => {
    const p = index(depositsPath, i)
    const x = asObject(d, p, 'a deposit')
    return {
      party: decodeParty(field(x, 'party', p), child(p, 'party')),
      account: decodeParty(field(x, 'into_account', p), child(p, 'into_account')),
      token: decodeToken(field(x, 'of_token', p), child(p, 'of_token')),
      canDeposit: asInteger(field(x, 'can_deposit', p), child(p, 'can_deposit')),
      caseIndex: caseIndex(x, p),
      isMerkleizedContinuation: flag(x, p)
    }
  })
  const choicesPath = child(inputsPath, 'choices')
  const choices = asArray(field(inputs, 'choices', inputsPath), choicesPath).map((c, i): CanChoose => {
    const p = index(choicesPath, i)
    const x = asObject(c, p, 'a choice')
    const boundsPath = child(p, 'can_choose_between')
    return {
      choice: decodeChoiceId(field(x, 'for_choice', p), child(p, 'for_choice')),
      canChooseBetween: asArray(field(x, 'can_choose_between', p), boundsPath).map((b, j) =>
        decodeBound(b, index(boundsPath, j))
      ),
      caseIndex: caseIndex(x, p),
      isMerkleizedContinuation: flag(x, p)
    }
  })
  const notify = optional(inputs.notify, (n): CanNotify => {
    const p = child(inputsPath, 'notify')
    const x = asObject(n, p, 'a notify')
    return { caseIndex: caseIndex(x, p), isMerkleizedContinuation: flag(x, p) }
  })
  return {
    canReduce: field(o, 'can_reduce', path) === true,
    deposits,
    choices,
    ...(notify === undefined ? {} : { notify })
  }
}

/**
 * One entry per choice: Runtime lists a choice once per case that accepts it (with what earlier cases leave), but
 * the input is the same whichever case takes it, so the person choosing sees one number field with all bounds.
 * A merkleized case stays apart, as it needs its continuation.
 */
export function mergeChoices(choices: readonly CanChoose[]): CanChoose[] {
  const merged: CanChoose[] = []
  for (const c of choices) {
    const i = merged.findIndex(
      (m) => !m.isMerkleizedContinuation && !c.isMerkleizedContinuation && choiceIdEquals(m.choice, c.choice)
    )
    const earlier = merged[i]
    if (earlier === undefined) merged.push(c)
    else merged[i] = { ...earlier, canChooseBetween: [...earlier.canChooseBetween, ...c.canChooseBetween] }
  }
  return merged
}

/** A payment of a Marlowe step in a review (`encodePayment`'s form). */
export function readPayment(raw: unknown, path = 'payment'): Payment {
  const o = asObject(toJson(raw), path, 'a payment')
  return {
    from: decodeParty(field(o, 'payment_from', path), child(path, 'payment_from')),
    to: decodePayee(field(o, 'to', path), child(path, 'to')),
    token: decodeToken(field(o, 'token', path), child(path, 'token')),
    amount: asInteger(field(o, 'amount', path), child(path, 'amount'))
  }
}
