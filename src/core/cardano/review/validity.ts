/** The validity interval as slots and wall-clock time, through the era summaries' slot ↔ time mapping. */
import { isoUtc } from '../../time'
import type { DecodedBody } from '../tx'
import type { SlotEra, TimePoint, ValidityView } from './types'

function slotToPosixMs(slot: bigint, eras: readonly SlotEra[]): bigint | undefined {
  for (const era of eras) {
    if (slot < era.start.slot || (era.end !== undefined && slot >= era.end.slot)) continue
    return era.start.time + (slot - era.start.slot) * era.slotLength
  }
  return undefined
}

function timePoint(slot: bigint, eras: readonly SlotEra[]): TimePoint {
  const posixMs = slotToPosixMs(slot, eras)
  if (posixMs === undefined) return { slot }
  return { slot, posixMs, utc: isoUtc(posixMs) }
}

export function validityView(body: DecodedBody, eras: readonly SlotEra[]): ValidityView {
  const start = body.validityStart === undefined ? undefined : timePoint(body.validityStart, eras)
  const end = body.ttl === undefined ? undefined : timePoint(body.ttl, eras)
  const from = start?.posixMs
  const until = end?.posixMs
  return {
    ...(start === undefined ? {} : { start }),
    ...(end === undefined ? {} : { end }),
    // The ledger hands scripts [start, end): Marlowe's closed interval ends one millisecond earlier.
    ...(from === undefined || until === undefined ? {} : { marloweInterval: { from, to: until - 1n } })
  }
}
