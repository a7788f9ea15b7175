/**
 * Deadlines already passed in a contract about to be opened: what was due before them can no longer happen, and
 * anyone may move the contract past them at once. Warned of on the template forms and on the review.
 */
import type { TxReview } from '../../../core/cardano/review'
import { decodeMarloweData } from '../../../core/marlowe/json'
import { contractTimeouts } from '../../../core/marlowe/timeouts'
import type { Contract } from '../../../core/marlowe/types'
import { toJson } from '../format/json'
import { formatTime } from '../format/time'

/** Every `When` deadline at or before `now`, earliest first, each once. */
export function passedDeadlines(contract: Contract, now: bigint): bigint[] {
  return [...contractTimeouts(contract)].filter((t) => t <= now).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

/** A sentence about the contract's passed deadlines, or undefined when none has passed. */
export function passedDeadlinesWarning(contract: Contract, now: bigint): string | undefined {
  const [first, ...more] = passedDeadlines(contract, now)
  if (first === undefined) return undefined
  return more.length === 0
    ? `A deadline of this contract has already passed (${formatTime(first)}): what is due before it can no longer be done.`
    : `${more.length + 1} deadlines of this contract have already passed, the first ${formatTime(first)}: what is ` +
        'due before them can no longer be done.'
}

/** The passed-deadline warnings of the contracts a transaction opens. */
export function reviewDeadlineWarnings(review: TxReview, now: bigint): string[] {
  return review.marlowe.created.flatMap((c) => {
    const content = review.outputs[Number(c.output)]?.datum?.content
    if (content?.type !== 'marlowe-data') return []
    const warning = passedDeadlinesWarning(decodeMarloweData(toJson(content.marlowe)).contract, now)
    return warning === undefined ? [] : [warning]
  })
}
