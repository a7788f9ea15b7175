/**
 * The inputs a review could not read (a transaction reviewed without its bundle), by role, and the one phrase
 * every screen uses for them: a count of "inputs" beside a count of "spent inputs" reads as a contradiction.
 */
import type { TxReview } from './types'

export interface UnreadInputs {
  readonly spent: number
  readonly collateral: number
  readonly reference: number
}

type ReviewInputs = Pick<TxReview, 'inputs' | 'collateral' | 'referenceInputs'>

export function unreadInputs(review: ReviewInputs): UnreadInputs {
  const unread = (inputs: ReadonlyArray<{ readonly resolved: boolean }>): number =>
    inputs.filter((i) => !i.resolved).length
  return {
    spent: unread(review.inputs),
    collateral: unread(review.collateral.inputs),
    reference: unread(review.referenceInputs)
  }
}

export function unreadCount(u: UnreadInputs): number {
  return u.spent + u.collateral + u.reference
}

/** "3 spent inputs, 1 collateral input and 1 reference input"; empty when every input was read. */
export function unreadInputsText(u: UnreadInputs): string {
  const part = (n: number, kind: string): string[] => (n === 0 ? [] : [`${n} ${kind} input${n === 1 ? '' : 's'}`])
  const parts = [...part(u.spent, 'spent'), ...part(u.collateral, 'collateral'), ...part(u.reference, 'reference')]
  const last = parts.pop()
  if (last === undefined) return ''
  return parts.length === 0 ? last : `${parts.join(', ')} and ${last}`
}
