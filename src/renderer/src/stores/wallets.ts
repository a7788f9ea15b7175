/** The wallets the engine keeps, the one in use, and its balance. Keys never reach the renderer. */
import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { WalletBalance, WalletSummary } from '../../../api/contract'
import { useDesk } from '../api/desk'

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

  async function load(): Promise<void> {
    wallets.value = await desk['wallets.list']({})
    loaded.value = true
  }

  function replace(wallet: WalletSummary): WalletSummary {
    const known = wallets.value.some((w) => w.id === wallet.id)
    wallets.value = known ? wallets.value.map((w) => (w.id === wallet.id ? wallet : w)) : [...wallets.value, wallet]
    return wallet
  }

  function select(id: string): void {
    selectedId.value = id
    balance.value = undefined
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
    unlock,
    lock,
    refreshBalance,
    fund,
    requireSelected
  }
})
