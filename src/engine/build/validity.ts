/**
 * The validity interval of an apply (runtime-api.md §9.4): from the tip slot (or the given time's slot, never
 * after the tip) to the slot of the contract's next timeout (or the given time's slot, or the safe horizon).
 * The semantics run over [start of the first slot, start of the first invalid slot − 1 ms].
 */
import type { MarloweData, TimeInterval } from '../../core/marlowe/types'
import { nextTimeout } from '../../core/marlowe/timeouts'
import { engineFailure } from './build-errors'
import type { BuildContext } from './context'
import { SlotClock } from './slots'
import type { ApplyRequest } from './types'

export interface Validity {
  readonly invalidBefore: bigint
  readonly invalidHereafter: bigint
  readonly interval: TimeInterval
  readonly clock: SlotClock
}

/** Runtime's validity defaults: from the tip slot to the next timeout (or the safe horizon). */
export async function validity(ctx: BuildContext, request: ApplyRequest, datum: MarloweData): Promise<Validity> {
  const [tip, eras] = await Promise.all([ctx.provider.tip(), ctx.provider.eraSummaries()])
  const clock = new SlotClock(eras, tip.slot, ctx.safeZoneSlots)
  const invalidBefore = request.invalidBefore === undefined ? tip.slot : clock.timeToSlot(request.invalidBefore)
  if (invalidBefore > tip.slot) {
    throw engineFailure(
      'BadRequest',
      'ValidityLowerBoundTooHigh',
      `invalidBefore (slot ${invalidBefore}) is after the current tip (slot ${tip.slot})`
    )
  }
  let invalidHereafter: bigint
  if (request.invalidHereafter !== undefined) invalidHereafter = clock.timeToSlot(request.invalidHereafter)
  else {
    const timeout = nextTimeout(datum.contract, clock.slotToTime(invalidBefore))
    invalidHereafter = (timeout === undefined ? undefined : clock.slotContaining(timeout)) ?? clock.maxSafeSlot
  }
  const interval = { from: clock.slotToTime(invalidBefore), to: clock.slotToTime(invalidHereafter) - 1n }
  return { invalidBefore, invalidHereafter, interval, clock }
}
