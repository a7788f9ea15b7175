/**
 * Slot ↔ POSIX-time conversion over the provider's era summaries, with Runtime's horizon: times past the
 * last safe slot cannot be converted (`SlotConversionFailed`). A summary without an end (the current era)
 * is bounded by `safeZoneSlots` past the tip, the window the node itself can forecast.
 */
import type { EraSummary } from '../../chain/provider'
import { engineFailure } from './build-errors'

export class SlotClock {
  /** Last slot whose start time is known for certain. */
  readonly maxSafeSlot: bigint

  constructor(
    private readonly eras: readonly EraSummary[],
    tipSlot: bigint,
    safeZoneSlots: bigint
  ) {
    const last = eras[eras.length - 1]
    if (last === undefined) throw engineFailure('Internal', 'SlotConversionFailed', 'The chain reported no eras')
    this.maxSafeSlot = last.end === undefined ? tipSlot + safeZoneSlots : last.end.slot - 1n
  }

  /** Start time (POSIX ms) of a slot. */
  slotToTime(slot: bigint): bigint {
    if (slot > this.maxSafeSlot) throw beyondHorizon(`slot ${slot}`)
    for (let i = this.eras.length - 1; i >= 0; i -= 1) {
      const era = this.eras[i]!
      if (slot >= era.start.slot) return era.start.time + (slot - era.start.slot) * era.slotLength
    }
    throw beyondHorizon(`slot ${slot}`)
  }

  /** The slot containing a time (POSIX ms), or undefined past the horizon. */
  slotContaining(time: bigint): bigint | undefined {
    for (let i = this.eras.length - 1; i >= 0; i -= 1) {
      const era = this.eras[i]!
      if (time >= era.start.time) {
        const slot = era.start.slot + (time - era.start.time) / era.slotLength
        return slot > this.maxSafeSlot ? undefined : slot
      }
    }
    return undefined
  }

  /** The slot containing a time (POSIX ms). */
  timeToSlot(time: bigint): bigint {
    const slot = this.slotContaining(time)
    if (slot === undefined) throw beyondHorizon(`time ${time}`)
    return slot
  }
}

function beyondHorizon(what: string): Error {
  return engineFailure('BadRequest', 'SlotConversionFailed', `Cannot convert ${what}: it is outside the era horizon`)
}
