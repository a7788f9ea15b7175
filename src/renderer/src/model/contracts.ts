/**
 * View helpers over the desk's contract answers (src/api/contract.ts, already the core's Marlowe model): a list
 * row's tag names, and one entry per choice a contract accepts.
 */
import type { AwaitedAction, ChainBlock, ContractHeaderInfo, ContractListItem } from '../../../api/contract'
import type { JsonObject } from '../../../core/json/lossless'
import { choiceIdEquals } from '../../../core/marlowe/equality'
import type { CanChoose } from '../../../core/marlowe/next'

/** A row of the contracts list. */
export interface ContractSummary {
  readonly contractId: string
  readonly rolesCurrency: string
  /** unsigned, submitted or confirmed: the creating transaction's status. */
  readonly status: ContractHeaderInfo['status']
  readonly tags: readonly string[]
  readonly block?: ChainBlock
  readonly closed: boolean
  readonly nextTimeout?: bigint
  /** Listed for a wallet: what the contract waits for from it. */
  readonly awaiting?: readonly AwaitedAction[]
  /** Listed for a wallet: the parties it is in the contract (`role:<name>` or an address). */
  readonly parties?: readonly string[]
  /** POSIX ms. */
  readonly createdAt?: bigint
}

/** The tags' names (their values are not shown). */
export const tagNames = (tags: JsonObject): string[] => Object.keys(tags)

export function contractSummary({ header, ...item }: ContractListItem): ContractSummary {
  return {
    contractId: header.contractId,
    rolesCurrency: header.rolesCurrency,
    status: header.status,
    tags: tagNames(header.tags),
    ...(header.block === undefined ? {} : { block: header.block }),
    ...item
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
