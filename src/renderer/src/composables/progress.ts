/**
 * The engine's progress while work is pending: once a call has waited `POLL_MS`, `app.progress` is polled every
 * `POLL_MS` until nothing is pending, and its stages are offered as one line of text.
 */
import { computed, onBeforeUnmount, shallowRef, watch, type ComputedRef } from 'vue'
import type { ProgressReport } from '../../../api/contract'
import { pendingCalls, useDesk } from '../api/desk'

export const POLL_MS = 300

/** "Building the transaction (2 of 3)…", several joined by "; ". */
export function progressText(reports: readonly ProgressReport[]): string {
  return reports
    .map((r) => `${r.stage}${r.steps === undefined || r.steps < 2 ? '' : ` (${r.step} of ${r.steps})`}…`)
    .join('; ')
}

export function useProgress(): { readonly text: ComputedRef<string> } {
  const desk = useDesk()
  const pending = pendingCalls(desk)
  const reports = shallowRef<readonly ProgressReport[]>([])
  let timer: ReturnType<typeof setInterval> | undefined
  // Answers of an older round of polling (after the work ended) are dropped, and polls never overlap.
  let round = 0
  let polling = false

  async function poll(mine: number): Promise<void> {
    if (polling) return
    polling = true
    try {
      const now = await desk['app.progress']({})
      if (mine === round) reports.value = now
    } catch {
      // Progress is a courtesy: the pending call itself reports any failure.
    } finally {
      polling = false
    }
  }

  function stop(): void {
    if (timer !== undefined) clearInterval(timer)
    timer = undefined
    round += 1
    reports.value = []
  }

  if (pending !== undefined) {
    watch(pending, (count) => {
      if (count === 0) stop()
      else if (timer === undefined) {
        const mine = round
        timer = setInterval(() => void poll(mine), POLL_MS)
      }
    })
  }
  onBeforeUnmount(stop)

  return { text: computed(() => progressText(reports.value)) }
}
