/** One user action at a time per control: whether it runs, and its error to show (a `DeskError` or any other). */
import { ref, type Ref } from 'vue'

export interface Action {
  readonly busy: Ref<boolean>
  readonly error: Ref<unknown>
  /** Runs `work` unless it already runs; its error is kept rather than thrown. True when it succeeded. */
  run(work: () => Promise<unknown>): Promise<boolean>
}

export function useAction(): Action {
  const busy = ref(false)
  const error = ref<unknown>(undefined)
  async function run(work: () => Promise<unknown>): Promise<boolean> {
    if (busy.value) return false
    busy.value = true
    error.value = undefined
    try {
      await work()
      return true
    } catch (e) {
      error.value = e
      return false
    } finally {
      busy.value = false
    }
  }
  return { busy, error, run }
}
