/**
 * The chain's status kept current while the app is open, so a Desk opened offline notices its node coming back
 * (and an online one its node going away) without a reload: asked every `STATUS_POLL_MS` while the window is
 * visible and at once when it becomes visible again, never two calls at a time, and no more once unmounted.
 */
import { onBeforeUnmount, onMounted } from 'vue'
import { useAppStore } from '../stores/app'

export const STATUS_POLL_MS = 10_000

export function useStatusPolling(): void {
  const app = useAppStore()
  let timer: ReturnType<typeof setInterval> | undefined
  let asking = false

  async function poll(): Promise<void> {
    if (asking || app.connection !== 'ready') return
    asking = true
    try {
      await app.refreshStatus()
    } catch {
      // The engine itself did not answer: the screens' own calls say so, and the next poll asks again.
    } finally {
      asking = false
    }
  }

  function start(): void {
    timer ??= setInterval(() => void poll(), STATUS_POLL_MS)
  }

  function stop(): void {
    if (timer !== undefined) clearInterval(timer)
    timer = undefined
  }

  function onVisibility(): void {
    if (document.visibilityState === 'hidden') return stop()
    void poll()
    start()
  }

  onMounted(() => {
    document.addEventListener('visibilitychange', onVisibility)
    if (document.visibilityState !== 'hidden') start()
  })
  onBeforeUnmount(() => {
    stop()
    document.removeEventListener('visibilitychange', onVisibility)
  })
}
