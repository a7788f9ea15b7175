/**
 * Focus when the screen changes: the new screen's heading takes it, so a screen reader announces the screen and
 * Tab goes on from there rather than from a link that is gone. A screen still loading holds the focus on the main
 * region until its heading appears.
 */
import { onBeforeUnmount, watch, type ShallowRef } from 'vue'
import { useRoute } from 'vue-router'

/** Focuses the region's first h1 (made focusable by script only); false when it has none yet. */
function focusHeading(region: HTMLElement): boolean {
  const heading = region.querySelector('h1')
  if (heading === null) return false
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1')
  heading.focus()
  return true
}

export function useRouteFocus(main: Readonly<ShallowRef<HTMLElement | null>>): void {
  const route = useRoute()
  let waiting: MutationObserver | undefined

  function stopWaiting(): void {
    waiting?.disconnect()
    waiting = undefined
  }

  watch(
    () => route.path,
    () => {
      stopWaiting()
      const region = main.value
      if (region === null || focusHeading(region)) return
      region.focus()
      waiting = new MutationObserver(() => {
        // Once the user has moved the focus, it stays where they put it.
        if (region.ownerDocument.activeElement !== region || focusHeading(region)) stopWaiting()
      })
      waiting.observe(region, { childList: true, subtree: true })
    },
    { flush: 'post' }
  )
  onBeforeUnmount(stopWaiting)
}
