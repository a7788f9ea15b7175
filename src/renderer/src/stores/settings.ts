/** The engine's settings (network and node, auto-lock, local API): loaded, saved, and a node tested. */
import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { ConnectionReport, DeskSettings, NetworkName, NodeSettings, SettingsState } from '../../../api/contract'
import { useDesk } from '../api/desk'
import { useAppStore } from './app'
import { useWalletsStore } from './wallets'

export const useSettingsStore = defineStore('settings', () => {
  const desk = useDesk()
  const app = useAppStore()
  const wallets = useWalletsStore()
  const state = ref<SettingsState | undefined>(undefined)

  async function load(): Promise<void> {
    state.value = await desk['settings.get']({})
  }

  /**
   * Saves; when the network changed, the chain's status and the wallets' addresses are read again, and the wallets
   * when the auto-lock minutes changed (the engine then locks every wallet).
   */
  async function save(settings: DeskSettings): Promise<void> {
    const before = state.value?.settings
    state.value = await desk['settings.update'](settings)
    if (settings.network !== before?.network) await Promise.all([app.refreshStatus(), wallets.load()])
    else if (settings.autoLockMinutes !== before.autoLockMinutes) await wallets.load()
  }

  function testConnection(network: NetworkName, node: NodeSettings): Promise<ConnectionReport> {
    return desk['settings.testConnection']({ network, node })
  }

  return { state, load, save, testConnection }
})
