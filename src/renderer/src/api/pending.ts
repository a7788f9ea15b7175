/**
 * Counts the calls in flight through a transport, so the app knows when work is pending and can poll
 * `app.progress` for its stage (neither IPC nor HTTP pushes). The poll itself is not counted, or it would
 * keep itself going.
 */
import { shallowRef, type Ref } from 'vue'
import type { DeskCall, DeskTransport } from '../../../api/contract'

const UNCOUNTED: ReadonlySet<DeskCall> = new Set<DeskCall>(['app.progress'])

export interface CountedTransport {
  readonly transport: DeskTransport
  /** How many calls (other than `app.progress`) are waiting for their answer. */
  readonly pending: Readonly<Ref<number>>
}

export function countPending(inner: DeskTransport): CountedTransport {
  const pending = shallowRef(0)
  const transport: DeskTransport = {
    async call(name, requestWire) {
      if (UNCOUNTED.has(name)) return inner.call(name, requestWire)
      pending.value += 1
      try {
        return await inner.call(name, requestWire)
      } finally {
        pending.value -= 1
      }
    }
  }
  return { transport, pending }
}
