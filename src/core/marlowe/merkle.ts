/**
 * Merkleization (`Language.Marlowe.Core.V1.Merkle`): case continuations move off chain, replaced by their
 * hash, so a large contract fits in a datum. The continuations are kept in a table by hash; applying an
 * input to a merkleized case reveals its continuation (an `Input` with `merkleized`).
 */
import { applyAction, applyInput } from './apply'
import { merkleHash } from './plutus/hash'
import { reduceContractUntilQuiescent } from './reduce'
import { fixInterval } from './semantics'
import type { Case, Contract, Input, InputContent, State, TimeInterval } from './types'

export interface MerkleizedContract {
  readonly contract: Contract
  /** Every continuation removed, by hash (lowercase hex); continuations are themselves merkleized. */
  readonly continuations: ReadonlyMap<string, Contract>
}

/**
 * Rewrites every `Case a k` with `k` not `Close` into `MerkleizedCase a (hash k')`, where `k'` is `k`
 * merkleized first, throughout the contract (Haskell `deepMerkleize`).
 */
export function deepMerkleize(contract: Contract): MerkleizedContract {
  const continuations = new Map<string, Contract>()
  return { contract: merkleizeContract(contract, continuations), continuations }
}

/** `c` rebuilt with `onContract` applied to each contract directly below it and `onCase` to each of its cases. */
function rebuild(c: Contract, onContract: (k: Contract) => Contract, onCase: (k: Case) => Case): Contract {
  switch (c.type) {
    case 'Close':
      return c
    case 'Pay':
    case 'Let':
    case 'Assert':
      return { ...c, then: onContract(c.then) }
    case 'If':
      return { ...c, then: onContract(c.then), else: onContract(c.else) }
    case 'When':
      return { ...c, cases: c.cases.map(onCase), timeoutContinuation: onContract(c.timeoutContinuation) }
  }
}

function merkleizeContract(c: Contract, table: Map<string, Contract>): Contract {
  return rebuild(
    c,
    (k) => merkleizeContract(k, table),
    (k) => merkleizeCase(k, table)
  )
}

function merkleizeCase(k: Case, table: Map<string, Contract>): Case {
  if (k.type === 'MerkleizedCase' || k.then.type === 'Close') return k
  const continuation = merkleizeContract(k.then, table)
  const hash = merkleHash(continuation)
  table.set(hash, continuation)
  return { type: 'MerkleizedCase', action: k.action, hash }
}

/**
 * The input that applies `content` to the case at `caseIndex` of a `When`: a merkleized case needs its
 * continuation revealed from the table; a normal case takes the plain input.
 */
export function inputForCase(
  when: Extract<Contract, { type: 'When' }>,
  caseIndex: number,
  content: InputContent,
  continuations: ReadonlyMap<string, Contract>
): Input {
  const k = when.cases[caseIndex]
  if (k === undefined) throw new RangeError(`the When has ${when.cases.length} cases, no case ${caseIndex}`)
  if (k.type === 'Case') return { content }
  const continuation = continuations.get(k.hash)
  if (continuation === undefined) throw new RangeError(`no continuation with hash ${k.hash} in the table`)
  return { content, merkleized: { hash: k.hash, continuation } }
}

/** Inputs with the continuations of the merkleized cases they take revealed, or the first hash not found. */
export type MerkleizedInputs =
  | { readonly type: 'Inputs'; readonly inputs: readonly Input[] }
  | { readonly type: 'ContinuationNotFound'; readonly hash: string }

/**
 * Reveals the continuation of every merkleized case the inputs take, looked up by hash (Runtime's
 * `getMerkleizedInputs`): each input is applied in turn, as the semantics will, and an input that takes a
 * `MerkleizedCase` without its continuation gets it. Inputs the semantics would refuse are left as they are,
 * for `computeTransaction` to report as usual.
 */
export function merkleizeInputs(
  interval: TimeInterval,
  state: State,
  contract: Contract,
  inputs: readonly Input[],
  lookup: (hash: string) => Contract | undefined
): MerkleizedInputs {
  const unchanged: MerkleizedInputs = { type: 'Inputs', inputs }
  const fixed = fixInterval(interval, state)
  if (fixed.type === 'IntervalError') return unchanged
  const env = fixed.environment
  let current = { state: fixed.state, contract }
  const revealed: Input[] = []
  for (const input of inputs) {
    const quiet = reduceContractUntilQuiescent(env, current.state, current.contract)
    if (quiet.type !== 'ContractQuiescent' || quiet.contract.type !== 'When') return unchanged
    let full = input
    if (input.merkleized === undefined) {
      const taken = quiet.contract.cases.find(
        (k) => applyAction(env, quiet.state, input.content, k.action).type === 'AppliedAction'
      )
      if (taken?.type === 'MerkleizedCase') {
        const continuation = lookup(taken.hash)
        if (continuation === undefined) return { type: 'ContinuationNotFound', hash: taken.hash }
        full = { content: input.content, merkleized: { hash: taken.hash, continuation } }
      }
    }
    const applied = applyInput(env, quiet.state, full, quiet.contract)
    if (applied.type !== 'Applied') return unchanged
    revealed.push(full)
    current = { state: applied.state, contract: applied.contract }
  }
  return { type: 'Inputs', inputs: revealed }
}

/**
 * The contract with every merkleized case replaced by its continuation, itself expanded (Runtime's
 * `?expand=true`). Fails with the first hash `lookup` does not know, or when the expansion grows past
 * `maxNodes` contracts and cases (continuations shared by many cases are copied into each).
 */
export function expandContract(
  contract: Contract,
  lookup: (hash: string) => Contract | undefined,
  maxNodes: number
): Contract {
  let nodes = 0
  const count = (): void => {
    nodes += 1
    if (nodes > maxNodes) throw new RangeError(`the expanded contract has more than ${maxNodes} contracts and cases`)
  }
  const expand = (c: Contract): Contract => {
    count()
    return rebuild(c, expand, expandCase)
  }
  const expandCase = (k: Case): Case => {
    count()
    if (k.type === 'Case') return { ...k, then: expand(k.then) }
    const continuation = lookup(k.hash)
    if (continuation === undefined) throw new RangeError(`no continuation with hash ${k.hash} in the store`)
    return { type: 'Case', action: k.action, then: expand(continuation) }
  }
  return expand(contract)
}
