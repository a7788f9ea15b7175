/** The engine connection, the chain status (network, tip, the chain's clock) and the colour theme. */
import { defineStore } from 'pinia'
import { computed, ref, watchEffect } from 'vue'
import type { AppStatus } from '../../../api/contract'
import { useDesk } from '../api/desk'
import { useWalletsStore } from './wallets'

export type Connection = 'connecting' | 'ready' | 'unreachable'
export type Theme = 'system' | 'light' | 'dark'

const THEME_KEY = 'marlowe-desk.theme'

function storedTheme(): Theme {
  const value = globalThis.localStorage?.getItem(THEME_KEY)
  return value === 'light' || value === 'dark' ? value : 'system'
}

export const useAppStore = defineStore('app', () => {
  const desk = useDesk()
  const wallets = useWalletsStore()
  const connection = ref<Connection>('connecting')
  const connectionError = ref<unknown>(undefined)
  const status = ref<AppStatus | undefined>(undefined)
  const theme = ref<Theme>(storedTheme())

  const isSandbox = computed(() => status.value?.network === 'sandbox')
  /** The chain's "now" (epoch ms): deadlines are judged against it, not the wall clock. */
  const chainTime = computed(() => status.value?.chainTime ?? BigInt(Date.now()))

  /** The first calls: the chain's status and the wallets (none means the first run). */
  async function connect(): Promise<boolean> {
    connection.value = 'connecting'
    try {
      status.value = await desk['app.status']({})
      await wallets.load()
      connection.value = 'ready'
      connectionError.value = undefined
      return true
    } catch (e) {
      connectionError.value = e
      connection.value = 'unreachable'
      return false
    }
  }

  async function refreshStatus(): Promise<void> {
    status.value = await desk['app.status']({})
  }

  /** Sandbox only: moves the ledger clock to `toTime` (epoch ms). */
  async function advanceClock(toTime: bigint): Promise<void> {
    status.value = await desk['sandbox.advance']({ toTime })
  }

  function setTheme(next: Theme): void {
    theme.value = next
    if (next === 'system') globalThis.localStorage?.removeItem(THEME_KEY)
    else globalThis.localStorage?.setItem(THEME_KEY, next)
  }

  // The stylesheet follows prefers-color-scheme unless the root element names a theme.
  watchEffect(() => {
    const root = globalThis.document?.documentElement
    if (root === undefined) return
    if (theme.value === 'system') delete root.dataset['theme']
    else root.dataset['theme'] = theme.value
  })

  return {
    connection,
    connectionError,
    status,
    theme,
    isSandbox,
    chainTime,
    connect,
    refreshStatus,
    advanceClock,
    setTheme
  }
})
