/**
 * Merkleization (`Language.Marlowe.Core.V1.Merkle`): case continuations move off chain, replaced by their
 * hash, so a large contract fits in a datum. The continuations are kept in a table by hash; applying an
 * input to a merkleized case reveals its continuation (an `Input` with `merkleized`).
 */
import { merkleHash } from './plutus/hash'
import type { Case, Contract, Input, InputContent } from './types'

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

function merkleizeContract(c: Contract, table: Map<string, Contract>): Contract {
  switch (c.type) {
    case 'Close':
      return c
    case 'Pay':
    case 'Let':
    case 'Assert':
      return { ...c, then: merkleizeContract(c.then, table) }
    case 'If':
      return { ...c, then: merkleizeContract(c.then, table), else: merkleizeContract(c.else, table) }
    case 'When':
      return {
        ...c,
        cases: c.cases.map((k) => merkleizeCase(k, table)),
        timeoutContinuation: merkleizeContract(c.timeoutContinuation, table)
      }
  }
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
