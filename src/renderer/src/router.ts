/** The screens. Hash history: the desktop window loads the app from a file, where paths cannot change. */
import { createRouter, createWebHashHistory, type RouteRecordRaw, type Router, type RouterHistory } from 'vue-router'
import ContractDetailView from './views/ContractDetailView.vue'
import ContractsView from './views/ContractsView.vue'
import FirstRunView from './views/FirstRunView.vue'
import NewContractView from './views/NewContractView.vue'
import OfflineView from './views/OfflineView.vue'
import ReviewView from './views/ReviewView.vue'
import SettingsView from './views/SettingsView.vue'
import WalletView from './views/WalletView.vue'

export const routes: RouteRecordRaw[] = [
  { path: '/', redirect: '/wallet' },
  { path: '/welcome', name: 'welcome', component: FirstRunView },
  { path: '/wallet', name: 'wallet', component: WalletView },
  { path: '/contracts', name: 'contracts', component: ContractsView },
  { path: '/contracts/new', name: 'new-contract', component: NewContractView },
  { path: '/contracts/:contractId', name: 'contract', component: ContractDetailView, props: true },
  { path: '/review', name: 'review', component: ReviewView },
  { path: '/offline', name: 'offline', component: OfflineView },
  { path: '/settings', name: 'settings', component: SettingsView },
  { path: '/:unknown(.*)*', redirect: '/wallet' }
]

export function createDeskRouter(history: RouterHistory = createWebHashHistory()): Router {
  return createRouter({ history, routes })
}
