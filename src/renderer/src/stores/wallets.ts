/**
 * The wallets the engine keeps, the one in use, and its balance. Keys never reach the renderer. An unlocked
 * wallet locks itself in the engine after a while without use, which no call reports: the store shows it locked
 * when its lock time comes, and whenever a call is refused because it is locked, then asks the engine again.
 */
import { defineStore } from 'pinia'
// `watch` is also this store's action for watch-only wallets.
import { computed, onScopeDispose, ref, watch as watchSource } from 'vue'
import type {
  HardwareVendor,
  PublicKeyExport,
  WalletActivityPage,
  WalletBalance,
  WalletSummary
} from '../../../api/contract'
import { useDesk } from '../api/desk'
import { isWalletLocked } from '../model/errors'

const MINUTE_MS = 60_000

/** The summary of a wallet that has just locked. */
function asLocked(wallet: WalletSummary): WalletSummary {
  const { locksAt: _passed, ...rest } = wallet
  return { ...rest, locked: true }
}

export const useWalletsStore = defineStore('wallets', () => {
  const desk = useDesk()
  const wallets = ref<readonly WalletSummary[]>([])
  const loaded = ref(false)
  const selectedId = ref<string | undefined>(undefined)
  const balance = ref<WalletBalance | undefined>(undefined)
  /**
   * The wallet just created whose recovery phrase is on screen and not yet confirmed as written down. Only its id
   * is kept here: the phrase itself stays in the component showing it. Until it is confirmed the app treats the
   * wallet as not added yet (no navigation, no wallet picker, the first-run heading unchanged).
   */
  const phrasePendingFor = ref<string | undefined>(undefined)

  const selected = computed(() => wallets.value.find((w) => w.id === selectedId.value) ?? wallets.value[0])
  /** Wallet id → name, for the review's "your wallet" labels. */
  const names = computed(() => new Map(wallets.value.map((w) => [w.id, w.name])))
  /** Payment address → wallet name, so contract parties and accounts at a wallet's address are named by it. */
  const addressNames = computed(() => new Map(wallets.value.map((w) => [w.address, w.name])))
  /** Whether a wallet other than one whose phrase is still on screen exists. */
  const hasWallet = computed(() => wallets.value.some((w) => w.id !== phrasePendingFor.value))

  /** The wall clock (epoch ms) as the lock countdown last read it; the engine locks by the same clock. */
  const now = ref(Date.now())
  let lockTimer: ReturnType<typeof setTimeout> | undefined

  async function load(): Promise<void> {
    wallets.value = await desk['wallets.list']({})
    loaded.value = true
  }

  /** Whole minutes (at least 1) until an unlocked wallet locks itself; undefined when the engine did not say. */
  function locksInMinutes(wallet: WalletSummary): number | undefined {
    if (wallet.locked || wallet.locksAt === undefined) return undefined
    return Math.max(1, Math.ceil((Number(wallet.locksAt) - now.value) / MINUTE_MS))
  }

  /** Wakes when a countdown's minute changes and when a lock time comes. */
  function scheduleLockCheck(): void {
    clearTimeout(lockTimer)
    lockTimer = undefined
    now.value = Date.now()
    const remaining = wallets.value.flatMap((w) => (w.locksAt === undefined ? [] : [Number(w.locksAt) - now.value]))
    if (remaining.length === 0) return
    lockTimer = setTimeout(checkLocks, Math.min(...remaining.map((r) => (r <= 0 ? 0 : r % MINUTE_MS || MINUTE_MS))))
  }

  function checkLocks(): void {
    const at = BigInt(Date.now())
    const due = wallets.value.filter((w) => w.locksAt !== undefined && w.locksAt <= at)
    if (due.length === 0) {
      scheduleLockCheck()
      return
    }
    showLocked(due.map((w) => w.id))
  }

  /** Shows these wallets locked at once, then reads the truth from the engine. */
  function showLocked(ids: readonly string[]): void {
    wallets.value = wallets.value.map((w) => (ids.includes(w.id) ? asLocked(w) : w))
    // A refresh that fails leaves them shown locked, which the engine's lock made true.
    load().catch(() => undefined)
  }

  /** After a call for `walletId` failed: when the engine refused it because the wallet is locked, show it so. */
  function noteFailure(walletId: string, error: unknown): void {
    if (isWalletLocked(error)) showLocked([walletId])
  }

  watchSource(wallets, scheduleLockCheck)
  onScopeDispose(() => clearTimeout(lockTimer))

  function replace(wallet: WalletSummary): WalletSummary {
    const known = wallets.value.some((w) => w.id === wallet.id)
    wallets.value = known ? wallets.value.map((w) => (w.id === wallet.id ? wallet : w)) : [...wallets.value, wallet]
    return wallet
  }

  function select(id: string): void {
    // The wallet in use chosen again (it may have been in use by default) keeps its balance: the wallet view reads
    // a balance anew only when the wallet changes.
    if (selected.value?.id !== id) balance.value = undefined
    selectedId.value = id
  }

  function added(wallet: WalletSummary): WalletSummary {
    replace(wallet)
    select(wallet.id)
    return wallet
  }

  /** Returns the recovery phrase, which the engine shows this once; the wallet waits for `phraseConfirmed`. */
  async function create(name: string, password: string, words: 12 | 15 | 24): Promise<readonly string[]> {
    const { wallet, mnemonic } = await desk['wallets.create']({ name, password, words })
    phrasePendingFor.value = wallet.id
    added(wallet)
    return mnemonic
  }

  /** The new wallet's phrase is written down (or no longer on screen): the app may move on. */
  function phraseConfirmed(): void {
    phrasePendingFor.value = undefined
  }

  async function restore(name: string, password: string, mnemonic: string): Promise<void> {
    added(await desk['wallets.restore']({ name, password, mnemonic }))
  }

  async function watch(name: string, accountKey: string): Promise<void> {
    added(await desk['wallets.watch']({ name, accountKey }))
  }

  /** A hardware wallet: the engine reads its account key from the device, once. */
  async function addHardware(name: string, vendor: HardwareVendor, accountIndex: number): Promise<void> {
    added(await desk['wallets.addHardware']({ name, vendor, accountIndex }))
  }

  function requireSelected(): WalletSummary {
    const wallet = selected.value
    if (wallet === undefined) throw new Error('No wallet is selected.')
    return wallet
  }

  async function unlock(password: string): Promise<void> {
    replace(await desk['wallets.unlock']({ walletId: requireSelected().id, password }))
  }

  async function lock(): Promise<void> {
    replace(await desk['wallets.lock']({ walletId: requireSelected().id }))
  }

  async function rename(name: string): Promise<void> {
    replace(await desk['wallets.rename']({ walletId: requireSelected().id, name }))
  }

  async function changePassword(oldPassword: string, newPassword: string): Promise<void> {
    replace(await desk['wallets.changePassword']({ walletId: requireSelected().id, oldPassword, newPassword }))
  }

  /** The wallet in use's account public key, for a watch-only copy on another computer. */
  async function exportPublic(): Promise<PublicKeyExport> {
    return desk['wallets.exportPublic']({ walletId: requireSelected().id })
  }

  /** A page of the wallet in use's transactions, newest first. */
  async function activity(offset: number, limit: number): Promise<WalletActivityPage> {
    return desk['wallets.activity']({ walletId: requireSelected().id, offset, limit })
  }

  /** Deletes the wallet in use from this computer; the next one (if any) is in use after. */
  async function remove(confirmName: string): Promise<void> {
    const { walletId } = await desk['wallets.remove']({ walletId: requireSelected().id, confirmName })
    wallets.value = wallets.value.filter((w) => w.id !== walletId)
    balance.value = undefined
    selectedId.value = undefined
  }

  async function refreshBalance(): Promise<void> {
    balance.value = await desk['wallets.balance']({ walletId: requireSelected().id })
  }

  /** Sandbox faucet; returns the funding transaction's id. */
  async function fund(ada: bigint): Promise<string> {
    const { txId } = await desk['sandbox.fund']({ walletId: requireSelected().id, ada })
    return txId
  }

  return {
    wallets,
    loaded,
    selected,
    names,
    addressNames,
    hasWallet,
    phrasePendingFor,
    balance,
    load,
    select,
    create,
    phraseConfirmed,
    restore,
    watch,
    addHardware,
    unlock,
    lock,
    rename,
    changePassword,
    exportPublic,
    activity,
    remove,
    refreshBalance,
    fund,
    requireSelected,
    locksInMinutes,
    noteFailure
  }
})
